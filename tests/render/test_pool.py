"""Rendering in worker processes: the same bytes as in this process, two at once, and a thread when
processes cannot run."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import threading
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

import engine.host.workers as workers_module
import render.animation as render_animation
import render.pool as render_pool
from data.store import SqliteMatchStore
from engine.host.ports import Player
from engine.host.service import GameHost
from engine.host.workers import configured_workers
from render.animation import animate_match, looked_at
from render.animation import drawn as drawn_board
from render.ny_piatnik import PrivateView
from render.pool import BACKOFF_FIRST, WORKERS_VARIABLE, AnimationPool, DrawingStopped, RenderPool
from render.registry import render_view
from tests.host.test_workers import VirtualTime
from tests.render.test_speed_paths import sample_views

ANN = Player(user_id=101, name="ann")


async def test_workers_draw_the_same_bytes_as_this_process_two_at_once() -> None:
    jobs: list[tuple[str, Any, list[str], str, Any]] = []
    for slug in ("skyline", "ny_henn", "fifth_avenue"):
        views, names = sample_views(slug)
        jobs.extend((slug, view, names, locale, since) for view, locale, since in views[-3:])
    pool = RenderPool(2)
    try:
        drawn = await asyncio.gather(*(pool.render(*job) for job in jobs))
        again = await asyncio.gather(*(pool.render(*job) for job in jobs))
        assert pool.ran_in_processes == 2 * len(jobs) and pool.ran_in_threads == 0
        assert pool._executor is not None and len(pool._executor._processes) == 2  # both workers drew
    finally:
        await pool.close()
    assert drawn == again == [render_view(*job) for job in jobs]


async def test_a_pool_that_cannot_start_renders_in_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("no processes here")

    monkeypatch.setattr(workers_module, "ProcessPoolExecutor", refuse)
    views, names = sample_views("ny_piatnik")
    view, locale, since = views[-1]
    pool = RenderPool(2)
    assert await pool.render("ny_piatnik", view, names, locale, since) == render_view(
        "ny_piatnik", view, names, locale, since
    )
    assert not pool.uses_processes and pool.ran_in_threads == 1
    await pool.close()


async def test_a_broken_pool_is_replaced_and_the_image_drawn_in_the_new_one() -> None:
    views, names = sample_views("ny_piatnik")
    view, locale, since = views[-1]
    expected = render_view("ny_piatnik", view, names, locale, since)
    pool = RenderPool(1)
    time = VirtualTime()
    pool._clock, pool._pause = time.clock, time.pause
    try:
        assert await pool.render("ny_piatnik", view, names, locale, since) == expected
        assert pool._executor is not None
        for process in list(pool._executor._processes.values()):
            process.kill()  # a worker dies (out of memory, say)
            process.join()
        # Three images asked for at once from the broken pool: all drawn in the new pool, once it has
        # started, the failure counted once.
        drawn = await asyncio.gather(
            *(pool.render("ny_piatnik", view, names, locale, since) for _ in range(3))
        )
        assert drawn == [expected] * 3 and time.pauses
        assert pool.failures == 1 and pool.ran_in_threads == 0 and pool.uses_processes
        assert await pool.render("ny_piatnik", view, names, locale, since) == expected
        assert pool._executor is not None and pool.ran_in_processes >= 2
    finally:
        await pool.close()


async def test_zero_workers_render_in_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BIGAPPLE_RENDER_WORKERS", "0")
    pool = RenderPool()
    assert pool.workers == 0 and not pool.uses_processes
    views, names = sample_views("skyline")
    view, locale, since = views[0]
    assert await pool.render("skyline", view, names, locale, since) == render_view(
        "skyline", view, names, locale, since
    )
    await pool.close()


def test_the_pool_is_sized_to_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BIGAPPLE_RENDER_WORKERS", raising=False)
    assert configured_workers(WORKERS_VARIABLE) == workers_module.cores() >= 1
    assert configured_workers(WORKERS_VARIABLE, 3) == 3
    monkeypatch.setenv("BIGAPPLE_RENDER_WORKERS", "not a number")
    assert configured_workers(WORKERS_VARIABLE) == workers_module.cores()


async def test_an_animation_waits_while_an_image_someone_waits_for_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A board asked for meanwhile is drawn before any more of the animation: the animation goes on,
    a board at a time, once no such image is being drawn."""
    views, names = sample_views("ny_piatnik")
    boards = [view for view, _, since in views if since is None and not isinstance(view, PrivateView)]
    drawing = threading.Event()
    drawn = threading.Event()
    animated: list[Any] = []

    def held_render(*args: Any) -> bytes | None:
        drawing.set()
        drawn.wait(timeout=30)
        return render_view(*args)

    def counted(game: str, view: Any, names: Any = ()) -> Any:
        animated.append(view)
        return drawn_board(game, view, names)

    monkeypatch.setattr(render_pool, "render_view", held_render)
    monkeypatch.setattr(render_animation, "drawn", counted)
    pool = RenderPool(0)  # in a thread, where the test can hold the drawing of the board
    board = asyncio.create_task(pool.render("ny_piatnik", boards[-1], names))
    while not drawing.is_set():
        await asyncio.sleep(0)
    animation = asyncio.create_task(pool.animation("ny_piatnik", [(v, True) for v in boards], names))
    for _ in range(50):
        await asyncio.sleep(0)  # ample turns of the loop to start drawing the animation, if it would
    assert pool.ran_in_threads == 1 and not animation.done() and not animated
    drawn.set()
    assert (await board) is not None
    made = await animation
    assert made.gif.startswith(b"GIF") and made.frames == len(boards)
    # Its palette's boards, then every board once.
    assert len(animated) == len(looked_at(boards)) + len(boards)
    await pool.close()


