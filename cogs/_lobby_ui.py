"""A match's lobby message: the host's text with the Join, Leave and Start buttons and the choice of
computer players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord

import lang
from cogs._components import Guarded, bot_of, display_name, scope_of
from cogs._lang import recipient_locale
from cogs._marks import DiscordMarks
from engine.host.lobby_words import (
    add_computer_of_level,
    level_choice,
    levels_of,
    lobby_text,
    require_creator,
)
from engine.host.ports import MatchRecord, MatchStatus, Player
from lang import N_, t

if TYPE_CHECKING:
    from cogs._bot import Bot


class LobbyButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:lobby:(?P<action>join|leave|bot|start):(?P<match_id>[0-9]{1,20})",
):
    """Join, leave, or start; the lobby message is redrawn after each. (``bot``, a normal computer player,
    is the button of lobbies posted before the levels came: it keeps working.)"""

    LABELS: ClassVar[dict[str, str]] = {
        "join": N_("Join"),
        "leave": N_("Leave"),
        "bot": N_("Add computer"),
        "start": N_("Start"),
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, action: str, match_id: int, locale: str = lang.DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(locale, self.LABELS[action]),
                style=self.STYLES.get(action, discord.ButtonStyle.secondary),
                custom_id=f"ba:lobby:{action}:{match_id}",
            )
        )
        self.action, self.match_id = action, match_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        user = interaction.user
        scope = scope_of(interaction)
        if self.action == "join":
            player = Player(user_id=user.id, name=display_name(user))
            match = await bot.host.join(self.match_id, player, scope)
            if isinstance(interaction.channel, discord.Thread):
                await interaction.channel.add_user(user)  # so the thread notifies them of their turns
        elif self.action == "leave":
            match = await bot.host.leave(self.match_id, user.id, scope)
        elif self.action == "bot":
            await require_creator(bot.host, self.match_id, scope)
            match = await bot.host.add_computer(self.match_id, scope=scope)
        else:
            await bot.host.start(self.match_id, by_user=user.id, scope=scope)
            bot.kick_outbox()
            match = await bot.host.match(self.match_id, scope)
        await redraw_lobby(interaction, match)


async def redraw_lobby(interaction: discord.Interaction[Any], match: MatchRecord) -> None:
    bot = bot_of(interaction)
    locale = await recipient_locale(bot, None, match.guild_id)  # the lobby message is public
    await interaction.response.edit_message(**lobby_message(bot, match, locale))


class ComputerSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ba:lobby:add:(?P<match_id>[0-9]{1,20})",
):
    """Adds a computer player of the chosen level (the match's creator only)."""

    def __init__(self, match_id: int, locale: str = lang.DEFAULT, levels: Sequence[str] = ()) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=t(locale, "Add a computer player…"),
                custom_id=f"ba:lobby:add:{match_id}",
                options=[
                    discord.SelectOption(label=level_choice(locale, level), value=level) for level in levels
                ],
            )
        )
        self.match_id = match_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        level = self.item.values[0] if self.item.values else ""
        match = await add_computer_of_level(bot.host, self.match_id, level, scope_of(interaction))
        await redraw_lobby(interaction, match)


def lobby_message(bot: Bot, match: MatchRecord, locale: str) -> dict[str, Any]:
    """The lobby message of ``match`` in ``locale``: the host's text and the lobby's controls."""
    return {
        "content": lobby_text(bot.host, match, locale, DiscordMarks(bot)),
        "view": lobby_view(match, locale, levels_of(bot.host, match.game)),
    }


def lobby_view(match: MatchRecord, locale: str = lang.DEFAULT, levels: Sequence[str] = ()) -> discord.ui.View:
    """The lobby buttons while the match waits for players, with a choice of computer players of
    ``levels``; nothing once it has started."""
    view = discord.ui.View(timeout=None)
    if match.status is MatchStatus.LOBBY:
        for action in ("join", "leave", "start"):
            view.add_item(LobbyButton(action, match.id, locale))
        if levels and len(match.players) < match.seat_count:
            view.add_item(ComputerSelect(match.id, locale, levels))
    return view
