"""The host's ``Sender`` on Discord: every message the bot sends of its own accord (reminders, tournament
posts, notes in a thread) goes out here, its controls as components."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import discord

from cogs._components import view_of
from engine.host.outbox import DestinationGone
from engine.host.outgoing import Outgoing, Refused, Sent, TryLater
from engine.host.ports import MatchRecord

if TYPE_CHECKING:
    from cogs._bot import Bot

CONTENT_LIMIT = 2000


def message_of(message: Outgoing) -> dict[str, Any]:
    """The arguments of Discord's send for ``message``: it calls only the people it names."""
    called = [discord.Object(id=user_id) for user_id in message.mentions]
    sent: dict[str, Any] = {
        "content": message.text[:CONTENT_LIMIT],
        "allowed_mentions": discord.AllowedMentions(users=called, roles=False, everyone=False),
    }
    if message.controls:
        sent["view"] = view_of(message.controls)
    if message.image is not None:
        sent["file"] = discord.File(io.BytesIO(message.image), filename=message.filename)
    if message.silent:
        sent["silent"] = True
    if message.nonce is not None:
        sent["nonce"] = message.nonce
    return sent


@contextlib.contextmanager
def refusals() -> Iterator[None]:
    """Discord's failures as the host reads them: ``Refused`` for good (``gone`` when the channel or
    person is no more), ``TryLater`` otherwise."""
    try:
        yield
    except (discord.Forbidden, discord.NotFound) as exc:
        raise Refused(exc, gone=isinstance(exc, discord.NotFound)) from exc
    except discord.HTTPException as exc:
        raise TryLater(str(exc)) from exc


class DiscordSender:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def to_channel(self, channel_id: int, message: Outgoing) -> Sent:
        with refusals():
            channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                raise Refused(f"channel {channel_id} takes no messages")
            posted = await channel.send(**message_of(message))
        return Sent(posted.channel.id, posted.id)

    async def to_person(self, user_id: int, message: Outgoing) -> Sent:
        with refusals():
            channel = await self.bot.create_dm(discord.Object(id=user_id))
            posted = await channel.send(**message_of(message))
        return Sent(posted.channel.id, posted.id)

    async def edit(self, where: Sent, message: Outgoing) -> None:
        shown = self.bot.get_partial_messageable(where.channel_id).get_partial_message(where.message_id)
        kwargs: dict[str, Any] = {}
        if message.image is not None:
            kwargs["attachments"] = [discord.File(io.BytesIO(message.image), filename=message.filename)]
        with refusals():
            await shown.edit(
                content=message.text[:CONTENT_LIMIT],
                view=view_of(message.controls) if message.controls else None,
                allowed_mentions=discord.AllowedMentions.none(),
                **kwargs,
            )

    async def to_match(self, match: MatchRecord, message: Outgoing) -> Sent:
        """In the match's thread; a thread gone or closed to the bot is replaced as for a board post (see
        ``engine.host.threads``), and the match with nowhere left to post is ``Refused`` as gone."""
        try:
            sent = await self.bot.notifier.threads.post(match, message)
        except DestinationGone as gone:
            raise Refused(gone, gone=True) from gone
        if sent is None:
            raise Refused(f"match {match.id} has no thread")
        return sent
