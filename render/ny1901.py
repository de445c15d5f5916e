"""Board and player images for New York 1901, drawn from its views.

Spec §9: the 16×21 grid of lots (district colours) with buildings in their owners' colours, a border in
the tech colour and the value printed on them, workers as discs, and axis labels so players can type
coordinates. Phone first: the panel goes under the board, and every text is at least 1/50 of the width.
Only the deck order is secret in this game, so the "hand" image is the player's own tiles and cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

import lang
from engine.ny1901.views import NyView, PlayerView
from render.canvas import INK, MUTED, encode_png, fit_text, game_title, new_canvas, text

WIDTH = 1000
SMALL = 20  # = WIDTH / 50
BODY = 22
TITLE = 28
COLUMNS, ROWS = 16, 21
CELL = 46
LEFT = 44
TOP = 96
ROAD = "#8C8C8C"
TECH = {0: "#616161", 1: "#B87333", 2: "#9E9E9E", 3: "#D4AF37"}
LEVELS = {"B": "bronze", "S": "silver", "G": "gold"}


def ink_on(fill: str) -> str:
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def cell_box(x: int, y: int, inset: int = 0) -> tuple[int, int, int, int]:
    left, top = LEFT + x * CELL, TOP + y * CELL
    return (left + inset, top + inset, left + CELL - inset, top + CELL - inset)


def draw_grid(draw: ImageDraw.ImageDraw, view: NyView) -> float:
    for x in range(COLUMNS):
        text(draw, (LEFT + x * CELL + CELL / 2, TOP - 6), str(x), SMALL, MUTED, anchor="ms")
    for y in range(ROWS):
        text(draw, (LEFT - 6, TOP + y * CELL + CELL / 2), str(y), SMALL, MUTED, anchor="rm")
    draw.rectangle((LEFT, TOP, LEFT + COLUMNS * CELL, TOP + ROWS * CELL), fill=ROAD)
    for lot in view.lots:
        fill = lot.hex if lot.usable else "#BDBDBD"
        for x, y in lot.cells:
            draw.rectangle(cell_box(x, y), fill=fill, outline="#5F5F5F", width=1)
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
    for x, y in view.highlight:
        draw.rectangle(cell_box(x, y), outline="#FF6F00", width=4)
    return TOP + ROWS * CELL + 16


def player_line(player: PlayerView, name: str) -> tuple[str, str]:
    head = f"{name} ({player.colour}) · {player.score} pts · {LEVELS.get(player.level, player.level)}"
    cards = ", ".join(player.lot_cards) or "none"
    legend = f" · legendary {player.legendary}" if player.legendary else ""
    detail = (
        f"workers {player.free_workers} · lot cards {cards} · action cards {len(player.action_cards)}{legend}"
    )
    return head, detail


def render_board(view: NyView, names: Sequence[str] = (), locale: str = lang.DEFAULT) -> bytes:
    """The public image: the grid, then market, streets, challenge and one block per player."""
    height = TOP + ROWS * CELL + 16 + 4 * 30 + 70 * len(view.players) + 30 + 20
    image, draw = new_canvas(WIDTH, height)
    text(draw, (20, 14), game_title("ny1901", locale), TITLE, INK, bold=True)
    status = "game over" if view.over else f"turn {view.turn_no}"
    if view.end_triggered_by is not None and not view.over:
        status += " · FINAL ROUND"
    text(draw, (WIDTH - 20, 20), status, SMALL, INK, anchor="ra")
    if view.last_move:
        text(
            draw,
            (20, 54),
            fit_text(f"Last move: {view.last_move}", SMALL, WIDTH - 40),
            SMALL,
            "#C2410C",
            True,
        )
    y = draw_grid(draw, view)
    market = " · ".join(card or "—" for card in view.market)
    streets = " · ".join(
        f"{s.name}: {names[s.leader] if s.leader is not None and s.leader < len(names) else '—'}"
        for s in view.streets
    )
    lines = [
        f"Market: {market} · deck {view.deck_size} · thresholds {view.thresholds[0]}/{view.thresholds[1]}",
        f"Streets (leader): {streets}",
        f"Challenge: {view.challenge_name or '—'} · legendary pool: {', '.join(view.legend_pool) or '—'}",
    ]
    for line in lines:
        text(draw, (20, y), fit_text(line, SMALL, WIDTH - 40), SMALL, INK)
        y += 30
    y += 10
    for player in view.players:
        name = names[player.seat] if player.seat < len(names) else player.colour
        if player.to_act:
            draw.rectangle((6, y - 4, WIDTH - 6, y + 62), fill=(255, 111, 0, 40))
        draw.rectangle((20, y + 2, 44, y + 26), fill=player.hex, outline=INK)
        head, detail = player_line(player, ("▶ " if player.to_act else "") + name)
        text(draw, (54, y), fit_text(head, BODY, WIDTH - 74, True), BODY, INK, True)
        text(draw, (20, y + 34), fit_text(detail, SMALL, WIDTH - 40), SMALL, MUTED)
        y += 70
    return encode_png(image)


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
    can be anchored marked, then their tiles and cards. Nothing here is secret in this game."""
    assert view.seat is not None
    player = view.players[view.seat]
    name = names[view.seat] if view.seat < len(names) else player.colour
    tiles, anchors = build_spots(view.legal)
    rows = [
        f"Level: {LEVELS.get(player.level, player.level)} · score {player.score} · "
        f"free workers {player.free_workers}",
        f"You can build now: {', '.join(sorted(tiles)) or 'nothing'} (anchor cells are marked)",
        f"Tiles to build: {', '.join(player.supply) or 'none'}",
        f"Lot cards: {', '.join(player.lot_cards) or 'none'}",
        f"Action cards: {', '.join(player.action_cards) or 'none'}",
    ]
    height = TOP + ROWS * CELL + 16 + 34 * len(rows) + 20
    image, draw = new_canvas(WIDTH, height)
    title = fit_text(f"{name} ({player.colour}) · your options", TITLE, WIDTH - 40, True)
    text(draw, (20, 14), title, TITLE, INK, True)
    y = draw_grid(draw, view)
    for lot in view.lots:
        if lot.owner == view.seat:
            for x, cy in lot.cells:
                draw.rectangle(cell_box(x, cy, 1), outline=player.hex, width=4)
    for x, cy in anchors:
        left, top, right, bottom = cell_box(x, cy, 15)
        draw.rectangle((left, top, right, bottom), fill="#FF6F00", outline="#FFFFFF", width=2)
    for row in rows:
        text(draw, (20, y), fit_text(row, SMALL, WIDTH - 40), SMALL, INK)
        y += 34
    return encode_png(image)


__all__ = ["NyView", "render_board", "render_hand"]
