"""The buttons under a board post: Play, My hand and Undo."""

from __future__ import annotations

from typing import Any

import discord

import lang
from cogs._components import Guarded, bot_of, scope_of
from cogs._lang import reader_locale
from cogs._move_menu import PlayButton, UndoButton
from engine.host.replies import HAND_LABEL, hand_lines, rendered
from engine.host.table import no_hand
from lang.says import render


class HandButton(
    Guarded, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ba:hand:(?P<match_id>[0-9]{1,20})"
):
    """Shows the clicking player their private view, to them only."""

    def __init__(self, match_id: int, locale: str = lang.DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=render(locale, HAND_LABEL),
                emoji="🂠",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ba:hand:{match_id}",
            )
        )
        self.match_id = match_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await send_hand(interaction, self.match_id)


async def send_hand(interaction: discord.Interaction[Any], match_id: int) -> None:
    """Answer privately with the user's hand image and what they can do now."""
    bot = bot_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = await reader_locale(interaction)
    table = await bot.host.table(
        match_id, interaction.user.id, scope_of(interaction), seated=no_hand(match_id)
    )
    match = table.match
    file = await bot.notifier.image(match, match.version, table.seat, locale)
    view = discord.ui.View(timeout=None)
    if table.my_turn:
        view.add_item(PlayButton(match.id, match.version, locale))
    kwargs: dict[str, Any] = {"ephemeral": True, "view": view}
    if file is not None:
        kwargs["file"] = file
    await interaction.followup.send(rendered(locale, hand_lines(table)), **kwargs)


def match_view(
    match_id: int, version: int, locale: str = lang.DEFAULT, undo: bool = False
) -> discord.ui.View:
    """The buttons under a board post; with ``undo``, an Undo button for the player who may take their
    latest move back (anyone else who presses it is told why not)."""
    view = discord.ui.View(timeout=None)
    view.add_item(PlayButton(match_id, version, locale))
    view.add_item(HandButton(match_id, locale))
    if undo:
        view.add_item(UndoButton(match_id, version, locale))
    return view
