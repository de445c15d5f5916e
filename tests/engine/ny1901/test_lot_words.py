"""New York 1901's lots read with their article in Italian ("occupa il lotto verde 7"), in a seeded match
between greedy players."""

from __future__ import annotations

from engine.core.rng import bot_rng
from engine.core.say import SILENT
from engine.ny1901 import RULES
from engine.registry import POLICIES, PRESENTATIONS
from lang.says import render

NAMES = ("Ann", "Bob", "Cy")


def name(seat: int) -> str:
    return NAMES[seat]


def test_claiming_a_lot_reads_with_its_article() -> None:
    greedy = POLICIES["ny1901"]["greedy"]
    state = RULES.setup(3, 1, frozenset())
    for ply in range(200):
        seat = min(RULES.to_act(state))
        action = greedy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(1, ply))
        step = RULES.apply(state, seat, action)
        if action.kind == "take":
            label = PRESENTATIONS["ny1901"].describe(state, seat, action)
            told = next(e.say for e in step.events if e.say not in (None, SILENT))
            break
        state = step.state
    else:
        raise AssertionError("nobody took a lot card")
    assert render("en", label, name) == "Take the blue card for 3 (slot 4) and claim blue lot 11"
    assert (
        render("it", label, name)
        == "Prendi la carta da 3 del quartiere blu (posto 4) e occupa il lotto blu 11"
    )
    assert render("en", told, name) == "Cy takes the blue card for 3 and claims blue lot 11"
    assert render("it", told, name) == "Cy prende la carta da 3 del quartiere blu e occupa il lotto blu 11"
