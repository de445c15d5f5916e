"""The matches' buttons and select menus, registered with the client. Every one is a DynamicItem: its
custom_id carries the match (and the board version it was made for), so it keeps working after a
restart and a stale click is refused by the host."""

from __future__ import annotations

from typing import Any

import discord

from cogs._final_ui import AbandonButton, RematchButton, ResignButton
from cogs._lobby_ui import ComputerSelect, LobbyButton
from cogs._move_menu import (
    ChoiceButton,
    MoveSelect,
    MultiButton,
    OneMoveButton,
    PicksSelect,
    PlayButton,
    UndoButton,
)
from cogs._post_buttons import HandButton

DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    PlayButton,
    MoveSelect,
    ChoiceButton,
    OneMoveButton,
    MultiButton,
    PicksSelect,
    HandButton,
    LobbyButton,
    ComputerSelect,
    AbandonButton,
    ResignButton,
    RematchButton,
    UndoButton,
)
