"""Board and player images for New York 1901, drawn from its views.

Spec §9: the 16×21 grid of lots (district colours) with buildings in their owners' colours, a border in
the tech colour and the value printed on them, workers as discs, and axis labels so players can type
coordinates. Phone first: the panel goes under the board, and every text is at least 1/50 of the width.
Only the deck order is secret in this game, so the "hand" image is the player's own tiles and cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

import lang
from engine.ny1901 import words
from engine.ny1901.cards import ACTION_NAMES, TILE_BY_ID, oriented
from engine.ny1901.views import LotView, NyView, PlayerView
from lang import N_, t, tn
from lang.says import render as said
from render import since as since_marks
from render.canvas import (
    INK,
    MUTED,
    Draw,
    drawn_once,
    encode_png,
    fit_text,
    game_title,
    name_in,
    new_canvas,
    text,
    trimmed,
    wrapped,
)
from render.places import PlaceMap, cell_runs, rects
from render.result import fitted_result_line
from render.since import Since

WIDTH = 1000
SMALL = 20  # = WIDTH / 50
BODY = 22
TITLE = 28
COLUMNS, ROWS = 16, 21
CELL = 46
LEFT = 44
TOP = 116
ROAD = "#8C8C8C"
TECH = {0: "#616161", 1: "#B87333", 2: "#9E9E9E", 3: "#D4AF37"}
ACTION_BY_NAME = {ACTION_NAMES[code]: said_word for code, said_word in words.ACTION_WORDS.items()}
LEVELS = {"B": N_("bronze"), "S": N_("silver"), "G": N_("gold")}


def ink_on(fill: str) -> str:
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def cell_box(x: int, y: int, inset: int = 0) -> tuple[int, int, int, int]:
    left, top = LEFT + x * CELL, TOP + y * CELL
    return (left + inset, top + inset, left + CELL - inset, top + CELL - inset)


def lot_contents(view: NyView) -> dict[str, tuple[int | None, bool, frozenset[tuple[str, int, int, int]]]]:
    """Per lot: owner, worker, and the building cells on it (tile, owner, x, y): a building may span
    lots, and a lot changes when any part of one is built on or pulled down."""
    lot_of = {cell: lot.id for lot in view.lots for cell in lot.cells}
    built: dict[str, set[tuple[str, int, int, int]]] = {lot.id: set() for lot in view.lots}
    for building in view.buildings:
        for x, y in building.cells:
            lot_id = lot_of.get((x, y))
            if lot_id is not None:
                built[lot_id].add((building.tile, building.owner, x, y))
    return {lot.id: (lot.owner, lot.worker, frozenset(built[lot.id])) for lot in view.lots}


def changed_since(before: NyView, now: NyView) -> set[str]:
    """The ids of the lots whose owner, worker or buildings differ between the two public views."""
    old, new = lot_contents(before), lot_contents(now)
    return {lot for lot in old.keys() | new.keys() if old.get(lot) != new.get(lot)}


def lot_edges(cells: Sequence[tuple[int, int]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The sides of a lot's cells that face another lot or the road: its outline, in pixels."""
    inside = set(cells)
    edges = []
    for x, y in cells:
        left, top, right, bottom = cell_box(x, y)
        for (dx, dy), edge in (
            ((0, -1), ((left, top), (right, top))),
            ((1, 0), ((right, top), (right, bottom))),
            ((0, 1), ((left, bottom), (right, bottom))),
            ((-1, 0), ((left, top), (left, bottom))),
        ):
            if (x + dx, y + dy) not in inside:
                edges.append(edge)
    return edges


def outline_lots(draw: ImageDraw.ImageDraw, view: NyView, changed: set[str]) -> None:
    # Lots are irregular, so the mark follows each one's outline rather than a box; all the dark edges
    # go first so that no join hides the colour.
    edges = [edge for lot in view.lots if lot.id in changed for edge in lot_edges(lot.cells)]
    for start, end in edges:
        draw.line((start, end), fill=since_marks.EDGE, width=9)
    for start, end in edges:
        draw.line((start, end), fill=since_marks.CHANGED, width=5)