async def test_a_match_is_animated_in_a_process_of_its_own_at_the_lowest_priority(tmp_path: Path) -> None:
    """Replayed and drawn there, not in the render processes, where it would hold up the boards players
    wait for: the same GIF as drawn here."""
    store = await SqliteMatchStore.open(tmp_path / "matches.db")
    try:
        host = GameHost(store)
        match = await host.create_match("ny_piatnik", 2, creator=ANN, seed=5)
        await host.add_computer(match.id, "greedy")
        match = (await host.start(match.id, by_user=ANN.user_id)).match
        for _ in range(4):
            notation = host.legal_notations(match, match.seat_of(ANN.user_id or 0) or 0)[0]
            match = (await host.act(match.id, ANN.user_id or 0, notation)).match
        kept = await store.kept_actions(match.id)
    finally:
        await store.close()
    pool = RenderPool(1)
    try:
        gif = await pool.animate_match(match, kept)
        assert pool.animations.ran_in_processes == 1 and pool.ran_in_processes == pool.ran_in_threads == 0
        if hasattr(os, "nice"):
            assert await pool.animations.run(os.nice, 0) == 19
        if hasattr(os, "SCHED_IDLE"):
            assert await pool.animations.run(os.sched_getscheduler, 0) == os.SCHED_IDLE
    finally:
        await pool.close()
    assert gif == animate_match(match, kept, match.seat_names())
    with cast(GifImageFile, Image.open(io.BytesIO(gif.gif))) as image:
        assert image.format == "GIF" and image.n_frames == len(kept) + 1


async def started(pool: AnimationPool) -> int:
    """The id of ``pool``'s process, once it has started and answered."""
    pid = await pool.run(os.getpid)
    assert pid != os.getpid()
    return pid


@pytest.mark.skipif(not hasattr(signal, "pause"), reason="a job that waits for ever needs signal.pause")
async def test_an_animation_whose_process_dies_fails_and_a_new_process_takes_the_next_after_a_pause() -> None:
    """Never again in the bot's own process (where a drawing that made its process run out of memory
    would take the bot down with it): the job fails, and the process is replaced, after a pause that
    doubles with each death in a row."""
    now = [1000.0]
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)
        now[0] += seconds

    pool = AnimationPool(1, clock=lambda: now[0], sleep=pause)
    try:
        pid = await started(pool)
        for deaths in (1, 2):
            job = asyncio.create_task(pool.run(signal.pause))  # a job that would never end by itself
            while pool._executor is None or not pool._executor._processes:
                await asyncio.sleep(0)  # the job is handed to a process (a new one after a death)
            pid = next(iter(pool._executor._processes))
            os.kill(pid, signal.SIGKILL)  # the process dies (out of memory, say)
            with pytest.raises(DrawingStopped, match="died"):
                await job
            assert pool.deaths == deaths and pool.ran_in_processes == 1
        assert pauses == [BACKOFF_FIRST]  # before the second process; the third starts below
        replaced = await started(pool)
        assert replaced != pid and pauses == [BACKOFF_FIRST, 2 * BACKOFF_FIRST]
        assert pool.deaths == 0 and pool.ran_in_processes == 2  # a job done: the next death pauses 5 s
    finally:
        await pool.close()


@pytest.mark.skipif(not hasattr(signal, "pause"), reason="a job that waits for ever needs signal.pause")
async def test_closing_ends_the_animation_being_drawn_instead_of_waiting_for_it() -> None:
    pool = RenderPool(1)
    pid = await started(pool.animations)
    job = asyncio.create_task(pool.animations.run(signal.pause))  # an animation that never ends
    await asyncio.wait_for(pool.close(), timeout=60)  # a guard: it returns, though the job never ends
    with pytest.raises(DrawingStopped, match="stopped"):
        await job
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the process is gone
    with pytest.raises(DrawingStopped):
        await pool.animations.run(os.getpid)  # and none starts again once closed
