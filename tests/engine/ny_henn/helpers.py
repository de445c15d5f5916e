"""Builders for hand-made New York (Henn) positions used by the scenario tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from engine.core.contract import Step
from engine.core.errors import EngineError
from engine.ny_henn import RULES
from engine.ny_henn.cards import BANKS, TILE_IDS, money_deck, sort_hand, start_tile
from engine.ny_henn.state import HennState, Phase

Cell = tuple[int, int]


def build(
    seats: int = 3,
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    display: Sequence[str | None] = ("B1", "G1", "Y1", "R1"),
    market: Mapping[str, str | None] | None = None,
    cities: Mapping[int, Mapping[Cell, str]] | None = None,
    reserves: Mapping[int, Sequence[str]] | None = None,
    pending: Mapping[int, Sequence[str]] | None = None,
    dirk: Sequence[str] | None = None,
    deck_top: Sequence[str] | None = None,
    bag: Sequence[str] | None = None,
    active: int = 0,
    phase: Phase = "action",
    chain_open: bool = False,
) -> HennState:
    """A position. Cities map cells to tiles (the start tile is added at (0,0)); without ``deck_top`` the
    deck holds the money cards not placed elsewhere in canonical order, without ``bag`` the bag holds the
    unused tiles in id order, so draws are predictable.
    """
    base = RULES.setup(seats, 1, frozenset())
    held = [sort_hand(list((hands or {}).get(s, ()))) for s in range(seats)]
    shown = tuple(display)
    market_tiles = {"B": "T09", "G": "T41", "Y": "T22", "R": "T47", **(market or {})}
    city_list = []
    for s in range(seats):
        city = {(0, 0): start_tile(s), **dict((cities or {}).get(s, {}))}
        city_list.append(tuple(sorted(((x, y, t) for (x, y), t in city.items()), key=lambda p: (p[1], p[0]))))
    res = [tuple((reserves or {}).get(s, ())) for s in range(seats)]
    pen = [tuple((pending or {}).get(s, ())) for s in range(seats)]
    dirk_tiles = tuple(dirk if dirk is not None else (base.dirk if seats == 2 else ()))
    if deck_top is None:
        used = Counter(c for h in held for c in h) + Counter(c for c in shown if c is not None)
        left = Counter(money_deck(seats)) - used
        cards = []
        for card in money_deck(seats):
            if left[card] > 0:
                cards.append(card)
                left[card] -= 1
        deck = tuple(cards)
    else:
        deck = tuple(deck_top)
    if bag is None:
        used_tiles = {t for city in city_list for _x, _y, t in city} | set(market_tiles.values())
        used_tiles |= {t for r in res for t in r} | {t for p in pen for t in p} | set(dirk_tiles)
        bag = tuple(t for t in TILE_IDS if t not in used_tiles)
    return base.model_copy(
        update={
            "hands": tuple(held),
            "display": shown,
            "market": tuple(market_tiles[b] for b in BANKS),
            "cities": tuple(city_list),
            "reserves": tuple(res),
            "pending": tuple(pen),
            "dirk": dirk_tiles,
            "deck": deck,
            "discard": (),
            "bag": tuple(bag),
            "active": active,
            "phase": phase,
            "chain_open": chain_open,
        }
    )


def play(state: HennState, seat: int, text: str) -> Step[HennState]:
    """Parse and apply ``text`` for ``seat``."""
    return RULES.apply(state, seat, RULES.parse(text))


def texts(step: Step[HennState]) -> list[str]:
    """The public event lines of a step."""
    return [e.text for e in step.events if e.is_public]


def refused(state: HennState, seat: int, text: str) -> EngineError:
    """The error raised by playing ``text``; fails the test if it is accepted."""
    with pytest.raises(EngineError) as info:
        play(state, seat, text)
    return info.value


def legal_texts(state: HennState, seat: int) -> list[str]:
    """Notations of the legal actions of ``seat``."""
    return [RULES.notation(a) for a in RULES.legal_actions(state, seat)]


def city(state: HennState, seat: int) -> dict[Cell, str]:
    """``seat``'s city as a dict."""
    return {(x, y): t for x, y, t in state.cities[seat]}
