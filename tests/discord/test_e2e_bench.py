"""``e2e_ms`` of ``bench``: typed moves timed to their board posts, for every game."""

from __future__ import annotations

import statistics
import time

from engine.registry import GAMES
from tests.discord.e2e_bench import RenderWatch, _posted, measure_e2e
from tests.discord.models import PUBLIC_THREAD, FakeChannel, FakeMessage, FakeUser


def _post(thread: FakeChannel, *custom_ids: str) -> FakeMessage:
    row = {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": c} for c in custom_ids]}
    message = FakeMessage(len(thread.messages) + 1, thread, FakeUser(99, "bot", bot=True), components=[row])
    thread.messages.append(message)
    return message


def test_a_post_counts_only_with_the_play_button_of_its_match_and_version() -> None:
    thread = FakeChannel(1, PUBLIC_THREAD)
    # Match 3's hand button ends in ":3": it says nothing of the board's version 3.
    _post(thread, "ba:play:3:2", "ba:hand:3")
    assert not _posted(thread, 3, 3)
    assert not _posted(thread, 4, 2)
    _post(thread, "ba:play:3:3", "ba:hand:3")
    assert _posted(thread, 3, 3)


def nearest_rank(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def test_every_game_is_timed_and_the_figures_come_from_its_samples() -> None:
    games = sorted(GAMES)
    figures = await measure_e2e(moves=2 * len(games), games=games)
    samples = figures.pop("samples")
    assert set(figures) == {"p50", "p95", "render_share", "games"}
    assert set(figures["games"]) == set(samples) == set(games)
    for game in games:
        mine = samples[game]
        assert len(mine) == 2 and all(sample > 0 for sample in mine), game
        assert figures["games"][game] == {
            "p50": round(statistics.median(mine), 2),
            "p95": round(nearest_rank(mine, 0.95), 2),
        }
    every = [sample for game in games for sample in samples[game]]
    assert figures["p50"] == round(statistics.median(every), 2)
    assert figures["p95"] == round(nearest_rank(every, 0.95), 2)
    assert 0 < figures["render_share"] < 1


def test_images_drawn_side_by_side_count_once_in_the_render_time() -> None:
    watch = RenderWatch()
    watch.reset()
    start = time.perf_counter()
    watch.began()  # the board
    watch.began()  # a hand, at the same time
    watch.ended()
    watch.ended()
    elapsed = time.perf_counter() - start
    assert 0 < watch.busy() <= elapsed
    watch.began()
    assert watch.busy() <= time.perf_counter() - start  # one still drawing counts up to now
    # A new move: the image still being drawn counts from the reset on, not from when it began.
    before_reset = time.perf_counter()
    watch.reset()
    assert 0 <= watch.busy() <= time.perf_counter() - before_reset


async def test_a_late_run_takes_one_move_per_game() -> None:
    figures = await measure_e2e(moves=20, games=["ny_piatnik", "skyline"], seconds=0.0)
    assert {game: len(samples) for game, samples in figures["samples"].items()} == {
        "ny_piatnik": 1,
        "skyline": 1,
    }
    assert set(figures["games"]) == {"ny_piatnik", "skyline"}
