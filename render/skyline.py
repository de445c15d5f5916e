"""Board and hand images for Skyline of the World, drawn from its public and private views.

Spec §9: a 6×6 grid of sites seen from above, each with its stack drawn as bars from the ground up.
Every text is at least 1/50 of the width; pieces carry their value as a label, so colour is never the
only cue, and mission sites never appear on the public image.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

import lang
from engine.skyline import words
from engine.skyline.cards import ICONS
from engine.skyline.views import CardView, PieceView, PlayerPanel, PrivateView, PublicView, SiteView
from lang import t
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
    names_in,
    new_canvas,
    short_name,
    text,
    text_width,
    trimmed,
    wrapped,
)
from render.places import PlaceMap, rect
from render.result import fitted_result_line
from render.since import Since

WIDTH = 1000
SMALL = 20  # = WIDTH / 50
BODY = 22
TITLE = 28
CELL = 154
GAP = 4
ORIGIN_X = 40
ORIGIN_Y = 100  # under the title and the status line
BAR = 24
PLAIN = "#ECE8DF"
ORANGE = "#F7931E"
ORANGE_EDGE = "#C2410C"
GOLD = "#D4AF37"
LAST_BUILD = "#FACC15"
NEUTRAL = "#FFFFFF"
PANEL_ROW = 70


def ink_on(fill: str) -> str:
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def colour_of(piece: PieceView, hexes: dict[str, str]) -> str:
    return NEUTRAL if piece.colour is None else hexes.get(piece.colour, "#999999")


def draw_site(
    image: Image.Image,
    draw: Draw,
    site: SiteView,
    hexes: dict[str, str],
    changed: bool = False,
) -> None:
    left = ORIGIN_X + site.x * (CELL + GAP)
    top = ORIGIN_Y + site.y * (CELL + GAP)
    # Most sites look as they did on the last board: the same stack in the same colours.
    looks = (site.id, site.icon, site.badge, site.badge_colour, site.orange, site.stack, changed)
    colours = tuple(colour_of(piece, hexes) for piece in site.stack)
    box = (left, top, left + CELL + 1, top + CELL + 1)
    drawn_once(draw, box, ("skyline site", looks, colours), lambda: draw_plot(draw, site, hexes, changed))
    if site.last_build:
        draw.rectangle((left - 3, top - 3, left + CELL + 3, top + CELL + 3), outline=LAST_BUILD, width=5)


def draw_plot(draw: ImageDraw.ImageDraw, site: SiteView, hexes: dict[str, str], changed: bool) -> None:
    """The site itself: its ground, name, badge and stack, inside its square."""
    left = ORIGIN_X + site.x * (CELL + GAP)
    top = ORIGIN_Y + site.y * (CELL + GAP)
    fill = ORANGE if site.orange else PLAIN
    draw.rectangle(
        (left, top, left + CELL, top + CELL),
        fill=fill,
        outline=ORANGE_EDGE if site.orange else "#B9B2A3",
        width=4 if site.orange else 2,
    )
    if changed:
        # Before the label and the stack, so that neither is hidden; the corner below the label is free.
        since_marks.mark(draw, (left, top, left + CELL, top + CELL), 26, "bl")
    text(draw, (left + 6, top + 4), site.id, SMALL, INK, bold=True)
    if site.badge:
        # Two letters at the smallest size of the board fit the disc.
        cx, cy, r = left + CELL - 23, top + 20, 19
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=site.badge_colour or "#555555")
        text(draw, (cx, cy), site.badge[:2], SMALL, "#FFFFFF", bold=True, anchor="mm")
    bar_left, bar_right = left + 20, left + CELL - 20
    for level in range(5):
        bottom = top + CELL - 6 - level * BAR
        box = (bar_left, bottom - BAR + 2, bar_right, bottom)
        if level >= len(site.stack):
            draw.rectangle(box, outline="#CFC8B8", width=1)
            continue
        piece = site.stack[level]
        colour = colour_of(piece, hexes)
        is_top = level == len(site.stack) - 1
        outline = GOLD if piece.code == "S" else ("#888888" if piece.colour is None else "#222222")
        draw.rectangle(box, fill=colour, outline=outline, width=3 if is_top or piece.code == "S" else 1)
        if piece.code == "PH":
            mid = (bar_left + bar_right) / 2
            draw.polygon([(bar_left, box[1]), (mid, box[1] - 10), (bar_right, box[1])], fill=GOLD)
        text(
            draw,
            ((bar_left + bar_right) / 2, (box[1] + box[3]) / 2),
            piece.code,
            SMALL,
            ink_on(colour),
            True,
            "mm",
        )


def changed_since(before: PublicView, now: PublicView) -> set[str]:
    """The sites ("C4") whose stack differs between the two public views."""

    def stacks(view: PublicView) -> dict[str, tuple[tuple[str, str | None], ...]]:
        return {site.id: tuple((p.code, p.colour) for p in site.stack) for site in view.sites}

    old, new = stacks(before), stacks(now)
    return {site for site in old.keys() | new.keys() if old.get(site) != new.get(site)}


def draw_board(image: Image.Image, draw: Draw, view: PublicView, changed: set[str] | None = None) -> float:
    changed = changed or set()
    hexes = {p.colour: p.hex for p in view.players}
    for column, letter in enumerate("ABCDEF"):
        x = ORIGIN_X + column * (CELL + GAP) + CELL / 2
        text(draw, (x, ORIGIN_Y - 6), letter, SMALL, MUTED, bold=True, anchor="ms")
    for row in range(6):
        y = ORIGIN_Y + row * (CELL + GAP) + CELL / 2
        text(draw, (ORIGIN_X - 10, y), str(row + 1), SMALL, MUTED, bold=True, anchor="rm")
    for site in view.sites:
        draw_site(image, draw, site, hexes, site.id in changed)
    return ORIGIN_Y + 6 * (CELL + GAP) + 10


def money(value: int | None, locale: str) -> str:
    return t(locale, "hidden") if value is None else f"{value} M"


def stock_text(stock: dict[str, int] | None, locale: str) -> str:
    if stock is None:
        return t(locale, "stock hidden")
    held = [f"{code}×{n}" for code, n in stock.items() if n]
    return t(locale, "stock: {pieces}", pieces=" ".join(held) or "—")


def draw_player(
    draw: ImageDraw.ImageDraw, top: float, panel: PlayerPanel, name: str, acting: bool, locale: str
) -> float:
    if acting:
        draw.rectangle((6, top, WIDTH - 6, top + PANEL_ROW - 6), fill=(255, 111, 0, 40))
    draw.rectangle((20, top + 6, 44, top + 30), fill=panel.hex, outline=INK)
    summary = t(
        locale,
        "cash {cash} · prestige {prestige} · income {income} M",
        cash=money(panel.cash, locale),
        prestige=panel.prestige_preview,
        income=panel.income_preview,
    )
    summary = fit_text(summary, SMALL, 500)
    text(draw, (WIDTH - 20, top + 8), summary, SMALL, INK, anchor="ra")
    marker = "▶ " if acting else ""
    colour = said(locale, words.COLOURS[panel.colour])
    # Left of the figures at the right edge, with a gap of 20 units.
    room = WIDTH - 20 - 54 - text_width(summary, SMALL) - 20
    text(draw, (54, top + 6), short_name(name, BODY, room, True, marker, f" ({colour})"), BODY, INK, True)
    details = t(
        locale,
        "{stock} · {cards} in hand · penthouses {penthouses}/3 · Skyline floors {floors} · claimed {claimed}",
        stock=stock_text(panel.stock, locale),
        cards=panel.hand_count,
        penthouses=panel.penthouses,
        floors=panel.skyline_received,
        claimed=len(panel.claimed),
    )
    text(draw, (20, top + 38), fit_text(details, SMALL, WIDTH - 40), SMALL, MUTED)
    return top + PANEL_ROW


def legend_lines(locale: str) -> list[str]:
    """What the piece codes and the icon badges on the sites stand for."""
    pieces = t(
        locale,
        "1 2 4 6 = floor of that value · PH penthouse · N neutral · S Skyline floor · orange: prestige",
    )
    icons = [f"{icon.badge} {said(locale, words.ICONS[key])}" for key, icon in ICONS.items()]
    return [pieces, " · ".join(icons[:3]), " · ".join(icons[3:])]


def status_line(view: PublicView, names: Sequence[str], locale: str, room: float) -> str:
    """The turn, whose it is and what they do; once over who won; in ``room`` units, the names shortened
    if need be."""
    if view.phase == "over":
        return fitted_result_line(view.places, names, locale, SMALL, room)
    phase = t(locale, "building") if view.phase == "build" else t(locale, "investing")
    last = " · " + t(locale, "last turns") if view.final_round else ""
    acting = [panel.seat for panel in view.players if panel.active]
    shown = [names[seat] if seat < len(names) else f"#{seat + 1}" for seat in acting]

    def compose(players: Sequence[str]) -> str:
        turn = t(locale, "Turn {turn}", turn=view.turn)
        if not players:
            return f"{turn} · {phase}{last}"
        acts = t(locale, "{players} to act", players=", ".join(players))
        return f"{turn} · {acts} · {phase}{last}"

    return names_in(compose, shown, SMALL, room)


def note_lines(view: PublicView, locale: str) -> list[str]:
    """The lines under the players: the supplies and the legend, wrapped."""
    supplies = t(
        locale,
        "neutral floors left {neutral} · bonus cards in the deck {deck}",
        neutral=view.neutral_supply,
        deck=view.deck_size,
    )
    return [row for line in (supplies, *legend_lines(locale)) for row in wrapped(line, SMALL, WIDTH - 40)]


def board_height(view: PublicView, names: Sequence[str], locale: str, since: bool) -> int:
    """How tall ``board_image`` draws the board, in units: the last line ends 20 units above the
    bottom, as on every board."""
    notes = note_lines(view, locale)
    height = ORIGIN_Y + 6 * (CELL + GAP) + 20 + PANEL_ROW * len(view.players) + 30 * (len(notes) + 1) - 23
    return height + (30 if since else 0)


def board_image(
    view: PublicView,
    names: Sequence[str] = (),
    locale: str = lang.DEFAULT,
    since: Since | None = None,
    scale: float | None = None,
) -> Image.Image:
    """The public image: the board, one row per player, supplies and a legend; with ``since``, the sites
    changed since the player to act last played are marked. Drawn at ``scale`` pixels a unit (None: the
    posts' scale)."""
    changed: set[str] = set()
    if since is not None:
        if not isinstance(since.view, PublicView):
            raise TypeError(f"since.view is a {type(since.view).__name__}, not a PublicView")
        changed = changed_since(since.view, view)
    notes = note_lines(view, locale)
    image, draw = new_canvas(WIDTH, board_height(view, names, locale, since is not None), scale=scale)
    text(draw, (20, 16), game_title("skyline", locale), TITLE, INK, bold=True)
    text(draw, (20, 54), status_line(view, names, locale, WIDTH - 40), SMALL, INK, view.phase == "over")
    y = draw_board(image, draw, view, changed)
    for panel in view.players:
        name = names[panel.seat] if panel.seat < len(names) else f"#{panel.seat + 1}"
        acting = panel.active and view.phase != "over"
        y = draw_player(draw, y, panel, name, acting, locale)
    for line in notes:
        text(draw, (20, y + 4), line, SMALL, INK)
        y += 30
    if since is not None:
        since_marks.legend_line(draw, (20, y + 4), since, names, locale, bool(changed), SMALL, WIDTH - 40)
    return image


def site_box(site: SiteView) -> tuple[int, int, int, int]:
    """The square a site is drawn in, in units (right and bottom where the gap to the next begins)."""
    left = ORIGIN_X + site.x * (CELL + GAP)
    top = ORIGIN_Y + site.y * (CELL + GAP)
    return left, top, left + CELL, top + CELL


def place_rects(
    view: PublicView, names: Sequence[str] = (), locale: str = lang.DEFAULT, scale: float | None = None
) -> PlaceMap:
    """Where ``board_image`` draws each site ("C4"), at ``scale``; the grid sits at the same place
    whatever the names and words."""
    return {site.id: (rect(site_box(site), scale),) for site in view.sites}


def draw_shape(draw: ImageDraw.ImageDraw, left: float, top: float, picture: Sequence[str], cell: int) -> None:
    for row, line in enumerate(picture):
        for column, mark in enumerate(line):
            box = (
                left + column * cell,
                top + row * cell,
                left + (column + 1) * cell - 2,
                top + (row + 1) * cell - 2,
            )
            draw.rectangle(box, fill="#444444" if mark == "#" else None, outline="#BBBBBB")


def render_hand(view: PrivateView, names: Sequence[str] = (), locale: str = lang.DEFAULT) -> bytes:
    """One player's image: their secret mission on a labelled mini-map and their bonus cards."""
    mini = 60
    over = view.phase == "over"
    cards = [card_face(card, locale, over) for card in view.hand]
    rows = [
        max(face.height for face in cards[start : start + CARDS_PER_ROW]) + 14
        for start in range(0, len(cards), CARDS_PER_ROW)
    ]
    height = 120 + 6 * mini + 60 + sum(rows) + 40
    image, draw = new_canvas(WIDTH, height)
    panel = view.players[view.seat]
    name = names[view.seat] if view.seat < len(names) else f"#{view.seat + 1}"
    colour = said(locale, words.COLOURS[panel.colour])
    title = name_in(
        lambda shown: t(
            locale, "{player} ({colour}) · cash {cash} M", player=shown, colour=colour, cash=view.own_cash
        ),
        name,
        TITLE,
        WIDTH - 40,
        True,
    )
    text(draw, (20, 16), title, TITLE, INK, True)
    mission = view.mission
    if mission is None:
        caption = t(locale, "No mission")
    else:
        named = said(locale, words.MISSIONS[mission.id])
        caption = t(locale, "Mission: {mission}", mission=named)
        if mission.complete:
            caption += " · " + t(locale, "complete")
    text(draw, (20, 64), fit_text(caption, BODY, WIDTH - 40), BODY, INK, bold=True)
    wanted = set(mission.sites) if mission else set()
    top = 130
    left0 = 60
    for column, letter in enumerate("ABCDEF"):
        text(draw, (left0 + column * mini + mini / 2 - 2, top - 6), letter, SMALL, MUTED, True, "ms")
    for row in range(6):
        text(draw, (left0 - 10, top + row * mini + mini / 2 - 2), str(row + 1), SMALL, MUTED, True, "rm")
    for site in view.sites:
        left, cell_top = left0 + site.x * mini, top + site.y * mini
        fill = ORANGE if site.orange else PLAIN
        draw.rectangle((left, cell_top, left + mini - 4, cell_top + mini - 4), fill=fill, outline="#B9B2A3")
        if site.stack:
            tops = {p.colour: p.hex for p in view.players}
            piece = colour_of(site.stack[-1], tops)
            draw.rectangle((left + 12, cell_top + 12, left + mini - 16, cell_top + mini - 16), fill=piece)
        if site.id in wanted:
            draw.rectangle(
                (left - 2, cell_top - 2, left + mini - 2, cell_top + mini - 2), outline="#2563EB", width=4
            )
    note_left = left0 + 6 * mini + 20
    notes = [
        t(locale, "Blue frames: your mission's sites"),
        t(locale, "({sites})", sites=", ".join(mission.sites)) if mission else "",
        t(locale, "Top them all by the end: 2 prestige"),
    ]
    for row, note in enumerate(notes):
        text(draw, (note_left, top + row * 30), fit_text(note, SMALL, WIDTH - note_left - 20), SMALL, MUTED)
    y = top + 6 * mini + 20
    text(draw, (20, y), t(locale, "Bonus cards ({count})", count=len(view.hand)), BODY, INK, bold=True)
    y += 36
    for index, (card, face) in enumerate(zip(view.hand, cards, strict=True)):
        left = 20 + (index % CARDS_PER_ROW) * 320
        card_top = y + sum(rows[: index // CARDS_PER_ROW])
        row_height = rows[index // CARDS_PER_ROW] - 14
        draw.rounded_rectangle(
            (left, card_top, left + 300, card_top + row_height), 10, outline="#888888", width=2
        )
        line_top = card_top + 8
        for line in face.name:
            text(draw, (left + 10, line_top), line, SMALL, INK, True)
            line_top += CARD_ROW
        body_top = line_top + 4
        for line, fill, bold in face.lines:
            text(draw, (left + 10, line_top + 4), line, SMALL, fill, bold)
            line_top += CARD_ROW + 4
        # The shape sits at the card's right edge, right of the icon's words.
        draw_shape(draw, left + 290 - face.columns * face.cell, body_top, card.picture, face.cell)
    return encode_png(trimmed(image))


CARDS_PER_ROW = 3
CARD_ROW = 24  # a line of a card's name
SHAPE_ROOM = 100  # the right of a card, for its shape


class CardFace(NamedTuple):
    """A bonus card as its hand image shows it: the name's lines, the lines beside the shape (text,
    colour, bold), the shape's columns and cell size, and the card's height."""

    name: tuple[str, ...]
    lines: tuple[tuple[str, str, bool], ...]
    columns: int
    cell: int
    height: int


def card_face(card: CardView, locale: str, over: bool) -> CardFace:
    """How ``card`` is laid out: its name across the card, then its icon, reward and (while the game
    runs) whether it can be claimed now left of its shape; every text wrapped, none cut."""
    name = wrapped(said(locale, words.CARDS[card.id]), SMALL, 280, True)
    columns = max(len(line) for line in card.picture)
    cell = min(28, SHAPE_ROOM // columns)
    beside = 280 - columns * cell - 10
    lines = [(line, MUTED, False) for line in wrapped(said(locale, words.ICONS[card.icon]), SMALL, beside)]
    lines.append((f"{card.reward} M", MUTED, False))
    if card.claimable and not over:
        lines.extend(
            (line, "#15803D", True) for line in wrapped(t(locale, "claimable now"), SMALL, beside, True)
        )
    shape = len(card.picture) * cell
    body = max(len(lines) * (CARD_ROW + 4) + 4, shape)
    return CardFace(name, tuple(lines), columns, cell, max(136, 8 + CARD_ROW * len(name) + 4 + body + 10))


__all__ = ["PrivateView", "PublicView", "board_image", "changed_since", "place_rects", "render_hand"]
