"""My hand: a player's private view, answered to them only (the button under a board post, and /hand)."""

from __future__ import annotations

from typing import Any

import discord

from cogs._components import bot_of, scope_of
from cogs._lang import reader_locale
from cogs._reply import reply
from engine.host import controls
from engine.host.controls import Pressed
from engine.host.outgoing import Outgoing
from engine.host.replies import hand_lines, rendered
from engine.host.table import no_hand


async def show_hand(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    await send_hand(interaction, pressed.number("match_id"))


async def send_hand(interaction: discord.Interaction[Any], match_id: int) -> None:
    """Answer privately with the user's hand image and what they can do now."""
    bot = bot_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = await reader_locale(interaction)
    table = await bot.host.table(
        match_id, interaction.user.id, scope_of(interaction), seated=no_hand(match_id)
    )
    match = table.match
    png = await bot.notifier.draw(match, match.version, table.seat, locale)
    shown = controls.playing(match.id, match.version, locale, table.my_turn)
    await reply(interaction, Outgoing(rendered(locale, hand_lines(table)), shown, png, "hand.png"))
