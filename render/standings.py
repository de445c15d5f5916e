"""A tournament's standings as an image: rank, player, points and the tie-break figures."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from render.canvas import INK, MUTED, encode_png, fit_text, name_in, new_canvas, text

WIDTH = 900
SMALL = 18  # = WIDTH / 50
ROW = 38


StandingRow = tuple[int, str, float, int, float, str]
# The column headings, in the reader's language at the edge: rank, player, points, score, opponents.
HEADINGS = ("#", "player", "points", "score", "opp.")


def with_note(name: str, note: str) -> str:
    """A row's name with its note ("Ann (withdrew)"), or the name alone."""
    return f"{name} ({note})" if note else name


def render_standings(
    title: str, subtitle: str, rows: Sequence[StandingRow], headings: Sequence[str] = HEADINGS
) -> bytes:
    """``rows``: (rank, name, points, game score, opponents' strength, note) in rank order, under the
    five ``headings``."""
    height = 110 + ROW * max(1, len(rows)) + 20
    image, draw = new_canvas(WIDTH, height)
    text(draw, (20, 16), fit_text(title, 28, WIDTH - 40, bold=True), 28, INK, bold=True)
    text(draw, (20, 54), fit_text(subtitle, SMALL, WIDTH - 40), SMALL, MUTED)
    y = 84
    for x, label in zip((20, 80, 520, 650, 770), headings, strict=True):
        text(draw, (x, y), fit_text(label, SMALL, 110, bold=True), SMALL, MUTED, bold=True)
    y += 30
    for index, (rank, name, points, score, strength, note) in enumerate(rows):
        if index % 2 == 0:
            draw.rectangle((10, y - 4, WIDTH - 10, y + ROW - 8), fill=(0, 0, 0, 14))
        # A long name is shortened by the rule that keeps its "(computer)" and the note whole.
        label = name_in(partial(with_note, note=note), name, 22, 420)
        text(draw, (20, y), str(rank), 22, INK, bold=True)
        text(draw, (80, y), label, 22, INK)
        text(draw, (520, y), f"{points:.2f}", 22, INK, bold=True)
        text(draw, (650, y), str(score), 22, INK)
        text(draw, (770, y), f"{strength:.2f}", 22, INK)
        y += ROW
    return encode_png(image)
