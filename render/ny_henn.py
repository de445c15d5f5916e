"""Board and hand images for Dirk Henn's New York, drawn from its public and private views.

Spec §9 suggests the layout; here it is one column (phone first) and every text is at least 1/50 of the
width. Cities grow without bound, so each city's cell size shrinks to fit the width, but never below the
size at which a tile's type code stays legible: a very wide city makes its panel taller instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

import lang
from engine.ny_henn.cards import BANK_HEX, BANK_NAMES, TYPE_BY_CODE, TYPE_CODES
from engine.ny_henn.views import PlacedTile, PlayerPanel, PrivateView, PublicView, TileInfo
from render.canvas import INK, MUTED, encode_png, fit_text, game_title, new_canvas, text

WIDTH = 1000
SMALL = 20  # = WIDTH / 50
BODY = 22
TITLE = 28
MARGIN = 20
MIN_CELL = 44  # a 2-letter code at SMALL fits
MAX_CELL = 72
STREET_INK = "#333333"
CARD_BACK = "#1B2A41"
HIGHLIGHT = "#FF6F00"


def ink_on(fill: str) -> str:
    """Black or white, whichever reads on ``fill``."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def draw_tile(
    draw: ImageDraw.ImageDraw,
    left: float,
    top: float,
    size: float,
    tile: TileInfo,
    start_colour: str | None = None,
) -> None:
    """A tile: type colour (or the owner's colour for a start tile), streets as dark bands, type code."""
    fill = TYPE_BY_CODE[tile.type].colour if tile.type else (start_colour or "#CCCCCC")
    draw.rectangle((left, top, left + size, top + size), fill=fill, outline="#222222", width=1)
    band = max(3, round(size / 6))
    edges = {
        "N": (left, top, left + size, top + band),
        "E": (left + size - band, top, left + size, top + size),
        "S": (left, top + size - band, left + size, top + size),
        "W": (left, top, left + band, top + size),
    }
    for edge, box in edges.items():
        if edge in tile.streets:
            draw.rectangle(box, fill=STREET_INK)
    label = tile.type or "TS"
    text(draw, (left + size / 2, top + size / 2), label, SMALL, ink_on(fill), bold=True, anchor="mm")


