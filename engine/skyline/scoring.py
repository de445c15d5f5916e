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


class TieBreak(NamedTuple):
    """One §5.3 step that separated the seats still tied for first place (``penthouses`` for the
    tournament's n-th penthouse step)."""

    step: str  # "penthouses", "mission", "shared", "third penthouse", "nth penthouse", "cash", "turn order"
    penthouses: int = 0


def tiebreak(state: SkylineState) -> tuple[list[int], list[TieBreak]]:
    """The seats that shared the best PP, and the §5.3 steps that separated them, in order. A step that
    leaves several seats tied is followed by the next one, so the last step named is the one that
    decided (5/7/7 cash: the most cash drops the 5, then turn order decides between the two 7s)."""
    scores = [score(state, s) for s in range(state.seats)]
    best = max(sc.total for sc in scores)
    first = [s for s in range(state.seats) if scores[s].total == best]
    tied = list(first)
    if len(tied) == 1:
        return first, []
    steps: list[TieBreak] = []
    top_ph = max(scores[s].penthouses for s in tied)
    if any(scores[s].penthouses != top_ph for s in tied):
        steps.append(TieBreak("penthouses"))
        tied = [s for s in tied if scores[s].penthouses == top_ph]
    if len(tied) > 1 and len({scores[s].mission for s in tied}) > 1:
        steps.append(TieBreak("mission"))
        tied = [s for s in tied if scores[s].mission]
    if len(tied) > 1:
        if not state.tournament:
            steps.append(TieBreak("shared"))
        elif top_ph >= 1:
            steps.append(TieBreak("third penthouse" if top_ph == 3 else "nth penthouse", top_ph))
        else:
            most = max(state.cash[s] for s in tied)
            if any(state.cash[s] != most for s in tied):
                steps.append(TieBreak("cash"))
                tied = [s for s in tied if state.cash[s] == most]
            if len(tied) > 1:
                steps.append(TieBreak("turn order"))
    return first, steps


def tiebreak_notes(state: SkylineState) -> list[str]:
    """Which §5.3 steps separated the seats that shared first place on PP."""
    first, steps = tiebreak(state)
    if not steps:
        return []
    best = score(state, first[0]).total
    notes = [f"tie on {best} PP: " + ",".join(colour(state, s) for s in first)]
    for found in steps:
        match found.step:
            case "penthouses":
                notes.append("tie-break: most penthouses")
            case "mission":
                notes.append("tie-break: completed mission")
            case "shared":
                notes.append("shared victory")
            case "third penthouse":
                notes.append("tie-break (tournament): third penthouse first")
            case "nth penthouse":
                notes.append(f"tie-break (tournament): earliest penthouse no. {found.penthouses}")
            case "cash":
                notes.append("tie-break (tournament): most cash")
            case "turn order":
                notes.append("tie-break (tournament): latest in turn order")
    return notes
