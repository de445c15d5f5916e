"""/away: a player's absence, which pauses their clock in every match (a bounded number of days a month)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._lang import reader_locale
from cogs._marks import DiscordMarks
from cogs._reply import reply
from engine.host.absence import AWAY_DAYS_PER_MONTH
from engine.host.settings_words import away_text, back_text

if TYPE_CHECKING:
    from cogs._bot import Bot


class Away(commands.GroupCog, group_name="away", group_description="Pause your clocks while you are away"):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="on", description="Pause your clock in all your matches for some days")
    @app_commands.describe(days="How many days (at most 14 a month)")
    async def on(
        self, interaction: discord.Interaction[Any], days: app_commands.Range[int, 1, AWAY_DAYS_PER_MONTH]
    ) -> None:
        ends, moved = await self.bot.host.go_away(interaction.user.id, days)
        await reply(
            interaction, away_text(await reader_locale(interaction), ends, moved, DiscordMarks(self.bot))
        )

    @app_commands.command(name="off", description="You are back: your clocks run again")
    async def off(self, interaction: discord.Interaction[Any]) -> None:
        moved = await self.bot.host.come_back(interaction.user.id)
        await reply(interaction, back_text(await reader_locale(interaction), moved))


async def setup(bot: Bot) -> None:
    await bot.add_cog(Away(bot))
