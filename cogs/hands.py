"""/hand: a player's private view, answered privately (the fallback when DMs are closed)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import scope_of
from cogs._post_buttons import send_hand
from cogs.lobby import thread_id_of

if TYPE_CHECKING:
    from cogs._bot import Bot


class Hands(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="hand", description="See your hand and options, privately")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def hand(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        record = await self.bot.host.find_match(scope_of(interaction), match, thread_id_of(interaction))
        await send_hand(interaction, record.id)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Hands(bot))
