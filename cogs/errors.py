"""The one error responder: every refusal becomes a private message saying what is wrong and what is
allowed; anything unexpected is logged with an incident id and the user gets a short apology."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import lang
from cogs._lang import reader_locale
from cogs._marks import DiscordMarks
from engine.host.marks import Marks
from engine.host.refusals import NOT_HERE, SERVER_ONLY, unreadable_option
from engine.host.text import answer_to

log = logging.getLogger(__name__)


def error_text(error: BaseException, locale: str = lang.DEFAULT, marks: Marks | None = None) -> str:
    """What the user reads for ``error`` (see ``answer_to``), Discord's own refusals of a command
    included, in the reader's language."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.NoPrivateMessage):
        error = SERVER_ONLY
    elif isinstance(error, app_commands.CheckFailure):
        error = NOT_HERE
    elif isinstance(error, app_commands.TransformerError):
        error = unreadable_option(error.value)
    return answer_to(error, locale, marks)


async def respond_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` privately, in the user's language, with the message for ``error``."""
    try:
        locale = await reader_locale(interaction)
    except Exception:  # the store itself may be what failed; the answer still goes out, in English
        locale = lang.DEFAULT
    text = error_text(error, locale, DiscordMarks(interaction.client))[:2000]
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", interaction.user.id)


class Errors(commands.Cog):
    """Installs the responder on the command tree."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await respond_error(interaction, error)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Errors(bot))
