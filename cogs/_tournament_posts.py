"""What the bot posts about tournaments of its own accord: each round's pairings (in the tournament's
channel and to each player by DM), the standings, reminders at the tables before a round's deadline,
and the names of the tables' threads."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import TYPE_CHECKING

import discord

from cogs._lang import recipient_locale
from cogs._standings import (
    CONTENT_LIMIT,
    standings_file,
    standings_legend,
    standings_message,
    standings_rows,
)
from engine.core.errors import EngineError
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.tournaments import (
    RoundRecord,
    TournamentRecord,
)
from lang import N_, join, t

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)


# Discord's longest thread name.
THREAD_NAME_LIMIT = 100


def thread_name(locale: str, tournament: str, round_number: int, table: int) -> str:
    """The name of a tournament table's thread, "Big Apple Cup · R1 · T2", within Discord's limit: a
    long tournament name is shortened, never the round and table that tell the threads apart."""
    template = N_("{tournament} · R{round} · T{table}")
    rest = len(t(locale, template, tournament="", round=round_number, table=table))
    room = THREAD_NAME_LIMIT - rest
    if len(tournament) > room:
        tournament = tournament[: max(0, room - 1)].rstrip() + "…"
    return t(locale, template, tournament=tournament, round=round_number, table=table)


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
    return thread_name(locale, record.name, round_number, table.number)


def mention_of(record: TournamentRecord, key: str) -> str:
    entrant = record.entrant(key)
    return f"<@{entrant.user_id}>" if entrant.user_id and not entrant.bot else f"**{entrant.name}**"


def announcement_nonce(record: TournamentRecord, key: str) -> str:
    """The same on every try of one announcement, so Discord keeps a single post even when the bot
    stopped between posting it and recording that it did."""
    return f"bt{record.id}-{key}"[:25]


async def post_announcement(
    bot: Bot,
    record: TournamentRecord,
    key: str,
    channel: discord.abc.Messageable,
    dms_sent: set[str] | None = None,
) -> None:
    """Post one announcement (see ``TournamentHost.due_announcements``) in the tournament's channel; a
    round's pairings also go to each of its players by DM, before the post (its key is then added to
    ``dms_sent``)."""
    nonce = announcement_nonce(record, key)
    locale = await recipient_locale(bot, None, record.guild_id)  # announcements are public
    legend = standings_legend(locale, record)
    if key == "final":
        winner = bot.tournaments.standings(record)[0]
        file = await asyncio.to_thread(standings_file, bot, record, t(locale, "final standings"), locale)
        over = t(
            locale,
            "{tournament} is over: {winner} wins.",
            tournament=f"**{record.name}**",
            winner=mention_of(record, winner.player),
        )
        await channel.send(f"🏆 {over}\n{legend}", file=file, nonce=nonce)
        return
    number = announced_round(key)
    if key.endswith(("-half", "-last")):
        await remind_tables(bot, record, number, nonce)
        return
    if key.endswith("-standings"):
        subtitle = t(locale, "standings after round {number}", number=number)
        file = await asyncio.to_thread(standings_file, bot, record, subtitle, locale, number)
        rows = standings_rows(bot, record, locale, number)
        content = standings_message(f"**{record.name}** · {subtitle}", rows, legend, locale)
        await channel.send(content, file=file, nonce=nonce)
        return
    rnd = next(r for r in record.rounds if r.round.number == number)
    threads = await table_threads(bot, rnd, open_missing=True)
    lines = [f"**{record.name}** · " + t(locale, "round {number}", number=number)]
    for table in rnd.tables:
        players = ", ".join(mention_of(record, k) for k in table.players)
        thread = threads.get(table.number)
        if thread is None:
            line = t(
                locale,
                "Table {table} (match #{match}): {players}",
                table=table.number,
                match=table.match_id,
                players=players,
            )
        else:
            line = t(
                locale,
                "Table {table} (match #{match}, {thread}): {players}",
                table=table.number,
                match=table.match_id,
                thread=f"<#{thread}>",
                players=players,
            )
        lines.append(line)
    if rnd.round.byes:
        byes = ", ".join(mention_of(record, k) for k in rnd.round.byes)
        lines.append(t(locale, "Bye: {players}", players=byes))
    # The DMs first: the post then pings only those no DM reached, so nobody is called twice.
    reached = await send_pairings_by_dm(bot, record, rnd, threads)
    if dms_sent is not None:
        dms_sent.add(key)
    playing = {key for table in rnd.tables for key in table.players} | set(rnd.round.byes)
    unreached = [
        discord.Object(id=e.user_id)
        for e in record.entrants
        if e.key in playing and e.user_id is not None and e.bot is None and e.user_id not in reached
    ]
    # Discord takes at most 100 users to ping in one message.
    mentions = discord.AllowedMentions(users=unreached[:100], roles=False, everyone=False)
    await channel.send("\n".join(lines)[:CONTENT_LIMIT], allowed_mentions=mentions, nonce=nonce)


async def remind_tables(bot: Bot, record: TournamentRecord, number: int, nonce: str) -> None:
    """Tell the people at the round's tables still playing, in each table's thread, when the round ends
    (then computers finish what is left). One thread that fails stops no other."""
    rnd = next(r for r in record.rounds if r.round.number == number)
    deadline = record.deadline(rnd)
    if deadline is None:
        return
    locale = await recipient_locale(bot, None, record.guild_id)
    threads = await table_threads(bot, rnd)
    for table in rnd.tables:
        thread_id = threads.get(table.number)
        if table.result is not None or thread_id is None or table.match_id is None:
            continue
        match = await bot.host.match(table.match_id)
        if match.status is not MatchStatus.ACTIVE:
            continue
        people = [p.user_id for p in match.players if p.user_id is not None and p.bot is None]
        text = t(
            locale,
            "{players}: round {number} of {tournament} ends {when}; then computers finish the matches "
            "still being played.",
            players=", ".join(f"<@{user}>" for user in people),
            number=number,
            tournament=f"**{record.name}**",
            when=f"<t:{int(deadline.timestamp())}:R>",
        )
        try:
            thread = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
            assert isinstance(thread, discord.abc.Messageable)
            await thread.send(
                "⏳ " + text,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in people]),
                nonce=f"{nonce}-{table.number}"[:25],
            )
        except discord.HTTPException as exc:
            log.info("tournament %s: table %s could not be reminded: %s", record.id, table.number, exc)


def announced_round(key: str) -> int:
    """The round an announcement key such as ``r2-pairings`` is about."""
    return int(key.partition("-")[0].removeprefix("r"))


async def table_threads(bot: Bot, rnd: RoundRecord, open_missing: bool = False) -> dict[int, int]:
    """The thread of each table's match, by table number. With ``open_missing``, a table whose match
    has no thread yet gets it now (the match posts there later), so the pairings can link every table.

    A thread that cannot be opened is left out: the match opens one, or moves to the channel, when its
    first board is posted."""
    threads: dict[int, int] = {}
    for table in rnd.tables:
        if table.match_id is None:
            continue
        try:
            match = await bot.host.match(table.match_id)
            if match.thread_id is None and open_missing:
                await bot.notifier.thread_of(match)
                match = await bot.host.match(table.match_id)
        except (discord.HTTPException, EngineError) as exc:
            log.warning("match %s: no thread to link from the pairings: %s", table.match_id, exc)
            continue
        if match.thread_id is not None:
            threads[table.number] = match.thread_id
    return threads


async def send_pairings_by_dm(
    bot: Bot, record: TournamentRecord, rnd: RoundRecord, threads: dict[int, int]
) -> set[int]:
    """Tell each person playing round ``rnd`` by DM where they play, against whom, and where the thread
    is; returns the user ids reached. Each DM on its own: closed DMs, or any other failure, leave the
    others to go out (the channel's post then mentions whoever was not reached)."""
    number = rnd.round.number
    reached: set[int] = set()
    guild = bot.get_guild(record.guild_id) if record.guild_id else None
    for entrant in record.entrants:
        if entrant.user_id is None or entrant.bot is not None or entrant.dropped:
            continue
        table = next((tb for tb in rnd.tables if entrant.key in tb.players), None)
        if table is None and entrant.key not in rnd.round.byes:
            continue
        try:
            locale = await recipient_locale(bot, entrant.user_id, record.guild_id)
            where = " " + t(locale, "on **{server}**", server=guild.name) if guild else ""
            lines = [f"**{record.name}**{where} · " + t(locale, "round {number}", number=number)]
            if table is None:
                lines.append(t(locale, "You have a bye in round {number}.", number=number))
            else:
                others = join(locale, [record.name_of(k) for k in table.players if k != entrant.key])
                lines.append(
                    t(
                        locale,
                        "You play at table {table} (match #{match}) with {players}.",
                        table=table.number,
                        match=table.match_id,
                        players=others,
                    )
                )
                thread = threads.get(table.number)
                if thread is not None and record.guild_id is not None:
                    link = f"https://discord.com/channels/{record.guild_id}/{thread}"
                    lines.append(t(locale, "Thread: {link}", link=link))
            dm = await bot.create_dm(discord.Object(id=entrant.user_id))
            await dm.send(
                "\n".join(lines)[:CONTENT_LIMIT],
                nonce=pairing_nonce(record, number, entrant.user_id),
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


def pairing_nonce(record: TournamentRecord, number: int, user_id: int) -> str:
    """The same on every try of one player's pairing DM (see ``announcement_nonce``), within Discord's
    25 characters."""
    digest = hashlib.sha256(f"{record.id}:{number}:{user_id}".encode()).hexdigest()
    return f"bp{digest[:20]}"


async def publish(bot: Bot, tournament_id: int) -> bool:
    """Post the tournament's due announcements in order, recording each; True when nothing is left to
    try again later.

    A failure stays with this tournament: a channel the bot can no longer post in (deleted, or a
    permission taken away) is reported to the organiser by DM and its announcements are given up,
    while anything else is retried after the channel's back-off. The tournament goes on either way.
    """
    if not bot.tournament_backoff.ready(tournament_id):
        return False
    record, due = await bot.tournaments.announcements(tournament_id)
    if not due:
        return True
    if record.channel_id is None:  # made outside Discord: nowhere to post
        for key in due:
            record = await bot.tournaments.mark_announced(tournament_id, key)
        return True
    dms_sent: set[str] = set()
    try:
        channel = bot.get_channel(record.channel_id) or await bot.fetch_channel(record.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        for key in due:
            await post_announcement(bot, record, key, channel, dms_sent)
            record = await bot.tournaments.mark_announced(tournament_id, key)
    except (discord.Forbidden, discord.NotFound) as exc:
        log.warning("tournament %s: its channel refuses posts: %s", record.id, exc)
        await tell_organiser(bot, record, exc)
        for key in bot.tournaments.due_announcements(record):
            if key.endswith("-pairings") and key not in dms_sent:  # the players still hear where they play
                number = announced_round(key)
                rnd = next(r for r in record.rounds if r.round.number == number)
                await send_pairings_by_dm(bot, record, rnd, await table_threads(bot, rnd))
            record = await bot.tournaments.mark_announced(tournament_id, key)
        return True
    except Exception:
        wait = bot.tournament_backoff.failed(tournament_id)
        log.exception("tournament %s: an announcement failed; retried in %.0f s", record.id, wait)
        return False
    bot.tournament_backoff.succeeded(tournament_id)
    return True


async def tell_organiser(bot: Bot, record: TournamentRecord, problem: discord.HTTPException) -> None:
    """DM the tournament's creator, once, that its channel no longer takes the bot's posts."""
    if record.id in bot.organisers_told or record.creator_id is None:
        return
    bot.organisers_told.add(record.id)
    locale = await recipient_locale(bot, record.creator_id, record.guild_id)
    guild = bot.get_guild(record.guild_id) if record.guild_id else None
    name = f"**{record.name}**" + (" " + t(locale, "on **{server}**", server=guild.name) if guild else "")
    if isinstance(problem, discord.NotFound):
        text = t(
            locale,
            "The channel of your tournament {tournament} was deleted, so I cannot post its pairings and "
            "standings there. The tournament goes on: players see their tables with `/tournament mytable` "
            "and the standings with `/tournament standings`.",
            tournament=name,
        )
    else:
        text = t(
            locale,
            "The channel of your tournament {tournament} no longer lets me post, so I cannot post its "
            "pairings and standings there. The tournament goes on: players see their tables with "
            "`/tournament mytable` and the standings with `/tournament standings`. Give me back Send "
            "Messages and Attach Files in that channel for the next rounds' posts to appear there.",
            tournament=name,
        )
    try:
        user = bot.get_user(record.creator_id) or await bot.fetch_user(record.creator_id)
        await user.send(text)
    except discord.HTTPException as exc:
        log.warning("tournament %s: could not tell its organiser either: %s", record.id, exc)
