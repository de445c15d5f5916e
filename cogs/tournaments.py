"""/tournament (run by server admins or a configured role); its extension also loads /leaderboard and
/profile (``cogs.ratings``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import display_name, is_admin, view_of
from cogs._lang import reader_locale
from cogs._tournament_posts import channel_link, standings_file
from cogs._tournament_ui import require_organiser, round_over
from cogs.lobby import CLOCK_CHOICES, GAME_CHOICES, LEVEL_CHOICES
from engine.core.options import parse_options
from engine.core.say import Say
from engine.host import controls
from engine.host import tournament_posts as tposts
from engine.host import tournament_words as words
from engine.host.clock import Pace
from engine.host.tournaments import TournamentRecord, parse_points
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot

FORMAT_CHOICES = [
    app_commands.Choice(name="swiss", value="swiss"),
    app_commands.Choice(name="elimination", value="elimination"),
    app_commands.Choice(name="roundrobin", value="roundrobin"),
]


class Tournaments(commands.GroupCog, group_name="tournament", group_description="Tournaments"):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def _find(
        self, interaction: discord.Interaction[Any], tournament: int | None, finished: bool = False
    ) -> TournamentRecord:
        """The tournament numbered ``tournament``, else the server's one tournament under way. With
        ``finished``, when none is under way, the one that ended last."""
        return await tposts.find_tournament(self.bot.tournaments, interaction.guild_id, tournament, finished)

    async def _organised(
        self, interaction: discord.Interaction[Any], tournament: int | None
    ) -> TournamentRecord:
        """The tournament an organiser means (see ``_find``); ``LobbyError`` for anyone else."""
        await require_organiser(interaction)
        return await self._find(interaction, tournament)

    async def _answer(self, interaction: discord.Interaction[Any], say: Say, ephemeral: bool = False) -> None:
        """Answer with the host's sentence ``say``, in the reader's language."""
        text = render(await reader_locale(interaction), say)
        await interaction.response.send_message(text, ephemeral=ephemeral)

    async def _follow(self, interaction: discord.Interaction[Any], say: Say) -> None:
        """Follow a deferred answer up with the host's sentence ``say``, in the reader's language."""
        await interaction.followup.send(render(await reader_locale(interaction), say))

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
        await self._answer(interaction, words.created_of(self.bot.host, record))

    @app_commands.command(name="open", description="Open registration with a Join button (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def open(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._organised(interaction, tournament)
        record = await self.bot.tournaments.open_registration(record.id)
        locale = await reader_locale(interaction)
        view = view_of(controls.join_tournament(record.id, locale))
        text = render(locale, words.registration_opened(record))
        await interaction.response.send_message(text, view=view)

    @app_commands.command(name="close", description="Close registration (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def close(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._organised(interaction, tournament)
        record = await self.bot.tournaments.close_registration(record.id)
        await self._answer(interaction, words.registration_closed(record))

    @app_commands.command(name="start", description="Start round 1 (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def start(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._organised(interaction, tournament)
        await interaction.response.defer(thinking=True)
        report = await self.bot.tournaments.start(record.id)
        await self._follow(interaction, words.started(record))
        self.bot.publish_soon(report.tournament.id)

    @app_commands.command(name="join", description="Register for the open tournament")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def join(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.join(
            record.id, interaction.user.id, display_name(interaction.user)
        )
        await self._answer(interaction, words.registered(record), ephemeral=True)

    @app_commands.command(name="leave", description="Withdraw before the tournament starts")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def leave(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament)
        record = await self.bot.tournaments.leave(record.id, interaction.user.id)
        await self._answer(interaction, words.left(record), ephemeral=True)

    @app_commands.command(name="add-computer", description="Enter a computer player (organisers)")
    @app_commands.describe(
        tournament="The tournament number (default: this server's open one)",
        level="How it plays (default: the strongest)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_computer(
        self, interaction: discord.Interaction[Any], tournament: int | None = None, level: str | None = None
    ) -> None:
        record = await self._organised(interaction, tournament)
        record = await self.bot.tournaments.add_computer(record.id, level)
        await self._answer(interaction, words.computer_joins(record))

    @app_commands.command(name="standings", description="The standings so far, or the final ones")
    @app_commands.describe(
        tournament="The tournament number (default: this server's current one, else the last finished)"
    )
    async def standings(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament, finished=True)
        locale = await reader_locale(interaction)
        if not record.entrants:
            await interaction.response.send_message(words.nobody_yet(locale, record), ephemeral=True)
            return
        content = words.standings_message(locale, record)
        file = await asyncio.to_thread(standings_file, locale, record)
        await interaction.response.send_message(content, file=file, ephemeral=True)

    @standings.autocomplete("tournament")
    async def standings_choices(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[int]]:
        """The server's tournaments whose name or number holds what was typed, newest first."""
        found = await tposts.tournament_choices(self.bot.tournaments, interaction.guild_id, typed)
        locale = await reader_locale(interaction)
        return [
            app_commands.Choice(name=f"{name} ({render(locale, status)})"[:100], value=number)
            for number, status, name in found
        ]

    @app_commands.command(name="mytable", description="Your table in the current round")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def mytable(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._find(interaction, tournament)
        await self._answer(interaction, words.my_table(record, interaction.user.id), ephemeral=True)

    @app_commands.command(name="drop", description="Drop a player from future rounds (organisers)")
    @app_commands.describe(
        player="The member concerned", tournament="The tournament number (default: this server's open one)"
    )
    async def drop(
        self, interaction: discord.Interaction[Any], player: discord.Member, tournament: int | None = None
    ) -> None:
        record = await self._organised(interaction, tournament)
        entrant = tposts.entrant_for(record, player.id, player.display_name)
        await self.bot.tournaments.drop(record.id, entrant.key)
        self.bot.publish_soon(record.id)
        await self._answer(interaction, words.dropped(record, entrant))

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
        record = await self._organised(interaction, tournament)
        entrant = tposts.entrant_for(record, player.id, player.display_name)
        await self.bot.tournaments.replace(record.id, entrant.key, newcomer.id, newcomer.display_name)
        await self._answer(interaction, words.takes_over(entrant, newcomer.mention))

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
        record = await self._organised(interaction, tournament)
        entrant = tposts.entrant_for(record, player.id, player.display_name)
        await interaction.response.defer(thinking=True)
        await self.bot.tournaments.seat_computer(record.id, entrant.key, level)
        self.bot.publish_soon(record.id)
        await self._follow(interaction, words.computer_plays_on(entrant))

    @app_commands.command(
        name="advance", description="End the round: computers finish open tables (organisers)"
    )
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def advance(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._organised(interaction, tournament)
        plan = await self.bot.tournaments.advance_plan(record.id)
        locale = await reader_locale(interaction)
        if plan.takes_seats:
            # People would lose their seats: say who, and let the organiser confirm or think again.
            threads = await tposts.match_threads(self.bot.tournaments, [t.match_id for t in plan.open_tables])
            text = words.advance_question(locale, record, plan, threads, channel_link)
            view = view_of(controls.advance(record.id, plan.round, plan.fingerprint, locale))
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
        record = await self._organised(interaction, tournament)
        keys = tposts.named_order(record, order)
        await interaction.response.defer(thinking=True)
        report = await self.bot.tournaments.award(record.id, table, keys)
        await self._follow(interaction, words.decided(record, table))
        self.bot.publish_soon(report.tournament.id)

    @app_commands.command(name="cancel", description="Cancel the tournament (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def cancel(self, interaction: discord.Interaction[Any], tournament: int | None = None) -> None:
        record = await self._organised(interaction, tournament)
        record = await self.bot.tournaments.cancel(record.id)
        self.bot.kick_outbox()
        await self._answer(interaction, words.cancelled(record))

    @app_commands.command(
        name="organiser-role", description="Set the role allowed to run tournaments (admins)"
    )
    @app_commands.guild_only()
    @app_commands.describe(role="The role (none: admins only)")
    async def organiser_role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        tposts.require_admin(is_admin(interaction))
        await self.bot.tournaments.set_organiser_role(interaction.guild_id or 0, role.id if role else None)
        await self._answer(
            interaction, words.organiser_role_set(role.mention if role else None), ephemeral=True
        )


async def setup(bot: Bot) -> None:
    await bot.add_cog(Tournaments(bot))
