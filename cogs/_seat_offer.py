"""A seat offered to a new person (``/game replace``): the offer's post in the match's thread with its
Take this seat button, what pressing it does, and the command's suggestions of seats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs._components import bot_of, display_name, is_organiser, scope_of, view_of
from cogs._lang import reader_locale, recipient_locale
from cogs._reply import reply
from engine.core.errors import EngineError
from engine.host import controls
from engine.host.controls import Pressed
from engine.host.ports import Player
from engine.host.replacement import offer_suggestions
from engine.host.while_away import welcome_text
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot

SUGGESTIONS = 25


async def seat_suggestions(
    interaction: discord.Interaction[Any], current: str, thread_id: int | None
) -> list[app_commands.Choice[str]]:
    """The seats a computer holds for someone who left them, in the match the command names (or the
    thread's), in words."""
    bot: Bot = bot_of(interaction)
    number = getattr(interaction.namespace, "match", None)
    try:
        match = await bot.host.find_match(
            scope_of(interaction), number if isinstance(number, int) else None, thread_id
        )
    except EngineError:
        return []
    locale = await reader_locale(interaction)
    found = offer_suggestions(match, current, locale, bot.host.namer(match))
    return [app_commands.Choice(name=name, value=value) for name, value in found[:SUGGESTIONS]]


async def offer_seat(
    interaction: discord.Interaction[Any], seat: str, match: int | None, thread_id: int | None
) -> None:
    """Offer ``seat`` of the match in the match's thread, with the button that takes it."""
    bot: Bot = bot_of(interaction)
    scope = scope_of(interaction)
    record = await bot.host.find_match(scope, match, thread_id)
    organiser = await is_organiser(interaction)
    offered = await bot.host.offers.offer(record.id, interaction.user.id, seat, organiser, scope)
    place = await bot.notifier.thread_of(offered.match)
    if place is not None:
        public = await recipient_locale(bot, None, offered.match.guild_id)
        await place.send(
            render(public, offered.post, bot.host.namer(offered.match)),
            view=view_of(controls.take_seat(offered.offer.id, public)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    await reply(interaction, offered.answer)


async def take_pressed(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Take this seat: the presser plays the offered seat from now on, if it is still free for them."""
    bot = bot_of(interaction)
    user = interaction.user
    await interaction.response.defer(ephemeral=True, thinking=True)
    # Read first: what the take sends them afterwards (their hand) is in the language their app speaks.
    locale = await reader_locale(interaction)
    newcomer = Player(user_id=user.id, name=display_name(user))
    taken = await bot.host.offers.take(pressed.number("offer_id"), newcomer, scope_of(interaction))
    bot.kick_outbox()
    name = bot.host.namer(taken.match)
    if isinstance(interaction.channel, discord.Thread):
        await interaction.channel.add_user(user)  # so the thread notifies them of their turns
    if interaction.message is not None:
        public = await recipient_locale(bot, None, taken.match.guild_id)
        await interaction.message.edit(content=render(public, taken.post, name), view=None)
    await reply(interaction, welcome_text(locale, taken.welcome, taken.away, name))
