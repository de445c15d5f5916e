"""Prestige points and the winner (spec §5.2, §5.3), including the tournament tie-break."""

from __future__ import annotations

from typing import NamedTuple

from engine.skyline.cards import MISSION_PP
from engine.skyline.state import SkylineState, colour, mission_done, orange_tops, penthouses


class Score(NamedTuple):
    """One player's §5.2 breakdown."""

    penthouses: int
    orange: int
    mission: bool

    @property
    def total(self) -> int:
        return self.penthouses + self.orange + (MISSION_PP if self.mission else 0)


def score(state: SkylineState, seat: int) -> Score:
    """``seat``'s prestige points on the current board."""
    return Score(penthouses(state.board, seat), orange_tops(state.board, seat), mission_done(state, seat))


def _tournament_key(state: SkylineState, seat: int, sc: Score) -> tuple[int, int]:
    """§5.3 step 4 (tournament): compared only between seats with equal PP, penthouses and mission.

    With n ≥ 1 penthouses the earlier n-th penthouse wins ((a) is n = 3, (b) any n); with n = 0 the most
    cash. The last resort (d) is the later position in turn order from the start player.
    """
    order = (seat - state.start) % state.seats
    if sc.penthouses >= 1:
        return -state.penthouse_seq[seat][sc.penthouses - 1], order
    return state.cash[seat], order


def ranking_keys(state: SkylineState) -> list[tuple[int, ...]]:
    """Per seat the key that orders players best-first under §5.3 (higher is better)."""
    keys: list[tuple[int, ...]] = []
    for s in range(state.seats):
        sc = score(state, s)
        key: tuple[int, ...] = (sc.total, sc.penthouses, int(sc.mission))
        if state.tournament:
            key += _tournament_key(state, s, sc)
        keys.append(key)
    return keys


def places(state: SkylineState) -> tuple[int, ...]:
    """1 = first; seats with equal keys share a place (only possible without the tournament option)."""
    keys = ranking_keys(state)
    return tuple(1 + sum(other > mine for other in keys) for mine in keys)


def tiebreak_notes(state: SkylineState) -> list[str]:
    """Which §5.3 steps separated the seats that shared first place on PP."""
    scores = [score(state, s) for s in range(state.seats)]
    best = max(sc.total for sc in scores)
    tied = [s for s in range(state.seats) if scores[s].total == best]
    if len(tied) == 1:
        return []
    notes = [f"tie on {best} PP: " + ",".join(colour(state, s) for s in tied)]
    top_ph = max(scores[s].penthouses for s in tied)
    if any(scores[s].penthouses != top_ph for s in tied):
        notes.append("tie-break: most penthouses")
        tied = [s for s in tied if scores[s].penthouses == top_ph]
    if len(tied) > 1 and len({scores[s].mission for s in tied}) > 1:
        notes.append("tie-break: completed mission")
        tied = [s for s in tied if scores[s].mission]
    if len(tied) > 1:
        if not state.tournament:
            notes.append("shared victory")
        elif top_ph >= 1:
            step = "third penthouse first" if top_ph == 3 else f"earliest penthouse no. {top_ph}"
            notes.append(f"tie-break (tournament): {step}")
        else:
            cash = {state.cash[s] for s in tied}
            notes.append(
                "tie-break (tournament): " + ("most cash" if len(cash) > 1 else "latest in turn order")
            )
    return notes
