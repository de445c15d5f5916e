"""What the bot posts about tournaments of its own accord: each round's pairings (in the tournament's
channel and to each player by DM), the standings, reminders at the tables before a round's deadline,
and the names of the tables' threads. The host plans and words them (``engine.host.tournament_posts``,
``engine.host.tournament_words``); this module sends them."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from cogs._lang import recipient_locale
from engine.core.errors import EngineError
from engine.host import tournament_posts as tposts
from engine.host import tournament_words as words
from engine.host.ports import MatchRecord
from engine.host.tournaments import Entrant, RoundRecord, TournamentRecord
from render.standings import render_standings

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)


def standings_file(locale: str, record: TournamentRecord, after_round: int | None = None) -> discord.File:
    """The standings' image (now, or as they stood after ``after_round``) as an attachment."""
    headings, rows = words.standings_image(locale, record, after_round)
    subtitle = words.standings_subtitle(locale, record, after_round)
    png = render_standings(record.name, subtitle, rows, headings)
    return discord.File(io.BytesIO(png), filename="standings.png")


async def table_thread_name(bot: Bot, match: MatchRecord) -> str | None:
    """The thread name of a match played at a tournament table, in the server's language; None for any
    other match (or when its tournament cannot be read, so the match still gets its thread)."""
    try:
        found = await bot.tournaments.table_of_match(match.id)
    except EngineError as exc:
        log.warning("match %s: its tournament cannot be read for the thread's name: %s", match.id, exc)
        return None
    if found is None:
        return None
    record, round_number, table = found
    locale = await recipient_locale(bot, None, record.guild_id)
    return words.thread_name(locale, record.name, round_number, table.number)


def mention(entrant: Entrant) -> str:
    return f"<@{entrant.user_id}>" if entrant.user_id and not entrant.bot else f"**{entrant.name}**"


def channel_link(thread: int) -> str:
    return f"<#{thread}>"