def corner_lots(draw: ImageDraw.ImageDraw, view: NyView, changed: set[str]) -> None:
    for lot in view.lots:
        if lot.id in changed:
            x, y = min(lot.cells, key=lambda cell: (cell[1], cell[0]))
            since_marks.corner(draw, cell_box(x, y), 20)


# Where the map and its numbered axes are drawn, with nothing else in it.
MAP_BOX = (0, TOP - 28, LEFT + COLUMNS * CELL + 1, TOP + ROWS * CELL + 1)


def lot_fill(lot: LotView) -> str:
    return lot.hex if lot.usable else "#BDBDBD"


def draw_map(draw: ImageDraw.ImageDraw, view: NyView) -> None:
    """The numbered axes, the roads and the lots in their district colours, empty."""
    for x in range(COLUMNS):
        text(draw, (LEFT + x * CELL + CELL / 2, TOP - 6), str(x), SMALL, MUTED, anchor="ms")
    for y in range(ROWS):
        text(draw, (LEFT - 6, TOP + y * CELL + CELL / 2), str(y), SMALL, MUTED, anchor="rm")
    draw.rectangle((LEFT, TOP, LEFT + COLUMNS * CELL, TOP + ROWS * CELL), fill=ROAD)
    for lot in view.lots:
        for x, y in lot.cells:
            draw.rectangle(cell_box(x, y), fill=lot_fill(lot), outline="#5F5F5F", width=1)


def draw_grid(image: Image.Image, draw: Draw, view: NyView, changed: set[str] | None = None) -> float:
    # Every board shows the same empty map, but for the lots a two-player match leaves unused.
    empty = tuple((lot.id, lot.cells, lot_fill(lot)) for lot in view.lots)
    drawn_once(draw, MAP_BOX, ("ny1901 map", empty), lambda: draw_map(draw, view))
    built = {cell for building in view.buildings for cell in building.cells}
    for lot in view.lots:
        # The lot's number, as the menus name it ("green 7"), where no building hides it.
        free = [cell for cell in lot.cells if cell not in built]
        if free and lot.usable:
            x, y = free[0]
            box = cell_box(x, y)
            text(
                draw,
                ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                str(int(lot.id[1:])),
                SMALL,
                MUTED,
                anchor="mm",
            )
    colours = {p.seat: p.hex for p in view.players}
    for building in view.buildings:
        owner = colours.get(building.owner, "#333333")
        for x, y in building.cells:
            draw.rectangle(cell_box(x, y, 3), fill=owner, outline=TECH.get(building.tech, "#616161"), width=4)
        x, y = building.cells[0]
        label = str(building.value) if building.value else "S"
        text(
            draw,
            ((cell_box(x, y)[0] + cell_box(x, y)[2]) / 2, (cell_box(x, y)[1] + cell_box(x, y)[3]) / 2),
            label,
            SMALL,
            ink_on(owner),
            bold=True,
            anchor="mm",
        )
    for lot in view.lots:
        if lot.worker and lot.owner is not None:
            x, y = lot.cells[0]
            left, top, right, bottom = cell_box(x, y, 10)
            draw.ellipse(
                (left, top, right, bottom), fill=colours.get(lot.owner, "#333333"), outline="#FFFFFF", width=2
            )
    for x, y in view.demolished:
        draw.rectangle(cell_box(x, y, 1), outline="#222222", width=2)
    if changed:
        outline_lots(draw, view, changed)
    for x, y in view.highlight:
        draw.rectangle(cell_box(x, y), outline="#FF6F00", width=4)
    if changed:
        corner_lots(draw, view, changed)
    return TOP + ROWS * CELL + 16


def short_card(card: str, locale: str) -> str:
    """A lot card by district and size, as short as the market row needs: "green 2"."""
    return f"{said(locale, words.DISTRICT_WORDS[card[0]])} {card[1:]}"


def head_of(player: PlayerView, marker: str, score: int, locale: str) -> Callable[[str], str]:
    """A player's heading (see ``player_lines``) for any form of their name."""
    return lambda shown: player_lines(player, marker + shown, score, locale)[0]


