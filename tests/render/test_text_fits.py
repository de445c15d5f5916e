"""Every text on every board and hand is whole and large enough to read on a phone.

Boards and hands are drawn live and finished, in both languages, for players with the longest names a
lobby takes (Discord display names: 32 characters) and computer players ("Carol (computer)"). While
drawing, the canvas records each text: the smallest font, every text cut short, every line whose names
were shortened and every text running past the edge. None may be cut; a name may be shortened only by
the rule that keeps what it says (its first letters, its "(computer)", every figure on the line).
"""

from __future__ import annotations

import io
import re
from functools import cache
from typing import Any

import pytest
from PIL import Image

from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES
from render.canvas import TextLog, recording
from render.registry import render_view

# Discord's display names are at most 32 characters; "W" and "M" are the widest letters of the font.
LONGEST = "W" * 32
NAMES = (LONGEST, "Carol (computer)", "M" * 32, "Vanderbilt (computer)")
FIGURE = re.compile(r"\d+")
KIND = re.compile(r"\([^()]*\)")


def drawn(slug: str, view: Any, names: tuple[str, ...], locale: str) -> tuple[TextLog, int]:
    """What ``view`` drew (the record of its texts) and the width of its image in pixels."""
    with recording() as log:
        png = render_view(slug, view, names, locale)
    assert png is not None
    with Image.open(io.BytesIO(png)) as image:
        return log, image.width


@cache  # the same matches serve several tests
def stages(slug: str, seed: int) -> tuple[Any, list[tuple[str, Any]], Any]:
    """A greedy match of ``slug`` at up to four seats: its rules, states along it and its outcome."""
    rules = GAMES[slug]
    seats = max(n for n in rules.seat_counts if n <= 4)
    states: list[Any] = []
    result = play_match(rules, seats, seed, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append)
    assert result.outcome is not None
    picked = [
        ("start", states[0]),
        ("early", states[len(states) // 4]),
        ("middle", states[len(states) // 2]),
        ("late", states[-2]),
        ("final", result.state),
    ]
    return rules, picked, result.outcome


def assert_readable(log: TextLog, width: int, where: str) -> None:
    assert log.drawn, where
    # The smallest text is at least a fiftieth of the image's width: 8 px on a phone 400 px wide.
    assert log.smallest * 50 >= width - 0.5, (where, log.smallest, width)
    assert not log.cut, (where, log.cut)
    assert not log.overflowing, (where, log.overflowing)
    for whole, kept in log.shortened:
        # The rule: the line keeps every figure (prices, points, counts) and every part in brackets
        # ("(computer)", a colour), and shortens names with an ellipsis after their first letters.
        assert FIGURE.findall(kept) == FIGURE.findall(whole), (where, whole, kept)
        assert KIND.findall(kept) == KIND.findall(whole), (where, whole, kept)
        assert "…" in kept and len(kept) < len(whole), (where, whole, kept)


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("seed", [3, 8])
def test_no_text_is_cut_or_too_small_on_boards_and_hands(slug: str, seed: int) -> None:
    rules, picked, outcome = stages(slug, seed)
    names = NAMES[: len(outcome.places)]
    shortened = 0
    # A second match adds other positions in the middle and at the end.
    for stage, state in picked if seed == 3 else picked[2::2]:
        for locale in ("en", "it"):
            for seat in (None, *range(len(names))):
                log, width = drawn(slug, rules.view(state, seat), names, locale)
                assert_readable(log, width, f"{slug} {stage} {locale} seat {seat}")
                shortened += len(log.shortened)
    # The 32-letter names do not fit everywhere: the rule was put to work, not only passed by.
    assert shortened > 0


def test_a_name_that_fits_is_never_shortened() -> None:
    rules, picked, _ = stages("skyline", 3)
    for _, state in picked:
        log, width = drawn("skyline", rules.view(state, None), ("Ann", "Bob", "Carol (computer)"), "it")
        assert_readable(log, width, "skyline short names")
        assert not log.shortened


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_finished_board_names_the_winner(slug: str) -> None:
    rules, picked, outcome = stages(slug, 3)
    names = ("Ann", "Bob", "Carol (computer)", "Dan")[: len(outcome.places)]
    first = [names[seat] for seat, place in enumerate(outcome.places) if place == 1]
    for locale, said in (("en", "wins"), ("it", "vince")):
        log, _ = drawn(slug, rules.view(picked[-1][1], None), names, locale)
        lines = [line for line in log.drawn if all(name in line for name in first)]
        assert any(said in line or "pari merito" in line or "tie" in line for line in lines), (
            slug,
            locale,
            log.drawn[:6],
        )


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_live_board_says_whose_turn_it_is(slug: str) -> None:
    rules, picked, _ = stages(slug, 3)
    names = ("Ann", "Bob", "Carol (computer)", "Dan")
    for _, state in picked[1:-1]:
        for locale, said in (("en", "to act"), ("it", "di turno")):
            log, _ = drawn(slug, rules.view(state, None), names, locale)
            header = [line for line in log.drawn[:4] if said in line.lower()]
            assert header and any(name in header[0] for name in names), (slug, locale, log.drawn[:4])


def test_a_finished_fifth_avenue_board_has_no_live_lines() -> None:
    rules, picked, _ = stages("fifth_avenue", 3)
    names = ("Ann", "Bob", "Carol (computer)", "Dan")
    live = [drawn("fifth_avenue", rules.view(state, None), names, "en")[0] for _, state in picked[1:-1]]
    final, _ = drawn("fifth_avenue", rules.view(picked[-1][1], None), names, "en")
    for line in ("on offer", "to act", "Actions: A take buildings"):
        assert any(line in said for log in live for said in log.drawn), line
        assert not any(line in said for said in final.drawn), line
    hand, _ = drawn("fifth_avenue", rules.view(picked[-1][1], 0), names, "en")
    assert not any("May bid with" in said for said in hand.drawn)


def test_a_finished_skyline_hand_claims_nothing_now() -> None:
    rules, picked, _ = stages("skyline", 3)
    names = ("Ann", "Bob", "Carol (computer)", "Dan")
    for seat in range(4):
        log, _ = drawn("skyline", rules.view(picked[-1][1], seat), names, "en")
        assert not any("claimable now" in said for said in log.drawn)
