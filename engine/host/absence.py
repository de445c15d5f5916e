"""A player's absence (``/away``): their clocks stand still on every match, a bounded number of days a
month so that nobody can block a table for ever."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from engine.core.errors import LobbyError
from engine.host.clock import SeatClock
from engine.host.marks import Dated, PlainMarks
from engine.host.ports import MatchStore
from engine.host.text import HOST

# The days of absence a person may take in one calendar month (UTC), counted in the month they begin.
AWAY_DAYS_PER_MONTH = 14


class AwayAlready(LobbyError, Dated):
    """An absence asked for while one runs, until ``until``."""

    def __init__(self, until: datetime) -> None:
        super().__init__(
            HOST.say(
                "you are away already, until {when}; end it with /away off",
                when=PlainMarks().moment(until, "full"),
            )
        )
        self.moments = {"when": until}


def month_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def days_used(spans: Sequence[tuple[datetime, datetime]], now: datetime) -> int:
    """The whole days of absence begun in ``now``'s month: their time together (as long as each lasted,
    or will last), rounded down. A person reads "two days and a few hours" as two days, and a few seconds
    away as none; the part of a day left over still adds up with their next absences."""
    start = month_start(now)
    away = sum((end - begin for begin, end in spans if begin >= start), timedelta(0))
    return away // timedelta(days=1)


async def go_away(
    store: MatchStore, user_id: int, days: int, now: datetime
) -> tuple[datetime, list[SeatClock]]:
    """Begin an absence of ``days`` at ``now``; when it ends and the clocks it moved. Raises
    ``LobbyError`` when the person is away already or the month has fewer days left: the store judges
    that in the transaction that records the absence, so two requests at once cannot both pass."""

    def allow(spans: Sequence[tuple[datetime, datetime]]) -> None:
        current = [end for begin, end in spans if begin <= now < end]
        if current:
            raise AwayAlready(current[0])
        left = AWAY_DAYS_PER_MONTH - days_used(spans, now)
        if days > left:
            raise LobbyError(
                HOST.say_n(
                    "you can be away {count} more day this month",
                    "you can be away {count} more days this month",
                    max(left, 0),
                ),
                [f"1-{left}"] if left >= 1 else [],
            )

    ends = now + timedelta(days=days)
    considering = month_start(now) - timedelta(days=AWAY_DAYS_PER_MONTH)
    return ends, await store.begin_absence(user_id, now, ends, allow, considering)


async def come_back(store: MatchStore, user_id: int, now: datetime) -> list[SeatClock]:
    """End the person's absence now; the clocks it moved back. ``LobbyError`` when they are not away."""
    moved = await store.end_absence(user_id, now)
    if moved is None:
        raise LobbyError(HOST.say("you are not away"), ["/away on"])
    return moved
