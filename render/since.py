"""What changed on the board since the player to act last played: the shared mark and legend line.

A player who comes back after a day reads the new post of their turn; the last-move highlight shows only
the final step, so every place that differs from the board as it stood at the end of their previous turn
gets this mark too. The mark is a folded corner and a frame in magenta edged with near-black: no game
uses the colour for a player, it reads on paper, roads and dark tiles alike, and the corner shape keeps it
readable without colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import ImageDraw
from pydantic import BaseModel

from lang import t
from render.canvas import INK, fit_text, text

CHANGED = "#FF00CC"
EDGE = "#111111"
Corner = Literal["tl", "tr", "bl", "br"]
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Since:
    """The public view of the same match at the end of ``seat``'s previous turn; ``seat`` is the player
    now to act, whom the legend names."""

    view: BaseModel
    seat: int


def corner(draw: ImageDraw.ImageDraw, box: Box, leg: float, where: Corner = "tl") -> None:
    """The folded-corner mark: a right triangle with legs ``leg`` in one corner of ``box``."""
    left, top, right, bottom = box
    x, dx = (left, leg) if where[1] == "l" else (right, -leg)
    y, dy = (top, leg) if where[0] == "t" else (bottom, -leg)
    draw.polygon([(x, y), (x + dx, y), (x, y + dy)], fill=CHANGED, outline=EDGE, width=2)


def frame(draw: ImageDraw.ImageDraw, box: Box, width: int = 5, edged: bool = True) -> None:
    """A magenta frame just inside ``box``, edged with near-black on both sides unless ``edged`` is
    False (where dark edges already mean something, as Dirk Henn's streets do)."""
    left, top, right, bottom = box
    if not edged:
        draw.rectangle(box, outline=CHANGED, width=width)
        return
    draw.rectangle(box, outline=EDGE, width=width + 3)
    inset = 1.5
    draw.rectangle((left + inset, top + inset, right - inset, bottom - inset), outline=CHANGED, width=width)


def mark(
    draw: ImageDraw.ImageDraw,
    box: Box,
    leg: float,
    where: Corner = "tl",
    width: int = 5,
    edged: bool = True,
) -> None:
    """A changed place: the frame and the folded corner."""
    frame(draw, box, width, edged)
    corner(draw, box, leg, where)


def who(seat: int, names: Sequence[str]) -> str:
    return names[seat] if seat < len(names) and names[seat] else f"#{seat + 1}"


def legend_text(since: Since, names: Sequence[str], locale: str, changed: bool) -> str:
    player = who(since.seat, names)
    if changed:
        return t(locale, "changed since {player}'s last turn", player=player)
    return t(locale, "nothing on the board changed since {player}'s last turn", player=player)


def legend_line(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    since: Since,
    names: Sequence[str],
    locale: str,
    changed: bool,
    size: int,
    width: float,
) -> None:
    """The legend's line for the mark: a swatch of it and what it means, ``size`` pixels high."""
    x, y = origin
    swatch = (x, y, x + size * 1.4, y + size * 1.2)
    mark(draw, swatch, size * 0.8, width=3)
    label = legend_text(since, names, locale, changed)
    left = x + size * 1.4 + 10
    text(draw, (left, y), fit_text(label, size, width - (left - x)), size, INK)
