"""Match clocks on Discord: the reminders a player gets (by the channel they chose with
``/settings notify``), and the time left of the seats a post calls. The words are the host's
(``engine.host.clock_words``); here they become Discord messages, moments Discord timestamps."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from cogs._components import board_view
from cogs._lang import recipient_locale
from cogs._marks import DiscordMarks
from engine.host import clock_words
from engine.host.clock import Reminder, SeatClock
from engine.host.notify import QuietHours
from engine.host.ports import MatchRecord

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)


async def clock_notes(bot: Bot, match: MatchRecord, seats: Sequence[int], locale: str) -> dict[int, str]:
    """The time left of each of ``seats`` whose clock runs, by seat (none without a clock)."""
    return await clock_words.clock_notes(bot.host, match, seats, locale, DiscordMarks(bot))


class DiscordHerald:
    """Sends the clock's reminders: a direct message with the Play button, or a mention in the match
    thread for those who chose the thread (or whose direct messages refuse the bot)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def quiet_of(self, user_id: int) -> QuietHours | None:
        return (await self.bot.notifier.pings.prefs(user_id)).quiet

    async def remind(self, match: MatchRecord, clock: SeatClock, reminder: Reminder, left: timedelta) -> None:
        locale = await recipient_locale(self.bot, clock.user_id, match.guild_id)
        said = clock_words.reminder_of(self.bot.host, match, reminder, left, locale)
        if await self.bot.notifier.pings.by_message(match.id, clock.user_id):
            try:
                channel = await self.bot.create_dm(discord.Object(id=clock.user_id))
                await channel.send(
                    "⏳ " + said[:1].upper() + said[1:], view=board_view(match.id, match.version, locale)
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
