"""Builders for hand-made Fifth Avenue positions used by the scenario tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from engine.core.contract import Step
from engine.core.errors import EngineError
from engine.fifth_avenue import RULES
from engine.fifth_avenue.cards import COLOURS, black_deck, coloured_deck, lot_ids, sort_cards
from engine.fifth_avenue.state import FifthState, Lot, Phase

LotSpec = str | tuple[int, int]  # shop letters, or (owner seat, buildings)


def build(
    seats: int = 3,
    *,
    six: bool = False,
    lots: Mapping[str, LotSpec] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    pawns: tuple[str, str] = ("START", "START"),
    tokens: tuple[Sequence[str], Sequence[str]] = ((), ()),
    closed: Sequence[str] = (),
    row: Sequence[str | None] | None = None,
    placed: int = 0,
    black: Sequence[str] | None = None,
    reserve: int = 3,
    active: int = 0,
    phase: Phase = "action",
    chosen: str | None = None,
) -> FifthState:
    """A position after the starting placement: only the given lots are occupied, hands as given (else
    empty), coloured decks canonical, the black deck ``black`` (else canonical) all face down."""
    base = RULES.setup(seats, 1, frozenset({"six_lots"}) if six else frozenset())
    board = {lot_id: Lot() for lot_id in lot_ids(six)}
    for lot_id, spec in (lots or {}).items():
        board[lot_id] = Lot(shops=tuple(spec)) if isinstance(spec, str) else Lot(owner=spec[0], count=spec[1])
    deck = tuple(black if black is not None else black_deck())
    return base.model_copy(
        update={
            "lots": board,
            "hands": tuple(sort_cards(list((hands or {}).get(s, ()))) for s in range(seats)),
            "pawns": pawns,
            "tokens": (tuple(tokens[0]), tuple(tokens[1])),
            "closed": tuple(closed),
            "row": tuple(row) if row is not None else base.row,
            "placed": placed,
            "black": deck,
            "black_up": (False,) * len(deck),
            "decks": tuple(tuple(coloured_deck(c)) for c in COLOURS),
            "reserve": (reserve,) * seats,
            "active": active,
            "phase": phase,
            "chosen": chosen,
            "setup_done": len(base.setup_order),
        }
    )


def play(state: FifthState, seat: int, text: str) -> Step[FifthState]:
    return RULES.apply(state, seat, RULES.parse(text))


def legal_texts(state: FifthState, seat: int) -> list[str]:
    return [RULES.notation(a) for a in RULES.legal_actions(state, seat)]


def refused(state: FifthState, seat: int, text: str) -> EngineError:
    with pytest.raises(EngineError) as info:
        play(state, seat, text)
    return info.value


def texts(step: Step[FifthState]) -> list[str]:
    return [e.text for e in step.events if e.audience is None]
