"""Match clocks on Discord: the words for time left, the reminders a player gets (by the channel they
chose with ``/settings notify``), and the lines that show whose turn it is and how long they have."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord

from cogs._lang import recipient_locale
from cogs._post_buttons import match_view
from engine.host.clock import Pace, Reminder, SeatClock
from engine.host.notify import Channel, QuietHours
from engine.host.ports import MatchRecord
from engine.host.posts import duration
from lang import N_, t

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)


def time_left(locale: str, clock: SeatClock, now: datetime) -> str:
    """How long the seat has left, or when its player is back from an absence."""
    if clock.started_at is not None and clock.started_at > now:
        return t(locale, "away until {when}", when=f"<t:{int(clock.started_at.timestamp())}:f>")
    return t(locale, "{time} left", time=duration(locale, clock.left(now)))


async def clock_notes(bot: Bot, match: MatchRecord, seats: Sequence[int], locale: str) -> dict[int, str]:
    """The time left of each of ``seats`` whose clock runs, by seat (none without a clock)."""
    if match.pace is Pace.NONE:
        return {}
    now = bot.clock()
    clocks = await bot.host.seat_clocks(match)
    return {
        seat: time_left(locale, clocks[seat], now)
        for seat in seats
        if seat in clocks and clocks[seat].running
    }


class DiscordHerald:
    """Sends the clock's reminders: a direct message with the Play button, or a mention in the match
    thread for those who chose the thread (or whose direct messages refuse the bot)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def quiet_of(self, user_id: int) -> QuietHours | None:
        return (await self.bot.notifier.pings.prefs(user_id)).quiet

    async def remind(self, match: MatchRecord, clock: SeatClock, reminder: Reminder, left: timedelta) -> None:
        locale = await recipient_locale(self.bot, clock.user_id, match.guild_id)
        title = self.bot.host.rules(match.game).title
        words = {
            Reminder.HALF: N_("half of your time for match #{number} ({game}) is gone: {time} left to move."),
            Reminder.LAST: N_(
                "match #{number} ({game}) is waiting for you: {time} left, then a computer plays your turn."
            ),
        }
        said = t(locale, words[reminder], number=match.id, game=t(locale, title), time=duration(locale, left))
        prefs = await self.bot.notifier.pings.prefs(clock.user_id)
        if prefs.channel is not Channel.THREAD and not await self.bot.posts.dm_refused(
            match.id, clock.user_id
        ):
            try:
                channel = await self.bot.create_dm(discord.Object(id=clock.user_id))
                await channel.send(
                    "⏳ " + said[:1].upper() + said[1:], view=match_view(match.id, match.version, locale)
                )
                return
            except (discord.Forbidden, discord.NotFound) as exc:
                log.info("match %s: the reminder of seat %s was refused by DM: %s", match.id, clock.seat, exc)
        thread = await self.bot.notifier.thread_of(match)
        if thread is None:
            return
        await thread.send(
            f"⏳ <@{clock.user_id}>, {said}",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=clock.user_id)]),
        )
