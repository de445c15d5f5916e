"""The Discord side of what the bot says about tournaments of its own accord (``engine.host.
tournament_sending``): where a tournament's channel and its tables' threads are, and the one
``Announcements`` of a bot, sending through its ``DiscordSender`` and writing with its ``DiscordMarks``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs._marks import DiscordMarks
from cogs._sender import DiscordSender, refusals
from engine.host import tournament_sending
from engine.host.ports import MatchRecord
from render.standings import render_standings

if TYPE_CHECKING:
    from cogs._bot import Bot


class DiscordVenue:
    """The host's ``Venue`` on Discord: a tournament's channel, and its tables' threads opened by the
    notifier (which names them after their tournament, round and table)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def reach(self, channel_id: int) -> None:
        with refusals():
            channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)

    async def open_thread(self, match: MatchRecord) -> None:
        with refusals():
            await self.bot.notifier.thread_of(match)


def announcements(bot: Bot) -> tournament_sending.Announcements:
    sender, marks, venue = DiscordSender(bot), DiscordMarks(bot), DiscordVenue(bot)
    return tournament_sending.Announcements(
        bot.tournaments,
        bot.settings,
        sender,
        marks,
        venue,
        render_standings,
        bot.tournament_backoff,
        bot.organisers_told,
    )


async def publish(bot: Bot, tournament_id: int) -> bool:
    """Send the tournament's due announcements (see ``Announcements.publish``)."""
    return await announcements(bot).publish(tournament_id)


async def table_thread_name(bot: Bot, match: MatchRecord) -> str | None:
    """The thread name of a match played at a tournament table (see ``tournament_sending``)."""
    return await tournament_sending.table_thread_name(bot.tournaments, bot.settings, match)
