"""Shared drawing helpers: the bundled font, colours, text placement and PNG encoding.

Every renderer takes a view model (never a full game state) and returns PNG bytes.
"""

from __future__ import annotations

import io
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar, Generic, TypeVar

from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont

from engine.registry import GAMES
from lang import t

Colour = str | tuple[int, int, int] | tuple[int, int, int, int]

INK = "#222222"
MUTED = "#5D5346"
PAPER = "#F4F1EA"


Mask = tuple[Any, tuple[int, int]]  # Pillow's internal image of the glyphs, and its offset
Kept = TypeVar("Kept")


class PixelCache(Generic[Kept]):
    """Pictures kept for reuse by key, least recently used first out once ``budget`` pixels are held
    (a budget of 0 keeps nothing); ``pixels_of`` says how many pixels one holds."""

    def __init__(self, pixels_of: Callable[[Kept], int], budget: int) -> None:
        self.budget = budget
        self.pixels = 0
        self.hits = self.misses = 0
        self._pixels_of = pixels_of
        self._kept: OrderedDict[Hashable, Kept] = OrderedDict()
        # Renders may run in several threads at once (the in-thread fallback): the dict is shared.
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Kept | None:
        with self._lock:
            kept = self._kept.get(key)
            if kept is None:
                self.misses += 1
                return None
            self.hits += 1
            self._kept.move_to_end(key)
            return kept

    def put(self, key: Hashable, kept: Kept) -> None:
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = kept
            self.pixels += self._pixels_of(kept)
            while self.pixels > self.budget and self._kept:
                _, old = self._kept.popitem(last=False)
                self.pixels -= self._pixels_of(old)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.pixels = self.hits = self.misses = 0


class MaskCache(PixelCache[Mask]):
    """Rasterised text kept for reuse.

    A board draws the same labels on every render (street names, symbols, headings); rasterising them with
    FreeType was a sixth to a quarter of a render. A mask depends only on the font, the text, the anchor and
    the fractional part of the position, so a cached one draws exactly the pixels a fresh one would.
    """

    def __init__(self, budget: int = 8_000_000) -> None:
        super().__init__(lambda mask: mask[0].size[0] * mask[0].size[1], budget)


MASKS = MaskCache()

Box = tuple[int, int, int, int]

# Parts of boards drawn before (an empty map, a site with the same stack), about 18 MB of them.
TILES: PixelCache[Image.Image] = PixelCache(lambda tile: tile.width * tile.height, budget=6_000_000)


def drawn_once(canvas: Draw, box: Box, key: Hashable, draw: Callable[[], None]) -> None:
    """Have ``box`` of the canvas (left, top, right, bottom in units; right and bottom excluded) show what
    ``draw()`` draws in it, pasted when the same ``key`` was drawn in the same box before.

    Most of a board looks as it did last time (the roads, the empty lots, the sites nobody built on), and
    drawing it shape by shape was a tenth to a third of a board's drawing. The pixels are those ``draw()``
    gives as long as ``box`` is plain paper before, ``draw()`` draws nothing outside it, and ``key`` names
    all that decides what it draws.
    """
    image = canvas.image
    pixels = canvas.box(box)
    full_key = (image.mode, canvas.scale, pixels, key)
    tile = TILES.get(full_key)
    if tile is not None:
        image.paste(tile, pixels[:2])
        return
    draw()
    TILES.put(full_key, image.crop(pixels))


_FILLED = (("stroke_filled", True),)  # how ``getmask2``'s key holds the one keyword a line of text passes


