"""A whole match as one animated GIF, for the final post and ``python bot.py replay --animation``.

GIF, because every Discord client plays it inline. Every frame is drawn in one palette, taken from a few
boards spread over the match, and each frame is stored as the rectangle that changed since the one before,
so a frame costs what its move changed. Discord refuses attachments over its limit: the animation is made
smaller until it fits, first by scaling the frames down (to no less than a phone's width), then by
showing only the boards at the ends of turns, and at last only the match's highlights (its scorings and
some of its turns, as /replay jumps to them); the ``Animation`` says which.

The GIF is written as the boards are drawn, one at a time (``GifWriter``): however long the match, the
drawing holds two boards and the bytes written so far, never the whole match. Once those bytes say the
animation cannot fit (already too many, or heading for well over the limit), that try stops there and the
next, smaller one begins, rather than drawing everything first to throw it away.

The drawing is a generator that yields after each board (``match_drawing``), so that the bot, when it
has no process to draw in, can draw a board at a time between the images people wait for and stop
between two boards. A board drawn as a thread shows it has 256 colours of its own; turning those into
the animation's colours cost a frame as much again as drawing it, and moved the edges of text a little
differently on every board, so the bot draws each board straight into the animation's colours.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from PIL import GifImagePlugin, Image, ImageChops
from pydantic import BaseModel

from engine.core.replay import LoggedAction
from engine.host.history import Mark, Marked, jumps, replayed_one_by_one
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
# A try stops early once the bytes of its first fifth say it would pass the limit by half as much again
# (later moves may change less or more than the early ones, hence the margin); a smaller width is skipped
# when the area it saves cannot bring that figure under the same margin.
HEADROOM = 1.5
EARLY_SHARE = 5
EARLY_FRAMES = 8

T = TypeVar("T")
# The boards of the frames asked for (their numbers, in order), each in full colour at the first width or
# already in the animation's palette at that width.
Boards = Callable[[Sequence[int]], Iterator[Image.Image]]


class Shows(Enum):
    """What an animation shows of its match."""

    MOVES = "moves"  # the board after every move
    TURNS = "turns"  # the board at the end of every turn
    HIGHLIGHTS = "highlights"  # the scorings and some turns, the places /replay jumps to


@dataclass(frozen=True, slots=True)
class Animation:
    """An animated GIF of ``frames`` boards at ``width`` pixels, showing ``shows`` of its match."""

    gif: bytes
    shows: Shows
    frames: int
    width: int


class DoesNotFit(ValueError):
    """The animation passes its limit of bytes; ``projected`` is what it would have come to, roughly."""

    def __init__(self, message: str, projected: float = 0.0) -> None:
        super().__init__(message)
        self.projected = projected


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


class GifWriter:
    """An animated GIF in ``palette``, written a frame at a time (``add``, then ``finish``): each frame
    is stored as the rectangle that changed since the one before, a frame that changed nothing makes the
    one before it last longer, and boards of different sizes share the largest page. Only the frame
    before is kept, whatever the number of frames. With ``max_bytes``, ``add`` raises ``DoesNotFit`` as
    soon as the GIF passes it, or once ``expected`` frames are heading well past it (see HEADROOM)."""

    def __init__(self, palette: Image.Image, max_bytes: int | None = None, expected: int = 0) -> None:
        self.max_bytes = max_bytes
        self.expected = expected
        self.added = 0
        self._colours = _colour_table(palette)
        self._out = bytearray(_header(self._colours))
        self._size = (0, 0)
        self._previous: Image.Image | None = None
        self._pending: bytes = b""  # the last frame's picture, written once its duration is known
        self._pending_ms = 0
        self._first_bytes = 0

    @property
    def written(self) -> int:
        """The bytes of the GIF so far."""
        return len(self._out) + len(self._pending) + 8 + 1  # its timing and the trailer still to come

    def add(self, picture: Image.Image) -> None:
        """Add ``picture`` (indices into the palette) as the next frame."""
        self.added += 1
        width, height = self._size
        self._size = (max(width, picture.width), max(height, picture.height))
        page = _page(picture, self._size)
        previous, self._previous = self._previous, page
        box: tuple[int, int, int, int] | None = (0, 0, *page.size)
        if previous is not None and previous.size == page.size:
            box = ImageChops.subtract_modulo(page, previous).getbbox(alpha_only=False)
            if box is None:
                self._pending_ms += FRAME_MS
                return
        assert box is not None
        self._flush()
        part = page if box == (0, 0, *page.size) else page.crop(box)
        self._pending = b"".join(GifImagePlugin.getdata(part, offset=box[:2]))
        self._pending_ms = FRAME_MS
        if self.added == 1:
            self._first_bytes = self.written
        self._check()

    def finish(self) -> bytes:
        """The whole GIF. Raises ``DoesNotFit`` when it passes ``max_bytes``."""
        if not self.added:
            raise ValueError("an animation needs at least one board")
        self._pending_ms += LAST_FRAME_MS - FRAME_MS
        self._flush()
        self._out += b";"
        struct.pack_into("<HH", self._out, 6, *self._size)
        if self.max_bytes is not None and len(self._out) > self.max_bytes:
            raise DoesNotFit(f"the animation takes {len(self._out)} bytes", len(self._out))
        return bytes(self._out)

    def _flush(self) -> None:
        if self._pending:
            # A graphic control extension: no disposal, no transparency, the delay in hundredths.
            self._out += b"!\xf9\x04\x00" + struct.pack("<H", self._pending_ms // 10) + b"\x00\x00"
            self._out += self._pending
            self._pending = b""

    def _check(self) -> None:
        if self.max_bytes is None:
            return
        written = self.written
        projected = float(written)
        if self.added > 1 and self.expected > self.added:
            per_frame = (written - self._first_bytes) / (self.added - 1)
            projected = written + per_frame * (self.expected - self.added)
        if written > self.max_bytes:
            raise DoesNotFit(f"the animation passed {self.max_bytes} bytes", max(projected, written))
        early = max(EARLY_FRAMES, self.expected // EARLY_SHARE)
        if self.added >= early and projected > HEADROOM * self.max_bytes:
            raise DoesNotFit(f"the animation is heading for {projected:.0f} bytes", projected)


def looked_at(boards: Sequence[T]) -> list[T]:
    """The ``boards`` the palette is taken from (see LOOKS)."""
    count = len(boards)
    return [boards[round(n * (count - 1) / max(1, LOOKS - 1))] for n in range(min(LOOKS, count))]


def drawn(game: str, view: BaseModel, names: Sequence[str] = ()) -> Image.Image:
    """The public board of ``view`` in full colour at the first width (never enlarged)."""
    return _scaled(board_image(game, view, names), WIDTHS[0])


def shared_palette(boards: Sequence[Image.Image]) -> Image.Image:
    """256 colours for the whole match, from a sample of the pixels of ``boards`` (full colour)."""
    return _palette_of([_sample(b) for b in boards])


def _sample(board: Image.Image) -> Image.Image:
    """A sample of the pixels of ``board``, which its colours are taken from."""
    return board.resize((max(1, board.width // 3), max(1, board.height // 3)), Image.Resampling.NEAREST)


def _palette_of(samples: Sequence[Image.Image]) -> Image.Image:
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
    here one after another. Raises as ``animate_frames``, and ``KeyError`` for a game without boards."""
    return finished(board_drawing(game, boards, names, max_bytes)).gif


