"""Shared drawing helpers: the bundled font, colours, text placement and PNG encoding.

Every renderer takes a view model (never a full game state) and returns PNG bytes.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

Colour = str | tuple[int, int, int] | tuple[int, int, int, int]

INK = "#222222"
MUTED = "#5D5346"
PAPER = "#F4F1EA"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (shipped in render/assets with its licence) at ``size`` pixels."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("render").joinpath("assets", name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


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