class CachedFont(ImageFont.FreeTypeFont):
    """A FreeType font whose glyph masks come from ``MASKS`` when the same text was drawn before."""

    def __init__(self, data: bytes, size: float, name: str) -> None:
        super().__init__(io.BytesIO(data), size)
        self.name = name

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
    ) -> Mask:
        # Only plain masks are kept: colour ("RGBA") masks carry the ink and Pillow writes into them.
        plain = mode != "RGBA" and not args and direction is None and not features and language is None
        if not plain:
            return super().getmask2(
                text, mode, direction, features, language, stroke_width, anchor, ink, start, *args, **kwargs
            )
        key = (self.name, self.size, text, mode, stroke_width, anchor, start, tuple(sorted(kwargs.items())))
        cached = MASKS.get(key)
        if cached is None:
            cached = super().getmask2(
                text, mode, None, None, None, stroke_width, anchor, ink, start, **kwargs
            )
            MASKS.put(key, cached)
        return cached

    def line_mask(
        self, text: str, mode: str, anchor: str | None, ink: int, start: tuple[float, float]
    ) -> Mask:
        """``getmask2`` of one plain line as ``Draw.line_of_text`` asks for it, kept under the same key,
        without working the key out from every argument (a board draws some fifty lines)."""
        key = (self.name, self.size, text, mode, 0, anchor, start, _FILLED)
        cached = MASKS.get(key)
        if cached is None:
            cached = super().getmask2(text, mode, None, None, None, 0, anchor, ink, start, stroke_filled=True)
            MASKS.put(key, cached)
        return cached


@lru_cache(maxsize=64)
def font(size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (shipped in render/assets with its licence) at ``size`` pixels, its masks cached."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("render").joinpath("assets", name).read_bytes()
    return CachedFont(data, size, name)


@dataclass
class TextLog:
    """What the texts drawn while it records looked like: each text, the smallest font in pixels, every
    text ``fit_text`` cut short, every line whose names ``names_in`` shortened (which keeps its meaning),
    and every text that runs past the edge of its canvas. Tests hold boards and hands to these."""

    drawn: list[str] = field(default_factory=list)
    smallest: float = math.inf
    cut: list[tuple[str, str]] = field(default_factory=list)  # (the whole text, what was drawn)
    shortened: list[tuple[str, str]] = field(default_factory=list)
    overflowing: list[str] = field(default_factory=list)


_LOG: ContextVar[TextLog | None] = ContextVar("text_log", default=None)


@contextmanager
def recording() -> Iterator[TextLog]:
    """Records the texts drawn in this thread (and task) until the block ends."""
    log = TextLog()
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


def _record_drawn(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], content: str, face: Any, anchor: str
) -> None:
    log = _LOG.get()
    if log is None:
        return
    log.drawn.append(content)
    log.smallest = min(log.smallest, face.size)
    if "\n" in content:
        box = draw.multiline_textbbox(xy, content, font=face, anchor=anchor)
    else:
        box = face.getbbox(content, anchor=anchor)
        box = (box[0] + xy[0], box[1] + xy[1], box[2] + xy[0], box[3] + xy[1])
    width, height = draw.im.size  # the core image's, in pixels
    if box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height:
        log.overflowing.append(content)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    size: int,
    fill: Colour = INK,
    bold: bool = False,
    anchor: str = "la",
) -> None:
    if isinstance(draw, Draw):
        face = font(size * draw.scale, bold)
        xy = draw.where(xy)
        _record_drawn(draw, xy, content, face, anchor)
        if "\n" not in content:
            draw.line_of_text(xy, content, face, fill, anchor)
            return
    else:
        face = font(size, bold)
        _record_drawn(draw, xy, content, face, anchor)
    draw.text(xy, content, font=face, fill=fill, anchor=anchor)


@lru_cache(maxsize=4096)
def text_width(content: str, size: int, bold: bool = False) -> float:
    """The advance width of ``content`` in units, as a canvas at ``SCALE`` draws it."""
    return font(size * SCALE, bold).getlength(content) / SCALE


def fit_text(content: str, size: int, max_width: float, bold: bool = False) -> str:
    """``content`` shortened with an ellipsis so that it fits in ``max_width`` units. A last resort
    that loses words: a text that matters wraps (``wrapped``) or is shortened by a rule that keeps its
    meaning (``short_name``); a text cut here is recorded, and tests find none on any board."""
    fitted = _fitted(content, size, max_width, bold)
    if fitted != content:
        log = _LOG.get()
        if log is not None:
            log.cut.append((content, fitted))
    return fitted


