"""Board and hand images for Dirk Henn's New York, drawn from its public and private views, in the reader's
language.

Phone first: the image is 1000 units wide and every text is at least 1/50 of that. The money display and the
market sit on top, with a legend of the building types; the cities follow two to a row, so that six
players still fit in about 1.6 times the width. A city's axes count cells from Times Square in compass
steps ("2 W", "1 N"), as the move menus name them. The hand image gives the reader's own city the room.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

import lang
from engine.ny_henn import words
from engine.ny_henn.cards import BANK_HEX, TYPE_BY_CODE, TYPE_CODES
from engine.ny_henn.views import DirkPanel, PlacedTile, PlayerPanel, PrivateView, PublicView, TileInfo
from lang import N_, t, tn
from lang.says import render as said
from render import since as since_marks
from render.canvas import (
    INK,
    MUTED,
    encode_png,
    fit_text,
    game_title,
    name_in,
    new_canvas,
    short_name,
    text,
    trimmed,
    wrapped,
    wrapped_text,
)
from render.places import PlaceMap, Rect, rect
from render.result import result_line
from render.since import Since

WIDTH = 1000
SMALL = 20  # = WIDTH / 50
BODY = 22
TITLE = 28
MARGIN = 20
MIN_CELL = 44  # a 2-letter abbreviation at SMALL fits
NARROW_CELL = 36  # the same, tight: for three cities to a row


def columns_for(panels: int) -> int:
    """Cities to a row: two, or three when five or more players would make the image too tall."""
    return 3 if panels >= 5 else 2


def column_width(columns: int) -> int:
    return (WIDTH - (columns + 1) * MARGIN) // columns


MAX_CELL = 56
HAND_CELL = 72
STREET_INK = "#333333"
CARD_BACK = "#1B2A41"
HIGHLIGHT = "#FF6F00"
SINCE_ROW = 30
STATUS_ROW = 30  # a line of the header's status
NOTE_ROW = 26  # a line of the legend's note
LABEL_ROOM = 150  # left of a row of small tiles, for its label ("da piazzare" is the widest)
ARROWS = dict(zip("NESW", words.ARROWS, strict=True))


def ink_on(fill: str) -> str:
    """Black or white, whichever reads on ``fill``."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def type_name(code: str, locale: str) -> str:
    return said(locale, words.TYPE_WORDS[code])


def abbreviation(code: str | None, locale: str) -> str:
    """The two letters a tile shows: the start of its type's name in ``locale`` (the legend spells them)."""
    return "TS" if code is None else type_name(code, locale)[:2]


def tile_words(tile: TileInfo, locale: str) -> str:
    """A tile as the menus name it: "Station $6 ↓←"."""
    arrows = "".join(ARROWS[d] for d in "NESW" if d in tile.streets)
    name = type_name(tile.type, locale) if tile.type else "Times Square"
    return f"{name} ${tile.price} {arrows}".strip()


def draw_tile(
    draw: ImageDraw.ImageDraw,
    left: float,
    top: float,
    size: float,
    tile: TileInfo,
    locale: str,
    start_colour: str | None = None,
) -> None:
    """A tile: type colour (the owner's colour for a start tile), streets as dark bands, abbreviation."""
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
    label = abbreviation(tile.type, locale)
    text(draw, (left + size / 2, top + size / 2), label, SMALL, ink_on(fill), bold=True, anchor="mm")


def axis_label(value: int, negative: str, positive: str, locale: str) -> str:
    """Cells from Times Square in compass steps: "2 W", "0", "1 E"."""
    if value == 0:
        return "0"
    letter = negative if value < 0 else positive
    return t(locale, letter, count=abs(value))


# Compass steps on the axes, as the move menus say them ("2 west" reads "2 W").
AXIS_WORDS = {"N": N_("{count} N"), "S": N_("{count} S"), "E": N_("{count} E"), "W": N_("{count} W")}