def player_lines(player: PlayerView, name: str, score: int, locale: str) -> tuple[str, str]:
    colour = said(locale, words.PLAYER_COLOURS[player.colour])
    level = t(locale, LEVELS[player.level])
    points = tn(locale, "{count} point", "{count} points", score)
    head = f"{name} ({colour}) · {points} · {level}"
    parts = [
        t(locale, "free workers {count}", count=player.free_workers),
        t(locale, "lot cards {count}", count=len(player.lot_cards)),
        t(locale, "action cards {count}", count=len(player.action_cards)),
    ]
    if player.legendary:
        parts.append(said(locale, words.TILE_WORDS[player.legendary]))
    return head, " · ".join(parts)


def under_lines(view: NyView, names: Sequence[str], locale: str) -> list[str]:
    """The lines under the grid (see ``board_lines``), wrapped."""
    return [row for line in board_lines(view, names, locale) for row in wrapped(line, SMALL, WIDTH - 40)]


def board_height(view: NyView, names: Sequence[str], locale: str, since: bool) -> int:
    """How tall ``board_image`` draws the board, in units: the last line ends 20 units above the
    bottom, as on every board."""
    lines = under_lines(view, names, locale)
    return TOP + ROWS * CELL + 16 + (len(lines) + 1) * 30 + 70 * len(view.players) + 55 + (28 if since else 0)


def board_image(
    view: NyView,
    names: Sequence[str] = (),
    locale: str = lang.DEFAULT,
    since: Since | None = None,
    scale: float | None = None,
) -> Image.Image:
    """The public image: the grid with lot numbers, then market, streets, challenge, one block per player
    and a legend; with ``since``, the lots changed since the player to act last played are marked. Drawn
    at ``scale`` pixels a unit (None: the posts' scale)."""
    changed = None
    if since is not None:
        if not isinstance(since.view, NyView):
            raise TypeError(f"since.view is a {type(since.view).__name__}, not a NyView")
        changed = changed_since(since.view, view)
    lines = under_lines(view, names, locale)
    image, draw = new_canvas(WIDTH, board_height(view, names, locale, since is not None), scale=scale)
    text(draw, (20, 14), game_title("ny1901", locale), TITLE, INK, bold=True)
    text(draw, (20, 54), status_line(view, names, locale), BODY, INK, bold=view.over)
    y = draw_grid(image, draw, view, changed)
    for line in lines:
        text(draw, (20, y), line, SMALL, INK)
        y += 30
    y += 10
    for player in view.players:
        name = names[player.seat] if player.seat < len(names) else f"#{player.seat + 1}"
        score = view.final_scores[player.seat] if view.final_scores else player.score
        if player.to_act:
            draw.rectangle((6, y - 4, WIDTH - 6, y + 62), fill=(255, 111, 0, 40))
        draw.rectangle((20, y + 2, 44, y + 26), fill=player.hex, outline=INK)
        marker = "▶ " if player.to_act else ""
        head = name_in(head_of(player, marker, score, locale), name, BODY, WIDTH - 74, True)
        detail = player_lines(player, name, score, locale)[1]
        text(draw, (54, y), head, BODY, INK, True)
        text(draw, (20, y + 34), fit_text(detail, SMALL, WIDTH - 40), SMALL, MUTED)
        y += 70
    legend = t(
        locale,
        "Number on a building = its points · frame = bronze, silver or gold · disc = worker · "
        "small number = lot",
    )
    parts = legend.split(" · ")
    half = (len(parts) + 1) // 2
    for row, line in enumerate((" · ".join(parts[:half]), " · ".join(parts[half:]))):
        text(draw, (20, y + 4 + row * 28), fit_text(line, SMALL, WIDTH - 40), SMALL, MUTED)
    if since is not None:
        since_marks.legend_line(
            draw, (20, y + 4 + 2 * 28), since, names, locale, bool(changed), SMALL, WIDTH - 40
        )
    return image