@lru_cache(maxsize=4096)
def _fitted(content: str, size: int, max_width: float, bold: bool) -> str:
    if text_width(content, size, bold) <= max_width:
        return content
    while content and text_width(content + "…", size, bold) > max_width:
        content = content[:-1]
    return content + "…"


# Where a line breaks best, best first: between the items of a " · " list ("12 points · 5 cards"), then
# of a ", " list ("bronze square, silver bar of 3"), then between words.
BREAKS = (" · ", ", ", " ")


@lru_cache(maxsize=1024)
def wrapped(content: str, size: int, max_width: float, bold: bool = False) -> tuple[str, ...]:
    """``content`` in lines that each fit in ``max_width`` units, every word kept: broken where it
    breaks best (see BREAKS), a word wider than a line on its own between letters."""
    return tuple(_broken(content, size, max_width, bold, BREAKS))


def _broken(content: str, size: int, max_width: float, bold: bool, breaks: Sequence[str]) -> list[str]:
    if not breaks:  # one word too wide for a line: between letters
        pieces: list[str] = []
        while text_width(content, size, bold) > max_width and len(content) > 1:
            cut = len(content) - 1
            while cut > 1 and text_width(content[:cut], size, bold) > max_width:
                cut -= 1
            pieces.append(content[:cut])
            content = content[cut:]
        return [*pieces, content]
    separator, finer = breaks[0], breaks[1:]
    # A line broken inside a ", " list ends with its comma, as in print.
    ending = separator.rstrip() if separator.strip() == "," else ""
    lines: list[str] = []
    for part in content.split(separator):
        joined = f"{lines[-1]}{separator}{part}" if lines else part
        if lines and text_width(joined + ending, size, bold) <= max_width:
            lines[-1] = joined
            continue
        if lines and ending:
            lines[-1] += ending
        if text_width(part + ending, size, bold) <= max_width:
            lines.append(part)
        else:
            lines.extend(_broken(part, size, max_width, bold, finer))
    return lines


def wrapped_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    content: str,
    size: int,
    max_width: float,
    leading: float,
    fill: Colour = INK,
    bold: bool = False,
) -> float:
    """``content`` drawn from ``xy`` on as many lines ``leading`` units apart as it takes to fit in
    ``max_width`` (see ``wrapped``); returns the y of the line that would come next."""
    x, y = xy
    for line in wrapped(content, size, max_width, bold):
        text(draw, (x, y), line, size, fill, bold)
        y += leading
    return y


# A name's last part in brackets says what kind of player it is ("Astor (computer)"): it is kept whole.
_KIND = re.compile(r"^(?P<name>.+?)(?P<kind>\s*\([^()]*\))$")


def abbreviated(name: str, letters: int) -> str:
    """``name`` kept to its first ``letters`` letters and an ellipsis, its last part in brackets whole
    ("Vanderbilt (computer)" to 4 letters: "Vand… (computer)"); a name that short already is as it is."""
    found = _KIND.match(name)
    stem, kind = (found["name"], found["kind"]) if found else (name, "")
    if len(stem) <= letters:
        return name
    return stem[:letters].rstrip(" .") + "…" + kind  # no space or dot just before the ellipsis


def names_in(
    compose: Callable[[Sequence[str]], str],
    names: Sequence[str],
    size: int,
    max_width: float,
    bold: bool = False,
) -> str:
    """``compose(names)`` (a line naming players) fitting in ``max_width`` units. When it is too wide
    only the names are shortened, all to the same number of letters, with an ellipsis (see
    ``abbreviated``): all the line says besides them (a turn marker, a colour, a sum) stays whole.
    Recorded as shortened, the one way a board may shorten a text."""
    whole = compose(names)
    if text_width(whole, size, bold) <= max_width:
        return whole
    kept = whole
    for letters in range(max((len(name) for name in names), default=0) - 1, 0, -1):
        kept = compose([abbreviated(name, letters) for name in names])
        if text_width(kept, size, bold) <= max_width:
            break
    log = _LOG.get()
    if log is not None:
        log.shortened.append((whole, kept))
    return kept


