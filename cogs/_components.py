"""The base of every button and select menu, and what their callbacks learn from an interaction: the
bot, the server it comes from, who pressed and whether they may run things there."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Self

import discord

from cogs.errors import respond_error
from engine.core.errors import StaleVersion
from engine.host.controls import Pressed, parse
from engine.host.outgoing import Control
from engine.host.ports import Scope
from engine.host.table import MOVED_ON, OUT_OF_DATE
from engine.host.tournament_posts import may_organise

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


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user administers the server the interaction comes from (never true in DMs)."""
    if interaction.guild_id is None:
        return False
    permissions = getattr(interaction.user, "guild_permissions", None)
    return bool(permissions and (permissions.administrator or permissions.manage_guild))


async def is_organiser(interaction: discord.Interaction[Any]) -> bool:
    """Server admins, or members holding the role the server chose for tournaments."""
    roles = [role.id for role in getattr(interaction.user, "roles", ())]
    return await may_organise(
        bot_of(interaction).tournaments, interaction.guild_id, is_admin(interaction), roles
    )


# Every custom_id this bot makes: this prefix, then the control's address (see ``engine.host.controls``).
PREFIX = "ba:"
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
# What a press of each kind of control does: set by the client (see ``cogs._router``).
Route = Callable[[discord.Interaction[Any], Pressed], Awaitable[None]]


def chosen(interaction: discord.Interaction[Any]) -> list[str]:
    """The values picked in the select an interaction comes from (none for a button)."""
    data: dict[str, Any] = dict(interaction.data or {})
    values = data.get("values", [])
    return [str(value) for value in values] if isinstance(values, list) else []


class Routed(discord.ui.DynamicItem[discord.ui.Item[Any]], template=rf"{PREFIX}(?P<address>.*)"):
    """Every control of ours: its press goes to the route of its address's kind, and any error to the one
    error responder. An address no route knows (an older version's, a forged one) is refused like any
    stale control, and so is one whose number is larger than the store holds."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            pressed = parse(self.custom_id.removeprefix(PREFIX))
            routes: dict[str, Route] = getattr(bot_of(interaction), "routes", {})
            if pressed is None or pressed.kind not in routes:
                raise StaleVersion(OUT_OF_DATE)
            if pressed.beyond:
                raise StaleVersion(MOVED_ON)
            await routes[pressed.kind](interaction, pressed)
        except Exception as exc:
            await respond_error(interaction, exc)


def view_of(controls: Sequence[Control]) -> discord.ui.View:
    """The Discord components of ``controls``."""
    view = discord.ui.View(timeout=None)
    for control in controls:
        if control.url is not None:
            view.add_item(discord.ui.Button(label=control.label, url=control.url, emoji=control.emoji))
            continue
        item: discord.ui.Item[Any]
        if control.options is not None:
            options = [
                discord.SelectOption(label=o.label, value=o.value, description=o.about, default=o.chosen)
                for o in control.options
            ]
            item = discord.ui.Select(
                custom_id=PREFIX + control.address,
                placeholder=control.placeholder,
                options=options,
                min_values=control.least,
                max_values=control.most,
                disabled=control.disabled,
                row=control.row,
            )
        else:
            item = discord.ui.Button(
                label=control.label,
                emoji=control.emoji,
                style=STYLES[control.style],
                custom_id=PREFIX + control.address,
                disabled=control.disabled,
                row=control.row,
            )
        view.add_item(Routed(item))
    return view
