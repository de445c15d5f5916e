"""Builders for hand-made New York (Piatnik) positions used by the scenario tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import pytest

from engine.core.contract import Step
from engine.core.errors import EngineError
from engine.ny_piatnik import RULES
from engine.ny_piatnik.cards import (
    BUILDING_INDEX,
    CELLS,
    COLOUR_INDEX,
    COLOURS,
    PARAMS,
    canonical_deck,
    sort_hand,
)
from engine.ny_piatnik.state import NyState


def default_colours(seats: int) -> list[tuple[str, ...]]:
    """S1 red, S2 blue, …; two players: S1 red+yellow, S2 blue+green."""
    if seats == 2:
        return [("red", "yellow"), ("blue", "green")]
    return [(c,) for c in PARAMS[seats].houses]


def build(
    seats: int = 3,
    *,
    options: Iterable[str] = (),
    owners: Mapping[str, str] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    money: Mapping[int, int] | None = None,
    supply: Mapping[str, int] | None = None,
    colours: Sequence[tuple[str, ...]] | None = None,
    active: int = 0,
    deck_top: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    final_phase: bool = False,
    phase: str = "main",
) -> NyState:
    """A main-phase position. ``owners``: building id -> colour; ``deck_top``: the deck, top card first.

    Without ``deck_top`` the deck holds every card not in a hand (canonical order, so draws are predictable).
    """
    base = RULES.setup(seats, 1, frozenset(options))
    params = PARAMS[seats]
    colours = list(colours or default_colours(seats))
    controller = [-1] * len(COLOURS)
    for seat, own in enumerate(colours):
        for colour in own:
            controller[COLOUR_INDEX[colour]] = seat
    board: list[str | None] = [None] * CELLS
    for bid, colour in (owners or {}).items():
        board[BUILDING_INDEX[bid]] = colour
    pieces = [0] * len(COLOURS)
    for colour in params.houses:
        pieces[COLOUR_INDEX[colour]] = params.pieces - board.count(colour)
    for colour, n in (supply or {}).items():
        pieces[COLOUR_INDEX[colour]] = n
    held = [tuple(sort_hand(list((hands or {}).get(s, ())))) for s in range(seats)]
    if deck_top is None:
        left = Counter(canonical_deck(base.events)) - Counter(c for h in held for c in h) - Counter(discard)
        cards = []
        for card in canonical_deck(base.events):
            if left[card] > 0:
                cards.append(card)
                left[card] -= 1
        deck = tuple(cards)
    else:
        deck = tuple(reversed(deck_top))
    cash = [params.money] * seats
    for seat, amount in (money or {}).items():
        cash[seat] = amount
    return base.model_copy(
        update={
            "controller": tuple(controller),
            "board": tuple(board),
            "supply": tuple(pieces),
            "money": tuple(cash),
            "hands": tuple(held),
            "deck": deck,
            "discard": tuple(discard),
            "stop_location": "discard" if "STOP" in discard else "aside",
            "final_phase": final_phase or "STOP" in discard,
            "phase": phase,
            "active": active,
            "prelim_done": params.prelim * len(params.houses),
            "prelim_slots": params.houses,
        }
    )


def play(state: NyState, seat: int, text: str) -> Step[NyState]:
    """Parse and apply ``text`` for ``seat``."""
    return RULES.apply(state, seat, RULES.parse(text))


def texts(step: Step[NyState], public_only: bool = True) -> list[str]:
    """The event lines of a step (public ones by default)."""
    return [e.text for e in step.events if e.is_public or not public_only]


def refused(state: NyState, seat: int, text: str) -> EngineError:
    """The error raised by playing ``text``; fails the test if it is accepted."""
    with pytest.raises(EngineError) as info:
        play(state, seat, text)
    return info.value


def owner(state: NyState, bid: str) -> str | None:
    return state.board[BUILDING_INDEX[bid]]


def supply_of(state: NyState, colour: str) -> int:
    return state.supply[COLOUR_INDEX[colour]]
