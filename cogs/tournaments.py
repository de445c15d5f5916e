"""/tournament (run by server admins or a configured role); its extension also loads /leaderboard and
/profile (``cogs.ratings``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import display_name, is_admin
from cogs._lang import reader_locale
from cogs._standings import standings_file, standings_legend, standings_message, standings_rows
from cogs._tournament_ui import (
    AdvanceButton,
    JoinTournamentButton,
    advance_question,
    require_organiser,
    round_over,
    tournament_here,
)
from cogs.lobby import CLOCK_CHOICES, GAME_CHOICES, LEVEL_CHOICES
from engine.core.errors import LobbyError
from engine.core.options import parse_options
from engine.host.clock import Pace
from engine.host.tournaments import (
    TOURNAMENT_STATUS,
    Entrant,
    TournamentRecord,
    TournamentStatus,
    parse_points,
)
from lang import N_, join, t, tn
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot

FORMAT_CHOICES = [
    app_commands.Choice(name="swiss", value="swiss"),
    app_commands.Choice(name="elimination", value="elimination"),
    app_commands.Choice(name="roundrobin", value="roundrobin"),
]


def entrant_for(record: TournamentRecord, member: discord.Member) -> Entrant:
    """The entrant a member plays as; ``LobbyError`` if they are not in the tournament."""
    entrant = record.entrant_of_user(member.id)
    if entrant is None:
        raise LobbyError(f"{member.display_name} is not in {record.name!r}")
    return entrant


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


async def setup(bot: Bot) -> None:
    await bot.add_cog(Tournaments(bot))