def place_rects(
    view: NyView, names: Sequence[str] = (), locale: str = lang.DEFAULT, scale: float | None = None
) -> PlaceMap:
    """Where ``board_image`` draws each lot ("G07"), at ``scale``: its cells, a few rectangles for an
    L-shaped lot. The map sits at the same place whatever the names and words."""
    placed = {}
    for lot in view.lots:
        blocks = cell_runs(lot.cells)
        boxes = [cell_box(first, top)[:2] + cell_box(last, bottom)[:2] for first, top, last, bottom in blocks]
        placed[lot.id] = rects(((x0, y0, x1 + CELL, y1 + CELL) for x0, y0, x1, y1 in boxes), scale)
    return placed


def status_line(view: NyView, names: Sequence[str], locale: str) -> str:
    """The header's line: the turn and whose it is, or once over who won; on one line, the names
    shortened if need be."""
    if view.over:
        return fitted_result_line(view.places, names, locale, BODY, WIDTH - 40)
    if view.end_triggered_by is not None:
        turn = t(locale, "Final round · turn {turn}", turn=view.turn_no)
    else:
        turn = t(locale, "Turn {turn}", turn=view.turn_no)
    if view.active is None:
        return turn
    name = names[view.active] if view.active < len(names) else f"#{view.active + 1}"
    return name_in(
        lambda shown: turn + " · " + t(locale, "{players} to act", players=shown), name, BODY, WIDTH - 40
    )


def board_lines(view: NyView, names: Sequence[str], locale: str) -> list[str]:
    """The lines under the grid: market, thresholds, street leaders, challenge (not yet wrapped)."""
    market = " · ".join(short_card(card, locale) if card else "—" for card in view.market)
    streets = " · ".join(
        f"{s.name}: {names[s.leader] if s.leader is not None and s.leader < len(names) else '—'}"
        for s in view.streets
    )
    challenge = said(locale, words.CHALLENGE_WORDS[view.challenge]) if view.challenge else "—"
    pool = ", ".join(said(locale, words.TILE_WORDS[tile]) for tile in view.legend_pool) or "—"
    lines = [
        t(locale, "Market (lot cards): {cards} · deck {count}", cards=market, count=view.deck_size),
        t(
            locale,
            "Silver from {silver} points, gold from {gold}",
            silver=view.thresholds[0],
            gold=view.thresholds[1],
        ),
        t(locale, "Streets (leader): {streets}", streets=streets),
        t(locale, "Challenge: {card} · legendary left: {tiles}", card=challenge, tiles=pool),
    ]
    return lines


def build_spots(legal: Sequence[str]) -> tuple[set[str], set[tuple[int, int]]]:
    """The tiles named in the legal build/rebuild moves and the cells those moves anchor at."""
    tiles: set[str] = set()
    cells: set[tuple[int, int]] = set()
    for notation in legal:
        words = dict(w.split("=", 1) for w in notation.split()[1:] if "=" in w)
        if notation.split()[0] not in ("build", "rebuild", "boom") or "tile" not in words:
            continue
        tiles.add(words["tile"])
        if "at" in words:
            x, _, y = words["at"].partition(",")
            if x.lstrip("-").isdigit() and y.lstrip("-").isdigit():
                cells.add((int(x), int(y)))
    return tiles, cells