def name_in(compose: Callable[[str], str], name: str, size: int, max_width: float, bold: bool = False) -> str:
    """``compose(name)`` fitting in ``max_width`` units, only the name shortened (see ``names_in``)."""
    return names_in(lambda shown: compose(shown[0]), [name], size, max_width, bold)


def short_name(
    name: str, size: int, max_width: float, bold: bool = False, before: str = "", after: str = ""
) -> str:
    """``before + name + after`` fitting in ``max_width`` units, only the name shortened (see ``name_in``)."""
    return name_in(lambda shown: before + shown + after, name, size, max_width, bold)


def translucent(colour: Any) -> bool:
    """Whether a colour as ImageDraw takes it ("#RRGGBBAA", an RGBA tuple, ...) lets what is below show."""
    return _translucent(tuple(colour) if isinstance(colour, list) else colour)


@lru_cache(maxsize=1024)
def _translucent(colour: Any) -> bool:
    # A board asks this of every shape's colours, and a board has a few dozen colours.
    if isinstance(colour, str):
        colour = ImageColor.getrgb(colour)
    return isinstance(colour, tuple) and len(colour) == 4 and colour[3] < 255


# Boards and hands are laid out in units (a board is 1000 units wide, Piatnik's 900) and drawn at SCALE
# pixels a unit. Every size keeps its share of the width, so a picture looks the same wherever it is
# shown smaller than it is drawn: a phone shows a board about 400 px wide, a desktop thread a few hundred
# until it is opened, and then fits it to the window's height (580 to 850 px wide on a 1080-line
# screen). At 0.8 a board has 0.64 of the pixels, and encoding it, the larger part of every move's
# image, takes about a quarter less time.
SCALE = 0.8


def pixels(units: float, scale: float | None = None) -> int:
    """How many pixels ``units`` take at ``scale`` (None: ``SCALE``)."""
    return round(units * (SCALE if scale is None else scale))


def scaled_exclusive(edge: float, scale: float) -> int:
    """The pixel just past unit ``edge - 1`` (the right or bottom edge of a box that leaves it out):
    what a box keeps out stays out, and what it holds stays in, whatever the rounding."""
    return round((edge - 1) * scale) + 1


