"""The line a finished board leads with names the winner, or those tied for first place."""

from __future__ import annotations

from render.canvas import recording, text_width
from render.result import fitted_result_line, result_line
from render.standings import render_standings


def test_one_winner_is_named_in_the_readers_language() -> None:
    names = ["Ann", "Bob", "Carol (computer)"]
    assert result_line((2, 1, 3), names, "en") == "Game over: Bob wins"
    assert result_line((2, 1, 3), names, "it") == "Partita finita: vince Bob"


def test_a_tie_for_first_place_names_everybody_in_it() -> None:
    names = ["Ann", "Bob", "Carol (computer)", "Dan"]
    assert result_line((1, 3, 1, 1), names, "en") == (
        "Game over: tie for first place between Ann, Carol (computer) and Dan"
    )
    assert (
        result_line((1, 1, 3, 4), names, "it") == "Partita finita: pari merito al primo posto tra Ann e Bob"
    )


def test_without_places_the_line_only_says_the_game_is_over() -> None:
    assert result_line((), ["Ann"], "it") == "Partita finita"


def test_long_names_are_shortened_to_keep_the_line_on_one_line() -> None:
    names = ["W" * 32, "Carol (computer)"]
    with recording() as log:
        line = fitted_result_line((1, 1), names, "en", 22, 900)
    assert text_width(line, 22, True) <= 900
    assert line.startswith("Game over: tie for first place between W") and "… and C" in line
    assert line.endswith("(computer)") and len(log.shortened) == 1


def test_a_long_name_in_the_standings_keeps_its_note_and_its_kind() -> None:
    rows = [(1, "W" * 32 + " (computer)", 3.0, 250, 1.5, "withdrew"), (2, "Ann", 2.0, 200, 1.0, "")]
    with recording() as log:
        render_standings("Spring cup", "Round 3 of 3", rows)
    assert not log.cut and not log.overflowing and len(log.shortened) == 1
    assert [kept for _, kept in log.shortened] == [
        line for line in log.drawn if line.startswith("W") and line.endswith("… (computer) (withdrew)")
    ]
    assert "Ann" in log.drawn
