"""Shared drawing helpers: the bundled font, colours, text placement and PNG encoding.

Every renderer takes a view model (never a full game state) and returns PNG bytes.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.registry import GAMES
from lang import t

Colour = str | tuple[int, int, int] | tuple[int, int, int, int]

INK = "#222222"
MUTED = "#5D5346"
PAPER = "#F4F1EA"


# Rendered texts kept per font: a board draws a hundred or so, most of them the same on every board
# (coordinates, names, card titles), and rasterising text is a third of what drawing a board costs.
TEXT_CACHE_SIZE = 4096


class _Font(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the masks and lengths of the texts it rendered (LRU, thread-safe), so
    a text drawn again with the same arguments is not rasterised again: the same mask gives the same
    pixels. ``ImageDraw`` only reads the masks it is given."""

    def __init__(self, data: bytes, size: int) -> None:
        super().__init__(io.BytesIO(data), size)
        self._mask = lru_cache(maxsize=TEXT_CACHE_SIZE)(super().getmask2)
        self._length = lru_cache(maxsize=TEXT_CACHE_SIZE)(super().getlength)

    def getmask2(  # type: ignore[override]
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[Any, tuple[int, int]]:
        if features is not None or args or mode == "RGBA":
            # Lists are not hashable, and an RGBA mask (colour glyphs) is changed by the caller.
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        return self._mask(text, mode, direction, None, language, stroke_width, anchor, ink, start, **kwargs)

    def getlength(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
    ) -> float:
        if features is not None:
            return super().getlength(text, mode, direction, features, language)
        return float(self._length(text, mode, direction, None, language))


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (shipped in render/assets with its licence) at ``size`` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("render").joinpath("assets", name).read_bytes()
    return _Font(data, size)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    size: int,
    fill: Colour = INK,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    draw.text(xy, content, font=font(size, bold), fill=fill, anchor=anchor)


def text_width(content: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(content)


def fit_text(content: str, size: int, max_width: float, bold: bool = False) -> str:
    """``content`` shortened with an ellipsis so that it fits in ``max_width`` pixels."""
    if text_width(content, size, bold) <= max_width:
        return content
    while content and text_width(content + "…", size, bold) > max_width:
        content = content[:-1]
    return content + "…"


def new_canvas(
    width: int, height: int, background: Colour = PAPER
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), background)
    return image, ImageDraw.Draw(image, "RGBA")


def encode_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


class SeatStyle:
    """How one seat is drawn: a colour safe for common colour-vision deficiencies, and a symbol, so that
    colour is never the only cue."""

    __slots__ = ("colour", "ink", "symbol")

    def __init__(self, colour: str, symbol: str, ink: str = "#FFFFFF") -> None:
        self.colour, self.symbol, self.ink = colour, symbol, ink


# The Okabe-Ito palette, each colour with its own symbol.
SEAT_STYLES = (
    SeatStyle("#0072B2", "●"),
    SeatStyle("#E69F00", "▲", ink="#222222"),
    SeatStyle("#009E73", "■"),
    SeatStyle("#CC79A7", "◆", ink="#222222"),
    SeatStyle("#56B4E9", "★", ink="#222222"),
    SeatStyle("#D55E00", "✚"),
)


def seat_style(seat: int) -> SeatStyle:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def seat_token(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, radius: int) -> None:
    """A disc in the seat's colour with its symbol on it."""
    style = seat_style(seat)
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=style.colour, outline=INK, width=2)
    text(draw, (x, y), style.symbol, max(10, int(radius * 1.1)), style.ink, anchor="mm")


def legend(
    draw: ImageDraw.ImageDraw, origin: tuple[float, float], entries: list[tuple[int, str]], size: int
) -> float:
    """One row per (seat, label): the seat's token and the label; returns the y below the legend."""
    x, y = origin
    for seat, label in entries:
        seat_token(draw, (x + size * 0.6, y + size * 0.6), seat, int(size * 0.6))
        text(draw, (x + size * 1.6, y), label, size, INK)
        y += size * 1.5
    return y


def game_title(slug: str, locale: str) -> str:
    """The title of game ``slug`` in ``locale`` (titles tell apart the two games called New York)."""
    return t(locale, GAMES[slug].title)
