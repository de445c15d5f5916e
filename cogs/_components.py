"""The base of every button and select menu, and what their callbacks learn from an interaction: the
bot, the server it comes from, who pressed and whether they may run things there."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

from cogs.errors import respond_error
from engine.core.errors import StaleVersion
from engine.host.ports import Scope
from engine.host.table import MOVED_ON

if TYPE_CHECKING:
    from cogs._bot import Bot


def bot_of(interaction: discord.Interaction[Any]) -> Bot:
    return interaction.client  # type: ignore[no-any-return]


def display_name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def scope_of(interaction: discord.Interaction[Any]) -> Scope:
    """The server (or the user's direct messages) an interaction comes from: every lookup of a match by
    number goes through it, so a server never reaches another server's matches."""
    return Scope(user_id=interaction.user.id, guild_id=interaction.guild_id)


# The server setting naming the role whose members run tournaments and manage tables.


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user administers the server the interaction comes from (never true in DMs)."""
    if interaction.guild_id is None:
        return False
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and (permissions.administrator or permissions.manage_guild))


async def is_organiser(interaction: discord.Interaction[Any]) -> bool:
    """Server admins, or members holding the role the server chose for tournaments."""
    if is_admin(interaction):
        return True
    if interaction.guild_id is None:
        return False
    role_id = await bot_of(interaction).tournaments.organiser_role(interaction.guild_id)
    roles = {role.id for role in getattr(interaction.user, "roles", ())}
    return role_id is not None and role_id in roles


# The largest number of a custom id that reaches the store: ids are 64-bit integers in both stores, and
# the other numbers (versions, moves, rounds) PostgreSQL INTEGERs, a version being looked up one past.
ID_LIMIT = 2**63 - 1
NUMBER_LIMIT = 2**31 - 2


def number_limit(name: str) -> int:
    """The largest value the number ``name`` of a custom id may have."""
    return ID_LIMIT if name.endswith("_id") else NUMBER_LIMIT


class Guarded:
    """Base of our components: rebuilt from the custom_id's named groups (numbers as ints), and any
    error of a callback goes to the one error responder.

    Templates accept only ASCII digits, at most 20 of them, so every number parses; a control with a
    number larger than the store holds was never one of ours, and its press is refused as stale without
    reaching the store (``beyond``)."""

    beyond = False

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        fields: dict[str, int | str] = {}
        beyond = False
        for name, value in match.groupdict().items():
            if value is None:
                continue  # an optional part the custom id leaves out
            if value.isascii() and value.isdigit():
                number = int(value)
                if number > number_limit(name):
                    beyond, number = True, 0
                fields[name] = number
            else:
                fields[name] = value
        rebuilt = cls(**fields)
        rebuilt.beyond = beyond
        return rebuilt

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if self.beyond:
                raise StaleVersion(MOVED_ON)
            await self.run(interaction)
        except Exception as exc:
            await respond_error(interaction, exc)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError
