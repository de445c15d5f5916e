"""Builders for hand-made New York 1901 positions used by the scenario tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pytest

from engine.core.contract import Step
from engine.core.errors import EngineError
from engine.ny1901 import RULES
from engine.ny1901.cards import LOT_CELLS, LOT_IDS, LOT_INDEX, SUPPLY_TILES, TILE_BY_ID, cell, footprint
from engine.ny1901.state import Building, NyState


def tile_at(tile: str, owner: int, x: int, y: int, rot: int = 0) -> Building:
    """A building of ``tile`` placed like the notation ``tile=<tile> rot=<rot> at=<x>,<y>``."""
    cells = footprint(TILE_BY_ID[tile].shape, rot, x, y)
    assert cells is not None
    return Building(tile=tile, owner=owner, cells=cells, rot=rot, x=x, y=y)


def on_lot(tile: str, owner: int, lot: str) -> Building:
    """A building covering exactly the cells of ``lot`` (ST, or any tile of the same shape)."""
    cells = LOT_CELLS[LOT_INDEX[lot]]
    return Building(tile=tile, owner=owner, cells=cells, x=cells[0] % 16, y=cells[0] // 16)


def position(
    seats: int = 3,
    *,
    options: Iterable[str] = (),
    active: int = 0,
    scores: Mapping[int, int] | None = None,
    owners: Mapping[str, int] | None = None,
    workers: Iterable[str] = (),
    buildings: Sequence[Building] = (),
    market: Sequence[str | None] | None = None,
    deck: Sequence[str] | None = None,
    supply: Mapping[int, Sequence[str]] | None = None,
    action_cards: Mapping[int, Sequence[str]] | None = None,
    characters: Sequence[str] | None = None,
    streets: Sequence[str] | None = None,
    challenge: str | None = None,
    legend_of: Mapping[int, str] | None = None,
) -> NyState:
    """A position from scratch: only the given lots are owned, only the given buildings stand.

    ``market`` and ``deck`` are card types (ids are made up); by default the deck holds 20 cards.
    """
    base = RULES.setup(seats, 1, frozenset(options))
    lot_owner = [-1] * len(LOT_IDS)
    for lot, seat in (owners or {}).items():
        lot_owner[LOT_INDEX[lot]] = seat
    on = [False] * len(LOT_IDS)
    for lot in workers:
        on[LOT_INDEX[lot]] = True
    counter = iter(range(100, 10_000))

    def ids(types: Sequence[str | None]) -> tuple[str | None, ...]:
        return tuple(None if t is None else f"{t}#{next(counter)}" for t in types)

    market_ids = ids(market if market is not None else ["G2", "B2", "Y2", "R2"])
    deck_ids = tuple(c for c in ids(deck if deck is not None else ["B2"] * 20) if c is not None)
    supplies = [SUPPLY_TILES for _ in range(seats)]
    for seat, tiles in (supply or {}).items():
        supplies[seat] = tuple(tiles)
    cards = [base.action_cards[s] for s in range(seats)]
    for seat, held in (action_cards or {}).items():
        cards[seat] = tuple(held)
    legends = [None] * seats
    for seat, tile in (legend_of or {}).items():
        legends[seat] = tile  # type: ignore[call-overload]
    pool = tuple(t for t in base.legend_pool if t not in legends)
    score = [0] * seats
    for seat, value in (scores or {}).items():
        score[seat] = value
    return base.model_copy(
        update={
            "active": active,
            "first": active,
            "lot_owner": tuple(lot_owner),
            "workers": tuple(on),
            "buildings": tuple(buildings),
            "market": market_ids,
            "deck": deck_ids,
            "supply": tuple(supplies),
            "action_cards": tuple(cards),
            "legend_of": tuple(legends),
            "legend_pool": pool,
            "scores": tuple(score),
            "characters": tuple(characters) if characters else base.characters,
            "streets": tuple(streets) if streets is not None else base.streets,
            "challenge": challenge,
        }
    )


def play(state: NyState, seat: int, text: str) -> Step[NyState]:
    """Parse and apply ``text`` for ``seat``."""
    return RULES.apply(state, seat, RULES.parse(text))


def texts(step: Step[NyState]) -> list[str]:
    """The event lines of a step."""
    return [e.text for e in step.events]


def refused(state: NyState, seat: int, text: str) -> EngineError:
    """The error raised by playing ``text``; fails the test if it is accepted."""
    with pytest.raises(EngineError) as info:
        play(state, seat, text)
    return info.value


def covered(state: NyState, x: int, y: int) -> str | None:
    """The tile covering cell ``x,y``, if any."""
    c = cell(x, y)
    return next((b.tile for b in state.buildings if c in b.cells), None)
