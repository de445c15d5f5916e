"""What the statistics of a finished match read from one public view of its game, per seat.

Each game names the score track it keeps during play (its points, or the money or prestige it shows
before the final count) and one figure its rules make interesting, and reads both from a public view,
so nothing hidden ever reaches the statistics.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel

from engine.core.model import Frozen


class Figures(Frozen):
    """One public view's numbers, one per seat in seat order."""

    track: tuple[int, ...]  # the score track: what the game counts during play
    figure: tuple[int, ...]  # the game's own figure (buildings built, cards claimed, ...)


@dataclass(frozen=True, slots=True)
class GameFigures:
    """How a game's statistics read its public views: ``track`` and ``figure`` name what they count
    (ids the host turns into words), ``read`` takes them from a public view."""

    track: str  # "points", "money" or "prestige"
    figure: str
    read: Callable[[BaseModel], Figures]
