"""What Fifth Avenue's words say in a seeded match between greedy players, read in English and Italian:
a pawn sent to City Hall ("sulla Partenza"), the colours a bidder may still use, and a raise's total."""

from __future__ import annotations

from typing import Any

from engine.core.rng import bot_rng
from engine.core.say import SILENT, Say
from engine.fifth_avenue import RULES
from engine.fifth_avenue.cards import START
from engine.fifth_avenue.state import FifthState
from engine.fifth_avenue.views import PrivateView
from engine.registry import POLICIES, PRESENTATIONS
from lang.says import render

NAMES = ("Ann", "Bob", "Cy")
PRESENTATION = PRESENTATIONS["fifth_avenue"]


def name(seat: int) -> str:
    return NAMES[seat]


def read(locale: str, said: Say) -> str:
    return render(locale, said, name)


def decisions(seed: int) -> list[tuple[FifthState, int, Any]]:
    """Every decision of a seeded 3-player match of greedy players: the position, the seat and its move."""
    greedy = POLICIES["fifth_avenue"]["greedy"]
    state = RULES.setup(3, seed, frozenset())
    out: list[tuple[FifthState, int, Any]] = []
    for ply in range(5000):
        if RULES.outcome(state) is not None:
            return out
        seat = min(RULES.to_act(state))
        action = greedy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(seed, ply))
        out.append((state, seat, action))
        state = RULES.apply(state, seat, action).state
    raise AssertionError("the match did not end")


def test_a_pawn_sent_back_to_city_hall_reads_with_its_article_in_italian() -> None:
    state, seat, action = next(
        (s, seat, a) for s, seat, a in decisions(1) if a.kind == "move" and a.dest == START
    )
    label = PRESENTATION.describe(state, seat, action)
    assert read("en", label) == "Move the white pawn to City Hall"
    assert read("it", label) == "Sposta la pedina bianca sulla Partenza"
    told = [e.say for e in RULES.apply(state, seat, action).events if e.say not in (None, SILENT)]
    assert read("en", told[0]) == "Bob moves the white pawn to City Hall"
    assert read("it", told[0]) == "Bob sposta la pedina bianca sulla Partenza"


def test_a_district_keeps_su_without_an_article() -> None:
    state, seat, action = next(
        (s, seat, a) for s, seat, a in decisions(1) if a.kind == "move" and a.dest not in (START, "CP")
    )
    text = read("it", PRESENTATION.describe(state, seat, action))
    assert text.startswith("Sposta la pedina ") and " su " in text and " su la " not in text


def test_after_a_first_bid_the_hand_names_only_the_colour_it_fixed() -> None:
    # Seed 1: Bob has bid brown 4 for a district where brown and orange were open to him.
    state, seat, _ = next(
        (s, seat, a)
        for s, seat, a in decisions(1)
        if s.phase == "auction" and s.auction is not None and s.auction.piles[seat]
    )
    assert state.auction is not None and len(state.auction.eligible[seat]) > 1
    view = RULES.view(state, seat)
    assert isinstance(view, PrivateView)
    assert view.eligible == ("BR",)
    assert view.own_pile == ("BR4",)


def test_a_raise_reads_the_total_of_the_whole_pile_as_the_log_then_does() -> None:
    state, seat, action = next(
        (s, seat, a)
        for s, seat, a in decisions(1)
        if a.kind == "bid" and s.auction is not None and s.auction.piles[seat]
    )
    label = PRESENTATION.describe(state, seat, action)
    told = [e.say for e in RULES.apply(state, seat, action).events if e.say not in (None, SILENT)]
    # Bob had brown 4 on the table and adds black 5.
    assert read("en", label) == "Bid black 5 (total 9)"
    assert read("en", told[0]) == "Bob bids black 5 (total 9)"
    assert read("it", label) == "Punta nero 5 (totale 9)"
