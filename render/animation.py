"""A whole match as one animated GIF, for the final post and ``python bot.py replay --animation``.

GIF, because every Discord client plays it inline. Every frame is drawn in one palette, taken from a few
boards spread over the match, and the GIF writer stores each frame as the rectangle that changed since
the one before, so a frame costs what its move changed. Discord refuses attachments over its limit: the
animation is made smaller until it fits, first by scaling the frames down (to no less than a phone's
width), then by leaving out the frames of moves that did not end a turn; every turn stays.

The bot draws a match's boards one at a time (``frame``, between the images other matches need), each
already at the animation's width and in its colours, and then joins them (``animate_frames``). A board
as a thread shows it has 256 colours of its own; turning those into the animation's colours cost a
frame as much again as drawing it, and moved the edges of text a little differently on every board, so
that the frames no longer repeated what had not changed.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from PIL import Image
from pydantic import BaseModel

from engine.core.replay import LoggedAction
from engine.host.history import replayed_frames
from engine.host.ports import MatchRecord
from engine.registry import get_game
from render.canvas import stacked
from render.registry import board_image

# Discord's attachment limit for a bot without boosts.
MAX_BYTES = 8 * 1024 * 1024
# Widths tried in turn, and how long a frame and the last one stay on screen.
WIDTHS = (800, 640, 480, 400)
FRAME_MS = 700
LAST_FRAME_MS = 4000
# How many boards, spread from the first to the last, the palette is taken from: a colour seen only
# early in the match (a card, a piece later gone) keeps its own.
LOOKS = 8

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Still:
    """One board of the animation, as PNG bytes; ``turn_ends``: kept even when frames must be dropped."""

    png: bytes
    turn_ends: bool = True


@dataclass(frozen=True, slots=True)
class Frame:
    """One board of the animation at the first width, as indices into the animation's palette
    (compressed); ``turn_ends`` as for a ``Still``."""

    size: tuple[int, int]
    indices: bytes
    turn_ends: bool = True

    def image(self, palette: Image.Image) -> Image.Image:
        picture = Image.frombytes("P", self.size, zlib.decompress(self.indices))
        picture.putpalette(palette.getpalette() or [])
        return picture


def looked_at(boards: Sequence[T]) -> list[T]:
    """The ``boards`` the palette is taken from (see LOOKS)."""
    count = len(boards)
    return [boards[round(n * (count - 1) / max(1, LOOKS - 1))] for n in range(min(LOOKS, count))]


def drawn(game: str, view: BaseModel, names: Sequence[str] = ()) -> Image.Image:
    """The public board of ``view`` in full colour at the first width (never enlarged)."""
    return _scaled(board_image(game, view, names), WIDTHS[0])


def shared_palette(boards: Sequence[Image.Image]) -> Image.Image:
    """256 colours for the whole match, from a sample of the pixels of ``boards`` (full colour)."""
    samples = [
        b.resize((max(1, b.width // 3), max(1, b.height // 3)), Image.Resampling.NEAREST) for b in boards
    ]
    return stacked(samples).quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def board_palette(game: str, views: Sequence[BaseModel], names: Sequence[str] = ()) -> Image.Image:
    """The palette of an animation whose boards ``views`` are the ones ``looked_at`` picks."""
    return shared_palette([drawn(game, view, names) for view in views])


def frame(
    game: str, view: BaseModel, names: Sequence[str], palette: Image.Image, turn_ends: bool = True
) -> Frame:
    """The public board of ``view`` as a frame of the animation in ``palette``."""
    return _frame(drawn(game, view, names), palette, turn_ends)


def frames_of(stills: Sequence[Still]) -> tuple[list[Frame], Image.Image]:
    """``stills`` as the frames of an animation, and its palette. Raises ``ValueError`` without stills."""
    boards = [_scaled(_decoded(still.png), WIDTHS[0]) for still in stills]
    if not boards:
        raise ValueError("an animation needs at least one board")
    palette = shared_palette(looked_at(boards))
    return [_frame(b, palette, still.turn_ends) for b, still in zip(boards, stills, strict=True)], palette


def animate(stills: Sequence[Still], max_bytes: int = MAX_BYTES) -> bytes:
    """The animated GIF of ``stills`` within ``max_bytes``, as ``animate_frames``."""
    return animate_frames(*frames_of(stills), max_bytes)


def animate_boards(
    game: str, boards: Sequence[tuple[BaseModel, bool]], names: Sequence[str] = (), max_bytes: int = MAX_BYTES
) -> bytes:
    """The animated GIF of ``boards`` (a public view and whether its move ended a turn, in order), drawn
    here one after another: the steps the bot's render processes take a job at a time. Raises as
    ``animate_frames``, and ``KeyError`` for a game without boards."""
    palette = board_palette(game, [view for view, _ in looked_at(boards)], names)
    drawn = [frame(game, view, names, palette, turn_ends) for view, turn_ends in boards]
    return animate_frames(drawn, palette, max_bytes)


def animate_match(
    match: MatchRecord,
    kept: Sequence[tuple[int, LoggedAction]],
    names: Sequence[str] = (),
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """The animated GIF of ``match``, replayed here from its kept log ``kept`` (see
    ``engine.host.history.kept_log``), as ``animate_boards``. Raises ``CorruptRecord`` when the log
    cannot be replayed, and as ``animate_boards``."""
    rules = get_game(match.game)
    frames = replayed_frames(rules, match, kept)
    return animate_boards(
        match.game, [(rules.view(f.state, None), f.turn_ends) for f in frames], names, max_bytes
    )


def animate_frames(frames: Sequence[Frame], palette: Image.Image, max_bytes: int = MAX_BYTES) -> bytes:
    """The animated GIF of ``frames`` (in ``palette``) within ``max_bytes`` (see the module's notes).
    Raises ``ValueError`` without frames, or when even every turn at the smallest width does not fit."""
    if not frames:
        raise ValueError("an animation needs at least one board")
    everything = list(frames)
    turns = [f for f in everything if f.turn_ends] or everything[-1:]
    for chosen in (everything, turns):
        for width in WIDTHS:
            data = _gif(chosen, palette, width)
            if len(data) <= max_bytes:
                return data
    raise ValueError(f"the match does not fit in {max_bytes} bytes even at {WIDTHS[-1]} px, turn by turn")


def _gif(frames: Sequence[Frame], palette: Image.Image, width: int) -> bytes:
    pictures = [f.image(palette) for f in frames]
    if width < WIDTHS[0]:
        # Scaled down, edges blend into colours of their own: the palette is taken again.
        boards = [_scaled(p.convert("RGB"), width) for p in pictures]
        palette = shared_palette(looked_at(boards))
        pictures = [b.quantize(palette=palette, dither=Image.Dither.NONE) for b in boards]
    # Boards that grew or shrank are set on a page of the largest size.
    size = (max(p.width for p in pictures), max(p.height for p in pictures))
    pages = [_page(p, size) for p in pictures]
    durations = [FRAME_MS] * (len(pages) - 1) + [LAST_FRAME_MS]
    buffer = io.BytesIO()
    pages[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=pages[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    return buffer.getvalue()


def _frame(board: Image.Image, palette: Image.Image, turn_ends: bool) -> Frame:
    indices = board.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
    return Frame(board.size, zlib.compress(indices, 1), turn_ends)


def _decoded(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as opened:
        return opened.convert("RGB")


def _scaled(image: Image.Image, width: int) -> Image.Image:
    """``image`` at ``width`` pixels (never enlarged)."""
    if image.width <= width:
        return image
    return image.resize((width, round(image.height * width / image.width)), Image.Resampling.BOX)


def _page(picture: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``picture`` (palette) on a page of ``size`` in its own background colour (its top-left pixel)."""
    if picture.size == size:
        return picture
    page = Image.new("P", size, picture.getpixel((0, 0)))
    page.putpalette(picture.getpalette() or [])
    page.paste(picture, (0, 0))
    return page
