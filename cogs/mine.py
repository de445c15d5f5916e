"""/mygames: the matches waiting for me on every server, the longest wait first, and a way to go there."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._lang import reader_locale
from cogs._marks import DiscordMarks
from engine.host.lobby_words import my_games
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot


class Mine(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="mygames", description="Your matches on every server, those waiting for you first"
    )
    async def mygames(self, interaction: discord.Interaction[Any]) -> None:
        locale = await reader_locale(interaction)
        mine = await my_games(self.bot.host, interaction.user.id, locale, DiscordMarks(self.bot))
        view = discord.ui.View(timeout=None)
        if mine.next_address is not None:
            # A link button goes straight to the thread, on a phone as on a desktop.
            label = render(locale, mine.next_label)
            view.add_item(discord.ui.Button(label=label, url=mine.next_address, emoji="▶️"))
        await interaction.response.send_message(mine.text[:2000], view=view, ephemeral=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Mine(bot))
