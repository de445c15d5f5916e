"""Who plays whom, among the people of a server waiting for a game (``/game find``): pure, no I/O, no
clock of its own (the moment is given).

A table opens when enough people wait for the same game at the same pace whose skills are close and
whose active hours overlap. How close is close grows with the time the longest-waiting of them has
waited, so that nobody waits forever for a perfect match; and a person who allowed computer players is
seated with computers for the missing seats once their own patience runs out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import combinations

from engine.host.clock import Pace

HOURS = 24
# How far apart two people's skills may be (in rating points, as ``Rating.display`` counts them) for a
# table to open at once, and how much further for each hour the longest-waiting has waited.
CLOSE_SKILL = 150.0
WIDENS_PER_HOUR = 50.0
# The share of the day that the people of a table must all be active in, when each has a known rhythm.
SHARED_HOURS = 0.15
# People considered at once for one table, the closest in skill first: enough to find the best group,
# few enough that choosing among them stays quick.
CONSIDERED = 12


def active_hours(moments: Iterable[datetime]) -> tuple[float, ...]:
    """The share of ``moments`` (a person's moves) in each hour of the day (UTC), summing to 1; empty
    when there are none, which reads as "active at any hour"."""
    counts = [0] * HOURS
    for moment in moments:
        counts[moment.hour] += 1
    total = sum(counts)
    return tuple(c / total for c in counts) if total else ()


def usual_hours(rhythm: Sequence[float], share: float = 0.8) -> tuple[int, int] | None:
    """The shortest run of hours of the day (it may wrap past midnight) holding ``share`` of a person's
    moves: its first hour and how many hours it spans; None for an unknown rhythm."""
    if not rhythm:
        return None
    best: tuple[int, int] | None = None
    for start in range(HOURS):
        held = 0.0
        for length in range(1, HOURS + 1):
            held += rhythm[(start + length - 1) % HOURS]
            if held >= share - 1e-9:
                if best is None or length < best[1]:
                    best = (start, length)
                break
    return best


def overlap(rhythms: Sequence[Sequence[float]]) -> float:
    """The share of the day when all of ``rhythms`` are active, each hour counted by the least active of
    them: 1 for identical rhythms, 0 for people never active at the same hours, and 1 when fewer than two
    rhythms are known (someone with none may be active at any hour)."""
    known = [r for r in rhythms if r]
    if len(known) < 2:
        return 1.0
    return sum(min(r[hour] for r in known) for hour in range(HOURS))


@dataclass(frozen=True)
class Seeker:
    """One person waiting in a server's queue for a game."""

    user_id: int
    name: str
    game: str
    pace: Pace
    seat_counts: frozenset[int]  # the table sizes they accept
    skill: float  # rating points (``Rating.display``'s scale, from the skill estimate alone)
    since: datetime
    rhythm: tuple[float, ...] = ()  # ``active_hours`` of their moves
    computers: str | None = None  # the computer level that may fill their table, None for none
    patience: timedelta = timedelta(hours=24)  # after this long, computers fill (when allowed)
    reliability: float | None = None  # the share of their turns played in time (None: no turn yet)
    least_reliability: float = 0.0  # the share they ask of the others at their table
    avoids: frozenset[int] = frozenset()  # the people they would rather not be seated with

    def waited(self, now: datetime) -> timedelta:
        return max(timedelta(0), now - self.since)

    def out_of_patience(self, now: datetime) -> bool:
        return self.computers is not None and self.waited(now) >= self.patience


@dataclass(frozen=True)
class Table:
    """A table to open: its game, size and pace, the people seated (in the order they waited) and the
    computer players that fill the other seats."""

    game: str
    seats: int
    pace: Pace
    people: tuple[Seeker, ...]
    computers: str | None = None
    computer_seats: int = 0


@dataclass
class _Pool:
    game: str
    pace: Pace
    seekers: list[Seeker] = field(default_factory=list)


def allowed_gap(group: Sequence[Seeker], now: datetime) -> float:
    """How far apart the skills of ``group`` may be for it to open a table now."""
    longest = max(s.waited(now) for s in group)
    return CLOSE_SKILL + WIDENS_PER_HOUR * longest / timedelta(hours=1)


def _fits(group: Sequence[Seeker], now: datetime) -> bool:
    skills = [s.skill for s in group]
    close = max(skills) - min(skills) <= allowed_gap(group, now)
    shared = overlap([s.rhythm for s in group]) >= SHARED_HOURS
    return close and shared and reliable_enough(group) and apart(group)


def apart(group: Sequence[Seeker]) -> bool:
    """Whether nobody in ``group`` has another of them on their list of people to avoid."""
    return not any(other.user_id in seeker.avoids for seeker in group for other in group)


def reliable_enough(group: Sequence[Seeker]) -> bool:
    """Whether everyone in ``group`` plays their turns in time as often as each of the others asks (a
    person with no turn to judge by yet is taken at their word)."""
    return all(
        other.reliability is None or other.reliability >= asker.least_reliability
        for asker in group
        for other in group
        if other is not asker
    )


def _best_group(pool: Sequence[Seeker], size: int, now: datetime) -> tuple[Seeker, ...] | None:
    """The group of ``size`` people of ``pool`` accepting that size that fits (see ``_fits``) with the
    closest skills (then the longest wait); None when no group fits."""
    willing = sorted((s for s in pool if size in s.seat_counts), key=lambda s: (s.skill, s.since))
    best: tuple[float, timedelta, tuple[Seeker, ...]] | None = None
    for start in range(len(willing)):
        # Close skills are neighbours in skill order: the groups worth trying start near each other.
        near = willing[start : start + CONSIDERED]
        if len(near) < size:
            break
        for rest in combinations(near[1:], size - 1):
            group = (near[0], *rest)
            if not _fits(group, now):
                continue
            gap = max(s.skill for s in group) - min(s.skill for s in group)
            waited = -sum((s.waited(now) for s in group), timedelta(0))
            if best is None or (gap, waited) < best[:2]:
                best = (gap, waited, group)
    return best[2] if best is not None else None


def tables_to_open(
    seekers: Sequence[Seeker], seat_counts: Mapping[str, Sequence[int]], now: datetime
) -> list[Table]:
    """The tables to open now among ``seekers`` (each game's allowed table sizes in ``seat_counts``):
    first every table of people alone, the largest sizes first; then, for each person whose patience
    has run out and who allowed computers, a table of them and whoever else waits for the same game and
    pace and fits them (closest skills first), the missing seats filled with computer players."""
    pools: dict[tuple[str, Pace], _Pool] = {}
    for seeker in sorted(seekers, key=lambda s: s.since):
        pools.setdefault((seeker.game, seeker.pace), _Pool(seeker.game, seeker.pace)).seekers.append(seeker)
    opened: list[Table] = []
    for pool in pools.values():
        sizes = sorted(seat_counts.get(pool.game, ()), reverse=True)
        for size in sizes:
            while (group := _best_group(pool.seekers, size, now)) is not None:
                opened.append(Table(pool.game, size, pool.pace, _in_waiting_order(group)))
                pool.seekers = [s for s in pool.seekers if s not in group]
        for seeker in [s for s in pool.seekers if s.out_of_patience(now)]:
            if seeker not in pool.seekers:
                continue  # seated at a table of an earlier one
            table = _filled(seeker, pool.seekers, sizes, now)
            if table is not None:
                opened.append(table)
                pool.seekers = [s for s in pool.seekers if s not in table.people]
    return opened


def _filled(seeker: Seeker, pool: Sequence[Seeker], sizes: Sequence[int], now: datetime) -> Table | None:
    """``seeker``'s table with computer players: the largest size they accept, with the others waiting
    who accept it too and fit with them (the closest in skill first), computers in the seats left."""
    for size in sizes:
        if size not in seeker.seat_counts:
            continue
        others = sorted(
            (s for s in pool if s is not seeker and size in s.seat_counts),
            key=lambda s: abs(s.skill - seeker.skill),
        )
        group = [seeker]
        for other in others:
            if len(group) == size - 1:
                break  # at least one seat is the computers', as the seeker allowed
            if _fits((*group, other), now):
                group.append(other)
        assert seeker.computers is not None
        return Table(
            seeker.game, size, seeker.pace, _in_waiting_order(group), seeker.computers, size - len(group)
        )
    return None


def _in_waiting_order(group: Iterable[Seeker]) -> tuple[Seeker, ...]:
    return tuple(sorted(group, key=lambda s: s.since))