def city_extent(
    city: Sequence[PlacedTile], extra: Sequence[tuple[int, int]] = ()
) -> tuple[int, int, int, int]:
    xs = [p.x for p in city] + [x for x, _ in extra] or [0]
    ys = [p.y for p in city] + [y for _, y in extra] or [0]
    return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


def city_cell(
    city: Sequence[PlacedTile], room: float, extra: Sequence[tuple[int, int]] = (), big: int = MAX_CELL
) -> int:
    x0, y0, x1, y1 = city_extent(city, extra)
    # Wide cities shrink to the column; tall ones too, so that six cities still fit the image.
    by_height = (big * 6) // (y1 - y0 + 1)
    smallest = MIN_CELL if room > 400 else NARROW_CELL
    return int(max(smallest, min(big, (room - 50) // (x1 - x0 + 1), by_height)))


def city_height(
    city: Sequence[PlacedTile], room: float, extra: Sequence[tuple[int, int]] = (), big: int = MAX_CELL
) -> int:
    _, y0, _, y1 = city_extent(city, extra)
    return 30 + (y1 - y0 + 1) * city_cell(city, room, extra, big)


def draw_city(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    room: float,
    city: Sequence[PlacedTile],
    start_colour: str,
    locale: str,
    targets: Sequence[tuple[int, int]] = (),
    changed: Sequence[tuple[int, int]] = (),
    big: int = MAX_CELL,
    since: frozenset[tuple[int, int]] = frozenset(),
) -> float:
    """The city with compass axes; ``targets`` (legal cells) are outlined, ``changed`` cells (the last
    move) get a thick frame, ``since`` cells (changed since the player to act last played) the changed
    mark. Returns the y below it."""
    x0, y0, x1, y1 = city_extent(city, targets)
    cell = city_cell(city, room, targets, big)
    left, top = origin[0] + 50, origin[1]
    grid_top = top + 28
    for x in range(x0, x1 + 1):
        label = axis_label(x, AXIS_WORDS["W"], AXIS_WORDS["E"], locale)
        if cell < MIN_CELL:  # narrow cells: "2O" rather than "2 O"
            label = label.replace(" ", "")
        text(draw, (left + (x - x0) * cell + cell / 2, top + 2), label, SMALL, MUTED, anchor="ma")
    for y in range(y0, y1 + 1):
        label = axis_label(y, AXIS_WORDS["N"], AXIS_WORDS["S"], locale)
        text(draw, (left - 6, grid_top + (y - y0) * cell + cell / 2), label, SMALL, MUTED, anchor="rm")
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            cx, cy = left + (x - x0) * cell, grid_top + (y - y0) * cell
            draw.rectangle((cx, cy, cx + cell, cy + cell), outline="#DDD6C8", width=1)
    for placed in city:
        cx, cy = left + (placed.x - x0) * cell, grid_top + (placed.y - y0) * cell
        draw_tile(draw, cx, cy, cell, placed.tile, locale, start_colour)
    for x, y in targets:
        cx, cy = left + (x - x0) * cell, grid_top + (y - y0) * cell
        draw.rectangle((cx + 3, cy + 3, cx + cell - 3, cy + cell - 3), outline=HIGHLIGHT, width=3)
    for x, y in changed:
        if x0 <= x <= x1 and y0 <= y <= y1:
            cx, cy = left + (x - x0) * cell, grid_top + (y - y0) * cell
            draw.rectangle((cx - 2, cy - 2, cx + cell + 2, cy + cell + 2), outline=HIGHLIGHT, width=5)
    for x, y in since:
        if x0 <= x <= x1 and y0 <= y <= y1:
            cx, cy = left + (x - x0) * cell, grid_top + (y - y0) * cell
            # Inside the last-move frame, and without dark edges, which would read as streets.
            inset = 3 if (x, y) in changed else 1
            box = (cx + inset, cy + inset, cx + cell - inset, cy + cell - inset)
            since_marks.mark(draw, box, cell * 0.42, width=3, edged=False)
    return grid_top + (y1 - y0 + 1) * cell


def tile_row_height(tiles: Sequence[TileInfo], room: float) -> int:
    per_row = max(1, int((room - LABEL_ROOM) // (MIN_CELL + 6)))
    return (max(1, -(-len(tiles) // per_row))) * (MIN_CELL + 6) + 4


def draw_tile_row(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    room: float,
    label: str,
    tiles: Sequence[TileInfo],
    locale: str,
) -> float:
    """A labelled row of small tiles (a reserve, tiles to place, Dirk's collection)."""
    left, top = origin
    text(draw, (left, top + 12), fit_text(label, SMALL, LABEL_ROOM - 10, bold=True), SMALL, MUTED, bold=True)
    x = left + LABEL_ROOM
    if not tiles:
        text(draw, (x, top + 12), "—", SMALL, MUTED)
    for tile in tiles:
        if x + MIN_CELL > left + room:
            top += MIN_CELL + 6
            x = left + LABEL_ROOM
        draw_tile(draw, x, top, MIN_CELL, tile, locale)
        x += MIN_CELL + 6
    return top + MIN_CELL + 10


def counts_line(counts: dict[str, int], locale: str) -> str:
    return " ".join(f"{abbreviation(code, locale)} {counts.get(code, 0)}" for code in TYPE_CODES)


def panel_height(panel: PlayerPanel, column: int) -> int:
    rows = tile_row_height(panel.reserve, column) + (
        tile_row_height(panel.pending, column) if panel.pending else 0
    )
    return 86 + city_height(panel.city, column) + rows + 12


def draw_panel(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    panel: PlayerPanel,
    name: str,
    locale: str,
    column: int,
    since: frozenset[tuple[int, int]] = frozenset(),
) -> None:
    left, top = origin
    if panel.to_act:
        draw.rectangle((left - 6, top, left + column + 6, top + 34), fill=(255, 111, 0, 40))
    draw.rectangle((left, top + 6, left + 22, top + 28), fill=panel.colour, outline=INK)
    header = short_name(name, BODY, column - 40, True, before="▶ " if panel.to_act else "")
    text(draw, (left + 30, top + 5), header, BODY, INK, bold=True)
    stats = " · ".join(
        (
            tn(locale, "{count} point", "{count} points", panel.score),
            tn(locale, "{count} card", "{count} cards", panel.hand_count),
            t(locale, "street {length}", length=panel.street),
        )
    )
    text(draw, (left, top + 38), fit_text(stats, SMALL, column), SMALL, INK)
    text(
        draw, (left, top + 62), fit_text(counts_line(panel.type_counts, locale), SMALL, column), SMALL, MUTED
    )
    y = draw_city(
        draw, (left, top + 90), column, panel.city, panel.colour, locale, changed=panel.changed, since=since
    )
    y = draw_tile_row(draw, (left, y + 8), column, t(locale, "reserve"), panel.reserve, locale)
    if panel.pending:
        draw_tile_row(draw, (left, y), column, t(locale, "to place"), panel.pending, locale)


def dirk_height(dirk: DirkPanel, column: int) -> int:
    return 70 + tile_row_height(dirk.tiles, column) + 10


def draw_dirk(
    draw: ImageDraw.ImageDraw, origin: tuple[float, float], dirk: DirkPanel, locale: str, column: int
) -> None:
    left, top = origin
    score = tn(locale, "{count} point", "{count} points", dirk.score)
    text(draw, (left, top + 5), f"Dirk · {score}", BODY, INK, bold=True)
    text(draw, (left, top + 38), fit_text(counts_line(dirk.type_counts, locale), SMALL, column), SMALL, MUTED)
    draw_tile_row(draw, (left, top + 66), column, t(locale, "tiles"), dirk.tiles, locale)


NOTE_WIDTH = WIDTH - 2 * MARGIN - 54


def legend_note(locale: str) -> str:
    return t(locale, "dark edge = street (↑ → ↓ ← in the menus) · ▶ = to act · orange frame = last move")


def legend_extra(locale: str) -> int:
    """How much taller than one line the legend's note is, wrapped."""
    return (len(wrapped(legend_note(locale), SMALL, NOTE_WIDTH)) - 1) * NOTE_ROW


def draw_legend(
    draw: ImageDraw.ImageDraw,
    top: float,
    locale: str,
    since: Since | None = None,
    names: Sequence[str] = (),
    changed: bool = False,
) -> float:
    """The building types: swatch with its abbreviation, then the name; and what the dark bands mean."""
    for i, code in enumerate(TYPE_CODES):
        x = MARGIN + (i % 3) * 320
        y = top + (i // 3) * 40
        colour = TYPE_BY_CODE[code].colour
        draw.rectangle((x, y, x + 44, y + 32), fill=colour, outline=INK)
        text(
            draw, (x + 22, y + 16), abbreviation(code, locale), SMALL, ink_on(colour), bold=True, anchor="mm"
        )
        text(draw, (x + 54, y + 5), fit_text(type_name(code, locale), SMALL, 250), SMALL, INK)
    y = top + 84
    draw.rectangle((MARGIN, y, MARGIN + 44, y + 10), fill=STREET_INK)
    note = legend_note(locale)
    y += wrapped_text(draw, (MARGIN + 54, y - 6), note, SMALL, NOTE_WIDTH, NOTE_ROW) - (y - 6 + NOTE_ROW)
    if since is not None:
        since_marks.legend_line(
            draw, (MARGIN, y + 24), since, names, locale, changed, SMALL, WIDTH - 2 * MARGIN
        )
        y += SINCE_ROW
    return y + 30


def status_lines(view: PublicView, names: Sequence[str], locale: str) -> tuple[str, ...]:
    """The header's status, wrapped: whose turn it is, or once over who won."""
    if view.phase == "over":
        status = result_line(view.places, names, locale)
    else:
        who = ", ".join(names[s] if s < len(names) else f"#{s + 1}" for s in view.to_act)
        status = t(locale, "Turn {turn} · {players} to act", turn=view.turn, players=who)
    if view.scoring_done:
        status += " · " + t(locale, "scored: {rounds}", rounds=", ".join(view.scoring_done))
    return wrapped(status, BODY, WIDTH - 2 * MARGIN, view.phase == "over")


def display_top(status: Sequence[str]) -> int:
    """Where the money on display is drawn, under the header's ``status`` lines."""
    return 92 + (len(status) - 1) * STATUS_ROW + 30


DISPLAY_CARD = (84, 100)  # a card's width and height
DISPLAY_STEP = 96  # from one card to the next
MARKET_GAP = 12  # between the market's slots
MARKET_SLOT = (WIDTH - 2 * MARGIN - 3 * MARKET_GAP) // 4  # a slot's width
MARKET_HEIGHT = 150


def market_top(status: Sequence[str]) -> int:
    """Where the market's slots are drawn, under the display."""
    return display_top(status) + 150


def draw_header(draw: ImageDraw.ImageDraw, view: PublicView, names: Sequence[str], locale: str) -> float:
    text(draw, (MARGIN, 14), game_title("ny_henn", locale), TITLE, INK, bold=True)
    status = status_lines(view, names, locale)
    for row, line in enumerate(status):
        text(draw, (MARGIN, 54 + row * STATUS_ROW), line, BODY, INK, bold=view.phase == "over")
    y = display_top(status) - 30
    text(draw, (MARGIN, y), t(locale, "Money on display"), SMALL, MUTED, bold=True)
    y += 30
    for i, card in enumerate(view.display):
        x = MARGIN + i * DISPLAY_STEP
        if card is None:
            draw.rounded_rectangle((x, y, x + 84, y + 100), 8, outline=MUTED, width=2)
            continue
        bank, value = card[0], card[1:]
        draw.rounded_rectangle((x, y, x + 84, y + 100), 8, fill=BANK_HEX[bank])
        text(draw, (x + 42, y + 50), value, 44, "#FFFFFF", bold=True, anchor="mm")
    x = MARGIN + 4 * 96
    draw.rounded_rectangle((x, y, x + 84, y + 100), 8, fill=CARD_BACK)
    text(draw, (x + 42, y + 50), str(view.deck_size), BODY, "#FFFFFF", bold=True, anchor="mm")
    left = ", ".join(view.scoring_cards_left) or "—"
    info = (
        t(locale, "deck {count}", count=view.deck_size),
        t(locale, "discards {count}", count=view.discard_size),
        t(locale, "scoring cards to come: {cards}", cards=left),
        t(locale, "tiles in the bag {count}", count=view.bag_size),
    )
    for row, line in enumerate(info):
        text(
            draw,
            (MARGIN + 500, y + row * 26),
            fit_text(line, SMALL, WIDTH - MARGIN - 500 - MARGIN),
            SMALL,
            INK,
        )
    y += 120
    text(draw, (MARGIN, y), t(locale, "Market: pay in the slot's colour"), SMALL, MUTED, bold=True)
    y += 30
    slot_width = MARKET_SLOT
    for i, slot in enumerate(view.market):
        mx = MARGIN + i * (slot_width + MARKET_GAP)
        colour = BANK_HEX[slot.bank]
        draw.rectangle((mx, y, mx + slot_width, y + MARKET_HEIGHT), outline=colour, width=6)
        bank = said(locale, words.SLOT_WORDS[slot.bank]).upper()
        text(draw, (mx + slot_width / 2, y + 10), bank, SMALL, colour, bold=True, anchor="ma")
        if slot.tile is None:
            text(draw, (mx + slot_width / 2, y + 80), t(locale, "empty"), SMALL, MUTED, anchor="mm")
            continue
        draw_tile(draw, mx + slot_width / 2 - 30, y + 40, 60, slot.tile, locale)
        label = fit_text(tile_words(slot.tile, locale), SMALL, slot_width - 12, bold=True)
        text(draw, (mx + slot_width / 2, y + 112), label, SMALL, INK, bold=True, anchor="ma")
    return y + 166


def legend_bottom(top: float, locale: str, since: bool) -> float:
    """Where the legend drawn from ``top`` ends (see ``draw_legend``)."""
    return top + 84 + legend_extra(locale) + (SINCE_ROW if since else 0) + 30


def changed_since(before: PublicView, now: PublicView) -> set[tuple[int, int, int]]:
    """The city cells (seat, x, y) whose tile differs between the two public views."""

    def cities(view: PublicView) -> dict[tuple[int, int, int], str]:
        return {(panel.seat, p.x, p.y): p.tile.id for panel in view.players for p in panel.city}

    old, new = cities(before), cities(now)
    return {cell for cell in old.keys() | new.keys() if old.get(cell) != new.get(cell)}


def grid_height(heights: Sequence[int], columns: int) -> int:
    """Height of panels laid out ``columns`` to a row."""
    return sum(max(heights[i : i + columns]) + 16 for i in range(0, len(heights), columns))


def board_height(view: PublicView, names: Sequence[str], locale: str, since: bool) -> int:
    """How tall ``board_image`` draws the board, in units: the last city ends 20 units or a little more
    above the bottom, as on every board."""
    columns = columns_for(len(view.players) + (1 if view.dirk else 0))
    heights = panel_heights(view, column_width(columns))
    extra = SINCE_ROW if since else 0
    extra += (len(status_lines(view, seat_labels(view, names), locale)) - 1) * STATUS_ROW + legend_extra(
        locale
    )
    return 470 + 124 + grid_height(heights, columns) - 41 + extra


def board_image(
    view: PublicView,
    names: Sequence[str] = (),
    locale: str = lang.DEFAULT,
    since: Since | None = None,
    scale: float | None = None,
) -> Image.Image:
    """The public image: display, market, legend, then the cities two (or three) to a row, and Dirk;
    with ``since``, the city cells changed since the player to act last played are marked. Drawn at
    ``scale`` pixels a unit (None: the posts' scale)."""
    changed: set[tuple[int, int, int]] = set()
    if since is not None:
        if not isinstance(since.view, PublicView):
            raise TypeError(f"since.view is a {type(since.view).__name__}, not a PublicView")
        changed = changed_since(since.view, view)
    labels = seat_labels(view, names)
    columns = columns_for(len(view.players) + (1 if view.dirk else 0))
    width = column_width(columns)
    heights = panel_heights(view, width)
    image, draw = new_canvas(WIDTH, board_height(view, names, locale, since is not None), scale=scale)
    y = draw_header(draw, view, labels, locale)
    y = draw_legend(draw, y, locale, since, labels, bool(changed))
    origins = panel_origins(view, y)
    for row in range(0, len(heights), columns):
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill="#C9C0B0", width=2)
        y += max(heights[row : row + columns]) + 16
    for (panel, label), origin in zip(panels_of(view, labels), origins, strict=True):
        if isinstance(panel, PlayerPanel):
            mine = frozenset((cx, cy) for seat, cx, cy in changed if seat == panel.seat)
            draw_panel(draw, origin, panel, label, locale, width, mine)
        else:
            draw_dirk(draw, origin, panel, locale, width)
    return image


def seat_labels(view: PublicView, names: Sequence[str]) -> list[str]:
    return [names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}" for p in view.players]


def panel_heights(view: PublicView, width: int) -> list[int]:
    """The heights of the players' panels, then Dirk's if he plays."""
    heights = [panel_height(p, width) for p in view.players]
    if view.dirk is not None:
        heights.append(dirk_height(view.dirk, width))
    return heights


def panels_of(view: PublicView, labels: Sequence[str]) -> list[tuple[PlayerPanel | DirkPanel, str]]:
    """The panels in the order they are laid out, each with the name it is headed by."""
    cells: list[tuple[PlayerPanel | DirkPanel, str]] = list(zip(view.players, labels, strict=True))
    if view.dirk is not None:
        cells.append((view.dirk, "Dirk"))
    return cells


def y_of_panels(view: PublicView, labels: Sequence[str], locale: str, since: bool) -> float:
    """Where the first row of panels begins: under the header and the legend."""
    status = status_lines(view, labels, locale)
    return legend_bottom(market_top(status) + 166, locale, since)


def panel_origins(view: PublicView, top: float) -> list[tuple[float, float]]:
    """The top left corner of each panel (see ``panels_of``), rows of them laid out from ``top``."""
    columns = columns_for(len(view.players) + (1 if view.dirk else 0))
    width = column_width(columns)
    heights = panel_heights(view, width)
    origins: list[tuple[float, float]] = []
    for row in range(0, len(heights), columns):
        for index in range(len(heights[row : row + columns])):
            origins.append((MARGIN + index * (width + MARGIN), top + 8))
        top += max(heights[row : row + columns]) + 16
    return origins


def city_cells(
    city: Sequence[PlacedTile], origin: tuple[float, float], room: float
) -> dict[tuple[int, int], tuple[float, float, float, float]]:
    """The cells ``draw_city`` draws from ``origin`` (every one of its grid, built on or not), as boxes
    in units."""
    x0, y0, x1, y1 = city_extent(city)
    cell = city_cell(city, room)
    left, grid_top = origin[0] + 50, origin[1] + 28
    return {
        (x, y): (
            left + (x - x0) * cell,
            grid_top + (y - y0) * cell,
            left + (x - x0 + 1) * cell,
            grid_top + (y - y0 + 1) * cell,
        )
        for x in range(x0, x1 + 1)
        for y in range(y0, y1 + 1)
    }


def place_rects(
    view: PublicView, names: Sequence[str] = (), locale: str = lang.DEFAULT, scale: float | None = None
) -> PlaceMap:
    """Where ``board_image`` draws each place, at ``scale``: a card on display ("display:1"), a slot
    of the market by its bank ("market:R"), each cell of a player's city ("city0:-1,2", Times Square at
    0,0), a player's reserve ("reserve0") and Dirk's tiles ("dirk"). What lies under the header moves
    down with its lines, which the names and words decide."""
    labels = seat_labels(view, names)
    status = status_lines(view, labels, locale)
    placed: dict[str, tuple[Rect, ...]] = {}
    top = display_top(status)
    for i in range(len(view.display)):
        x = MARGIN + i * DISPLAY_STEP
        placed[f"display:{i + 1}"] = (rect((x, top, x + DISPLAY_CARD[0], top + DISPLAY_CARD[1]), scale),)
    top = market_top(status)
    for i, slot in enumerate(view.market):
        x = MARGIN + i * (MARKET_SLOT + MARKET_GAP)
        placed[f"market:{slot.bank}"] = (rect((x, top, x + MARKET_SLOT, top + MARKET_HEIGHT), scale),)
    width = column_width(columns_for(len(view.players) + (1 if view.dirk else 0)))
    origins = panel_origins(view, y_of_panels(view, labels, locale, False))
    for (panel, _), (left, panel_top) in zip(panels_of(view, labels), origins, strict=True):
        if isinstance(panel, DirkPanel):
            row_top = panel_top + 66
            placed["dirk"] = (
                rect((left, row_top, left + width, row_top + tile_row_height(panel.tiles, width) - 4), scale),
            )
            continue
        cells = city_cells(panel.city, (left, panel_top + 90), width)
        for (x, y), box in cells.items():
            placed[f"city{panel.seat}:{x},{y}"] = (rect(box, scale),)
        row_top = max(box[3] for box in cells.values()) + 8
        placed[f"reserve{panel.seat}"] = (
            rect((left, row_top, left + width, row_top + tile_row_height(panel.reserve, width) - 4), scale),
        )
    return placed


def render_hand(view: PrivateView, names: Sequence[str] = (), locale: str = lang.DEFAULT) -> bytes:
    """A player's image: money by bank with totals, the tiles to place, and their city with big cells,
    the cells where a tile may go outlined."""
    panel = view.players[view.seat]
    targets = [cell for target in view.targets for cell in target.cells]
    room = WIDTH - 2 * MARGIN
    city = city_height(panel.city, room, targets, HAND_CELL)
    tiles = ", ".join(tile_words(tile, locale) for tile in panel.pending)
    note = wrapped(t(locale, "Outlined: where {tiles} may go", tiles=tiles), SMALL, room)
    pending = tile_row_height(panel.pending, room) + 6 + NOTE_ROW * len(note) + 8 if panel.pending else 0
    image, draw = new_canvas(WIDTH, 250 + pending + city + 20)
    name = names[view.seat] if view.seat < len(names) else f"#{view.seat + 1}"
    title = name_in(
        lambda shown: t(locale, "{player} · your money", player=shown), name, TITLE, WIDTH - 40, True
    )
    text(draw, (MARGIN, 14), title, TITLE, INK, bold=True)
    y: float = 64
    for row, bank in enumerate(BANK_HEX):
        cards = sorted(int(c[1:]) for c in view.hand if c[0] == bank)
        top = y + row * 40
        draw.rectangle((MARGIN, top, MARGIN + 28, top + 28), fill=BANK_HEX[bank])
        values = ", ".join(map(str, cards)) or "—"
        total = view.bank_totals.get(bank, 0)
        line = t(
            locale,
            "{bank}: {values} (total {total})",
            bank=said(locale, words.BANK_WORDS[bank]),
            values=values,
            total=total,
        )
        text(draw, (MARGIN + 40, top + 2), line, BODY, INK)
    y += 176
    if panel.pending:
        y = draw_tile_row(draw, (MARGIN, y), room, t(locale, "to place"), panel.pending, locale)
        for line in note:
            text(draw, (MARGIN, y), line, SMALL, INK)
            y += NOTE_ROW
        y += 8
    draw_city(draw, (MARGIN, y), room, panel.city, panel.colour, locale, targets, big=HAND_CELL)
    return encode_png(trimmed(image))


__all__ = ["PrivateView", "PublicView", "board_image", "changed_since", "place_rects", "render_hand"]
