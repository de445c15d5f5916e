"""The scheduler of match clocks: fires the reminders and timeouts that have come due.

Deadlines and reminders are ``seat_clocks`` rows written with the moves that set them; ``sweep`` fires
what is due at the host's clock, so one that fell while the bot was down fires once at the next start.
A reminder is marked sent before it goes (never twice); a timeout is a move committed with the clock row
it ends (never twice either). Each due row is handled on its own: one that fails never stops the others.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from engine.core.errors import EngineError
from engine.core.model import Frozen
from engine.host.clock import (
    REMINDER_ORDER,
    REMINDERS,
    Reminder,
    SeatClock,
    next_due,
    postponed,
    turn_reminders,
)
from engine.host.notify import QuietHours
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost

log = logging.getLogger(__name__)


class Herald(Protocol):
    """Tells a player that their time is running (a direct message or a mention, as they chose)."""

    async def remind(
        self, match: MatchRecord, clock: SeatClock, reminder: Reminder, left: timedelta
    ) -> None: ...


class Happened(StrEnum):
    REMINDER = "reminder"
    TIMEOUT = "timeout"  # a computer played one turn for the seat
    TAKEOVER = "takeover"  # ... and keeps the seat until its player comes back


class Fired(Frozen):
    """Something the clock did."""

    event: Happened
    match_id: int
    seat: int
    user_id: int
    at: datetime
    reminder: Reminder | None = None


def reminder_at(clock: SeatClock, now: datetime) -> tuple[int, Reminder] | None:
    """The latest of the turn's reminders not yet dealt with whose time has come, with how many reminders
    are dealt with once it is (an earlier one that is late is not sent as well: after the bot was down,
    or quiet hours, a player hears once); None when the deadline is what is due."""
    if clock.started_at is None or clock.deadline is None or now >= clock.deadline:
        return None
    times = turn_reminders(clock.started_at, clock.deadline)
    due = [i for i in range(clock.reminded, REMINDERS) if (at := times[i]) is not None and at <= now]
    if not due:
        return None
    return due[-1] + 1, REMINDER_ORDER[due[-1]]


class Timekeeper:
    def __init__(
        self,
        host: GameHost,
        herald: Herald,
        quiet_of: Callable[[int], Awaitable[QuietHours | None]] | None = None,
    ) -> None:
        """``quiet_of`` gives a person's quiet hours (no reminder reaches them then)."""
        self.host = host
        self.herald = herald
        self.quiet_of = quiet_of

    async def sweep(self, limit: int = 100) -> list[Fired]:
        """Fire everything due at the host's clock; what was fired."""
        now = self.host.clock()
        fired: list[Fired] = []
        for due in await self.host.clocks.due(now, limit):
            try:
                happened = await self._fire(due, now)
            except Exception:
                log.exception(
                    "match %s: the clock of seat %s failed; the others go on", due.match_id, due.seat
                )
                continue
            if happened is not None:
                fired.append(happened)
        return fired

    async def _fire(self, due: SeatClock, now: datetime) -> Fired | None:
        if due.deadline is not None and now >= due.deadline:
            match = await self.host.expire(due)
            if match is None:
                return None
            player = match.player_at(due.seat)
            kept = player is not None and player.absent
            return Fired(
                event=Happened.TAKEOVER if kept else Happened.TIMEOUT,
                match_id=match.id,
                seat=due.seat,
                user_id=due.user_id,
                at=now,
            )
        try:
            match = await self.host.match(due.match_id)
        except EngineError as exc:
            log.info("match %s: its clock is stopped: %s", due.match_id, exc.message)
            await self.host.clocks.settle(due, due.model_copy(update={"due_at": None}))
            return None
        if not self._still_to_act(match, due):
            await self.host.clocks.settle(due, due.model_copy(update={"due_at": None}))
            return None
        found = reminder_at(due, now)
        if found is None:
            return None
        count, reminder = found
        quiet = await self.quiet_of(due.user_id) if self.quiet_of is not None else None
        if quiet is not None and quiet.covers(now):
            await self.host.clocks.settle(due, postponed(due, quiet.end_after(now)))
            return None
        settled = due.model_copy(update={"reminded": count})
        settled = settled.model_copy(update={"due_at": next_due(settled)})
        if not await self.host.clocks.settle(due, settled):
            return None  # the player moved meanwhile, or another sweep sent it
        await self.herald.remind(match, due, reminder, due.left(now))
        return Fired(
            event=Happened.REMINDER,
            match_id=match.id,
            seat=due.seat,
            user_id=due.user_id,
            at=now,
            reminder=reminder,
        )

    def _still_to_act(self, match: MatchRecord, clock: SeatClock) -> bool:
        if match.status is not MatchStatus.ACTIVE:
            return False
        player = match.player_at(clock.seat)
        if player is None or player.bot is not None:
            return False
        return clock.seat in self.host.rules(match.game).to_act(self.host.state_of(match))
