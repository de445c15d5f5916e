"""/leaderboard and /profile: the players' ratings and their rated matches, as the host words them
(``engine.host.profiles``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import display_name
from cogs._lang import reader_locale
from cogs._marks import DiscordMarks
from cogs.lobby import GAME_CHOICES
from engine.host.profiles import Profiles

if TYPE_CHECKING:
    from cogs._bot import Bot


class Ratings(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.profiles = Profiles(bot.host, bot.ratings, DiscordMarks(bot))

    @app_commands.command(name="leaderboard", description="The best rated players of a game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game")
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str) -> None:
        # A server's leaderboard lists the people who play on it, never those of other servers.
        text = await self.profiles.leaderboard(await reader_locale(interaction), game, interaction.guild_id)
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="profile", description="Ratings and recent matches of a player")
    @app_commands.describe(
        user="Whose profile (default: yours)", game="One game's rating and matches only (default: every game)"
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def profile(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None, game: str | None = None
    ) -> None:
        who = user or interaction.user
        text = await self.profiles.profile(
            await reader_locale(interaction),
            who.id,
            display_name(who),
            interaction.guild_id,
            asked_by=interaction.user.id,
            game=game,
        )
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Ratings(bot))
