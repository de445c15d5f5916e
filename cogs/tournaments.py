"""/tournament (run by server admins or a configured role); its extension also loads /leaderboard and
/profile (``cogs.ratings``). The host's desk runs each command (``engine.host.tournament_desk``); this
module reads who asks and answers with what the desk gives."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import bot_of, display_name, is_admin
from cogs._marks import DiscordMarks
from cogs._reply import reply
from cogs._sender import message_of
from cogs.lobby import CLOCK_CHOICES, GAME_CHOICES, LEVEL_CHOICES
from engine.host.clock import Pace
from engine.host.controls import Pressed
from engine.host.tournament_desk import Answer, Caller, Person, TournamentDesk
from render.standings import render_standings

if TYPE_CHECKING:
    from cogs._bot import Bot

Interaction = discord.Interaction[Any]
FORMAT_CHOICES = [
    app_commands.Choice(name="swiss", value="swiss"),
    app_commands.Choice(name="elimination", value="elimination"),
    app_commands.Choice(name="roundrobin", value="roundrobin"),
]


def asking(interaction: Interaction) -> tuple[Caller, Reply]:
    """Who runs the command, and how to answer them."""
    user, roles = interaction.user, tuple(role.id for role in getattr(interaction.user, "roles", ()))
    caller = Caller(
        user.id,
        display_name(user),
        interaction.guild_id,
        interaction.channel_id,
        is_admin(interaction),
        roles,
        str(interaction.locale),
    )
    return caller, Reply(interaction)


def person(member: discord.Member) -> Person:
    return Person(member.id, member.display_name)


class Reply:
    """The desk's ``Replier`` for one interaction: a long step of a command shows that the bot is
    thinking, one of a button keeps the message it is on."""

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction

    async def working(self) -> None:
        pressed = self.interaction.type is discord.InteractionType.component
        await self.interaction.response.defer(thinking=not pressed)

    async def answer(self, answer: Answer) -> None:
        if answer.in_place:
            await reply(self.interaction, answer.message, edit=True)
            return
        sent = message_of(answer.message)
        if self.interaction.response.is_done():
            await self.interaction.followup.send(**sent)
        else:
            await self.interaction.response.send_message(**sent, ephemeral=answer.private)


def desk_of(bot: Bot) -> TournamentDesk:
    return TournamentDesk(
        bot.tournaments,
        bot.settings,
        DiscordMarks(bot),
        render_standings,
        bot.background.publish_soon,
        bot.kick_outbox,
    )


async def join_pressed(interaction: Interaction, pressed: Pressed) -> None:
    await desk_of(bot_of(interaction)).join_pressed(*asking(interaction), pressed.number("tournament_id"))


async def advance_pressed(interaction: Interaction, pressed: Pressed) -> None:
    end = pressed.part("action") == "end"
    round_number, plan = pressed.number("round_number"), pressed.part("plan")
    desk = desk_of(bot_of(interaction))
    await desk.advance_pressed(*asking(interaction), pressed.number("tournament_id"), round_number, plan, end)


class Tournaments(commands.GroupCog, group_name="tournament", group_description="Tournaments"):
    def __init__(self, bot: Bot) -> None:
        self.desk = desk_of(bot)

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
        interaction: Interaction,
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
        caller, reply = asking(interaction)
        chosen = (name, game, format, options, table_size, rounds, deadline_hours, rated, points, clock)
        await self.desk.create(caller, reply, *chosen)

    @app_commands.command(name="open", description="Open registration with a Join button (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def open(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.open(*asking(interaction), tournament)

    @app_commands.command(name="close", description="Close registration (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def close(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.close(*asking(interaction), tournament)

    @app_commands.command(name="start", description="Start round 1 (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def start(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.start(*asking(interaction), tournament)

    @app_commands.command(name="join", description="Register for the open tournament")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def join(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.join(*asking(interaction), tournament)

    @app_commands.command(name="leave", description="Withdraw before the tournament starts")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def leave(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.leave(*asking(interaction), tournament)

    @app_commands.command(name="add-computer", description="Enter a computer player (organisers)")
    @app_commands.describe(
        tournament="The tournament number (default: this server's open one)",
        level="How it plays (default: the strongest)",
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    async def add_computer(
        self, interaction: Interaction, tournament: int | None = None, level: str | None = None
    ) -> None:
        await self.desk.add_computer(*asking(interaction), tournament, level)

    @app_commands.command(name="standings", description="The standings so far, or the final ones")
    @app_commands.describe(
        tournament="The tournament number (default: this server's current one, else the last finished)"
    )
    async def standings(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.standings(*asking(interaction), tournament)

    @standings.autocomplete("tournament")
    async def standings_choices(self, interaction: Interaction, typed: str) -> list[app_commands.Choice[int]]:
        found = await self.desk.choices(asking(interaction)[0], typed)
        return [app_commands.Choice(name=name, value=number) for name, number in found]

    @app_commands.command(name="mytable", description="Your table in the current round")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def mytable(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.my_table(*asking(interaction), tournament)

    @app_commands.command(name="drop", description="Drop a player from future rounds (organisers)")
    @app_commands.describe(
        player="The member concerned", tournament="The tournament number (default: this server's open one)"
    )
    async def drop(
        self, interaction: Interaction, player: discord.Member, tournament: int | None = None
    ) -> None:
        await self.desk.drop(*asking(interaction), person(player), tournament)

    @app_commands.command(name="replace", description="Let someone take over a player's place (organisers)")
    @app_commands.describe(
        player="The member concerned",
        newcomer="Who takes the place",
        tournament="The tournament number (default: this server's open one)",
    )
    async def replace(
        self,
        interaction: Interaction,
        player: discord.Member,
        newcomer: discord.Member,
        tournament: int | None = None,
    ) -> None:
        await self.desk.replace(*asking(interaction), person(player), person(newcomer), tournament)

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
        interaction: Interaction,
        player: discord.Member,
        tournament: int | None = None,
        level: str | None = None,
    ) -> None:
        await self.desk.seat_computer(*asking(interaction), person(player), tournament, level)

    @app_commands.command(
        name="advance", description="End the round: computers finish open tables (organisers)"
    )
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def advance(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.advance(*asking(interaction), tournament)

    @app_commands.command(
        name="decide", description="Decide a stuck table: its players best first (organisers)"
    )
    @app_commands.describe(order="Comma-separated player names, best first")
    @app_commands.describe(
        table="The table number", tournament="The tournament number (default: this server's open one)"
    )
    async def decide(
        self, interaction: Interaction, table: int, order: str, tournament: int | None = None
    ) -> None:
        await self.desk.decide(*asking(interaction), table, order, tournament)

    @app_commands.command(name="cancel", description="Cancel the tournament (organisers)")
    @app_commands.describe(tournament="The tournament number (default: this server's open one)")
    async def cancel(self, interaction: Interaction, tournament: int | None = None) -> None:
        await self.desk.cancel(*asking(interaction), tournament)

    @app_commands.command(
        name="organiser-role", description="Set the role allowed to run tournaments (admins)"
    )
    @app_commands.guild_only()
    @app_commands.describe(role="The role (none: admins only)")
    async def organiser_role(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        await self.desk.organiser_role(*asking(interaction), role.id if role else None)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Tournaments(bot))
