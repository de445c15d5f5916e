"""Reliability: the share of a person's turns played before their deadline, over their latest matches
(finished, abandoned or still being played: a match given up because someone vanished counts too). A
turn a computer played for them (their time ran out, or it kept their seat until they came back) was not
played in time. Once a person resigns, the seat is no longer theirs: the computer's turns after their
last own turn in a match they resigned are not counted at all (resigning is judged by the rating, which
places them last). Lobbies and queues may ask for a minimum."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.host.log_turns import Turn, turns_of
from engine.host.ports import MatchStore, SeatResult, TimedAction

# How many of a person's latest matches their reliability looks at.
RELIABILITY_MATCHES = 50


@dataclass(frozen=True, slots=True)
class TurnsKept:
    """A person's turns in some matches: how many were counted and how many they played in time."""

    counted: int = 0
    in_time: int = 0

    def __add__(self, other: TurnsKept) -> TurnsKept:
        return TurnsKept(self.counted + other.counted, self.in_time + other.in_time)

    @property
    def share(self) -> float | None:
        """The share played in time (None: no turn counted)."""
        return self.in_time / self.counted if self.counted else None


def turns_kept(turns: Iterable[Turn], seat: int, resigned: bool = False) -> TurnsKept:
    """``seat``'s turns among ``turns`` (one match's, in order) as reliability counts them."""
    mine = [turn for turn in turns if turn.seat == seat]
    if resigned:
        while mine and mine[-1].stand_in:
            mine.pop()
    return TurnsKept(len(mine), sum(1 for turn in mine if not turn.stand_in))


@dataclass(frozen=True, slots=True)
class Punctuality:
    """A person's turns over their latest matches, and in how many of those matches a turn of theirs was
    counted."""

    kept: TurnsKept = TurnsKept()
    matches: int = 0

    @property
    def percent(self) -> int | None:
        """The whole percentage of turns played in time, rounded down so that it never reads as more than
        it is (None: no turn counted)."""
        return self.kept.in_time * 100 // self.kept.counted if self.kept.counted else None


def person_punctuality(seats: Sequence[SeatResult], logs: Mapping[int, Sequence[TimedAction]]) -> Punctuality:
    """A person's turns in the matches of their ``seats``, from those matches' kept ``logs`` (by match
    id; a match without one counts nothing)."""
    total, matches = TurnsKept(), 0
    for held in seats:
        kept = turns_kept(turns_of(logs.get(held.match_id, [])), held.seat, held.seat in held.resigned)
        total += kept
        matches += 1 if kept.counted else 0
    return Punctuality(total, matches)


def person_turns(seats: Sequence[SeatResult], logs: Mapping[int, Sequence[TimedAction]]) -> TurnsKept:
    """A person's turns in the matches of their ``seats`` (see ``person_punctuality``)."""
    return person_punctuality(seats, logs).kept


async def punctuality(store: MatchStore, user_id: int, guild_id: int | None = None) -> Punctuality:
    """``user_id``'s turns over their latest matches that started (on ``guild_id`` only, when given)."""
    seats = await store.seat_results(user_id, guild_id, RELIABILITY_MATCHES, started=True)
    logs = await store.timed_logs([held.match_id for held in seats])
    return person_punctuality(seats, logs)


async def reliability(store: MatchStore, user_id: int, guild_id: int | None = None) -> float | None:
    """The share (0 to 1) of ``user_id``'s turns played in time over their latest matches that started
    (on ``guild_id`` only, when given); None when they have no turn to judge by."""
    return (await punctuality(store, user_id, guild_id)).kept.share