def city_cell(width_cells: int, height_cells: int, room: int) -> int:
    """Cell size for a city of the given extent in ``room`` pixels (one empty ring shown around it)."""
    return max(MIN_CELL, min(MAX_CELL, room // (width_cells + 2), 480 // (height_cells + 2)))


def city_extent(
    city: Sequence[PlacedTile], extra: Sequence[tuple[int, int]] = ()
) -> tuple[int, int, int, int]:
    xs = [t.x for t in city] + [x for x, _ in extra] or [0]
    ys = [t.y for t in city] + [y for _, y in extra] or [0]
    return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


def city_height(city: Sequence[PlacedTile], extra: Sequence[tuple[int, int]] = ()) -> int:
    x0, y0, x1, y1 = city_extent(city, extra)
    cell = city_cell(x1 - x0 - 1, y1 - y0 - 1, WIDTH - 2 * MARGIN - 40)
    return 30 + (y1 - y0 + 1) * cell


def draw_city(
    draw: ImageDraw.ImageDraw,
    top: float,
    city: Sequence[PlacedTile],
    start_colour: str,
    targets: Sequence[tuple[int, int]] = (),
    changed: Sequence[tuple[int, int]] = (),
) -> float:
    """The city with axis labels; ``targets`` (legal cells) are outlined, ``changed`` cells (the last
    move) get a thick frame."""
    x0, y0, x1, y1 = city_extent(city, targets)
    cell = city_cell(x1 - x0 - 1, y1 - y0 - 1, WIDTH - 2 * MARGIN - 40)
    left = MARGIN + 40
    grid_top = top + 28
    for x in range(x0, x1 + 1):
        text(draw, (left + (x - x0) * cell + cell / 2, top + 2), str(x), SMALL, MUTED, anchor="ma")
    for y in range(y0, y1 + 1):
        text(draw, (left - 8, grid_top + (y - y0) * cell + cell / 2), str(y), SMALL, MUTED, anchor="rm")
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            cx, cy = left + (x - x0) * cell, grid_top + (y - y0) * cell
            draw.rectangle((cx, cy, cx + cell, cy + cell), outline="#DDD6C8", width=1)
    for placed in city:
        cx, cy = left + (placed.x - x0) * cell, grid_top + (placed.y - y0) * cell
        draw_tile(draw, cx, cy, cell, placed.tile, start_colour)
    for x, y in targets:
        cx, cy = left + (x - x0) * cell, grid_top + (y - y0) * cell
        draw.rectangle((cx + 3, cy + 3, cx + cell - 3, cy + cell - 3), outline="#FF6F00", width=3)
    for x, y in changed:
        if x0 <= x <= x1 and y0 <= y <= y1:
            cx, cy = left + (x - x0) * cell, grid_top + (y - y0) * cell
            draw.rectangle((cx - 2, cy - 2, cx + cell + 2, cy + cell + 2), outline=HIGHLIGHT, width=5)
    return grid_top + (y1 - y0 + 1) * cell


def draw_tile_row(draw: ImageDraw.ImageDraw, top: float, label: str, tiles: Sequence[TileInfo]) -> float:
    text(draw, (MARGIN, top + 12), label, SMALL, MUTED, bold=True)
    x = MARGIN + 130
    if not tiles:
        text(draw, (x, top + 12), "—", SMALL, MUTED)
    for tile in tiles:
        if x + MIN_CELL > WIDTH - MARGIN:
            top += MIN_CELL + 6
            x = MARGIN + 130
        draw_tile(draw, x, top, MIN_CELL, tile)
        x += MIN_CELL + 6
    return top + MIN_CELL + 10


def panel_height(panel: PlayerPanel) -> int:
    rows = 1 + (len(panel.reserve) * (MIN_CELL + 6)) // (WIDTH - 200) if panel.reserve else 1
    pending = 1 if panel.pending else 0
    return 80 + city_height(panel.city) + (rows + pending) * (MIN_CELL + 10) + 16


def draw_panel(draw: ImageDraw.ImageDraw, top: float, panel: PlayerPanel, name: str) -> float:
    if panel.to_act:
        draw.rectangle((6, top, WIDTH - 6, top + 36), fill=(255, 111, 0, 40))
    draw.rectangle((MARGIN, top + 6, MARGIN + 24, top + 30), fill=panel.colour, outline=INK)
    marker = "▶ " if panel.to_act else ""
    header = f"{marker}{panel.label} {name}"
    text(draw, (MARGIN + 34, top + 6), fit_text(header, BODY, 420, bold=True), BODY, INK, bold=True)
    stats = f"score {panel.score} · cards {panel.hand_count} · street {panel.street}"
    text(draw, (WIDTH - MARGIN, top + 8), stats, BODY, INK, anchor="ra")
    counts = "  ".join(f"{code} {panel.type_counts.get(code, 0)}" for code in TYPE_CODES)
    text(draw, (MARGIN, top + 42), counts, SMALL, MUTED)
    y = draw_city(draw, top + 72, panel.city, panel.colour, changed=panel.changed)
    y = draw_tile_row(draw, y + 8, "reserve", panel.reserve)
    if panel.pending:
        y = draw_tile_row(draw, y, "to place", panel.pending)
    return y + 8


def draw_header(draw: ImageDraw.ImageDraw, view: PublicView, names: Sequence[str], locale: str) -> float:
    text(draw, (MARGIN, 14), game_title("ny_henn", locale), TITLE, INK, bold=True)
    who = ", ".join(names[s] if s < len(names) else f"P{s + 1}" for s in view.to_act) or "nobody"
    done = ", ".join(view.scoring_done) or "none"
    status = f"turn {view.turn} · {view.phase} · to act: {who} · scored: {done}"
    text(draw, (WIDTH - MARGIN, 20), fit_text(status, SMALL, WIDTH - 200), SMALL, INK, anchor="ra")
    y = 64
    # Money display and the deck.
    for i, card in enumerate(view.display):
        x = MARGIN + i * 86
        if card is None:
            draw.rounded_rectangle((x, y, x + 74, y + 100), 8, outline=MUTED, width=2)
            continue
        bank, value = card[0], card[1:]
        draw.rounded_rectangle((x, y, x + 74, y + 100), 8, fill=BANK_HEX[bank])
        text(draw, (x + 37, y + 50), value, 40, "#FFFFFF", bold=True, anchor="mm")
        text(draw, (x + 8, y + 6), bank, SMALL, "#FFFFFF", bold=True)
    x = MARGIN + 4 * 86
    draw.rounded_rectangle((x, y, x + 74, y + 100), 8, fill=CARD_BACK)
    text(draw, (x + 37, y + 50), str(view.deck_size), BODY, "#FFFFFF", bold=True, anchor="mm")
    left = ", ".join(view.scoring_cards_left) or "none"
    text(
        draw,
        (MARGIN, y + 110),
        f"deck {view.deck_size} · discard {view.discard_size} · scoring cards left: {left}",
        SMALL,
        INK,
    )
    # Market.
    for i, slot in enumerate(view.market):
        mx = 470 + i * 128
        draw.rectangle((mx, y - 4, mx + 116, y + 112), outline=BANK_HEX[slot.bank], width=6)
        text(
            draw,
            (mx + 58, y + 2),
            BANK_NAMES[slot.bank].upper(),
            SMALL,
            BANK_HEX[slot.bank],
            bold=True,
            anchor="ma",
        )
        if slot.tile is None:
            text(draw, (mx + 58, y + 64), "empty", SMALL, MUTED, anchor="mm")
            continue
        draw_tile(draw, mx + 31, y + 30, 54, slot.tile)
        text(
            draw, (mx + 58, y + 90), f"{slot.tile.type} {slot.tile.price}", SMALL, INK, bold=True, anchor="ma"
        )
    text(draw, (WIDTH - MARGIN, y + 122), f"bag {view.bag_size}", SMALL, INK, anchor="ra")
    if view.last_move:
        text(
            draw,
            (MARGIN, y + 146),
            fit_text(f"Last move: {view.last_move}", SMALL, WIDTH - 40),
            SMALL,
            HIGHLIGHT,
            True,
        )
    return y + 180


def render_board(view: PublicView, names: Sequence[str] = (), locale: str = lang.DEFAULT) -> bytes:
    """The public image: header (display, deck, market), one panel per player, Dirk, and the result."""
    labels = [names[p.seat] if p.seat < len(names) else p.label for p in view.players]
    height = 244 + sum(panel_height(p) for p in view.players)
    if view.dirk is not None:
        height += 110 + (len(view.dirk.tiles) * (MIN_CELL + 6)) // (WIDTH - 200) * (MIN_CELL + 10)
    height += 30 * len(view.result) + 20
    image, draw = new_canvas(WIDTH, height)
    y = draw_header(draw, view, labels, locale)
    for panel, label in zip(view.players, labels, strict=True):
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill="#C9C0B0", width=2)
        y = draw_panel(draw, y + 8, panel, label)
    if view.dirk is not None:
        dirk = view.dirk
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill="#C9C0B0", width=2)
        text(draw, (MARGIN, y + 10), f"Dirk · score {dirk.score}", BODY, INK, bold=True)
        counts = "  ".join(f"{code} {dirk.type_counts.get(code, 0)}" for code in TYPE_CODES)
        text(draw, (MARGIN + 260, y + 12), counts, SMALL, MUTED)
        y = draw_tile_row(draw, y + 46, "tiles", dirk.tiles)
    for line in view.result:
        text(draw, (MARGIN, y + 4), fit_text(line, SMALL, WIDTH - 2 * MARGIN), SMALL, INK, bold=True)
        y += 30
    return encode_png(image)


