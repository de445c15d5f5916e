"""Dirk Henn's New York names a bought tile with its article in Italian ("il Museo", "la Stazione"), in a
seeded match between greedy players."""

from __future__ import annotations

from engine.core.rng import bot_rng
from engine.core.say import SILENT
from engine.ny_henn import RULES
from engine.registry import POLICIES, PRESENTATIONS
from lang.says import render

NAMES = ("Ann", "Bob")


def name(seat: int) -> str:
    return NAMES[seat]


def bought(seed: int) -> list[tuple[str, str, str, str]]:
    """Every purchase of a seeded 2-player match: its menu label and its log line, in English and Italian."""
    greedy = POLICIES["ny_henn"]["greedy"]
    state = RULES.setup(2, seed, frozenset())
    out: list[tuple[str, str, str, str]] = []
    for ply in range(5000):
        if RULES.outcome(state) is not None:
            return out
        seat = min(RULES.to_act(state))
        action = greedy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(seed, ply))
        step = RULES.apply(state, seat, action)
        if action.kind == "buy":
            label = PRESENTATIONS["ny_henn"].describe(state, seat, action)
            told = next(e.say for e in step.events if e.say not in (None, SILENT))
            out.append(
                (
                    render("en", label, name),
                    render("it", label, name),
                    render("en", told, name),
                    render("it", told, name),
                )
            )
        state = step.state
    raise AssertionError("the match did not end")


def test_buying_a_tile_reads_with_its_article() -> None:
    lines = bought(1)
    assert lines[0] == (
        "Buy the Museum $6 ↑ (blue slot), paying blue 7",
        "Compra il Museo $6 ↑ (casella blu) pagando blu 7",
        "Ann buys the Museum $6 ↑ from the blue slot, paying blue 7",
        "Ann compra il Museo $6 ↑ dalla casella blu, pagando blu 7",
    )
    station = next(line for line in lines if "Station" in line[0])
    assert station == (
        "Buy the Station $6 ↑→ (yellow slot), paying yellow 9",
        "Compra la Stazione $6 ↑→ (casella gialla) pagando giallo 9",
        "Ann buys the Station $6 ↑→ from the yellow slot, paying yellow 9",
        "Ann compra la Stazione $6 ↑→ dalla casella gialla, pagando giallo 9",
    )
