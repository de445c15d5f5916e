"""A league season's table as an image: place, player, points, matches and wins, those not ranked yet
apart, and the best of each game below."""

from __future__ import annotations

from collections.abc import Sequence

from render.canvas import INK, MUTED, encode_png, fit_text, new_canvas, text

WIDTH = 900
SMALL = 18  # = WIDTH / 50: readable on a phone 400 px wide
ROW = 38
# Rows drawn at most; a longer table says how many more it holds.
DRAWN_ROWS = 20

# One row: its place (None: not ranked yet), the player, then the points, matches and wins as written.
LeagueImageRow = tuple[int | None, str, str, str, str]


def render_season(
    title: str,
    subtitle: str,
    headings: Sequence[str],
    rows: Sequence[LeagueImageRow],
    apart: str,
    best: Sequence[tuple[str, str]],
    best_heading: str,
    more: str,
) -> bytes:
    """The table: ``headings`` (place, player, points, matches, wins) over ``rows`` in order, the rows
    without a place under ``apart``, then ``best`` (game, player) under ``best_heading``; ``more`` is
    written when rows were left out."""
    ranked = [r for r in rows if r[0] is not None][:DRAWN_ROWS]
    others = [r for r in rows if r[0] is None][: max(0, DRAWN_ROWS - len(ranked))]
    lines = len(ranked) + len(others) + (1 if others else 0) + (1 + len(best) if best else 0)
    height = 120 + ROW * max(1, lines) + (ROW if len(ranked) + len(others) < len(rows) else 0) + 20
    image, draw = new_canvas(WIDTH, height)
    text(draw, (20, 16), fit_text(title, 28, WIDTH - 40, bold=True), 28, INK, bold=True)
    text(draw, (20, 54), fit_text(subtitle, SMALL, WIDTH - 40), SMALL, MUTED)
    columns = (20, 80, 560, 680, 800)
    y = 88
    for x, label in zip(columns, headings, strict=True):
        text(draw, (x, y), fit_text(label, SMALL, 110 if x > 80 else 460, bold=True), SMALL, MUTED, bold=True)
    y += 32

    def row(index: int, found: LeagueImageRow) -> None:
        place, name, points, matches, wins = found
        if index % 2 == 0:
            draw.rectangle((10, y - 4, WIDTH - 10, y + ROW - 8), fill=(0, 0, 0, 14))
        if place is not None:
            text(draw, (columns[0], y), str(place), 22, INK, bold=True)
        text(draw, (columns[1], y), fit_text(name, 22, 460), 22, INK)
        text(draw, (columns[2], y), points, 22, INK, bold=True)
        text(draw, (columns[3], y), matches, 22, INK)
        text(draw, (columns[4], y), wins, 22, INK)

    for index, found in enumerate(ranked):
        row(index, found)
        y += ROW
    if others:
        text(draw, (20, y), fit_text(apart, SMALL, WIDTH - 40, bold=True), SMALL, MUTED, bold=True)
        y += ROW
        for index, found in enumerate(others):
            row(index, found)
            y += ROW
    if len(ranked) + len(others) < len(rows):
        text(draw, (20, y), fit_text(more, SMALL, WIDTH - 40), SMALL, MUTED)
        y += ROW
    if best:
        text(draw, (20, y), fit_text(best_heading, SMALL, WIDTH - 40, bold=True), SMALL, MUTED, bold=True)
        y += ROW
        for game, name in best:
            text(draw, (20, y), fit_text(f"{game}: {name}", 22, WIDTH - 40), 22, INK)
            y += ROW
    return encode_png(image)
