"""The render figures of ``bench``: public boards against a blank canvas of the same size."""

from __future__ import annotations

from typing import Any

from bench import render as render_bench
from bench.render import measure_render, spread, time_boards
from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES


def test_spread_keeps_the_first_and_last_and_at_most_the_count() -> None:
    assert spread(list(range(5)), 10) == list(range(5))
    picked = spread(list(range(100)), 7)
    assert len(picked) == 7 and picked[0] == 0 and picked[-1] == 99 and picked == sorted(picked)


def test_boards_are_timed_against_a_floor_of_their_size() -> None:
    rules = GAMES["ny_piatnik"]
    states: list[Any] = []
    play_match(rules, 3, 1, frozenset(), [POLICIES["ny_piatnik"]["greedy"]], on_state=states.append)
    boards = [rules.view(state, None) for state in states]
    timings = time_boards("ny_piatnik", boards, ["a", "b", "c"], samples=4)
    assert len(timings.board_ms) == len(timings.floor_ms) == len(timings.png_bytes) == 4
    assert all(ms > 0 for ms in timings.board_ms + timings.floor_ms)
    figures = measure_render("ny_piatnik", boards, ["a", "b", "c"], samples=4)
    assert figures is not None and set(figures) == {"render_ms", "render_floor_ratio", "png_bytes"}
    assert figures["render_floor_ratio"] > 0 and figures["render_ms"]["p50"] <= figures["render_ms"]["p95"]
    assert measure_render("chess", boards) is None


def test_each_board_is_timed_after_the_board_of_the_move_before_it(monkeypatch: Any) -> None:
    """As in a thread, where the board before was drawn moments earlier (see ``time_boards``)."""
    rules = GAMES["ny_piatnik"]
    states: list[Any] = []
    play_match(rules, 3, 1, frozenset(), [POLICIES["ny_piatnik"]["greedy"]], on_state=states.append)
    boards = [rules.view(state, None) for state in states]
    drawn: list[int] = []
    original = render_bench.render_view

    def recorded(game: str, view: Any, *args: Any) -> bytes | None:
        drawn.append(next(n for n, board in enumerate(boards) if board is view))
        return original(game, view, *args)

    monkeypatch.setattr(render_bench, "render_view", recorded)
    time_boards("ny_piatnik", boards, ["a", "b", "c"], samples=3)
    last = len(boards) - 1
    middle = round(last / 2)
    # The first board is drawn once more as a warm-up; it has no move before it.
    assert drawn == [0, 0, middle - 1, middle, last - 1, last]
