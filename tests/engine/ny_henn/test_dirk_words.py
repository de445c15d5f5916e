"""What everyone reads when scoring B hands Dirk his tiles (a seeded 2-player match between greedy
players): the tiles by name, and no line at all when the bag has too few left to give him any."""

from __future__ import annotations

from typing import Any

from engine.core.rng import bot_rng
from engine.core.say import SILENT
from engine.ny_henn import RULES
from engine.ny_henn.state import HennState
from engine.registry import POLICIES
from lang.says import render

SEED = 1


def scoring_b_move() -> tuple[HennState, int, Any]:
    """The position, seat and move of seed 1 that turn up scoring B, after which Dirk takes tiles."""
    greedy = POLICIES["ny_henn"]["greedy"]
    state = RULES.setup(2, SEED, frozenset())
    dealt = 0
    for ply in range(5000):
        seat = min(RULES.to_act(state))
        action = greedy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(SEED, ply))
        step = RULES.apply(state, seat, action)
        if any(e.text.startswith("dirk gets") for e in step.events):
            dealt += 1
            if dealt == 2:  # the first is scoring A's
                return state, seat, action
        state = step.state
    raise AssertionError("scoring B never came")


def test_dirk_taking_tiles_names_them() -> None:
    state, seat, action = scoring_b_move()
    (event,) = [e for e in RULES.apply(state, seat, action).events if e.text.startswith("dirk gets")]
    assert event.say is not None
    english, italian = render("en", event.say), render("it", event.say)
    assert english.startswith("Dirk takes 4 tiles: ") and italian.startswith("Dirk prende 4 tessere: ")


def test_dirk_taking_no_tile_has_no_line_to_read() -> None:
    state, seat, action = scoring_b_move()
    short = state.model_copy(update={"bag": state.bag[:2]})  # a third of 2 tiles is none
    (event,) = [e for e in RULES.apply(short, seat, action).events if e.text.startswith("dirk gets")]
    assert event.say == SILENT
