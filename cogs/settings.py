"""/settings: the language the bot speaks to you, and a server's default language (admins)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._lang import LANGUAGE, reader_locale
from cogs._ui import is_admin
from engine.core.errors import LobbyError
from engine.host.text import HOST
from lang import N_, t

if TYPE_CHECKING:
    from cogs._client import BigApple

# Each language named in itself, as people look for their own.
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Italiano", value="it"),
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name=N_("Follow my Discord language"), value="auto"),
]


class Settings(commands.GroupCog, group_name="settings", group_description="Your preferences"):
    def __init__(self, bot: BigApple) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="The language I speak to you")
    @app_commands.describe(language="Italiano, English, or whatever your Discord uses")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any], language: str) -> None:
        value = None if language == "auto" else language
        await self.bot.settings.set("user", interaction.user.id, LANGUAGE, value)
        locale = await reader_locale(interaction)
        text = (
            t(locale, "I will follow your Discord language.")
            if value is None
            else t(locale, "From now on I speak to you in English.")
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="server-language", description="The language of this server's posts (admins)")
    @app_commands.describe(language="The language of match threads and of anyone who chose none")
    @app_commands.choices(language=LANGUAGE_CHOICES[:2])
    @app_commands.guild_only()
    async def server_language(self, interaction: discord.Interaction[Any], language: str) -> None:
        if not is_admin(interaction) or interaction.guild_id is None:
            raise LobbyError(HOST.say("only server admins can choose the server's language"))
        await self.bot.settings.set("guild", interaction.guild_id, LANGUAGE, language)
        text = t(language, "This server's posts are now in English.")
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: BigApple) -> None:
    await bot.add_cog(Settings(bot))
