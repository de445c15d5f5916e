"""Discord's side of delivering the host's outbox (``engine.host.deliveries``): the matches' threads
(opened on first use, replaced when one is lost), the drawings, and the posting and editing of posts.

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
from cogs._animations import NoAnimation
from cogs._components import view_of
from cogs._marks import DiscordMarks
from cogs._sender import DiscordSender, refusals
from cogs._tournament_posts import table_thread_name
from engine.host.boards import board_before_turn
from engine.host.deliveries import Deliveries
from engine.host.lobby_words import thread_title
from engine.host.match_stats import statistics_text, stored_log
from engine.host.outgoing import Outgoing, Sent
from engine.host.pings import TurnPings
from engine.host.ports import Delivery, LivePost, MatchRecord, Notice
from engine.host.reminders import Reminders
from engine.host.replays import final_animation_text
from engine.host.threads import Threads
from render.match_stats import match_stats_image
from render.since import Since

if TYPE_CHECKING:
    from cogs._bot import Bot as BigApple

log = logging.getLogger(__name__)

CONTENT_LIMIT = 2000


class DiscordNotifier:
    """The ``Notifier`` port for Discord, and the ``Front`` of its deliveries."""

    def __init__(self, bot: BigApple) -> None:
        self.bot = bot
        sender = DiscordSender(bot)
        reminders = Reminders(bot.host, bot.settings, bot.posts, sender, DiscordMarks(bot), bot.web_links)
        self.pings = TurnPings(bot.host, bot.settings, bot.ping_ledger, bot.posts, reminders, bot.clock)
        self.threads = Threads(
            bot.host, bot.posts, bot.settings, sender, self, DiscordMarks(bot), self.thread_name
        )
        self.deliveries = Deliveries(
            bot.host,
            bot.settings,
            bot.posts,
            self.pings,
            sender,
            self,
            DiscordMarks(bot),
            bot.web_links,
        )

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        await self.deliveries.deliver(match, delivery, notice)

    async def thread_of(self, match: MatchRecord) -> discord.abc.Messageable | None:
        """The channel the match posts in (see ``Threads.place_of``): None for a match made outside
        Discord. Raises ``Refused`` when its channel is out of reach."""
        place = await self.threads.place_of(match)
        if place is None:
            return None
        return self.bot.get_partial_messageable(place)

    async def open_thread(self, channel_id: int, name: str, people: Sequence[int]) -> int | None:
        with refusals():
            parent = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
            if not isinstance(parent, discord.TextChannel):
                return None
            thread = await parent.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
            for user_id in people:
                await thread.add_user(discord.Object(id=user_id))
        return thread.id

    async def thread_name(self, match: MatchRecord) -> str:
        # A tournament table's thread is named after its tournament, round and table.
        return await table_thread_name(self.bot, match) or thread_title(self.bot.host, match)

    async def draw(
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

    async def post(self, match: MatchRecord, message: Outgoing) -> Sent | None:
        return await self.threads.post(match, message)

    def finished(self, match: MatchRecord, where: Sent, locale: str) -> None:
        self.bot.background.in_background(self._after_final(match, where, locale), f"statistics-{match.id}")

    async def _after_final(self, match: MatchRecord, where: Sent, locale: str) -> None:
        """Under the final post, in this order: the match in numbers, then its animation."""
        await self._post_statistics(match, where, locale)
        if self.bot.animations:
            await self._post_animation(match, where, locale)

    async def _post_statistics(self, match: MatchRecord, where: Sent, locale: str) -> None:
        """The statistics image of the match (see ``engine.host.match_stats``), drawn in the bot's render
        processes; a failure is logged and the match stays as it is."""
        try:
            moves = await stored_log(self.bot.host, match)
            png = await self.bot.renderer.run(match_stats_image, match, moves, locale)
            shown = Outgoing(
                statistics_text(match, locale), image=png, filename=f"match-{match.id}-numbers.png"
            )
            await self.deliveries.sender.to_channel(where.channel_id, shown)
        except asyncio.CancelledError:
            log.info("match %s: the bot stopped before the statistics of the match were posted", match.id)
            raise
        except Exception:
            log.exception("match %s: the statistics of the match could not be posted", match.id)

    async def _post_animation(self, match: MatchRecord, where: Sent, locale: str) -> None:
        """The whole match move by move, as an animated GIF under the final post (as much of it as fits,
        said in words). It is drawn in the background at the lowest priority (see
        ``RenderPool.animate_match``), so no move elsewhere waits for it; a failure is logged and the
        match stays as it is. When the bot stops first, the animation is abandoned, said in the log:
        ``/replay`` can still send it."""
        try:
            animation = await self.bot.animator.of(match)
            text = final_animation_text(animation.shows.value, locale)
            gif = Outgoing(text, image=animation.gif, filename=f"match-{match.id}.gif")
            await self.deliveries.sender.to_channel(where.channel_id, gif)
        except asyncio.CancelledError:
            log.info("match %s: the bot stopped before the animation of the match was posted", match.id)
            raise
        except NoAnimation as exc:
            log.warning("match %s: no animation of the match is posted (%s)", match.id, exc.message)
        except Exception:
            log.exception("match %s: the animation of the match could not be posted", match.id)

    async def edit(self, where: Sent, message: Outgoing) -> bool:
        """Show ``message`` on a post or private message; False if it is gone (a new one takes over)."""
        post = self.bot.get_partial_messageable(where.channel_id).get_partial_message(where.message_id)
        kwargs: dict[str, Any] = {}
        if message.image is not None:
            kwargs["attachments"] = [discord.File(io.BytesIO(message.image), filename=message.filename)]
        try:
            await post.edit(
                content=message.text[:CONTENT_LIMIT],
                view=view_of(message.controls) if message.controls else None,
                allowed_mentions=discord.AllowedMentions.none(),
                **kwargs,
            )
        except (discord.NotFound, discord.Forbidden):
            return False
        return True

    async def strip(self, live: LivePost) -> None:
        """Take the buttons off a post that no longer shows the current turn (best effort: a failure
        leaves stale buttons, which answer that the board has moved on)."""
        message = self.bot.get_partial_messageable(live.channel_id).get_partial_message(live.message_id)
        try:
            await message.edit(view=None)
        except discord.HTTPException as exc:
            log.info(
                "match %s: could not take the buttons off post %s: %s", live.match_id, live.message_id, exc
            )
