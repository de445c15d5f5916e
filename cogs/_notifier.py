"""Delivers the host's outbox to Discord: board posts in match threads and hands by DM.

A DM that Discord refuses (closed DMs) is replaced by one notice in the thread that says so, without
any of the hand, and the player reads it through the "My hand" button or ``/hand`` instead.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from cogs._ui import HandButton, match_view
from engine.host.ports import Delivery, MatchRecord, Notice
from engine.host.text import clip_lines, standings_lines
from render.registry import render_view

if TYPE_CHECKING:
    from cogs._client import BigApple

log = logging.getLogger(__name__)

DM_CLOSED = 50007  # Discord's "Cannot send messages to this user"
CONTENT_LIMIT = 2000


def mention_list(match: MatchRecord, seats: tuple[int, ...]) -> str:
    """Mentions of the human players among ``seats``, names of the computer ones."""
    names = []
    for seat in seats:
        player = match.player_at(seat)
        if player is None:
            continue
        names.append(f"<@{player.user_id}>" if player.user_id and not player.bot else f"**{player.name}**")
    return ", ".join(names)


class DiscordNotifier:
    """The ``Notifier`` port for Discord."""

    def __init__(self, bot: BigApple) -> None:
        self.bot = bot
        self._told_dm_closed: set[tuple[int, int]] = set()

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        if delivery.seat is None:
            await self._post_public(match, delivery, notice)
        else:
            await self._send_private(match, delivery, notice)

    async def thread_of(self, match: MatchRecord) -> discord.abc.Messageable | None:
        """The match's thread, opened in its channel on first use (tournament matches); None for a match
        made outside Discord."""
        target = match.thread_id or match.channel_id
        if target is None:
            return None
        channel = self.bot.get_channel(target) or await self.bot.fetch_channel(target)
        if match.thread_id is None and isinstance(channel, discord.TextChannel):
            title = self.bot.host.rules(match.game).title
            channel = await channel.create_thread(
                name=f"{title} #{match.id}",
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
            await self.bot.store.set_thread(match.id, channel.id)
            for player in match.players:
                if player.user_id is not None and player.bot is None:
                    await channel.add_user(discord.Object(id=player.user_id))
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def image(self, match: MatchRecord, version: int, seat: int | None) -> discord.File | None:
        """The board (``seat`` None) or a seat's hand as of ``version``, rendered off the event loop."""
        state = await self.bot.host.state_at(match, version)
        view = self.bot.host.view(match, seat, state)
        png = await asyncio.to_thread(render_view, match.game, view, match.seat_names())
        if png is None:
            return None
        name = "board.png" if seat is None else "hand.png"
        return discord.File(io.BytesIO(png), filename=name)

    async def _post_public(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        channel = await self.thread_of(match)
        if channel is None:
            return
        title = self.bot.host.rules(match.game).title
        parts = [f"**{title}** · match #{match.id}"]
        if notice.headline:
            parts.append(f"**{notice.headline}**")
        if notice.lines:
            body = "\n".join(clip_lines(notice.lines, 1200))
            parts.append(f"```\n{body}\n```")
        if notice.finished:
            outcome = self.bot.host.outcome(await self.bot.host.match(match.id))
            if outcome is not None:
                parts.append("```\n" + "\n".join(standings_lines(match, outcome)) + "\n```")
        elif notice.to_act:
            parts.append(f"▶ {mention_list(match, notice.to_act)} to act")
        if notice.everyone:
            parts.append(f"Players: {mention_list(match, tuple(range(match.seat_count)))}")
        content = "\n".join(parts)[:CONTENT_LIMIT]
        pinged = range(match.seat_count) if notice.everyone else notice.to_act
        mentioned = [
            discord.Object(id=p.user_id)
            for s in pinged
            if (p := match.player_at(s)) is not None and p.user_id and not p.bot
        ]
        file = await self.image(match, delivery.version, None)
        kwargs: dict[str, object] = {
            "content": content,
            "allowed_mentions": discord.AllowedMentions(users=mentioned, roles=False, everyone=False),
        }
        if file is not None:
            kwargs["file"] = file
        if not notice.finished:
            kwargs["view"] = match_view(match.id, delivery.version)
        await channel.send(**kwargs)  # type: ignore[call-overload]

    async def _send_private(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        assert delivery.seat is not None
        player = match.player_at(delivery.seat)
        if player is None or player.user_id is None or player.bot is not None:
            return  # nobody reads a computer player's hand
        content = self.private_text(match, delivery.seat, notice)
        file = await self.image(match, delivery.version, delivery.seat)
        try:
            user = self.bot.get_user(player.user_id) or await self.bot.fetch_user(player.user_id)
            if file is not None:
                await user.send(content, file=file)
            else:
                await user.send(content)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                raise
            await self._tell_dm_closed(match, player.user_id)

    def private_text(self, match: MatchRecord, seat: int, notice: Notice) -> str:
        """A DM: which server and match it is about, a link to the thread, the private lines, and
        whether it is the player's turn."""
        title = self.bot.host.rules(match.game).title
        guild = self.bot.get_guild(match.guild_id) if match.guild_id else None
        where = f" on **{guild.name}**" if guild else ""
        parts = [f"**{title}** · match #{match.id}{where}"]
        if notice.headline:
            parts[0] += f" · {notice.headline}"
        if match.thread_id and match.guild_id:
            parts.append(f"Thread: https://discord.com/channels/{match.guild_id}/{match.thread_id}")
        if notice.lines:
            parts.append("```\n" + "\n".join(clip_lines(notice.lines, 1200)) + "\n```")
        if seat in notice.to_act:
            parts.append(
                "▶ It is your turn: press **Play** under the latest board in the thread, or use `/move`."
            )
        return "\n".join(parts)[:CONTENT_LIMIT]

    async def _tell_dm_closed(self, match: MatchRecord, user_id: int) -> None:
        if (match.id, user_id) in self._told_dm_closed:
            return
        channel = await self.thread_of(match)
        if channel is None:
            return
        view = discord.ui.View(timeout=None)
        view.add_item(HandButton(match.id))
        await channel.send(
            f"<@{user_id}>, I cannot send you direct messages, so your hand stays here behind the "
            "**My hand** button (or `/hand`); only you can see what it shows.",
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=user_id)]),
        )
        self._told_dm_closed.add((match.id, user_id))
        log.info("match %s: DMs closed for user %s; told them in the thread", match.id, user_id)
