"""Scoring helpers (spec §2.8, §5): building values, district scores, ranking."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.core.contract import Outcome
from engine.fifth_avenue.cards import VALUE, neighbours, ring
from engine.fifth_avenue.state import Lot


def types_at(lots: Mapping[str, Lot], lot: str, six: bool) -> int:
    """§2.8: different shop types on the two lots adjacent to ``lot``."""
    a, b = neighbours(lot, six)
    return len(set(lots[a].shops) | set(lots[b].shops))


def district_scores(lots: Mapping[str, Lot], district: str, seats: int, six: bool) -> list[int]:
    """§5.1: per seat, Σ buildings × VALUE[types] over his lots in ``district`` (Asso ignored)."""
    out = [0] * seats
    for colour in ring(district, six):
        lot_id = f"{district}.{colour}"
        lot = lots[lot_id]
        if lot.owner is not None and lot.owner >= 0:
            out[lot.owner] += lot.count * VALUE[types_at(lots, lot_id, six)]
    return out


def cp_value(revealed: Sequence[str]) -> int:
    """§5.5: value of each Central Park building for the revealed tiles (pile empty → 1)."""
    return VALUE[len(set(revealed))]


def ranking(scores: Sequence[int], hands: Sequence[int], reason: str, details: Sequence[str]) -> Outcome:
    """§5.6: highest score, then most cards in hand; remaining ties share the place."""
    keys = [(s, h) for s, h in zip(scores, hands, strict=True)]
    places = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
    return Outcome(scores=tuple(scores), places=places, reason=reason, details=tuple(details))
