"""A whole match as one animated GIF, for the final post and ``python bot.py replay --animation``.

GIF, because every Discord client plays it inline. The boards are already 256-colour images, and the GIF
writer stores each frame as the rectangle that changed since the one before, so a frame costs what its
move changed. Discord refuses attachments over its limit: the animation is made smaller until it fits,
first by scaling the frames down (to no less than a phone's width), then by leaving out the frames of
moves that did not end a turn; every turn stays.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

# Discord's attachment limit for a bot without boosts.
MAX_BYTES = 8 * 1024 * 1024
# Widths tried in turn, and how long a frame and the last one stay on screen.
WIDTHS = (800, 640, 480, 400)
FRAME_MS = 700
LAST_FRAME_MS = 4000


@dataclass(frozen=True, slots=True)
class Still:
    """One board of the animation, as PNG bytes; ``turn_ends``: kept even when frames must be dropped."""

    png: bytes
    turn_ends: bool = True


def animate(stills: Sequence[Still], max_bytes: int = MAX_BYTES) -> bytes:
    """The animated GIF of ``stills`` within ``max_bytes`` (see the module's notes). Raises ``ValueError``
    without stills, or when even every turn at the smallest width does not fit."""
    if not stills:
        raise ValueError("an animation needs at least one board")
    everything = list(stills)
    turns = [s for s in everything if s.turn_ends] or everything[-1:]
    for chosen in (everything, turns):
        for width in WIDTHS:
            data = _gif(chosen, width)
            if len(data) <= max_bytes:
                return data
    raise ValueError(f"the match does not fit in {max_bytes} bytes even at {WIDTHS[-1]} px, turn by turn")


def _gif(stills: Sequence[Still], width: int) -> bytes:
    boards = [_scaled(still.png, width) for still in stills]
    size = (max(b.width for b in boards), max(b.height for b in boards))
    # One palette for every frame, so that each frame stores only what its move changed; boards that grew
    # or shrank are set on a page of the largest size.
    palette = _palette([_page(b, size) for b in boards])
    frames = [_page(b, size).quantize(palette=palette, dither=Image.Dither.NONE) for b in boards]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return buffer.getvalue()


def _palette(boards: Sequence[Image.Image], looks: int = 8) -> Image.Image:
    """256 colours for the whole match: those of a sample of the pixels of ``looks`` boards spread from
    the first to the last, so that a colour seen only early in the match (a card, a piece later gone)
    keeps its own."""
    picked = [
        boards[round(n * (len(boards) - 1) / max(1, looks - 1))] for n in range(min(looks, len(boards)))
    ]
    samples = [
        b.resize((max(1, b.width // 3), max(1, b.height // 3)), Image.Resampling.NEAREST) for b in picked
    ]
    sheet = Image.new("RGB", (max(s.width for s in samples), sum(s.height for s in samples)))
    top = 0
    for sample in samples:
        sheet.paste(sample, (0, top))
        top += sample.height
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _scaled(png: bytes, width: int) -> Image.Image:
    """The board in full colour at ``width`` pixels (never enlarged)."""
    with Image.open(io.BytesIO(png)) as opened:
        image = opened.convert("RGB")
    if image.width > width:
        height = round(image.height * width / image.width)
        image = image.resize((width, height), Image.Resampling.BOX)
    return image


def _page(board: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``board`` on a page of ``size`` in its own background colour (its top-left pixel)."""
    if board.size == size:
        return board
    page = Image.new("RGB", size, board.getpixel((0, 0)))
    page.paste(board, (0, 0))
    return page
