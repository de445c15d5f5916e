"""Rendering off the event loop: worker processes, one per core, so that boards render side by side
(see ``engine.host.workers``); the picture is the same byte for byte in a process or a thread."""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import time
from collections.abc import Awaitable, Callable, Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from pydantic import BaseModel

import lang
from engine.core.replay import LoggedAction
from engine.host.ports import MatchRecord
from engine.host.workers import WorkerPool, lowest_priority
from render import canvas
from render.animation import MAX_BYTES, Animation, animate_match, board_drawing, match_drawing
from render.registry import RENDERERS, render_view
from render.replay import ReplayStep, replay_step
from render.since import Since

# How many processes render when nothing says otherwise; 0 renders in a thread.
WORKERS_VARIABLE = "BIGAPPLE_RENDER_WORKERS"
# The pause before a new animation process replaces one that died, doubled for each death in a row.
BACKOFF_FIRST = 5.0
BACKOFF_MOST = 600.0

T = TypeVar("T")

log = logging.getLogger(__name__)


def warm() -> None:
    """Run in each new worker before its first job: importing this module (to find this function) has
    loaded every renderer; the two fonts are opened here too. All that lives as long as the worker, so
    it is set aside from the collector, whose full collections would otherwise scan it again each time."""
    canvas.font(18)
    canvas.font(18, bold=True)
    gc.collect()
    gc.freeze()


def warm_for_animations() -> None:
    """``warm`` for the process that draws finished matches' animations, which runs at the lowest
    priority: an animation is a second or more of drawing that nobody waits for, so the boards that
    players wait for always come first."""
    lowest_priority()
    warm()


class DrawingStopped(RuntimeError):
    """The animation process stopped (it died, or the bot is stopping) before the animation was drawn."""


