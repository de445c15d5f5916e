"""Delivers the host's outbox to Discord: board posts in match threads and hands by DM.

A DM that Discord refuses (closed DMs) is replaced by one notice in the thread that says so, without
any of the hand, and the player reads it through the "My hand" button or ``/hand`` instead.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

import lang
from cogs._animations import NoAnimation, shortened_note
from cogs._clocks import clock_notes
from cogs._final_ui import final_view
from cogs._lang import recipient_locale
from cogs._marks import DiscordMarks
from cogs._post_buttons import match_view
from cogs._sender import DiscordSender
from cogs._tournament_posts import table_thread_name
from engine.host.boards import board_before_turn
from engine.host.images import digest, new_image
from engine.host.ledgers import BOARD_IMAGE_SEAT
from engine.host.lobby_words import thread_title
from engine.host.locks import MatchLocks
from engine.host.outbox import DestinationGone
from engine.host.pings import TurnPings
from engine.host.ports import Delivery, LivePost, MatchRecord, Notice
from engine.host.post_words import board_post_text
from engine.host.private import (
    call_list,
    heading_of,
    humans,
    moved_note,
    nowhere_left,
    private_message,
    private_reader,
)
from engine.host.reminders import Reminders
from lang import t
from lang.says import Namer, render
from render.since import Since

if TYPE_CHECKING:
    from cogs._bot import Bot as BigApple

log = logging.getLogger(__name__)

CONTENT_LIMIT = 2000


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def nonce_of(delivery: Delivery) -> str:
    """The nonce of a delivery's message: the same on every try, so Discord keeps one message even when
    a post went through but the bot died before marking it sent."""
    return f"ba-{delivery.id}"


class DiscordNotifier:
    """The ``Notifier`` port for Discord."""

    def __init__(self, bot: BigApple) -> None:
        self.bot = bot
        # Matches whose players were told by DM that the bot has nowhere left to post them.
        self._told_nowhere: set[int] = set()
        self._opening = MatchLocks()
        reminders = Reminders(bot.host, bot.settings, bot.posts, DiscordSender(bot), DiscordMarks(bot))
        self.pings = TurnPings(bot.host, bot.settings, bot.ping_ledger, bot.posts, reminders, bot.clock)

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        if delivery.seat is None:
            await self._post_public(match, delivery, notice)
        else:
            await self._send_private(match, delivery, notice)

    async def thread_of(self, match: MatchRecord) -> discord.abc.Messageable | None:
        """The match's thread, opened in its channel on first use (tournament matches); None for a match
        made outside Discord. Raises ``discord.NotFound`` or ``discord.Forbidden`` when it is gone."""
        if match.thread_id is None and match.channel_id is not None:
            # The board's sender, a seat's reminder and a tournament's pairings may all want the thread
            # at once: the first opens it, and the others find it in the record.
            async with self._opening(match.id):
                match = await self.bot.host.match(match.id)
                return await self._thread_or_channel(match)
        return await self._thread_or_channel(match)

    async def _thread_or_channel(self, match: MatchRecord) -> discord.abc.Messageable | None:
        target = match.thread_id or match.channel_id
        if target is None:
            return None
        channel = self.bot.get_channel(target) or await self.bot.fetch_channel(target)
        if match.thread_id is None and isinstance(channel, discord.TextChannel):
            channel = await self._open_thread(match, channel)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _open_thread(self, match: MatchRecord, parent: discord.TextChannel) -> discord.Thread:
        """A new public thread for the match in ``parent``, remembered and joined by its players."""
        # A tournament table's thread is named after its tournament, round and table.
        name = await table_thread_name(self.bot, match) or thread_title(self.bot.host, match)
        thread = await parent.create_thread(
            name=name,
            type=discord.ChannelType.public_thread,
            auto_archive_duration=10080,
        )
        await self.bot.posts.set_thread(match.id, thread.id)
        for user_id in humans(match):
            await thread.add_user(discord.Object(id=user_id))
        return thread

    async def move_match(self, match: MatchRecord, problem: discord.HTTPException) -> discord.abc.Messageable:
        """The match's thread is gone or closed to the bot: go on in a new thread of its channel, or
        else in the channel itself, and say so there. When the channel is out of reach too, tell the
        players by DM and raise ``DestinationGone``."""
        deleted = isinstance(problem, discord.NotFound)
        log.warning("match %s: its thread is out of reach (%s); moving it", match.id, problem)
        locale = await recipient_locale(self.bot, None, match.guild_id)
        players = ", ".join(mention(u) for u in humans(match))
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in humans(match)])
        try:
            if match.channel_id is None:
                raise DestinationGone(f"match {match.id} has no channel to move to")
            parent = self.bot.get_channel(match.channel_id) or await self.bot.fetch_channel(match.channel_id)
            if not isinstance(parent, discord.TextChannel):
                raise DestinationGone(f"the channel of match {match.id} takes no threads")
            try:
                thread = await self._open_thread(match, parent)
                note = render(locale, moved_note(match.id, deleted, in_channel=False))
                await thread.send(f"{note} {players}", allowed_mentions=mentions)
                return thread
            except discord.Forbidden:
                # No thread may be opened or written in: the channel itself hosts the match from now on.
                await self.bot.posts.set_thread(match.id, parent.id)
                note = render(locale, moved_note(match.id, deleted, in_channel=True))
                await parent.send(f"{note} {players}", allowed_mentions=mentions)
                return parent
        except (discord.NotFound, discord.Forbidden, DestinationGone) as exc:
            await self._tell_players_by_dm(match)
            raise DestinationGone(f"match {match.id} has nowhere left to post: {exc}") from exc

    async def _tell_players_by_dm(self, match: MatchRecord) -> None:
        """Tell the players once that the match has no thread or channel left."""
        if match.id in self._told_nowhere:
            return
        self._told_nowhere.add(match.id)
        for user_id in humans(match):
            locale = await recipient_locale(self.bot, user_id, match.guild_id)
            text = nowhere_left(locale, self.heading(match, locale))
            try:
                await (await self.bot.create_dm(discord.Object(id=user_id))).send(text)
            except discord.HTTPException as exc:
                log.info("match %s: could not tell user %s by DM either: %s", match.id, user_id, exc)

    async def png(
        self,
        match: MatchRecord,
        version: int,
        seat: int | None,
        locale: str = lang.DEFAULT,
        since_seat: int | None = None,
    ) -> bytes | None:
        """The board (``seat`` None) or a seat's hand as of ``version`` with its words in ``locale``,
        rendered off the event loop (in the bot's render processes). With ``since_seat``, the board marks
        what changed since that player's previous turn."""
        view = await self.bot.host.view_at(match, version, seat)
        since = (
            await self.since(match, version, since_seat) if seat is None and since_seat is not None else None
        )
        return await self.bot.renderer.render(match.game, view, match.seat_names(), locale, since)

    async def since(self, match: MatchRecord, version: int, seat: int) -> Since | None:
        """The public board as ``seat`` left it at the end of their previous turn, as of ``version``."""
        board = await board_before_turn(self.bot.host, match, version, seat)
        return Since(board, seat) if board is not None else None

    async def image(
        self, match: MatchRecord, version: int, seat: int | None, locale: str = lang.DEFAULT
    ) -> discord.File | None:
        """``png`` as a file to attach."""
        png = await self.png(match, version, seat, locale)
        if png is None:
            return None
        return discord.File(io.BytesIO(png), filename="board.png" if seat is None else "hand.png")

    def heading(self, match: MatchRecord, locale: str) -> str:
        """ "**Game title** · match #N", in ``locale``."""
        return heading_of(self.bot.host, match, locale)

    def namer(self, match: MatchRecord) -> Namer:
        """Seat names as the thread shows them: display names (markdown-safe) with colour symbols."""
        name = self.bot.host.namer(match)
        return lambda seat: discord.utils.escape_markdown(name(seat))

    async def _post_public(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        """The board post of a notice, as the host plans it (``engine.host.posts``): the turn's post
        edited in place while the same players keep acting, else a new post with one mention, the
        previous one losing its buttons so that only the latest post has controls."""
        locale = await recipient_locale(self.bot, None, match.guild_id)
        name = self.namer(match)
        live = await self.bot.posts.live_post(match.id)

        def calls(seats: Sequence[int]) -> str:
            return call_list(match, seats, mention)  # people mentioned, computers named

        plan = await self.bot.host.board_post(match, delivery, notice, live, locale, name, calls)
        outcome = plan.outcome
        notes = await clock_notes(self.bot, match, plan.call, locale) if plan.call else {}
        heading = self.heading(match, locale)
        content = board_post_text(locale, plan, heading, name, calls, notes)[:CONTENT_LIMIT]
        png = await self.png(match, delivery.version, None, locale, since_seat=plan.since_seat)
        view: discord.ui.View | None = match_view(match.id, delivery.version, locale, plan.undo)
        if notice.finished:
            view = final_view(match.id, locale) if outcome is not None else None
        shown = plan.shown
        board_image = digest(png) if png is not None else None
        continuing = live is not None and plan.continuing
        if live is not None and continuing and await self._edit_live(live, content, png, view):
            await self.bot.posts.save_live_post(
                shown.model_copy(update={"channel_id": live.channel_id, "message_id": live.message_id}),
                board_image=board_image,
            )
            return
        pinged = range(match.seat_count) if plan.everyone else notice.to_act
        # Each player's own choice says whether this post mentions them (see engine.host.pings).
        turn = await self.pings.begin(match, delivery, notice, pinged, live is not None and continuing)
        mentioned = [discord.Object(id=user_id) for user_id in turn.mention]

        async def post(channel: discord.abc.Messageable) -> discord.Message:
            kwargs: dict[str, object] = {
                "content": content,
                "allowed_mentions": discord.AllowedMentions(users=mentioned, roles=False, everyone=False),
                "nonce": nonce_of(delivery),
            }
            if png is not None:
                kwargs["file"] = discord.File(io.BytesIO(png), filename="board.png")
            if view is not None:
                kwargs["view"] = view
            return await channel.send(**kwargs)  # type: ignore[call-overload,no-any-return]

        moved = False
        try:
            channel = await self.thread_of(match)
            if channel is None:
                return
            message = await post(channel)
        except (discord.NotFound, discord.Forbidden) as exc:
            message = await post(await self.move_match(match, exc))
            moved = True
        if live is not None and live.message_id != message.id and not moved:
            # (Where the match moved from, the bot can no longer edit anything.)
            await self._strip_controls(live)
        await self.bot.posts.save_live_post(
            shown.model_copy(update={"channel_id": message.channel.id, "message_id": message.id}),
            turn.pings,
            board_image,
        )
        self.pings.saved(turn.pings or ())
        if outcome is not None and self.bot.animations:
            self.bot.in_background(
                self._post_animation(match, message.channel, locale), f"animation-{match.id}"
            )

    async def _post_animation(
        self, match: MatchRecord, channel: discord.abc.Messageable, locale: str
    ) -> None:
        """The whole match move by move, as an animated GIF under the final post (as much of it as fits,
        said in words). It is drawn in the background at the lowest priority (see
        ``RenderPool.animate_match``), so no move elsewhere waits for it; a failure is logged and the
        match stays as it is. When the bot stops first, the animation is abandoned, said in the log:
        ``/replay`` can still send it."""
        try:
            animation = await self.bot.animator.of(match)
            text = t(locale, "The whole match, move by move:")
            note = shortened_note(locale, animation)
            await channel.send(
                f"{text}\n{note}" if note else text,
                file=discord.File(io.BytesIO(animation.gif), filename=f"match-{match.id}.gif"),
            )
        except asyncio.CancelledError:
            log.info("match %s: the bot stopped before the animation of the match was posted", match.id)
            raise
        except NoAnimation as exc:
            log.warning("match %s: no animation of the match is posted (%s)", match.id, exc.message)
        except Exception:
            log.exception("match %s: the animation of the match could not be posted", match.id)

    async def _edit_live(
        self, live: LivePost, content: str, png: bytes | None, view: discord.ui.View | None
    ) -> bool:
        """Show the turn so far on its post; False if that post is gone (a new post takes over)."""
        message = self.bot.get_partial_messageable(live.channel_id).get_partial_message(live.message_id)
        kwargs: dict[str, Any] = {}
        if png is not None and await new_image(self.bot.posts, live.match_id, BOARD_IMAGE_SEAT, png):
            # Only a board that changed is uploaded again; otherwise the post keeps its image.
            kwargs["attachments"] = [discord.File(io.BytesIO(png), filename="board.png")]
        try:
            await message.edit(
                content=content, view=view, allowed_mentions=discord.AllowedMentions.none(), **kwargs
            )
        except (discord.NotFound, discord.Forbidden):
            return False
        return True

    async def _strip_controls(self, live: LivePost) -> None:
        """Take the buttons off a post that no longer shows the current turn (best effort: a failure
        leaves stale buttons, which answer that the board has moved on)."""
        message = self.bot.get_partial_messageable(live.channel_id).get_partial_message(live.message_id)
        try:
            await message.edit(view=None)
        except discord.HTTPException as exc:
            log.info(
                "match %s: could not take the buttons off post %s: %s", live.match_id, live.message_id, exc
            )

    async def _send_private(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        assert delivery.seat is not None
        reader = private_reader(match, delivery.seat, notice)
        if reader is None:
            return
        locale = await recipient_locale(self.bot, reader, match.guild_id)
        content = self.private_text(match, delivery.seat, notice, locale)
        png = await self.png(match, delivery.version, delivery.seat, locale)
        kwargs: dict[str, object] = {"nonce": nonce_of(delivery)}
        # The hand image goes only with a hand that changed since the last one this player received.
        fresh = await new_image(self.bot.posts, match.id, delivery.seat, png)
        if png is not None and fresh:
            kwargs["file"] = discord.File(io.BytesIO(png), filename="hand.png")
        if delivery.seat in notice.to_act:
            # The same controls as the thread's post: a player can take the whole turn from here.
            kwargs["view"] = match_view(match.id, delivery.version, locale)
        if not await self.pings.loud(match, delivery, notice, reader):
            kwargs["silent"] = True
        try:
            channel = await self.bot.create_dm(discord.Object(id=reader))
            await channel.send(content, **kwargs)  # type: ignore[call-overload]
        except (discord.Forbidden, discord.NotFound) as exc:
            # Closed DMs (50007), a user who blocked the bot or shares no server with it any more: every
            # such refusal lasts, so the hand stays behind the "My hand" button instead.
            log.info("match %s: DMs to user %s refused (%s)", match.id, reader, exc)
            await self.pings.reminders.dm_closed(match, reader)
            return
        if fresh:
            await self.bot.posts.remember_sent_image(match.id, delivery.seat, fresh)

    def private_text(self, match: MatchRecord, seat: int, notice: Notice, locale: str = lang.DEFAULT) -> str:
        """A DM: which server and match it is about, a link to the thread, the private lines, and
        whether it is the player's turn."""
        text = private_message(self.bot.host, match, seat, notice, locale, DiscordMarks(self.bot))
        return text[:CONTENT_LIMIT]
