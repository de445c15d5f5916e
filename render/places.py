"""Where a board drew its places, so that a web page can lay links over the picture.

A renderer lays a board out in units and draws it at some pixels a unit (``render.canvas.SCALE`` for
the Discord posts); each also says, for the same view, words and scale, the rectangles in pixels that
each place covers (a lot, a site, a building, a district): a place is one rectangle, or a few when its
shape is not a rectangle (an L-shaped lot). Places keep apart: no rectangle of one place overlaps one of
another.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from render.canvas import SCALE

# (left, top, width, height) in the picture's pixels.
Rect = tuple[int, int, int, int]
# Left, top, right, bottom in units; right and bottom are where the next place may begin.
UnitBox = tuple[float, float, float, float]
PlaceMap = Mapping[str, tuple[Rect, ...]]

# The web page draws the board at twice the scale of the Discord posts.
LARGE = 2 * SCALE


@dataclass(frozen=True, slots=True)
class BoardPlaces:
    """A board as a page lays links over it: the picture's ``width`` and ``height`` and its ``places``,
    all in the picture's pixels."""

    width: int
    height: int
    places: PlaceMap


def rect(box: UnitBox, scale: float | None = None) -> Rect:
    """``box`` in units as a rectangle of pixels at ``scale`` (None: ``SCALE``); two boxes that share an
    edge in units share it in pixels, without overlapping."""
    scale = SCALE if scale is None else scale
    left, top = round(box[0] * scale), round(box[1] * scale)
    return left, top, round(box[2] * scale) - left, round(box[3] * scale) - top


def rects(boxes: Iterable[UnitBox], scale: float | None = None) -> tuple[Rect, ...]:
    return tuple(rect(box, scale) for box in boxes)


def cell_runs(cells: Iterable[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Cells of a grid (column, row) as few rectangles of whole cells (first column, first row, last
    column, last row): runs along each row, and a run joined to the one above when they match."""
    rows: dict[int, list[int]] = {}
    for x, y in cells:
        rows.setdefault(y, []).append(x)
    runs: list[tuple[int, int, int]] = []  # (row, first column, last column)
    for y in sorted(rows):
        columns = sorted(set(rows[y]))
        start = previous = columns[0]
        for x in columns[1:]:
            if x != previous + 1:
                runs.append((y, start, previous))
                start = x
            previous = x
        runs.append((y, start, previous))
    blocks: list[tuple[int, int, int, int]] = []
    for y, first, last in runs:
        above = next((b for b in blocks if b[3] == y - 1 and b[0] == first and b[2] == last), None)
        if above is None:
            blocks.append((first, y, last, y))
        else:
            blocks[blocks.index(above)] = (first, above[1], last, y)
    return blocks