class AnimationPool:
    """One process at the lowest priority (none when the boards render in a thread) that draws whole
    animations, and only there: a job whose process dies fails with ``DrawingStopped`` rather than run
    again in the bot's own process, and the next job starts a new process, after a pause that doubles
    with each death in a row (from BACKOFF_FIRST to BACKOFF_MOST seconds). ``close`` ends the process at
    once, whatever it is drawing."""

    what = "animation"

    def __init__(
        self,
        workers: int,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.workers = min(1, workers)
        self._clock = clock
        self._sleep = sleep
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False
        self._restart_at = 0.0
        self.deaths = 0  # in a row; a finished job starts the count again
        self.ran_in_processes = 0

    @property
    def uses_processes(self) -> bool:
        """Whether animations are drawn in a process (else a board at a time in a thread, by choice)."""
        return self.workers > 0

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the animation process. Raises ``DrawingStopped`` when the process cannot
        start, dies on the job, or is ended by ``close``; an error of the job itself as the job raised
        it."""
        if self._closed or not self.uses_processes:
            raise DrawingStopped("animations are not drawn in a process here")
        wait = self._restart_at - self._clock()
        if wait > 0:
            await self._sleep(wait)
            if self._closed:
                raise DrawingStopped("the bot stopped before the animation was drawn")
        try:
            executor = self._start()
            future: Future[T] = executor.submit(fn, *args)
        except (OSError, RuntimeError, ValueError, NotImplementedError) as exc:
            self._died(exc, None)
            raise DrawingStopped(f"the animation process could not start ({exc})") from exc
        try:
            result = await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            if future.cancelled():  # ended by ``close`` before the process took it
                raise DrawingStopped("the bot stopped before the animation was drawn") from None
            raise
        except BrokenProcessPool as exc:
            if self._closed:
                raise DrawingStopped("the bot stopped while the animation was drawn") from exc
            self._died(exc, executor)
            raise DrawingStopped("the animation process died while drawing") from exc
        self.deaths = 0
        self.ran_in_processes += 1
        return result

    def _start(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=warm_for_animations,
            )
        return self._executor

    def _died(self, problem: BaseException, executor: ProcessPoolExecutor | None) -> None:
        if executor is not None and executor is not self._executor:
            return  # that process was replaced already
        self.deaths += 1
        pause = min(BACKOFF_MOST, BACKOFF_FIRST * 2 ** (self.deaths - 1))
        self._restart_at = self._clock() + pause
        dropped, self._executor = self._executor, None
        if dropped is not None:
            dropped.shutdown(wait=False, cancel_futures=True)
        log.warning(
            "the animation process failed (%s: %s); a new one starts in %.0f s, for the next animation",
            type(problem).__name__,
            problem,
            pause,
        )

    async def close(self) -> None:
        """End the animation process now: what it was drawing is abandoned (see ``DrawingStopped``)."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # The executor has no way to end a job that runs; its process is ended instead.
        processes = list((executor._processes or {}).values())
        for process in processes:
            process.kill()
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            await asyncio.to_thread(process.join)


class RenderPool(WorkerPool):
    """Where a bot's images are rendered: ``workers`` processes (None: ``BIGAPPLE_RENDER_WORKERS``, else
    one per core), or a thread when that is 0 or processes cannot run; animations in ``animations``.
    Call ``close`` when the bot stops."""

    variable = WORKERS_VARIABLE
    what = "render"

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers, initializer=warm)
        self.animations = AnimationPool(self.workers)
        self._waited_for = 0  # images someone waits for, asked for and not yet drawn
        self._nobody_waits = asyncio.Event()
        self._nobody_waits.set()

    async def render(
        self,
        game: str,
        view: BaseModel,
        names: Sequence[str] = (),
        locale: str = lang.DEFAULT,
        since: Since | None = None,
    ) -> bytes | None:
        """``render_view(game, view, names, locale, since)`` without holding up the event loop."""
        self._waited_for += 1
        self._nobody_waits.clear()
        try:
            return await self.run(render_view, game, view, tuple(names), locale, since)
        finally:
            self._waited_for -= 1
            if not self._waited_for:
                self._nobody_waits.set()

    async def replay_step(
        self,
        match: MatchRecord,
        kept: Sequence[tuple[int, LoggedAction]],
        move: int,
        seat: int | None,
        locale: str = lang.DEFAULT,
    ) -> ReplayStep:
        """``render.replay.replay_step`` without holding up the event loop: replayed and drawn where the
        boards are, as a board someone waits for."""
        self._waited_for += 1
        self._nobody_waits.clear()
        try:
            return await self.run(replay_step, match, list(kept), move, seat, match.seat_names(), locale)
        finally:
            self._waited_for -= 1
            if not self._waited_for:
                self._nobody_waits.set()

    async def close(self) -> None:
        """Stop the animation process at once and the render processes once they finish the images
        they draw (a board each)."""
        await self.animations.close()
        await super().close()

    async def animate_match(
        self, match: MatchRecord, kept: Sequence[tuple[int, LoggedAction]], max_bytes: int = MAX_BYTES
    ) -> Animation:
        """The animation of ``match`` from its kept log (see ``render.animation.animate_match``), drawn
        so that it hardly delays the boards players wait for: in the animation process, at the lowest
        priority, which replays the match too, so that the bot's own process only reads the log; only
        when the bot renders in a thread by choice, a board at a time between the other images (see
        ``animation``). Raises ``CorruptRecord`` when the log cannot be replayed, ``DrawingStopped``
        when the process stops first, and as ``render.animation.drawing``."""
        names = match.seat_names()
        if self.animations.uses_processes:
            return await self.animations.run(animate_match, match, list(kept), names, max_bytes)
        return await self._stepped(match_drawing(match, list(kept), names, max_bytes))

    async def animation(
        self, game: str, frames: Sequence[tuple[BaseModel, bool]], names: Sequence[str]
    ) -> Animation:
        """The animation of ``frames`` (a view and whether its move ended a turn, in order; see
        ``render.animation``), drawn here a board at a time, each only while no image that someone is
        waiting for is being drawn (at 24 moves/s, one drawn alongside the moves took their p95 from
        about 80 to 250 ms; drawn between them, to 115-150 ms); under a load that never eases it waits.
        Raises as ``render.animation.drawing``, and ``ValueError`` for a game without boards."""
        if game not in RENDERERS or not frames:
            raise ValueError(f"there is no board of {game} to animate")
        return await self._stepped(board_drawing(game, list(frames), tuple(names)))

    async def _stepped(self, steps: Generator[None, None, Animation]) -> Animation:
        """Run ``steps`` a board at a time while nobody waits for an image; cancelled, it stops after
        the board being drawn."""
        while True:
            await self._nobody_waits.wait()
            done = await asyncio.to_thread(_next_step, steps)
            if done is not None:
                return done


def _next_step(steps: Generator[None, None, Animation]) -> Animation | None:
    """The next board of ``steps``; the animation once it is finished."""
    try:
        next(steps)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    return None