def board_drawing(
    game: str, boards: Sequence[tuple[BaseModel, bool]], names: Sequence[str] = (), max_bytes: int = MAX_BYTES
) -> Generator[None, None, Animation]:
    """``drawing`` the animation of ``boards`` (as ``animate_boards``)."""

    def pictures(chosen: Sequence[int]) -> Iterator[Image.Image]:
        return (drawn(game, boards[n][0], names) for n in chosen)

    marks = [Mark(n, turn_ends) for n, (_, turn_ends) in enumerate(boards)]
    return drawing(marks, pictures, max_bytes)


def animate_match(
    match: MatchRecord,
    kept: Sequence[tuple[int, LoggedAction]],
    names: Sequence[str] = (),
    max_bytes: int = MAX_BYTES,
) -> Animation:
    """The animation of ``match``, replayed here from its kept log ``kept`` (see
    ``engine.host.history.kept_log``), as ``match_drawing``."""
    return finished(match_drawing(match, kept, names, max_bytes))


def match_drawing(
    match: MatchRecord,
    kept: Sequence[tuple[int, LoggedAction]],
    names: Sequence[str] = (),
    max_bytes: int = MAX_BYTES,
) -> Generator[None, None, Animation]:
    """``drawing`` the animation of ``match`` from its kept log: the match is replayed a move at a time,
    once to learn its turns and scorings, then again for each try, drawing the boards it shows. Raises
    ``CorruptRecord`` when the log cannot be replayed, ``KeyError`` for a game without boards."""
    rules = get_game(match.game)
    marks = [Mark.of(f) for f in replayed_one_by_one(rules, match, kept)]
    yield  # a step of its own: replaying a long match takes a while

    def boards(chosen: Sequence[int]) -> Iterator[Image.Image]:
        wanted = set(chosen)
        for f in replayed_one_by_one(rules, match, kept):
            if f.number in wanted:
                yield drawn(match.game, rules.view(f.state, None), names)

    return (yield from drawing(marks, boards, max_bytes))


def animate_frames(frames: Sequence[Frame], palette: Image.Image, max_bytes: int = MAX_BYTES) -> bytes:
    """The animated GIF of ``frames`` (in ``palette``) within ``max_bytes`` (see the module's notes).
    Raises ``ValueError`` without frames, ``DoesNotFit`` when even the highlights at the smallest width
    do not fit."""

    def boards(chosen: Sequence[int]) -> Iterator[Image.Image]:
        return (frames[n].image(palette) for n in chosen)

    marks = [Mark(n, f.turn_ends) for n, f in enumerate(frames)]
    return finished(drawing(marks, boards, max_bytes, palette)).gif


