"""/tournament (run by server admins or a configured role), /leaderboard and /profile."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._lang import reader_locale, recipient_locale
from cogs._ui import ORGANISER_ROLE_SETTING, Guarded, bot_of, display_name, is_admin, is_organiser
from cogs.lobby import GAME_CHOICES
from engine.core.errors import LobbyError, MatchNotFound
from engine.core.options import parse_options
from engine.host.tournament_sim import standings_text
from engine.host.tournaments import Entrant, TournamentRecord, TournamentStatus, parse_points
from lang import N_, join, t, tn
from render.standings import render_standings

if TYPE_CHECKING:
    from cogs._client import BigApple

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


def standings_file(
    bot: BigApple, record: TournamentRecord, subtitle: str, after_round: int | None = None
) -> discord.File:
    rows = [
        (
            s.rank,
            record.name_of(s.player),
            s.points,
            s.game_score,
            s.opponents_strength,
            "dropped" if s.dropped else "",
        )
        for s in bot.tournaments.standings(record, after_round)
    ]
    png = render_standings(record.name, subtitle, rows)
    return discord.File(io.BytesIO(png), filename="standings.png")


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
    bot: BigApple, record: TournamentRecord, key: str, channel: discord.abc.Messageable
) -> None:
    """Post one announcement (see ``TournamentHost.due_announcements``) in the tournament's channel."""
    nonce = announcement_nonce(record, key)
    locale = await recipient_locale(bot, None, record.guild_id)  # announcements are public
    if key == "final":
        winner = bot.tournaments.standings(record)[0]
        file = await asyncio.to_thread(standings_file, bot, record, t(locale, "final standings"))
        over = t(
            locale,
            "{tournament} is over: {winner} wins.",
            tournament=f"**{record.name}**",
            winner=mention_of(record, winner.player),
        )
        await channel.send(f"🏆 {over}", file=file, nonce=nonce)
        return
    round_text, _, kind = key.partition("-")
    number = int(round_text.removeprefix("r"))
    if kind == "standings":
        text = "\n".join(standings_text(bot.tournaments, record, number))
        subtitle = t(locale, "standings after round {number}", number=number)
        file = await asyncio.to_thread(standings_file, bot, record, subtitle, number)
        content = f"**{record.name}** · {subtitle}\n```\n{text}\n```"
        await channel.send(content[:2000], file=file, nonce=nonce)
        return
    rnd = next(r for r in record.rounds if r.round.number == number)
    lines = [f"**{record.name}** · " + t(locale, "round {number}", number=number)]
    for table in rnd.tables:
        players = ", ".join(mention_of(record, k) for k in table.players)
        lines.append(
            t(
                locale,
                "Table {table} (match #{match}): {players}",
                table=table.number,
                match=table.match_id,
                players=players,
            )
        )
    if rnd.round.byes:
        byes = ", ".join(mention_of(record, k) for k in rnd.round.byes)
        lines.append(t(locale, "Bye: {players}", players=byes))
    mentions = discord.AllowedMentions(users=True)
    await channel.send("\n".join(lines)[:2000], allowed_mentions=mentions, nonce=nonce)


