"""Builders for hand-made Skyline positions used by the scenario tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from engine.core.contract import Step
from engine.core.errors import EngineError
from engine.skyline import RULES
from engine.skyline.cards import COLOURED, COLOURS, SITE_BY_NAME, piece_order
from engine.skyline.state import Phase, SkylineState


def piece(text: str) -> str:
    """``red1`` -> ``01``, ``bluePH`` -> ``1PH``, ``N`` -> ``N`` (the spec's stack notation, §11)."""
    if text == "N":
        return "N"
    for seat, name in enumerate(COLOURS):
        if text.startswith(name):
            return f"{seat}{text[len(name) :]}"
    raise ValueError(text)


def build(
    seats: int = 4,
    *,
    board: Mapping[str, Sequence[str]] | None = None,
    cash: Mapping[int, int] | None = None,
    stock: Mapping[int, Sequence[str]] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    missions: Sequence[str] | None = None,
    active: int = 0,
    phase: Phase = "build",
    options: Sequence[str] = (),
    **flags: object,
) -> SkylineState:
    """A position from the spec's notation: ``board={"C3": ["red1", "blue2"]}``; unlisted seats keep
    the setup's 10 M and stock ``1,1,2``; supplies are recomputed so every piece is counted once."""
    base = RULES.setup(seats, 1, frozenset(options))
    stacks: list[tuple[str, ...]] = [()] * 36
    for name, pieces in (board or {}).items():
        stacks[SITE_BY_NAME[name]] = tuple(piece(p) for p in pieces)
    stocks = [tuple(sorted((stock or {}).get(s, base.stock[s]), key=piece_order)) for s in range(seats)]
    supply = []
    for s in range(seats):
        used = [p[1:] for st in stacks for p in st if p[0] == str(s)] + list(stocks[s])
        supply.append(
            tuple(max(0, total - used.count(c)) for c, total in zip(COLOURED, (8, 6, 4, 3, 3), strict=True))
        )
    held = [tuple(sorted((hands or {}).get(s, base.hands[s]))) for s in range(seats)]
    in_hands = {c for h in held for c in h}
    return base.model_copy(
        update={
            "board": tuple(stacks),
            "cash": tuple((cash or {}).get(s, 10) for s in range(seats)),
            "stock": tuple(stocks),
            "supply": tuple(supply),
            "hands": tuple(held),
            "deck": tuple(
                sorted(c for c in (*base.deck, *(c for h in base.hands for c in h)) if c not in in_hands)
            ),
            "missions": tuple(missions) if missions else base.missions,
            "active": active,
            "phase": phase,
            **flags,
        }
    )


def play(state: SkylineState, seat: int, text: str) -> Step[SkylineState]:
    """Parse and apply ``text`` for ``seat``."""
    return RULES.apply(state, seat, RULES.parse(text))


def texts(step: Step[SkylineState]) -> list[str]:
    """The public event lines of a step."""
    return [e.text for e in step.events if e.is_public]


def refused(state: SkylineState, seat: int, text: str) -> EngineError:
    """The error raised by playing ``text``; fails the test if it is accepted."""
    with pytest.raises(EngineError) as info:
        play(state, seat, text)
    return info.value


def legal_texts(state: SkylineState, seat: int) -> list[str]:
    """Notations of the legal actions of ``seat``."""
    return [RULES.notation(a) for a in RULES.legal_actions(state, seat)]


def stack(state: SkylineState, site: str) -> tuple[str, ...]:
    """The pieces on ``site`` in the spec's notation (``red1``, ``N``)."""
    return tuple("N" if p == "N" else COLOURS[int(p[0])] + p[1:] for p in state.board[SITE_BY_NAME[site]])
