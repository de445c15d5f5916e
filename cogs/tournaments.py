"""/tournament (run by server admins or a configured role), /leaderboard and /profile."""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

import lang
from cogs._components import Guarded, bot_of, display_name, is_admin, is_organiser
from cogs._lang import reader_locale, recipient_locale
from cogs.lobby import CLOCK_CHOICES, GAME_CHOICES, LEVEL_CHOICES
from engine.core.errors import EngineError, LobbyError, MatchNotFound
from engine.core.options import parse_options
from engine.host.clock import Pace
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.ratings import RatingChange
from engine.host.text import HOST
from engine.host.tournaments import (
    TOURNAMENT_STATUS,
    AdvancePlan,
    Entrant,
    RoundRecord,
    RoundReport,
    TournamentRecord,
    TournamentStatus,
    parse_points,
)
from lang import N_, join, t, tn
from lang.says import render
from render.standings import render_standings

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="swiss", value="swiss"),
    app_commands.Choice(name="elimination", value="elimination"),
    app_commands.Choice(name="roundrobin", value="roundrobin"),
]


async def require_organiser(interaction: discord.Interaction[Any]) -> None:
    """Server admins, or members with the role the server set for tournaments; ``LobbyError`` otherwise."""
    if await is_organiser(interaction):
        return
    raise LobbyError(
        "only server admins or the tournament organiser role can do that",
        ["/tournament join", "/tournament standings", "/tournament mytable"],
    )


async def tournament_here(interaction: discord.Interaction[Any], tournament_id: int) -> TournamentRecord:
    """The tournament numbered ``tournament_id`` if it belongs to the server the interaction comes from.

    Raises ``MatchNotFound`` with the same words whether it does not exist or belongs to another
    server, so an admin of one server is nobody on another.
    """
    missing = MatchNotFound(f"there is no tournament #{tournament_id} here")
    if interaction.guild_id is None or tournament_id not in range(1, 2**63):
        raise missing
    try:
        record = await bot_of(interaction).tournaments.get(tournament_id)
    except MatchNotFound:
        raise missing from None
    if record.guild_id != interaction.guild_id:
        raise missing
    return record


# The standings' columns, as their headings read; ``standings_legend`` says what each one means.
STANDING_COLUMNS = {
    "player": HOST.word("player", "standings column"),
    "points": HOST.word("points", "standings column"),
    "score": HOST.word("score", "standings column"),
    "opponents": HOST.word("opp.", "standings column"),
    "games": HOST.word("games", "standings column"),
}
DROPPED = HOST.word("dropped", "standings")
CONTENT_LIMIT = 2000


def column(locale: str, key: str) -> str:
    """A standings column's heading in ``locale``."""
    return render(locale, STANDING_COLUMNS[key])


def standings_rows(
    bot: Bot, record: TournamentRecord, locale: str, after_round: int | None = None
) -> list[str]:
    """The standings as a fixed-width table, headings first: rank, player, points, game score,
    opponents' strength and games played (now, or as they stood after ``after_round``)."""
    keys = ("points", "score", "opponents", "games")
    heads = [column(locale, key) for key in keys]
    widths = [max(6, len(head)) for head in heads]
    rows = [
        "  # "
        + f"{column(locale, 'player'):<16}"
        + "".join(f" {head:>{width}}" for head, width in zip(heads, widths, strict=True))
    ]
    for s in bot.tournaments.standings(record, after_round):
        figures = (f"{s.points:.2f}", str(s.game_score), f"{s.opponents_strength:.2f}", str(s.played))
        # The note goes last, so a long name never cuts it off.
        note = f" ({render(locale, DROPPED)})" if s.dropped else ""
        rows.append(
            f"{s.rank:>3} {record.name_of(s.player)[:16]:<16}"
            + "".join(f" {figure:>{width}}" for figure, width in zip(figures, widths, strict=True))
            + note
        )
    return rows


