"""A match's turns as its stored log tells them: each turn is a run of one seat's consecutive moves, and
lasts from the move before it (anyone's) to its own last move. Pure: the log is given.

The log alone says when each move was committed, not when the rules first asked a seat to act; a turn
therefore begins with the move that came before it, and the match's first turn has no known beginning
(its time is left out of the figures, its moves still count).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.host.ports import TimedAction


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: ``seat`` made ``moves`` moves, the first of them the ``first``-th of the match (from 1);
    ``began`` is when the move before it was committed (None for the first turn), ``ended`` when its
    own last move was; ``stand_in`` says a computer made at least one of them for the seat's person."""

    seat: int
    first: int
    moves: int
    began: datetime | None
    ended: datetime
    stand_in: bool

    @property
    def took(self) -> timedelta | None:
        """How long the turn lasted (None when its beginning is unknown)."""
        return None if self.began is None else max(self.ended - self.began, timedelta(0))

    @property
    def last(self) -> int:
        """The number of the turn's last move."""
        return self.first + self.moves - 1


def turns_of(log: Sequence[TimedAction]) -> list[Turn]:
    """The turns of a kept log, in the order played."""
    found: list[Turn] = []
    for number, entry in enumerate(log, start=1):
        action = entry.action
        if found and found[-1].seat == action.seat:
            turn = found[-1]
            found[-1] = Turn(
                turn.seat, turn.first, turn.moves + 1, turn.began, entry.at, turn.stand_in or action.stand_in
            )
        else:
            began = log[number - 2].at if number > 1 else None
            found.append(Turn(action.seat, number, 1, began, entry.at, action.stand_in))
    return found


def own_turns(turns: Iterable[Turn], seat: int) -> list[Turn]:
    """``seat``'s turns that its person played themselves (no computer stood in)."""
    return [turn for turn in turns if turn.seat == seat and not turn.stand_in]


def median_seconds(turns: Iterable[Turn]) -> float | None:
    """The median time of ``turns`` whose beginning is known, in seconds (None: there is none)."""
    known = [took.total_seconds() for turn in turns if (took := turn.took) is not None]
    return statistics.median(known) if known else None


def total_seconds(turns: Iterable[Turn]) -> float:
    """The time of ``turns`` whose beginning is known, added up, in seconds."""
    return sum(took.total_seconds() for turn in turns if (took := turn.took) is not None)