def finished(steps: Generator[None, None, T]) -> T:
    """What ``steps`` comes to, once run to its end here."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def drawing(
    marks: Sequence[Marked], boards: Boards, max_bytes: int = MAX_BYTES, palette: Image.Image | None = None
) -> Generator[None, None, Animation]:
    """The animation of the frames ``marks`` describes, their pictures from ``boards``, within
    ``max_bytes``: every move, else the ends of turns, else the highlights, each at the largest width
    that fits (``palette``: the colours at the first width, when ``boards`` are in them already). It
    yields after each board it draws. Raises ``ValueError`` without frames, ``DoesNotFit`` when even the
    highlights at the smallest width do not fit."""
    count = len(marks)
    if not count:
        raise ValueError("an animation needs at least one board")
    # The palette of each width, from a few boards at that width; each board is let go once sampled.
    samples: dict[int, list[Image.Image]] = {width: [] for width in WIDTHS}
    for board in boards(looked_at(range(count))):
        colours = board.convert("RGB")
        for width, taken in samples.items():
            taken.append(_sample(_scaled(colours, width)))
        del board, colours
        yield
    palettes = {width: _palette_of(taken) for width, taken in samples.items()}
    if palette is not None:
        palettes[WIDTHS[0]] = palette
    first = palettes[WIDTHS[0]]
    del samples
    tried: set[tuple[int, ...]] = set()
    for shows, chosen in _selections(marks):
        if tuple(chosen) in tried:
            continue
        tried.add(tuple(chosen))
        projected, tried_width = 0.0, WIDTHS[0]
        for width in WIDTHS:
            if projected * (width / tried_width) ** 2 > HEADROOM * max_bytes:
                continue
            writer = GifWriter(palettes[width], max_bytes, len(chosen))
            try:
                for board in boards(chosen):
                    writer.add(_at_width(_in_colours(board, first), width, palettes[width]))
                    yield
                return Animation(writer.finish(), shows, len(chosen), width)
            except DoesNotFit as exc:
                projected, tried_width = exc.projected, width
    raise DoesNotFit(f"the match does not fit in {max_bytes} bytes even at {WIDTHS[-1]} px, highlights only")


def _selections(marks: Sequence[Marked]) -> list[tuple[Shows, list[int]]]:
    """The frames of each animation tried, from the longest: every move; the ends of turns and the
    board as it stands; the opening, the places /replay jumps to and the board as it stands."""
    everything = list(range(len(marks)))
    last = len(marks) - 1
    turns = sorted({last, *(n for n, mark in enumerate(marks) if mark.turn_ends)})
    highlights = sorted({0, last, *(jump.move for jump in jumps(marks, last))})
    return [(Shows.MOVES, everything), (Shows.TURNS, turns), (Shows.HIGHLIGHTS, highlights)]


def _in_colours(board: Image.Image, palette: Image.Image) -> Image.Image:
    """``board`` (full colour at the first width, or already in ``palette``) in ``palette``."""
    if board.mode == "P":
        return board
    return board.quantize(palette=palette, dither=Image.Dither.NONE)


def _at_width(picture: Image.Image, width: int, palette: Image.Image) -> Image.Image:
    """``picture`` (in the first width's palette) at ``width``, in ``palette`` (that width's): scaled
    down, edges blend into colours of their own, so the palette is taken again."""
    if width >= WIDTHS[0]:
        return picture
    return _scaled(picture.convert("RGB"), width).quantize(palette=palette, dither=Image.Dither.NONE)


def _gif(frames: Sequence[Frame], palette: Image.Image, width: int) -> bytes:
    """Every one of ``frames`` at ``width``, whatever its size."""
    looks = [f.image(palette).convert("RGB") for f in looked_at(frames)]
    colours = palette if width >= WIDTHS[0] else _palette_of([_sample(_scaled(b, width)) for b in looks])
    writer = GifWriter(colours)
    for f in frames:
        writer.add(_at_width(f.image(palette), width, colours))
    return writer.finish()


def _colour_table(palette: Image.Image) -> bytes:
    """``palette``'s colours as a GIF colour table: a power of two of them, at least two."""
    colours = bytes(palette.getpalette() or [])[: 256 * 3]
    entries = 2
    while entries * 3 < len(colours):
        entries *= 2
    return colours.ljust(entries * 3, b"\0")


def _header(colours: bytes) -> bytes:
    """A GIF89a's header with the global colour table ``colours`` (its size is set when it finishes)
    and the extension that loops it for ever."""
    bits = (len(colours) // 3).bit_length() - 2
    screen = b"GIF89a" + struct.pack("<HHBBB", 0, 0, 0x80 | bits, 0, 0)
    looping = b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00"
    return screen + colours + looping


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
