"""/stats: how much it matters to play first in a game, as the host words it (``engine.host.seat_stats``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._lang import reader_locale
from cogs._marks import DiscordMarks
from cogs.lobby import GAME_CHOICES
from engine.host.seat_stats import seat_stats

if TYPE_CHECKING:
    from cogs._bot import Bot


class Stats(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.marks = DiscordMarks(bot)

    @app_commands.command(name="stats", description="How often each seat wins a game, measured by computers")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game", players="How many players (default: every number measured)")
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        players: app_commands.Range[int, 2, 6] | None = None,
    ) -> None:
        text = seat_stats(await reader_locale(interaction), game, players, self.marks)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Stats(bot))
