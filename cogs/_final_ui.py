"""The buttons that end a match (abandoning it, resigning a seat) and the one under its last post."""

from __future__ import annotations

from typing import Any

import discord

from cogs._components import bot_of, is_organiser, scope_of
from cogs._reply import reply
from engine.core.errors import StaleVersion
from engine.host.controls import Pressed
from engine.host.replies import ABANDON_CHANGED, abandoned, rematched, resigned


async def abandon(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Confirms abandoning a match (its creator or a server admin)."""
    bot = bot_of(interaction)
    scope = scope_of(interaction)
    match_id = pressed.number("match_id")
    match = await bot.host.summary(match_id, scope)
    if match.version != pressed.number("version"):
        raise StaleVersion(ABANDON_CHANGED)
    organiser = await is_organiser(interaction)
    await bot.host.abandon(match_id, interaction.user.id, is_admin=organiser, scope=scope)
    bot.kick_outbox()
    await reply(interaction, abandoned(match_id), edit=True)


async def resign(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Confirms that a player gives up their seat to a computer."""
    bot = bot_of(interaction)
    match_id = pressed.number("match_id")
    # The computer that takes the seat may play at once, thinking for longer than Discord waits.
    await interaction.response.defer()
    await bot.host.resign(match_id, interaction.user.id, scope=scope_of(interaction), resigned=True)
    bot.kick_outbox()
    await reply(interaction, resigned(match_id), edit=True)


async def rematch(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """On a finished match's last post: the same players and options again, in a new thread."""
    bot = bot_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    made = await bot.host.rematch(pressed.number("match_id"), interaction.user.id, scope_of(interaction))
    bot.kick_outbox()
    await reply(interaction, rematched(made.id))
