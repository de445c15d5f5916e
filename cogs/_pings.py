"""Sends on Discord the turn reminders the host decides (``engine.host.pings``): a mention in the match
thread, with a link to the turn's post, or a direct message with the Play button."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

import discord

from cogs._components import board_view
from cogs._lang import recipient_locale
from engine.core.say import Say
from engine.host.notify import TurnPing
from engine.host.pings import Refused, TryLater
from engine.host.ports import MatchRecord, Notice
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot


class DiscordReminders:
    """The host's ``ReminderSender`` on Discord: a lasting refusal (closed DMs, a thread gone) is
    ``Refused``, any other failure of Discord's ``TryLater``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def mention(self, match: MatchRecord, ping: TurnPing, text: Say) -> None:
        locale = await recipient_locale(self.bot, ping.user_id, match.guild_id)
        said = render(locale, text, lambda _: f"<@{ping.user_id}>")
        live = await self.bot.posts.live_post(match.id)
        if live is not None and match.guild_id:
            said += f" https://discord.com/channels/{match.guild_id}/{live.channel_id}/{live.message_id}"
        mentioned = discord.AllowedMentions(users=[discord.Object(id=ping.user_id)])
        with refusals():
            channel = await self.bot.notifier.thread_of(match)
            if channel is not None:
                await channel.send(said, allowed_mentions=mentioned)

    async def message(self, match: MatchRecord, ping: TurnPing, notice: Notice) -> None:
        locale = await recipient_locale(self.bot, ping.user_id, match.guild_id)
        text = self.bot.notifier.private_text(match, ping.seat, notice, locale)
        with refusals():
            channel = await self.bot.create_dm(discord.Object(id=ping.user_id))
            await channel.send(text, view=board_view(match.id, match.version, locale))

    async def dm_closed(self, match: MatchRecord, user_id: int) -> None:
        await self.bot.notifier.tell_dm_closed(match, user_id)


@contextlib.contextmanager
def refusals() -> Iterator[None]:
    """Discord's failures as the host reads them: ``Refused`` for good, ``TryLater`` otherwise."""
    try:
        yield
    except (discord.Forbidden, discord.NotFound) as exc:
        raise Refused(str(exc)) from exc
    except discord.HTTPException as exc:
        raise TryLater(str(exc)) from exc
