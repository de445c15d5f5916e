"""A whole three-person match of every game, played through the menus only, as the table sees it: one
post and one mention per turn, controls only on the latest post, menus that carry on through a turn,
turns started from the direct message, and recaps that name the moves since a player's last turn."""

from __future__ import annotations

import pytest

from engine.registry import GAMES
from tests.discord.turns_bench import measure_turns

# Each seat moves more than once per turn somewhere in every game, and more than a full match never
# takes this many moves.
MAX_MOVES = 2000
PATIENCE_S = 30.0


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_match_through_the_menus(game: str) -> None:
    # What a whole match costs in posts, calls and taps is counted here; how soon each press is answered
    # has tests of its own (``test_bigapple``, the e2e bench), so one slow moment of a busy machine over
    # hundreds of presses may wait past Discord's three seconds without failing this count.
    played = await measure_turns(game, max_moves=MAX_MOVES, bob_by_dm=True, patience=PATIENCE_S)
    checks = played["checks"]
    assert checks["finished"], "the match did not reach its end"
    # A post per turn: only simultaneous decisions may add one. Every post mentions once, except the
    # turns of Bob, who is told by direct message (the last post mentions everyone).
    assert played["turns"] <= checks["thread_posts"] <= 1.2 * played["turns"] + 1
    assert 0 <= checks["mentions"] + checks["dm_turns"] - checks["thread_posts"] <= 2
    assert checks["bob_pinged"] == 0
    # One call a turn: a mention, or Bob's direct message; the final post calls everyone once more
    # (the first names everyone but calls only who is to act), and a hand that changes is an edit or
    # a silent message.
    for person, calls in checks["calls"].items():
        assert calls <= checks["person_turns"][person] + 1, (person, calls, checks["person_turns"][person])
    # A hand lives in one message, edited as it changes: a new one comes only with a call to play.
    for person, count in checks["new_dms"].items():
        assert count <= checks["person_turns"][person] + 1, (person, count)
    assert checks["stale_controls"] == 0
    assert checks["repeated_uploads"] == 0, "an image that had not changed was uploaded again"
    assert checks["carried_steps"] > 0, "no turn had a second step on the same menu"
    assert checks["dm_turns"] > 0, "Bob never started a turn from his direct message"
    assert checks["recaps"] and all(len(names) >= 1 for names in checks["recaps"])
    assert any(len(names) >= 2 for names in checks["recaps"]), "no recap named both other players"
    # The bot's own requests stay within Discord's budget, besides the direct message Bob asked for on
    # each of his turns; every menu choice is one or two taps.
    assert played["requests_per_move"] - checks["dm_turns"] / played["moves"] <= 3
    assert played["taps_per_step_p50"] <= 2
