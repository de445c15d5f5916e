"""Scoring rounds A, B and C (spec §5.1-§5.3) and the final result (§5.5)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.say import Arg, Say, items, who
from engine.ny_henn.cards import ALL_TILES, TYPE_CODES, paid_places
from engine.ny_henn.city import street_value
from engine.ny_henn.state import HennState, city_map
from engine.ny_henn.words import DIRK, TYPE_WORDS, say


def majority_points(counts: Sequence[int], paid: Sequence[int]) -> list[int]:
    """Points per participant for one type (§5.3): ties share the summed places, rounded down.

    ``counts``: tiles of the type per participant (0 = not taking part); ``paid``: points of places 1, 2, ….
    """
    points = [0] * len(counts)
    for i, n in enumerate(counts):
        if n <= 0:
            continue
        rank = 1 + sum(1 for m in counts if m > n)
        group = sum(1 for m in counts if m == n)
        places = range(rank - 1, rank - 1 + group)
        points[i] = sum(paid[p] for p in places if p < len(paid)) // group
    return points


def type_counts(tiles: Sequence[str]) -> dict[str, int]:
    """Building tiles per type code (start tiles are no type, §2.5)."""
    counts = dict.fromkeys(TYPE_CODES, 0)
    for tid in tiles:
        t = ALL_TILES[tid].type
        if t is not None:
            counts[t] += 1
    return counts


def city_tiles(state: HennState, seat: int) -> list[str]:
    """Tile ids in ``seat``'s city (reserve and pending never count, §5.1)."""
    return [t for _x, _y, t in state.cities[seat]]


class RoundResult:
    """Points of one scoring round: per seat street and per-type points, and Dirk's per-type points."""

    def __init__(self, seats: int) -> None:
        self.street = [0] * seats
        self.by_type: list[dict[str, int]] = [dict.fromkeys(TYPE_CODES, 0) for _ in range(seats)]
        self.dirk: dict[str, int] = dict.fromkeys(TYPE_CODES, 0)

    def total(self, seat: int) -> int:
        """Street plus majority points of ``seat``."""
        return self.street[seat] + sum(self.by_type[seat].values())

    def dirk_total(self) -> int:
        """Dirk's majority points (he scores no streets, §7.2)."""
        return sum(self.dirk.values())


def score_round(state: HennState, round_id: str) -> RoundResult:
    """Street points for every real player and majority points for every type (§5.1-§5.3)."""
    seats = state.seats
    result = RoundResult(seats)
    counts = [type_counts(city_tiles(state, s)) for s in range(seats)]
    dirk_counts = type_counts(state.dirk) if state.two_player else None
    for s in range(seats):
        result.street[s] = street_value(city_map(state, s))
    for code in TYPE_CODES:
        row = [c[code] for c in counts]
        if dirk_counts is not None:
            row.append(dirk_counts[code])
        points = majority_points(row, paid_places(round_id, code))
        for s in range(seats):
            result.by_type[s][code] = points[s]
        if dirk_counts is not None:
            result.dirk[code] = points[seats]
    return result


def score_lines(state: HennState, result: RoundResult) -> list[str]:
    """``score P1 street=4 SK=3 PK=5 total=12`` lines (§8), then Dirk's in the 2-player game."""
    lines = []
    for s in range(state.seats):
        parts = [f"street={result.street[s]}"]
        parts += [f"{code}={pts}" for code, pts in result.by_type[s].items() if pts]
        lines.append(f"score P{s + 1} {' '.join(parts)} total={result.total(s)}")
    if state.two_player:
        parts = [f"{code}={pts}" for code, pts in result.dirk.items() if pts]
        lines.append(f"score dirk {' '.join([*parts, f'total={result.dirk_total()}'])}")
    return lines


def score_says(state: HennState, result: RoundResult) -> list[Say]:
    """The sentences of ``score_lines``: each player's street and building points, then Dirk's."""
    lines = []
    for s in range(state.seats):
        lines.append(
            say(
                "{player} scores {total}: street {street}{buildings}",
                player=who(s),
                total=result.total(s),
                street=result.street[s],
                buildings=_building_points(result.by_type[s]),
            )
        )
    if state.two_player:
        lines.append(
            say(
                "{player} scores {total}{buildings}",
                player=DIRK,
                total=result.dirk_total(),
                buildings=_building_points(result.dirk),
            )
        )
    return lines


def _building_points(by_type: dict[str, int]) -> Arg:
    """ ", Museum 8, Park 5" for the types that scored (nothing when none did)."""
    scored = [
        say("{building} {points}", building=TYPE_WORDS[code], points=pts)
        for code, pts in by_type.items()
        if pts
    ]
    if not scored:
        return ""
    return say(", {points}", points=items(scored, "comma"))


def places_of(scores: Sequence[int]) -> tuple[int, ...]:
    """Place per seat: 1 + number of strictly higher scores; equal scores share a place (§5.5)."""
    return tuple(1 + sum(1 for o in scores if o > s) for s in scores)
