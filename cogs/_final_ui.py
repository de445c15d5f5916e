"""The buttons that end a match (abandoning it, resigning a seat) and the one under its last post."""

from __future__ import annotations

from typing import Any

import discord

import lang
from cogs._components import Guarded, bot_of, is_organiser, scope_of
from cogs._lang import reader_locale
from engine.core.errors import StaleVersion
from engine.host.replies import (
    ABANDON_CHANGED,
    ABANDON_LABEL,
    REMATCH_LABEL,
    RESIGN_LABEL,
    abandoned,
    rematched,
    resigned,
)
from lang.says import render


class AbandonButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:abandon:(?P<match_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})",
):
    """Confirms abandoning a match (its creator or a server admin)."""

    def __init__(self, match_id: int, version: int, locale: str = lang.DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=render(locale, ABANDON_LABEL),
                style=discord.ButtonStyle.danger,
                custom_id=f"ba:abandon:{match_id}:{version}",
            )
        )
        self.match_id, self.version = match_id, version

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        scope = scope_of(interaction)
        match = await bot.host.summary(self.match_id, scope)
        if match.version != self.version:
            raise StaleVersion(ABANDON_CHANGED)
        organiser = await is_organiser(interaction)
        await bot.host.abandon(self.match_id, interaction.user.id, is_admin=organiser, scope=scope)
        bot.kick_outbox()
        locale = await reader_locale(interaction)
        done = render(locale, abandoned(self.match_id))
        await interaction.response.edit_message(content=done, view=None)


class ResignButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:resign:(?P<match_id>[0-9]{1,20})",
):
    """Confirms that a player gives up their seat to a computer."""

    def __init__(self, match_id: int, locale: str = lang.DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=render(locale, RESIGN_LABEL),
                style=discord.ButtonStyle.danger,
                custom_id=f"ba:resign:{match_id}",
            )
        )
        self.match_id = match_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        await bot.host.resign(self.match_id, interaction.user.id, scope=scope_of(interaction), resigned=True)
        bot.kick_outbox()
        locale = await reader_locale(interaction)
        done = render(locale, resigned(self.match_id))
        await interaction.response.edit_message(content=done, view=None)


class RematchButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:rematch:(?P<match_id>[0-9]{1,20})",
):
    """On a finished match's last post: the same players and options again, in a new thread."""

    def __init__(self, match_id: int, locale: str = lang.DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=render(locale, REMATCH_LABEL),
                emoji="🔁",
                style=discord.ButtonStyle.primary,
                custom_id=f"ba:rematch:{match_id}",
            )
        )
        self.match_id = match_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        rematch = await bot.host.rematch(self.match_id, interaction.user.id, scope_of(interaction))
        bot.kick_outbox()
        locale = await reader_locale(interaction)
        await interaction.followup.send(render(locale, rematched(rematch.id)), ephemeral=True)


def final_view(match_id: int, locale: str = lang.DEFAULT) -> discord.ui.View:
    """The buttons under a finished match's last post."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(match_id, locale))
    return view