def render_hand(view: NyView, names: Sequence[str] = (), locale: str = lang.DEFAULT) -> bytes:
    """A player's "my options" image: the board with their lots outlined and the cells where a legal build
    can start marked, then their tiles and cards by name. Nothing here is secret in this game."""
    assert view.seat is not None
    player = view.players[view.seat]
    name = names[view.seat] if view.seat < len(names) else f"#{view.seat + 1}"
    tiles, anchors = build_spots(view.legal)

    def named(ids: Sequence[str]) -> str:
        return ", ".join(said(locale, words.TILE_WORDS[tile]) for tile in ids) or "—"

    rows = [
        t(
            locale,
            "Level: {level} · free workers {count}",
            level=t(locale, LEVELS[player.level]),
            count=player.free_workers,
        ),
        t(locale, "You can build now: {tiles}", tiles=named(sorted(tiles))),
        t(locale, "Orange squares: where a building can start (column and row as in the menus)"),
        t(locale, "Tiles left: {tiles}", tiles=named(player.supply)),
        t(
            locale,
            "Lot cards: {cards}",
            cards=", ".join(short_card(c, locale) for c in player.lot_cards) or "—",
        ),
        t(
            locale,
            "Action cards: {cards}",
            cards=", ".join(said(locale, ACTION_BY_NAME[card]) for card in player.action_cards) or "—",
        ),
    ]
    rows = [row for line in rows for row in wrapped(line, SMALL, WIDTH - 40)]
    buildable = sorted(tiles)
    shape_rows = shape_row_heights(buildable, locale)
    height = TOP + ROWS * CELL + 16 + 34 * len(rows) + sum(shape_rows) + 20
    image, draw = new_canvas(WIDTH, height)
    colour = said(locale, words.PLAYER_COLOURS[player.colour])
    title = name_in(
        lambda shown: t(locale, "{player} ({colour}) · your options", player=shown, colour=colour),
        name,
        TITLE,
        WIDTH - 40,
        True,
    )
    text(draw, (20, 14), title, TITLE, INK, True)
    y = draw_grid(image, draw, view)
    for lot in view.lots:
        if lot.owner == view.seat:
            for x, cy in lot.cells:
                draw.rectangle(cell_box(x, cy, 1), outline=player.hex, width=4)
    for x, cy in anchors:
        left, top, right, bottom = cell_box(x, cy, 15)
        draw.rectangle((left, top, right, bottom), fill="#FF6F00", outline="#FFFFFF", width=2)
    for row in rows:
        text(draw, (20, y), row, SMALL, INK)
        y += 34
    draw_shapes(draw, y, buildable, player.hex, locale, shape_rows)
    return encode_png(trimmed(image))


SHAPES_PER_ROW = 3
SHAPE_ROW = 140  # the least height of a row of shapes
SHAPE_CELL = 24
SHAPE_WIDTH = (WIDTH - 40) // SHAPES_PER_ROW
NAME_ROW = 24  # a line of a shape's name


def shape_label(tile: str, locale: str) -> tuple[tuple[tuple[int, int], ...], tuple[str, ...]]:
    """A tile's cells unturned and its name with its points, wrapped to the shape's column."""
    cells = tuple(oriented(TILE_BY_ID[tile].shape, 0))
    return cells, wrapped(said(locale, words.tile(tile)), SMALL, SHAPE_WIDTH - 10)


def shape_row_heights(tiles: Sequence[str], locale: str) -> list[int]:
    """How tall each row of shapes is: the tallest shape with its name, and at least SHAPE_ROW."""
    heights = []
    for start in range(0, len(tiles), SHAPES_PER_ROW):
        tallest = SHAPE_ROW
        for tile in tiles[start : start + SHAPES_PER_ROW]:
            cells, name = shape_label(tile, locale)
            shape = (max(dy for _, dy in cells) + 1) * SHAPE_CELL
            tallest = max(tallest, shape + 6 + NAME_ROW * len(name) + 14)
        heights.append(tallest)
    return heights


def draw_shapes(
    draw: ImageDraw.ImageDraw, top: float, tiles: Sequence[str], fill: str, locale: str, rows: Sequence[int]
) -> None:
    """Each tile that can be built now, drawn unturned (as 0° in the menus) with its name and points,
    in rows of the heights ``shape_row_heights`` gives."""
    for index, tile in enumerate(tiles):
        left = 20 + (index % SHAPES_PER_ROW) * SHAPE_WIDTH
        row = index // SHAPES_PER_ROW
        row_top = top + sum(rows[:row])
        cells, name = shape_label(tile, locale)
        for dx, dy in cells:
            x, y = left + dx * SHAPE_CELL, row_top + dy * SHAPE_CELL
            draw.rectangle((x, y, x + SHAPE_CELL - 2, y + SHAPE_CELL - 2), fill=fill, outline=INK)
        below = row_top + (max(dy for _, dy in cells) + 1) * SHAPE_CELL + 6
        for line in name:
            text(draw, (left, below), line, SMALL, INK)
            below += NAME_ROW


__all__ = ["NyView", "board_image", "changed_since", "place_rects", "render_hand"]
