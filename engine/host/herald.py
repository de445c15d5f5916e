"""The timekeeper's herald for every front end: a clock's reminder reaches a player by direct message
when they chose messages (and theirs are open), else by a mention in the match's thread, which is also
where it goes when their direct messages refuse it. Their quiet hours are those of their turn
reminders (``engine.host.pings``)."""

from __future__ import annotations

import logging
from datetime import timedelta

from engine.host.clock import Reminder, SeatClock
from engine.host.notify import QuietHours
from engine.host.outgoing import Refused
from engine.host.pings import TurnPings
from engine.host.ports import MatchRecord

log = logging.getLogger(__name__)


class ClockHerald:
    """The ``Herald`` of ``engine.host.timekeeper``, by each person's choice in ``pings``."""

    def __init__(self, pings: TurnPings) -> None:
        self.pings = pings

    async def quiet_of(self, user_id: int) -> QuietHours | None:
        """The person's quiet hours, when no reminder reaches them."""
        return (await self.pings.prefs(user_id)).quiet

    async def remind(self, match: MatchRecord, clock: SeatClock, reminder: Reminder, left: timedelta) -> None:
        said = self.pings.reminders
        if await self.pings.by_message(match.id, clock.user_id):
            try:
                await said.clock_by_message(match, clock.user_id, reminder, left)
                return
            except Refused as exc:
                log.info("match %s: the reminder of seat %s was refused by DM: %s", match.id, clock.seat, exc)
        try:
            await said.clock_in_thread(match, clock.user_id, reminder, left)
        except Refused as exc:
            log.info(
                "match %s: the reminder of seat %s was refused in the thread: %s", match.id, clock.seat, exc
            )