class ChannelAnnouncer:
    """Posts a tournament's announcements in its channel and its pairings by DM (see
    ``engine.host.tournament_posts.Announcer``)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.channel: discord.abc.Messageable | None = None

    async def reach(self, record: TournamentRecord) -> None:
        assert record.channel_id is not None
        try:
            channel = self.bot.get_channel(record.channel_id) or await self.bot.fetch_channel(
                record.channel_id
            )
        except (discord.Forbidden, discord.NotFound) as exc:
            raise tposts.ChannelLost(isinstance(exc, discord.NotFound), exc) from exc
        assert isinstance(channel, discord.abc.Messageable)
        self.channel = channel

    async def tell_pairings(self, record: TournamentRecord, rnd: RoundRecord, open_threads: bool) -> set[int]:
        return await send_pairings_by_dm(
            self.bot, record, rnd, await table_threads(self.bot, rnd, open_threads)
        )

    async def announce(self, record: TournamentRecord, due: tposts.Announcement, reached: set[int]) -> None:
        try:
            await self.post(record, due, reached)
        except (discord.Forbidden, discord.NotFound) as exc:
            raise tposts.ChannelLost(isinstance(exc, discord.NotFound), exc) from exc

    async def post(self, record: TournamentRecord, due: tposts.Announcement, reached: set[int]) -> None:
        """Post one announcement in the tournament's channel; a reminder goes to its tables' threads."""
        assert self.channel is not None
        locale = await recipient_locale(self.bot, None, record.guild_id)  # announcements are public
        if due.kind == "final":
            file = await asyncio.to_thread(standings_file, locale, record)
            await self.channel.send(words.final_line(locale, record, mention), file=file, nonce=due.nonce)
            return
        assert due.round is not None
        if due.kind == "reminder":
            await remind_tables(self.bot, record, due)
        elif due.kind == "standings":
            file = await asyncio.to_thread(standings_file, locale, record, due.round)
            content = words.standings_message(locale, record, due.round)
            await self.channel.send(content, file=file, nonce=due.nonce)
        else:
            rnd = tposts.round_of(record, due.round)
            threads = await tposts.table_threads(self.bot.tournaments, rnd)
            text = words.pairings_post(locale, record, rnd, threads, mention, channel_link)
            # Discord takes at most 100 users to ping in one message.
            called = [discord.Object(id=user) for user in tposts.unreached(record, rnd, reached)[:100]]
            mentions = discord.AllowedMentions(users=called, roles=False, everyone=False)
            await self.channel.send(text, allowed_mentions=mentions, nonce=due.nonce)

    async def channel_lost(self, record: TournamentRecord, lost: tposts.ChannelLost) -> None:
        await tell_organiser(self.bot, record, lost.deleted)


async def remind_tables(bot: Bot, record: TournamentRecord, due: tposts.Announcement) -> None:
    """Tell the people at the round's tables still playing, in each table's thread, when the round ends
    (then computers finish what is left). One thread that fails stops no other."""
    assert due.round is not None
    deadline, tables = await tposts.tables_to_remind(bot.tournaments, record, due.round)
    if deadline is None:
        return
    locale = await recipient_locale(bot, None, record.guild_id)
    when = f"<t:{int(deadline.timestamp())}:R>"
    for table in tables:
        people = ", ".join(f"<@{user}>" for user in table.people)
        try:
            thread = bot.get_channel(table.thread_id) or await bot.fetch_channel(table.thread_id)
            assert isinstance(thread, discord.abc.Messageable)
            await thread.send(
                words.reminder(locale, record, due.round, people, when),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in table.people]),
                nonce=tposts.reminder_nonce(due, table.table),
            )
        except discord.HTTPException as exc:
            log.info("tournament %s: table %s could not be reminded: %s", record.id, table.table, exc)


async def table_threads(bot: Bot, rnd: RoundRecord, open_missing: bool = False) -> dict[int, int]:
    """The thread of each table's match, by table number. With ``open_missing``, a table whose match
    has no thread yet gets it now (the match posts there later), so the pairings can link every table.

    A thread that cannot be opened is left out: the match opens one, or moves to the channel, when its
    first board is posted."""
    for match in await tposts.threadless(bot.tournaments, rnd) if open_missing else []:
        try:
            await bot.notifier.thread_of(match)
        except (discord.HTTPException, EngineError) as exc:
            log.warning("match %s: no thread to link from the pairings: %s", match.id, exc)
    return await tposts.table_threads(bot.tournaments, rnd)


async def send_pairings_by_dm(
    bot: Bot, record: TournamentRecord, rnd: RoundRecord, threads: dict[int, int]
) -> set[int]:
    """Tell each person playing round ``rnd`` by DM where they play, against whom, and where the thread
    is; returns the user ids reached. Each DM on its own: closed DMs, or any other failure, leave the
    others to go out (the channel's post then mentions whoever was not reached)."""
    number = rnd.round.number
    reached: set[int] = set()
    guild = bot.get_guild(record.guild_id) if record.guild_id else None
    for entrant, table in tposts.pairing_recipients(record, rnd):
        assert entrant.user_id is not None
        thread = threads.get(table.number) if table is not None else None
        url = (
            f"https://discord.com/channels/{record.guild_id}/{thread}" if thread and record.guild_id else None
        )
        try:
            locale = await recipient_locale(bot, entrant.user_id, record.guild_id)
            text = words.pairing_message(locale, record, rnd, entrant, guild.name if guild else None, url)
            dm = await bot.create_dm(discord.Object(id=entrant.user_id))
            await dm.send(
                text,
                nonce=tposts.pairing_nonce(record, number, entrant.user_id),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            reached.add(entrant.user_id)
        except (discord.Forbidden, discord.NotFound) as exc:
            # Closed DMs, or a user who shares no server with the bot any more: the channel's post
            # mentions them instead.
            log.info(
                "tournament %s: round %s pairing DM to user %s refused: %s",
                record.id,
                number,
                entrant.user_id,
                exc,
            )
        except Exception:
            log.exception(
                "tournament %s: round %s pairing DM to user %s failed; the others go on",
                record.id,
                number,
                entrant.user_id,
            )
    return reached


async def publish(bot: Bot, tournament_id: int) -> bool:
    """Post the tournament's due announcements in order (see ``engine.host.tournament_posts.publish``);
    True when nothing is left to try again later.

    A failure stays with this tournament: a channel the bot can no longer post in (deleted, or a
    permission taken away) is reported to the organiser by DM and its announcements are given up,
    while anything else is retried after the channel's back-off. The tournament goes on either way.
    """
    if not bot.tournament_backoff.ready(tournament_id):
        return False
    try:
        await tposts.publish(bot.tournaments, tournament_id, ChannelAnnouncer(bot))
    except Exception:
        wait = bot.tournament_backoff.failed(tournament_id)
        log.exception("tournament %s: an announcement failed; retried in %.0f s", tournament_id, wait)
        return False
    bot.tournament_backoff.succeeded(tournament_id)
    return True


async def tell_organiser(bot: Bot, record: TournamentRecord, deleted: bool) -> None:
    """DM the tournament's creator, once, that its channel no longer takes the bot's posts."""
    if record.id in bot.organisers_told or record.creator_id is None:
        return
    bot.organisers_told.add(record.id)
    locale = await recipient_locale(bot, record.creator_id, record.guild_id)
    guild = bot.get_guild(record.guild_id) if record.guild_id else None
    text = words.channel_lost(locale, record, guild.name if guild else None, deleted)
    try:
        user = bot.get_user(record.creator_id) or await bot.fetch_user(record.creator_id)
        await user.send(text)
    except discord.HTTPException as exc:
        log.warning("tournament %s: could not tell its organiser either: %s", record.id, exc)