class Draw(ImageDraw.ImageDraw):
    """Drawing on an RGB canvas in colours that may carry alpha: a translucent colour is blended with what
    is below, an opaque one is written straight in. Blending every shape, opaque ones included, made a
    board's drawing up to twice as slow; the pixels are the same either way.

    Positions, sizes and line widths are in units, drawn at ``scale`` pixels a unit (see SCALE); text
    drawn with ``text`` is scaled too. A line keeps at least one pixel."""

    # The inks of the (outline, fill) pairs already drawn on an RGB canvas, and whether they blend: a
    # board draws a few dozen colours some hundreds of times, and working out each ink again was an
    # eighth of its drawing time. An ink is the colour packed as an RGB pixel, the same on every canvas.
    _inks: ClassVar[dict[tuple[Any, Any], tuple[bool, tuple[int | None, int | None]]]] = {}
    INKS_KEPT = 4096

    def __init__(self, image: Image.Image, scale: float = 1.0) -> None:
        super().__init__(image, "RGBA")
        self.image = image
        self.scale = scale
        self._drawing = False
        self._blending = self.draw
        self._writing = Image.core.draw(self.im, 0)
        self._rgb = image.mode == "RGB"

    # Every drawing method of ImageDraw turns its colours into ink here before it draws with ``self.draw``.
    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        kept = self._rgb
        try:
            known = self._inks.get((ink, fill)) if kept else None
        except TypeError:  # a colour given as a list
            known, kept = None, False
        if known is not None:
            blends, inks = known
            self.draw = self._blending if blends else self._writing
            return inks
        blends = translucent(ink) or translucent(fill)
        self.draw = self._blending if blends else self._writing
        inks = super()._getink(ink, fill)
        if kept:
            if len(self._inks) >= self.INKS_KEPT:
                self._inks.clear()
            self._inks[(ink, fill)] = (blends, inks)
        return inks

    def where(self, xy: tuple[float, float]) -> tuple[float, float]:
        """Where the point at ``xy`` units falls, in pixels (not rounded)."""
        return (xy[0] * self.scale, xy[1] * self.scale)

    def box(self, box: Box) -> Box:
        """``box`` (left, top, right, bottom in units; right and bottom excluded) in pixels."""
        left, top, right, bottom = box
        scale = self.scale
        return (
            round(left * scale),
            round(top * scale),
            scaled_exclusive(right, scale),
            scaled_exclusive(bottom, scale),
        )

    def _at(self, xy: Any) -> Any:
        """``xy`` as ImageDraw takes it (numbers, or points) from units to whole pixels."""
        scale = self.scale
        if isinstance(xy[0], (int, float)):
            return [round(value * scale) for value in xy]
        return [(round(x * scale), round(y * scale)) for x, y in xy]

    def _thick(self, width: float) -> int:
        return max(1, round(width * self.scale)) if width > 0 else 0

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: float = 1) -> None:
        # What ImageDraw's rectangle does, without its call through the generic shape steps: a board
        # draws a hundred rectangles or more, and those steps were half of each one's time.
        if not self._drawing and self.scale != 1.0:
            xy, width = self._at(xy), self._thick(width)
        ink, fill_ink = self._getink(outline, fill)
        if fill_ink is not None:
            self.draw.draw_rectangle(xy, fill_ink, 1)
        if ink is not None and ink != fill_ink and width != 0:
            self.draw.draw_rectangle(xy, ink, 0, int(width))

    # The other shapes go through ImageDraw, which draws some as others (a rounded rectangle with square
    # corners as a rectangle): ``_drawing`` says that those are in pixels already.

    def rounded_rectangle(
        self,
        xy: Any,
        radius: float = 0,
        fill: Any = None,
        outline: Any = None,
        width: float = 1,
        *,
        corners: tuple[bool, bool, bool, bool] | None = None,
    ) -> None:
        if self._drawing or self.scale == 1.0:
            super().rounded_rectangle(xy, radius, fill, outline, int(width), corners=corners)
            return
        self._drawing = True
        try:
            scaled = round(radius * self.scale)
            super().rounded_rectangle(
                self._at(xy), scaled, fill, outline, self._thick(width), corners=corners
            )
        finally:
            self._drawing = False

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: float = 1) -> None:
        if self._drawing or self.scale == 1.0:
            super().ellipse(xy, fill, outline, int(width))
            return
        self._drawing = True
        try:
            super().ellipse(self._at(xy), fill, outline, self._thick(width))
        finally:
            self._drawing = False

    def line(self, xy: Any, fill: Any = None, width: float = 0, joint: str | None = None) -> None:
        if self._drawing or self.scale == 1.0:
            super().line(xy, fill, int(width), joint)
            return
        self._drawing = True
        try:
            super().line(self._at(xy), fill, self._thick(width), joint)
        finally:
            self._drawing = False

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: float = 1) -> None:
        # ImageDraw draws no other shape for a polygon, so it needs no ``_drawing`` guard.
        if self._drawing or self.scale == 1.0:
            points, thick = xy, int(width)
        else:
            points, thick = self._at(xy), self._thick(width)
        if thick > 1 and outline is not None:
            self._thick_polygon(points, fill, outline, thick)
        else:
            super().polygon(points, fill, outline, thick)

    def _thick_polygon(self, points: Any, fill: Any, outline: Any, width: int) -> None:
        """A polygon in pixels with an outline wider than one pixel, drawn on the piece of the canvas it
        covers and put back. ImageDraw keeps such an outline inside the shape through a mask as large as
        the whole canvas: for the marks of what changed, a few dozen pixels each, making that mask was
        most of a board's marking. Drawn on the piece, every pixel comes out as on the whole canvas."""
        if isinstance(points[0], (int, float)):
            points = list(zip(points[::2], points[1::2], strict=True))
        xs, ys = [x for x, _ in points], [y for _, y in points]
        left, top = max(0, math.floor(min(xs))), max(0, math.floor(min(ys)))
        right = min(self.image.width, math.ceil(max(xs)) + 1)
        bottom = min(self.image.height, math.ceil(max(ys)) + 1)
        if left >= right or top >= bottom:
            return  # wholly off the canvas
        piece = self.image.crop((left, top, right, bottom))
        moved = [(x - left, y - top) for x, y in points]
        # ImageDraw's own steps, with the inks worked out once: asking for the mask's ink in between
        # would switch a translucent outline to being written in, not blended.
        draw = Draw(piece)
        ink, fill_ink = draw._getink(outline, fill)
        if fill_ink is not None:
            draw.draw.draw_polygon(moved, fill_ink, 1)
        if ink is not None and ink != fill_ink:
            inside = Image.new("1", piece.size)
            ImageDraw.Draw(inside).draw.draw_polygon(moved, 1, 1)
            draw.draw.draw_polygon(moved, ink, 0, width * 2 - 1, inside.im)
        self.image.paste(piece, (left, top))

    def line_of_text(
        self, xy: tuple[float, float], content: str, face: ImageFont.FreeTypeFont, fill: Colour, anchor: str
    ) -> None:
        """The pixels ``text`` draws for one line in ``face``, without the steps it takes for what a board
        never asks of it (several lines, outlines, colour glyphs): a board draws some fifty lines of
        text, and those steps took a third of each line's time. ``xy`` is in pixels."""
        ink, _ = self._getink(fill)
        if ink is None:
            return
        x, y = xy
        start = (math.modf(x)[0], math.modf(y)[0])
        if isinstance(face, CachedFont):
            mask, offset = face.line_mask(content, self.fontmode, anchor, ink, start)
        else:
            mask, offset = face.getmask2(
                content, self.fontmode, None, None, None, 0, anchor, ink, start, stroke_filled=True
            )
        self.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