async def publish(bot: BigApple, tournament_id: int) -> bool:
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
    try:
        channel = bot.get_channel(record.channel_id) or await bot.fetch_channel(record.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        for key in due:
            await post_announcement(bot, record, key, channel)
            record = await bot.tournaments.mark_announced(tournament_id, key)
    except (discord.Forbidden, discord.NotFound) as exc:
        log.warning("tournament %s: its channel refuses posts: %s", record.id, exc)
        await tell_organiser(bot, record, exc)
        for key in bot.tournaments.due_announcements(record):
            record = await bot.tournaments.mark_announced(tournament_id, key)
        return True
    except Exception:
        wait = bot.tournament_backoff.failed(tournament_id)
        log.exception("tournament %s: an announcement failed; retried in %.0f s", record.id, wait)
        return False
    bot.tournament_backoff.succeeded(tournament_id)
    return True


async def tell_organiser(bot: BigApple, record: TournamentRecord, problem: discord.HTTPException) -> None:
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


class Tournaments(commands.GroupCog, group_name="tournament", group_description="Tournaments"):
    def __init__(self, bot: BigApple) -> None:
        self.bot = bot

    async def _find(self, interaction: discord.Interaction[Any], tournament: int | None) -> TournamentRecord:
        if tournament is not None:
            return await tournament_here(interaction, tournament)
        if interaction.guild_id is None:
            locale = await reader_locale(interaction)
            raise LobbyError(
                t(locale, "tournaments are run on servers; use this command in the server's channel")
            )
        live = [
            t
            for t in await self.bot.tournament_store.list_tournaments(guild_id=interaction.guild_id, limit=25)
            if t.status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
        ]
        if len(live) == 1:
            return live[0]
        raise LobbyError(
            "name the tournament with its number" if live else "there is no open tournament on this server",
            [f"#{t.id} {t.name} ({t.status.value})" for t in live],
        )

    @app_commands.command(name="create", description="Create a tournament (organisers)")
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    @app_commands.describe(
        table_size="Preferred players per table",
        rounds="Swiss rounds (default: enough for the field)",
        deadline_hours="Hours per round before an organiser may decide stuck tables",
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
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def add_computer(
        self, interaction: discord.Interaction[Any], tournament: int | None = None
    ) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.add_computer(record.id)
        locale = await reader_locale(interaction)
        joins = t(
            locale,
            "{player} joins {tournament}.",
            player=record.entrants[-1].name,
            tournament=f"**{record.name}**",
        )
        await interaction.response.send_message(joins)

    @app_commands.command(name="standings", description="The standings so far")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def standings(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament)
        locale = await reader_locale(interaction)
        text = "\n".join(standings_text(self.bot.tournaments, record)) or t(
            locale, "nobody has registered yet"
        )
        subtitle = t(locale, "standings after round {number}", number=len(record.rounds))
        file = standings_file(self.bot, record, subtitle)
        await interaction.response.send_message(f"```\n{text}\n```"[:2000], file=file, ephemeral=True)

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
        self.bot.kick_outbox()
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
        player="The member concerned", tournament="The tournament number (default: this server's open one)"
    )
    async def seat_computer(
        self, interaction: discord.Interaction[Any], player: discord.Member, tournament: int | None = None
    ) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        entrant = entrant_for(record, player)
        await interaction.response.defer(thinking=True)
        await self.bot.tournaments.seat_computer(record.id, entrant.key)
        self.bot.kick_outbox()
        locale = await reader_locale(interaction)
        await interaction.followup.send(
            t(locale, "A computer plays on for {player} at their table.", player=entrant.name)
        )

    @app_commands.command(
        name="advance", description="End the round: computers finish open tables (organisers)"
    )
    @app_commands.describe(force="Before the round's deadline too")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def advance(
        self, interaction: discord.Interaction[Any], force: bool = False, tournament: int | None = None
    ) -> None:
        await require_organiser(interaction)
        record = await self._find(interaction, tournament)
        await interaction.response.defer(thinking=True)
        report = await self.bot.tournaments.advance(record.id, force=force)
        locale = await reader_locale(interaction)
        over = t(
            locale,
            "Round {number} of {tournament} is over.",
            number=len(record.rounds),
            tournament=f"**{record.name}**",
        )
        await interaction.followup.send(over)
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
        value = str(role.id) if role else None
        await self.bot.tournament_store.set_setting(interaction.guild_id or 0, ORGANISER_ROLE_SETTING, value)
        locale = await reader_locale(interaction)
        if role:
            text = t(locale, "{role} can now run tournaments.", role=role.mention)
        else:
            text = t(locale, "Only admins can run tournaments now.")
        await interaction.response.send_message(text, ephemeral=True)


class Ratings(commands.Cog):
    def __init__(self, bot: BigApple) -> None:
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

    @app_commands.command(name="profile", description="Ratings and recent matches of a player")
    @app_commands.describe(user="Whose profile (default: yours)")
    async def profile(self, interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
        who = user or interaction.user
        locale = await reader_locale(interaction)
        # On a server, only what was played there; in direct messages, your own whole record.
        if interaction.guild_id is None and who.id != interaction.user.id:
            raise LobbyError(t(locale, "in direct messages you can see your own profile only"))
        profile = await self.bot.ratings.profile(who.id, guild_id=interaction.guild_id)
        lines = [f"**{display_name(who)}**"]
        for standing in profile.games:
            rating = standing.rating
            title = t(locale, self.bot.host.rules(standing.game).title)
            rank = ", " + t(locale, "rank {rank}", rank=standing.rank) if standing.rank else ""
            lines.append(
                f"{title}: {standing.display}{rank} ({record_words(locale, rating.games, rating.wins)})"
            )
        for change in profile.recent:
            sign = "+" if change.after >= change.before else ""
            place = t(
                locale,
                "match #{number}: {place} of {seats}",
                number=change.match_id,
                place=change.place,
                seats=change.seats,
            )
            lines.append(f"{place}, {change.before} → {change.after} ({sign}{change.after - change.before})")
        if len(lines) == 1:
            lines.append(t(locale, "No rated matches yet."))
        timeouts = await self.bot.store.timeouts_of(who.id, interaction.guild_id)
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


def record_words(locale: str, games: int, wins: int) -> str:
    """ "12 games, 5 wins" in ``locale``."""
    played = tn(locale, "{count} game", "{count} games", games)
    won = tn(locale, "{count} win", "{count} wins", wins)
    return f"{played}, {won}"


async def setup(bot: BigApple) -> None:
    await bot.add_cog(Tournaments(bot))
    await bot.add_cog(Ratings(bot))