def render_hand(view: PrivateView, names: Sequence[str] = (), locale: str = lang.DEFAULT) -> bytes:
    """A player's image: money by bank with totals, and their city with the legal cells of a pending tile."""
    panel = view.players[view.seat]
    targets = [cell for target in view.targets for cell in target.cells]
    height = 230 + city_height(panel.city, targets) + 60 + (MIN_CELL + 10 if panel.pending else 0)
    image, draw = new_canvas(WIDTH, height)
    name = names[view.seat] if view.seat < len(names) else panel.label
    text(
        draw,
        (MARGIN, 14),
        fit_text(f"{panel.label} {name} · your money", TITLE, WIDTH - 40, bold=True),
        TITLE,
        INK,
        bold=True,
    )
    y: float = 60
    for row, bank in enumerate(BANK_HEX):
        cards = sorted(int(c[1:]) for c in view.hand if c[0] == bank)
        top = y + row * 40
        draw.rectangle((MARGIN, top, MARGIN + 28, top + 28), fill=BANK_HEX[bank])
        values = ", ".join(map(str, cards)) or "—"
        total = view.bank_totals.get(bank, 0)
        text(draw, (MARGIN + 40, top + 2), f"{BANK_NAMES[bank]}: {values}  (total {total})", BODY, INK)
    y += 170
    if panel.pending:
        y = draw_tile_row(draw, y, "to place", panel.pending)
        tiles = ", ".join(t.tile for t in view.targets)
        text(draw, (MARGIN, y), f"Cells where {tiles} may go are outlined.", SMALL, INK)
    y += 30
    draw_city(draw, y, panel.city, panel.colour, targets)
    return encode_png(image)


__all__ = ["PrivateView", "PublicView", "render_board", "render_hand"]
