"""The presses of the queue's controls: leaving a queue from the answer of ``/game find``."""

from __future__ import annotations

from typing import Any

import discord

from cogs._components import bot_of
from cogs._lang import reader_locale
from cogs._reply import reply
from engine.host import queue_words
from engine.host.controls import Pressed


async def leave_pressed(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Take the presser out of their server's queue for the button's game."""
    bot = bot_of(interaction)
    game = pressed.part("game")
    gone = await bot.queue_desk.leave(interaction.guild_id or 0, interaction.user.id, game)
    await reply(interaction, queue_words.left(bot.host, game, gone, await reader_locale(interaction)))
