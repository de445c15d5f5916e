"""One way of naming people everywhere: the display name, with the seat's colour symbol where the game
has seat colours ("🔴 Ann"). Computer players have names of their own."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.core.presentation import GamePresentation
from engine.host.ports import MatchRecord
from lang.says import Namer

# The symbol beside a name for each seat colour a game may use (GamePresentation.seat_colour).
SYMBOLS = {
    "red": "🔴",
    "blue": "🔵",
    "green": "🟢",
    "yellow": "🟡",
    "brown": "🟤",
    "black": "⚫",
    "white": "⚪",
    "purple": "🟣",
    "orange": "🟠",
    "grey": "🔘",
}

# What a seat's name gains while a computer plays it for its person (taken off when they return).
COMPUTER_SUFFIX = " (computer)"

# Names for computer players: builders and patrons of New York's skyline.
COMPUTER_NAMES = (
    "Astor",
    "Vanderbilt",
    "Morgan",
    "Carnegie",
    "Roebling",
    "Chrysler",
    "Woolworth",
    "Flatiron",
)


def computer_name(taken: set[str]) -> str:
    """The first computer name not ``taken`` in a match ("Astor (computer)"), numbered past the list."""
    for base in COMPUTER_NAMES:
        candidate = f"{base}{COMPUTER_SUFFIX}"
        if candidate not in taken:
            return candidate
    number = len(COMPUTER_NAMES) + 1
    while f"Computer {number}" in taken:
        number += 1
    return f"Computer {number}"


def seat_namer(
    match: MatchRecord, presentation: GamePresentation[Any, Any], state: BaseModel | None
) -> Namer:
    """Names the seats of ``match``: display name, with the colour symbol once the game gives one."""

    def name(seat: int) -> str:
        player = match.player_at(seat)
        base = player.name if player is not None else f"#{seat + 1}"
        colour = presentation.seat_colour(state, seat) if state is not None else None
        symbol = SYMBOLS.get(colour or "")
        return f"{symbol} {base}" if symbol else base

    return name