def new_canvas(
    width: int, height: int, background: Colour = PAPER, scale: float | None = None
) -> tuple[Image.Image, Draw]:
    """A canvas ``width`` by ``height`` units, drawn at ``scale`` pixels a unit (None: ``SCALE``)."""
    scale = SCALE if scale is None else scale
    image = Image.new("RGB", (pixels(width, scale), pixels(height, scale)), background)
    return image, Draw(image, scale)


def trimmed(
    image: Image.Image, margin: int = 20, least: int = 400, scale: float | None = None
) -> Image.Image:
    """``image`` without the empty paper right of what was drawn on it, keeping ``margin`` pixels and at
    least ``least`` of its width: a hand drawn on a wide canvas takes a phone's whole width to show what
    it holds, and costs no time to encode the paper beside it. ``margin`` and ``least`` are in units of
    ``scale`` pixels."""
    scale = SCALE if scale is None else scale
    drawn = ImageChops.difference(image, Image.new(image.mode, image.size, PAPER)).getbbox()
    right = drawn[2] if drawn is not None else 0
    width = min(image.width, max(pixels(least, scale), right + pixels(margin, scale)))
    return image if width == image.width else image.crop((0, 0, width, image.height))


# A palette image may move a pixel's colour by at most this much in any channel (out of 255), and at most
# PALETTE_SPREAD of the samples by more than PALETTE_NEAR: the boards' flat colours move by a level or two
# and only the anti-aliased edges of text and shapes by more, which nobody sees. A picture whose small
# details would lose their colour (a rare colour folded into a common one, a hundred levels or more away)
# misses the bound and keeps its full colours. Measured on every game's boards, a palette taken from a
# sample moves a few edge pixels by 41 to 47 levels where one taken from all pixels stays within 40:
# the same look, so the bound sits just above them.
PALETTE_TOLERANCE = 48
PALETTE_NEAR = 8
PALETTE_SPREAD = 0.005


