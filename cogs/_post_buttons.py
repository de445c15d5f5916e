"""My hand: a player's private view, answered to them only (the button under a board post, and /hand), and
beside it Web: the link to their own page on the web table, to them only as well."""

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
    shown += await bot.web_links.beside_hand(match, locale)
    await reply(interaction, Outgoing(rendered(locale, hand_lines(table)), shown, png, "hand.png"))


async def show_web_link(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Answer privately with the link to the presser's own page of the match on the web table."""
    bot = bot_of(interaction)
    locale = await reader_locale(interaction)
    said = await bot.web_links.private_page(
        bot.host, pressed.number("match_id"), interaction.user.id, scope_of(interaction), locale
    )
    await reply(interaction, said, ephemeral=True)