def standings_legend(locale: str, record: TournamentRecord) -> str:
    """What the standings' columns mean and how ties are broken, in ``locale``."""
    legend = t(
        locale,
        "{points}: tournament points for your places at the tables (a bye counts as a middle place). "
        "Ties go to the higher {score}, the sum of your own game scores, then to the higher {opp}, the "
        "average points of the opponents you met, then to a coin tossed when the tournament began. "
        "{games}: games played.",
        points=column(locale, "points"),
        score=column(locale, "score"),
        opp=column(locale, "opponents"),
        games=column(locale, "games"),
    )
    if record.config.format == "elimination":
        legend += " " + t(
            locale, "In an elimination, the round a player reached counts before everything else."
        )
    return "ℹ️ " + legend


def standings_message(head: str, rows: list[str], legend: str, locale: str) -> str:
    """``head``, the table ``rows`` in a code block and the ``legend``, within one message: when the
    table is too long, its last rows give way to a note of how many were left out."""
    room = CONTENT_LIMIT - len(head) - len(legend) - len("\n```\n\n```\n") - 40
    kept: list[str] = []
    for row in rows:
        if sum(len(r) + 1 for r in kept) + len(row) + 1 > room:
            break
        kept.append(row)
    if len(kept) < len(rows):
        kept.append(tn(locale, "… and {count} more", "… and {count} more", len(rows) - len(kept)))
    body = "\n".join(kept)
    return f"{head}\n```\n{body}\n```\n{legend}"[:CONTENT_LIMIT]


def standings_file(
    bot: Bot, record: TournamentRecord, subtitle: str, locale: str, after_round: int | None = None
) -> discord.File:
    rows = [
        (
            s.rank,
            record.name_of(s.player),
            s.points,
            s.game_score,
            s.opponents_strength,
            render(locale, DROPPED) if s.dropped else "",
        )
        for s in bot.tournaments.standings(record, after_round)
    ]
    headings = ("#", *(column(locale, key) for key in ("player", "points", "score", "opponents")))
    png = render_standings(record.name, subtitle, rows, headings)
    return discord.File(io.BytesIO(png), filename="standings.png")


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


def entrant_for(record: TournamentRecord, member: discord.Member) -> Entrant:
    """The entrant a member plays as; ``LobbyError`` if they are not in the tournament."""
    entrant = record.entrant_of_user(member.id)
    if entrant is None:
        raise LobbyError(f"{member.display_name} is not in {record.name!r}")
    return entrant


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


class JoinTournamentButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:tjoin:(?P<tournament_id>[0-9]{1,20})",
):
    """Registers the clicking member."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join the tournament",
                style=discord.ButtonStyle.success,
                custom_id=f"ba:tjoin:{tournament_id}",
            )
        )
        self.tournament_id = tournament_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        await tournament_here(interaction, self.tournament_id)
        record = await bot.tournaments.join(
            self.tournament_id, interaction.user.id, display_name(interaction.user)
        )
        locale = await reader_locale(interaction)
        registered = tn(
            locale,
            "You are registered for {tournament} ({count} player so far).",
            "You are registered for {tournament} ({count} players so far).",
            len(record.entrants),
            tournament=f"**{record.name}**",
        )
        await interaction.response.send_message(registered, ephemeral=True)


async def advance_question(bot: Bot, record: TournamentRecord, plan: AdvancePlan, locale: str) -> str:
    """What ending the round now would do, for the organiser to confirm: the round's deadline, each
    table still playing (linked to its thread) and whose seats a computer takes there."""
    lines = [
        t(
            locale,
            "Round {number} of {tournament} still has tables playing.",
            number=plan.round,
            tournament=f"**{record.name}**",
        )
    ]
    if plan.deadline is not None:
        due = f"{plan.deadline:%Y-%m-%d %H:%M}"
        if plan.deadline_passed:
            lines.append(t(locale, "Its deadline passed at {due} UTC.", due=due))
        else:
            lines.append(t(locale, "Its deadline is {due} UTC: its players still have time.", due=due))
    for table in plan.open_tables:
        where = t(locale, "match #{number}", number=table.match_id)
        if table.match_id is not None:
            thread = (await bot.host.match(table.match_id)).thread_id
            where += f", <#{thread}>" if thread is not None else ""
        if table.people:
            lines.append(
                "• "
                + t(
                    locale,
                    "Table {table} ({where}): a computer takes the seats of {players}.",
                    table=table.number,
                    where=where,
                    players=join(locale, [f"**{record.name_of(k)}**" for k in table.people]),
                )
            )
        else:
            lines.append(
                "• "
                + t(locale, "Table {table} ({where}): computers finish it.", table=table.number, where=where)
            )
    question = t(
        locale,
        "End round {number} now? Computers play these tables to the end and the tournament moves on. "
        "Nothing changes until you confirm.",
        number=plan.round,
    )
    budget = CONTENT_LIMIT - len(question) - 1
    while len("\n".join(lines)) > budget:
        lines.pop()
    return "\n".join([*lines, question])


def round_ended(locale: str, record: TournamentRecord, number: int, report: RoundReport) -> str:
    """That round ``number`` was ended: over, or over once the computers that took seats finish."""
    if number in report.finished_rounds:
        return t(
            locale, "Round {number} of {tournament} is over.", number=number, tournament=f"**{record.name}**"
        )
    return t(
        locale,
        "Round {number} of {tournament} ends as soon as the computer players finish its open tables.",
        number=number,
        tournament=f"**{record.name}**",
    )


async def round_over(bot: Bot, record: TournamentRecord, number: int, report: RoundReport) -> str:
    """The public line that round ``number`` was ended, in the server's language."""
    return round_ended(await recipient_locale(bot, None, record.guild_id), record, number, report)


class AdvanceButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:tadvance:(?P<action>end|keep):(?P<tournament_id>[0-9]{1,20}):(?P<round_number>[0-9]{1,20})"
    r":(?P<plan>p[0-9a-f]{10})",
):
    """Confirms (``end``) or calls off (``keep``) ending a round whose tables still have people at them.

    The custom id carries the round and the fingerprint of the plan the organiser read (prefixed with
    ``p`` so it is never read as a number): a click after the round or its tables changed is refused
    and changes nothing."""

    LABELS: ClassVar[dict[str, str]] = {"end": N_("End the round"), "keep": N_("Let them play on")}

    def __init__(
        self, action: str, tournament_id: int, round_number: int, plan: str, locale: str = lang.DEFAULT
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(locale, self.LABELS[action]),
                style=discord.ButtonStyle.danger if action == "end" else discord.ButtonStyle.secondary,
                custom_id=f"ba:tadvance:{action}:{tournament_id}:{round_number}:{plan}",
            )
        )
        self.action, self.tournament_id, self.round_number, self.plan = (
            action,
            tournament_id,
            round_number,
            plan,
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        record = await tournament_here(interaction, self.tournament_id)
        await require_organiser(interaction)
        locale = await reader_locale(interaction)
        if self.action == "keep":
            text = t(
                locale,
                "Nothing changed: round {number} of {tournament} plays on.",
                number=self.round_number,
                tournament=f"**{record.name}**",
            )
            await interaction.response.edit_message(content=text, view=None)
            return
        confirmed = (self.round_number, self.plan.removeprefix("p"))
        # Checked before answering, so a stale click is refused at once; ``advance`` checks again.
        (await bot.tournaments.advance_plan(record.id)).check(*confirmed, record.name)
        await interaction.response.defer()
        report = await bot.tournaments.advance(record.id, force=True, confirmed=confirmed)
        done = round_ended(locale, record, self.round_number, report)
        await interaction.edit_original_response(content=done, view=None)
        await interaction.followup.send(await round_over(bot, record, self.round_number, report))
        bot.publish_soon(report.tournament.id)
        bot.publish_soon(report.tournament.id)


# The tournaments' controls, registered with the client so they work after a restart.
TOURNAMENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (JoinTournamentButton, AdvanceButton)


class Tournaments(commands.GroupCog, group_name="tournament", group_description="Tournaments"):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def _find(
        self, interaction: discord.Interaction[Any], tournament: int | None, finished: bool = False
    ) -> TournamentRecord:
        """The tournament numbered ``tournament``, else the server's one tournament under way. With
        ``finished``, when none is under way, the one that ended last."""
        if tournament is not None:
            return await tournament_here(interaction, tournament)
        locale = await reader_locale(interaction)
        if interaction.guild_id is None:
            raise LobbyError(
                t(locale, "tournaments are run on servers; use this command in the server's channel")
            )
        listed = await self.bot.tournaments.of_server(interaction.guild_id, limit=25)
        live = [r for r in listed if r.status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)]
        if len(live) == 1:
            return live[0]
        ended = [r for r in listed if r.status is TournamentStatus.FINISHED]
        if finished and not live and ended:
            return ended[0]  # listed newest first
        if live:
            raise LobbyError(
                t(locale, "name the tournament with its number"),
                [f"#{r.id} {r.name} ({r.status.value})" for r in live],
            )
        if finished:
            raise LobbyError(t(locale, "there is no tournament on this server yet"))
        raise LobbyError(t(locale, "there is no open tournament on this server"))

    @app_commands.command(name="create", description="Create a tournament (organisers)")
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, clock=CLOCK_CHOICES)
    @app_commands.describe(
        table_size="Preferred players per table",
        rounds="Swiss rounds (default: enough for the field)",
        deadline_hours="Hours per round; then computers finish the tables still playing",
        clock="How long each player has per move in the tables' matches (default: none)",
        points="Placement points per table size, best first, e.g. 4=3,2,1,0; 3=2,1,0",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        name="The tournament's name",
        game="Which game",
        format="How players meet: swiss, elimination or round robin",
        options="Comma-separated option ids (see /rules)",
        rated="Whether its matches count for the leaderboard",
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        game: str,
        format: str,
        options: str = "",
        table_size: app_commands.Range[int, 2, 6] | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        deadline_hours: app_commands.Range[float, 1, 720] | None = None,
        rated: bool = True,
        points: str = "",
        clock: str = Pace.NONE.value,
    ) -> None:
        await require_organiser(interaction)
        record = await self.bot.tournaments.create(
            name,
            game,
            format,
            parse_options(options),
            table_size=table_size,
            rounds=rounds,
            deadline_hours=deadline_hours,
            rated=rated,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            creator_id=interaction.user.id,
            points=parse_points(points),
            pace=Pace(clock),
        )
        config = record.config
        locale = await reader_locale(interaction)
        await interaction.response.send_message(
            t(
                locale,
                "Created tournament #{number} {tournament}: {game}, {format}, tables of {low}-{high} "
                "(best {best}). Open registration with `/tournament open`.",
                number=record.id,
                tournament=f"**{record.name}**",
                game=t(locale, self.bot.host.rules(record.game).title),
                format=t(locale, config.format),
                low=config.min_size,
                high=config.max_size,
                best=config.preferred,
            )
        )

    @app_commands.command(name="open", description="Open registration with a Join button (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def open(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.open_registration(record.id)
        view = discord.ui.View(timeout=None)
        view.add_item(JoinTournamentButton(record.id))
        locale = await reader_locale(interaction)
        await interaction.response.send_message(
            t(
                locale,
                "Registration for {tournament} is open: press the button or use `/tournament join`.",
                tournament=f"**{record.name}**",
            ),
            view=view,
        )

    @app_commands.command(name="close", description="Close registration (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def close(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.close_registration(record.id)
        locale = await reader_locale(interaction)
        await interaction.response.send_message(
            tn(
                locale,
                "Registration for {tournament} is closed with {count} player.",
                "Registration for {tournament} is closed with {count} players.",
                len(record.entrants),
                tournament=f"**{record.name}**",
            )
        )

    @app_commands.command(name="start", description="Start round 1 (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def start(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        await interaction.response.defer(thinking=True)
        report = await self.bot.tournaments.start(record.id)
        locale = await reader_locale(interaction)
        started = tn(
            locale,
            "{tournament} has started with {count} player.",
            "{tournament} has started with {count} players.",
            len(record.entrants),
            tournament=f"**{record.name}**",
        )
        await interaction.followup.send(started)
        self.bot.publish_soon(report.tournament.id)

    @app_commands.command(name="join", description="Register for the open tournament")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def join(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.join(
            record.id, interaction.user.id, display_name(interaction.user)
        )
        locale = await reader_locale(interaction)
        text = t(locale, "You are registered for {tournament}.", tournament=f"**{record.name}**")
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="leave", description="Withdraw before the tournament starts")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def leave(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.leave(record.id, interaction.user.id)
        locale = await reader_locale(interaction)
        await interaction.response.send_message(
            t(locale, "You left {tournament}.", tournament=f"**{record.name}**"), ephemeral=True
        )

    @app_commands.command(name="add-computer", description="Enter a computer player (organisers)")
    @app_commands.describe(
        tournament="The tournament number (default: this server's open one)",
        level="How it plays (default: the strongest)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_computer(
        self, interaction: discord.Interaction[Any], tournament: int | None = None, level: str | None = None
    ) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.add_computer(record.id, level)
        locale = await reader_locale(interaction)
        joins = t(
            locale,
            "{player} joins {tournament}.",
            player=record.entrants[-1].name,
            tournament=f"**{record.name}**",
        )
        await interaction.response.send_message(joins)

    @app_commands.command(name="standings", description="The standings so far, or the final ones")
    @app_commands.describe(
        tournament="The tournament number (default: this server's current one, else the last finished)"
    )
    async def standings(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament, finished=True)
        locale = await reader_locale(interaction)
        if not record.entrants:
            text = t(locale, "nobody has registered yet")
            await interaction.response.send_message(f"**{record.name}** · {text}", ephemeral=True)
            return
        if record.status is TournamentStatus.FINISHED:
            subtitle = t(locale, "final standings")
        else:
            subtitle = t(locale, "standings after round {number}", number=len(record.rounds))
        rows = standings_rows(self.bot, record, locale)
        content = standings_message(
            f"**{record.name}** · {subtitle}", rows, standings_legend(locale, record), locale
        )
        file = await asyncio.to_thread(standings_file, self.bot, record, subtitle, locale)
        await interaction.response.send_message(content, file=file, ephemeral=True)

    @standings.autocomplete("tournament")
    async def standings_choices(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[int]]:
        """The server's tournaments whose name or number holds what was typed, newest first."""
        if interaction.guild_id is None:
            return []
        locale = await reader_locale(interaction)
        wanted = typed.strip().lower().lstrip("#")
        choices = []
        for record in await self.bot.tournaments.of_server(interaction.guild_id, limit=50):
            if wanted and wanted not in record.name.lower() and wanted != str(record.id):
                continue
            status = render(locale, TOURNAMENT_STATUS[record.status])
            choices.append(
                app_commands.Choice(name=f"#{record.id} {record.name} ({status})"[:100], value=record.id)
            )
        return choices[:25]

    @app_commands.command(name="mytable", description="Your table in the current round")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def mytable(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament)
        locale = await reader_locale(interaction)
        entrant = record.entrant_of_user(interaction.user.id)
        if entrant is None:
            raise LobbyError(
                t(locale, "you are not playing in {tournament}", tournament=f"**{record.name}**")
            )
        if not record.rounds:
            raise LobbyError(t(locale, "{tournament} has not started yet", tournament=f"**{record.name}**"))
        rnd = record.rounds[-1]
        table = next((tb for tb in rnd.tables if entrant.key in tb.players), None)
        if table is None:
            text = t(locale, "You have a bye in round {number}.", number=rnd.round.number)
        else:
            others = join(locale, [record.name_of(k) for k in table.players if k != entrant.key])
            # Two whole sentences, so each language words the table's state its own way.
            sentence = (
                N_("Round {number}, table {table} (match #{match}), finished, with {players}.")
                if table.result
                else N_("Round {number}, table {table} (match #{match}), playing, with {players}.")
            )
            text = t(
                locale,
                sentence,
                number=rnd.round.number,
                table=table.number,
                match=table.match_id,
                players=others,
            )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="drop", description="Drop a player from future rounds (organisers)")
    @app_commands.describe(
        player="The member concerned", tournament="The tournament number (default: this server's open one)"
    )
    async def drop(
        self, interaction: discord.Interaction[Any], player: discord.Member, tournament: int | None = None
    ) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        entrant = entrant_for(record, player)
        await self.bot.tournaments.drop(record.id, entrant.key)
        self.bot.publish_soon(record.id)
        locale = await reader_locale(interaction)
        dropped = t(
            locale,
            "{player} is dropped from {tournament}.",
            player=entrant.name,
            tournament=f"**{record.name}**",
        )
        await interaction.response.send_message(dropped)

    @app_commands.command(name="replace", description="Let someone take over a player's place (organisers)")
    @app_commands.describe(
        player="The member concerned",
        newcomer="Who takes the place",
        tournament="The tournament number (default: this server's open one)",
    )
    async def replace(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        newcomer: discord.Member,
        tournament: int | None = None,
    ) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        entrant = entrant_for(record, player)
        await self.bot.tournaments.replace(record.id, entrant.key, newcomer.id, newcomer.display_name)
        locale = await reader_locale(interaction)
        takes = t(
            locale, "{newcomer} takes over from {player}.", newcomer=newcomer.mention, player=entrant.name
        )
        await interaction.response.send_message(takes)

    @app_commands.command(
        name="seat-computer", description="A computer finishes a player's table (organisers)"
    )
    @app_commands.describe(
        player="The member concerned",
        tournament="The tournament number (default: this server's open one)",
        level="How it plays (default: the strongest)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def seat_computer(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member,
        tournament: int | None = None,
        level: str | None = None,
    ) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        entrant = entrant_for(record, player)
        await interaction.response.defer(thinking=True)
        await self.bot.tournaments.seat_computer(record.id, entrant.key, level)
        self.bot.publish_soon(record.id)
        locale = await reader_locale(interaction)
        await interaction.followup.send(
            t(locale, "A computer plays on for {player} at their table.", player=entrant.name)
        )

    @app_commands.command(
        name="advance", description="End the round: computers finish open tables (organisers)"
    )
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def advance(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        plan = await self.bot.tournaments.advance_plan(record.id)
        locale = await reader_locale(interaction)
        if plan.takes_seats:
            # People would lose their seats: say who, and let the organiser confirm or think again.
            text = await advance_question(self.bot, record, plan, locale)
            view = discord.ui.View(timeout=None)
            view.add_item(AdvanceButton("end", record.id, plan.round, f"p{plan.fingerprint}", locale))
            view.add_item(AdvanceButton("keep", record.id, plan.round, f"p{plan.fingerprint}", locale))
            await interaction.response.send_message(text, view=view, ephemeral=True)
            return
        await interaction.response.defer(thinking=True)
        report = await self.bot.tournaments.advance(
            record.id, force=True, confirmed=(plan.round, plan.fingerprint)
        )
        await interaction.followup.send(await round_over(self.bot, record, plan.round, report))
        self.bot.publish_soon(report.tournament.id)

    @app_commands.command(
        name="decide", description="Decide a stuck table: its players best first (organisers)"
    )
    @app_commands.describe(order="Comma-separated player names, best first")
    @app_commands.describe(
        table="The table number", tournament="The tournament number (default: this server's open one)"
    )
    async def decide(
        self, interaction: discord.Interaction[Any], table: int, order: str, tournament: int | None = None
    ) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        by_name = {e.name.lower(): e.key for e in record.entrants}
        names = [n.strip().lower() for n in order.split(",") if n.strip()]
        unknown = [n for n in names if n not in by_name]
        if unknown:
            raise LobbyError(f"unknown player(s): {', '.join(unknown)}", [e.name for e in record.entrants])
        await interaction.response.defer(thinking=True)
        report = await self.bot.tournaments.award(record.id, table, [by_name[n] for n in names])
        locale = await reader_locale(interaction)
        decided = t(
            locale, "Table {table} of {tournament} is decided.", table=table, tournament=f"**{record.name}**"
        )
        await interaction.followup.send(decided)
        self.bot.publish_soon(report.tournament.id)

    @app_commands.command(name="cancel", description="Cancel the tournament (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def cancel(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.cancel(record.id)
        self.bot.kick_outbox()
        locale = await reader_locale(interaction)
        await interaction.response.send_message(
            t(locale, "{tournament} is cancelled.", tournament=f"**{record.name}**")
        )

    @app_commands.command(
        name="organiser-role", description="Set the role allowed to run tournaments (admins)"
    )
    @app_commands.guild_only()
    @app_commands.describe(role="The role (none: admins only)")
    async def organiser_role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        if not is_admin(interaction):
            raise LobbyError("only server admins can choose the organiser role")
        await self.bot.tournaments.set_organiser_role(interaction.guild_id or 0, role.id if role else None)
        locale = await reader_locale(interaction)
        if role:
            text = t(locale, "{role} can now run tournaments.", role=role.mention)
        else:
            text = t(locale, "Only admins can run tournaments now.")
        await interaction.response.send_message(text, ephemeral=True)


class Ratings(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game")
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str) -> None:
        # A server's leaderboard lists the people who play on it, never those of other servers.
        rows = await self.bot.ratings.leaderboard(game, limit=15, guild_id=interaction.guild_id)
        locale = await reader_locale(interaction)
        title = t(locale, self.bot.host.rules(game).title)
        if not rows:
            await interaction.response.send_message(
                t(locale, "Nobody is rated in {game} yet.", game=title), ephemeral=True
            )
            return
        lines = [t(locale, "{game}: the best players", game=f"**{title}**")]
        lines += [
            f"{r.rank}. <@{r.user_id}> {r.rating} ({record_words(locale, r.games, r.wins)})" for r in rows
        ]
        await interaction.response.send_message(
            "\n".join(lines), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    async def _played(self, change: RatingChange, locale: str) -> str:
        """One line of a player's history: when, which game and match, against whom, the place, the
        points, the rating before and after, and where the match was played."""
        sign = "+" if change.delta >= 0 else ""
        ended = int(datetime.fromisoformat(change.at).timestamp())
        title = t(locale, self.bot.host.rules(change.game).title)
        place = t(
            locale,
            "match #{number}: {place} of {seats}",
            number=change.match_id,
            place=change.place,
            seats=change.seats,
        )
        points = tn(locale, "{count} point", "{count} points", change.score)
        rating = f"{change.before} → {change.after} ({sign}{change.delta})"
        line = f"<t:{ended}:d> · {title} · {place}, {points}, {rating}"
        try:
            match = await self.bot.host.match(change.match_id)
        except EngineError:
            return line  # the match cannot be read: its rating line still stands
        name = self.bot.notifier.namer(match)
        others = [name(p.seat) for p in match.players if p.seat is not None and p.seat != change.seat]
        if others:
            line += " · " + t(locale, "against {players}", players=join(locale, others))
        if match.thread_id:
            line += " · " + t(locale, "in {thread}", thread=f"<#{match.thread_id}>")
        return line

    @app_commands.command(name="profile", description="Ratings and recent matches of a player")
    @app_commands.describe(
        user="Whose profile (default: yours)", game="One game's rating and matches only (default: every game)"
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def profile(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None, game: str | None = None
    ) -> None:
        who = user or interaction.user
        locale = await reader_locale(interaction)
        # On a server, only what was played there; in direct messages, your own whole record.
        if interaction.guild_id is None and who.id != interaction.user.id:
            raise LobbyError(t(locale, "in direct messages you can see your own profile only"))
        profile = await self.bot.ratings.profile(
            who.id, PROFILE_MATCHES, guild_id=interaction.guild_id, game=game
        )
        lines = [f"**{display_name(who)}**"]
        for standing in profile.games:
            if game is not None and standing.game != game:
                continue
            rating = standing.rating
            title = t(locale, self.bot.host.rules(standing.game).title)
            rank = ", " + t(locale, "rank {rank}", rank=standing.rank) if standing.rank else ""
            lines.append(
                f"{title}: {standing.display}{rank} ({record_words(locale, rating.games, rating.wins)})"
            )
        if profile.recent:
            lines.append(t(locale, "Latest matches:"))
        for change in profile.recent:
            lines.append(await self._played(change, locale))
        if len(lines) == 1:
            lines.append(t(locale, "No rated matches yet."))
        timeouts = await self.bot.host.timeouts_of(who.id, interaction.guild_id)
        if timeouts:
            lines.append(
                tn(
                    locale,
                    "{count} turn played by a computer because the time ran out",
                    "{count} turns played by a computer because the time ran out",
                    timeouts,
                )
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


PROFILE_MATCHES = 10


def record_words(locale: str, games: int, wins: int) -> str:
    """ "12 games, 5 wins" in ``locale``."""
    played = tn(locale, "{count} game", "{count} games", games)
    won = tn(locale, "{count} win", "{count} wins", wins)
    return f"{played}, {won}"


async def setup(bot: Bot) -> None:
    await bot.add_cog(Tournaments(bot))
    await bot.add_cog(Ratings(bot))