# The palette is first taken from every SAMPLE_STEP-th pixel each way: a ninth of the work of taking it
# from them all, and boards have few colours, so it nearly always holds them all.
SAMPLE_STEP = 3


def lattice(image: Image.Image, offset: int) -> Image.Image:
    """The pixels of ``image`` at column and row ``offset + SAMPLE_STEP * n`` (``offset`` below the step):
    a smaller picture of the same mode."""
    width = (image.width - offset + SAMPLE_STEP - 1) // SAMPLE_STEP
    height = (image.height - offset + SAMPLE_STEP - 1) // SAMPLE_STEP
    # An affine map samples the middle of each output pixel: (n + 1/2) * step + offset - 1 is the pixel
    # at offset + step * n.
    corner = offset - 1
    matrix = (SAMPLE_STEP, 0, corner, 0, SAMPLE_STEP, corner)
    return image.transform((width, height), Image.Transform.AFFINE, matrix, Image.Resampling.NEAREST)


def palette_of(image: Image.Image) -> Image.Image | None:
    """``image`` in 256 colours if that is visually the same picture (see PALETTE_TOLERANCE), else None.

    Fast octree quantisation without dithering, of a sample of the pixels, then when that palette misses
    a colour that matters of a larger sample, and then of them all: deterministic, so the same image
    always gives the same palette and pixels. A palette is checked on the SAMPLE_STEP lattices along the
    diagonal (the pixels whose column and row are alike modulo the step): a third of the work of
    checking every pixel, and every 2×2 block and every run of three pixels in a row or a column holds
    one of them, so no dot or line that shows can slip between the checked pixels. The first sample is
    one of those lattices, the larger one all three: drawn smaller, the edges of a few symbols take
    colours the first sample misses, and taking the palette of every pixel cost such a board twice as
    much.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if rgb.width > SAMPLE_STEP and rgb.height > SAMPLE_STEP:
        checked = [lattice(rgb, n) for n in range(SAMPLE_STEP)]
        for sample in (checked[1], stacked(checked)):
            palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
            paletted = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
            if all(_looks_the_same(part, lattice(paletted, n)) for n, part in enumerate(checked)):
                return paletted
    paletted = rgb.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return paletted if _looks_the_same(rgb, paletted) else None


def stacked(parts: Sequence[Image.Image]) -> Image.Image:
    """``parts`` (of one mode) one below the other on one sheet, for one palette of them all."""
    sheet = Image.new(parts[0].mode, (max(p.width for p in parts), sum(p.height for p in parts)))
    top = 0
    for part in parts:
        sheet.paste(part, (0, top))
        top += part.height
    return sheet


def _looks_the_same(rgb: Image.Image, paletted: Image.Image) -> bool:
    """Whether ``paletted`` is within the tolerance of ``rgb`` (see PALETTE_TOLERANCE)."""
    histogram = ImageChops.difference(rgb, paletted.convert("RGB")).histogram()
    # One 256-bin histogram per channel; bin n counts the samples that moved by n levels.
    channels = [histogram[start : start + 256] for start in range(0, len(histogram), 256)]
    samples = len(channels) * rgb.width * rgb.height
    far = sum(sum(moved[PALETTE_TOLERANCE + 1 :]) for moved in channels)
    near = sum(sum(moved[PALETTE_NEAR + 1 :]) for moved in channels)
    return far == 0 and near <= PALETTE_SPREAD * samples


def encode_png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes: 256 colours at a low compression level where that looks the same (about half
    the bytes of full colour, and faster), else full colour. The same image always gives the same bytes."""
    buffer = io.BytesIO()
    paletted = palette_of(image)
    if paletted is not None:
        paletted.save(buffer, format="PNG", compress_level=1)
    else:
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
