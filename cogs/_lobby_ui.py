"""A match's lobby message: the host's text with the Join, Leave and Start buttons and the choice of
computer players."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs._components import bot_of, chosen, display_name, scope_of, view_of
from cogs._lang import recipient_locale
from cogs._marks import DiscordMarks
from engine.host import lobby_words
from engine.host.controls import Pressed
from engine.host.lobby_words import add_computer_of_level, require_creator
from engine.host.ports import MatchRecord, Player

if TYPE_CHECKING:
    from cogs._bot import Bot


async def lobby_button(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Join, leave, or start (``bot``: a normal computer player, the button of older lobbies); the
    lobby message is redrawn after each."""
    bot = bot_of(interaction)
    user = interaction.user
    scope = scope_of(interaction)
    match_id, action = pressed.number("match_id"), pressed.part("action")
    if action == "join":
        match = await bot.host.join(match_id, Player(user_id=user.id, name=display_name(user)), scope)
        if isinstance(interaction.channel, discord.Thread):
            await interaction.channel.add_user(user)  # so the thread notifies them of their turns
    elif action == "leave":
        match = await bot.host.leave(match_id, user.id, scope)
    elif action == "bot":
        await require_creator(bot.host, match_id, scope)
        match = await bot.host.add_computer(match_id, scope=scope)
    else:
        # Starting deals the game and lets computers seated first move: on a busy machine that can take
        # longer than Discord waits for an answer, so the press is acknowledged first.
        await interaction.response.defer()
        await bot.host.start(match_id, by_user=user.id, scope=scope)
        bot.kick_outbox()
        match = await bot.host.match(match_id, scope)
    await redraw_lobby(interaction, match)


async def add_computer(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Adds a computer player of the chosen level (the match's creator only)."""
    bot = bot_of(interaction)
    level = (chosen(interaction) or [""])[0]
    match = await add_computer_of_level(bot.host, pressed.number("match_id"), level, scope_of(interaction))
    await redraw_lobby(interaction, match)


async def redraw_lobby(interaction: discord.Interaction[Any], match: MatchRecord) -> None:
    bot = bot_of(interaction)
    locale = await recipient_locale(bot, None, match.guild_id)  # the lobby message is public
    if interaction.response.is_done():
        await interaction.edit_original_response(**lobby_message(bot, match, locale))
    else:
        await interaction.response.edit_message(**lobby_message(bot, match, locale))


def lobby_message(bot: Bot, match: MatchRecord, locale: str) -> dict[str, Any]:
    """The lobby message of ``match`` in ``locale`` (see ``lobby_words.lobby_message``)."""
    message = lobby_words.lobby_message(bot.host, match, locale, DiscordMarks(bot))
    return {"content": message.text, "view": view_of(message.controls)}
