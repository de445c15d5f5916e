"""Board and hand images for Piatnik's New York, drawn from its public and private views.

The layout follows spec §9 (avenues as rows, streets as columns, roads through the tiles, markers as
discs) but is portrait and larger so that the smallest text is 1/50 of the width, legible on a phone.
Markers carry their colour's initial, so colour is never the only cue.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

import lang
from engine.ny_piatnik import words
from engine.ny_piatnik.cards import (
    AVENUES,
    BUILDING_IDS,
    BUILDING_INDEX,
    CORNERS,
    INNER,
    SIZE,
    STREETS,
)
from engine.ny_piatnik.views import PrivateView, PublicView
from lang import t
from lang.says import argument
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
    names_in,
    new_canvas,
    short_name,
    text,
    trimmed,
    wrapped,
)
from render.places import PlaceMap, rect
from render.result import fitted_result_line
from render.since import Since

WIDTH = 900
SMALL = 18  # = WIDTH / 50, the smallest text on the image
BODY = 20
TITLE = 26

CELL = 104
TILE = 80
GRID_X = 170
GRID_Y = 116
ROAD = "#8C8C8C"
TILE_FILL = "#D8CFC0"
TILE_EDGE = "#A89F91"
AVENUE_INK = "#B71C1C"
STREET_INK = "#0D47A1"
HIGHLIGHT = "#FF6F00"
INNER_MARK = "#C9A227"
CORNER_MARK = "#795548"
PANEL_ROW = 64
COLOUR_HEX = {
    "red": "#D32F2F",
    "blue": "#1E63C8",
    "yellow": "#F2C200",
    "green": "#2E8B3D",
    "black": "#222222",
}
# A symbol per house, so that colour is never the only cue and no letter has to be translated.
SYMBOL = {"red": "✚", "blue": "●", "yellow": "▲", "green": "■", "black": "★"}
STREET_LABEL = {
    "34": "34th",
    "38": "38th",
    "42": "42nd",
    "45": "45th",
    "49": "49th",
    "53": "53rd",
    "57": "57th",
}
CARD_FILL = {
    "SAN": "#C9A227",
    "RUIN": "#795548",
    "SPEC": "#6A1B9A",
    "BAU": "#00796B",
    "STAT": "#546E7A",
}


def centre(idx: int) -> tuple[int, int]:
    row, col = divmod(idx, SIZE)
    return GRID_X + CELL * col + CELL // 2, GRID_Y + CELL * row + CELL // 2


def draw_marker(draw: ImageDraw.ImageDraw, x: float, y: float, colour: str, radius: int = 28) -> None:
    """A disc in the house colour with the colour's symbol on it."""
    outline = "#FFFFFF" if colour == "black" else "#222222"
    draw.ellipse(
        (x - radius, y - radius, x + radius, y + radius), fill=COLOUR_HEX[colour], outline=outline, width=2
    )
    letter_ink = "#222222" if colour == "yellow" else "#FFFFFF"
    text(draw, (x, y), SYMBOL[colour], max(SMALL, radius - 6), letter_ink, bold=True, anchor="mm")


def changed_since(before: PublicView, now: PublicView) -> set[str]:
    """The buildings whose owner differs between the two public views."""
    return {
        BUILDING_IDS[idx]
        for idx, (old, new) in enumerate(zip(before.board, now.board, strict=True))
        if old != new
    }


# Where the roads, their names and the empty buildings are drawn, with nothing else in it.
MAP_BOX = (0, GRID_Y - 32, GRID_X + CELL * SIZE + 1, GRID_Y + CELL * SIZE + 1)


def draw_board(image: Image.Image, draw: Draw, view: PublicView, changed: set[str] | None = None) -> int:
    """Roads, tiles, markers, the last play's highlight and the ``changed`` buildings' mark; returns the
    y below the board."""
    # The empty map differs between boards only in the line the last play named.
    key = ("ny_piatnik map", view.highlight_line, view.show_specials)
    drawn_once(draw, MAP_BOX, key, lambda: draw_map(draw, view))
    highlighted = {BUILDING_INDEX[b] for b in view.highlight}
    half = TILE // 2
    for idx, owner in enumerate(view.board):
        x, y = centre(idx)
        if owner is not None:
            draw_marker(draw, x, y, owner)
        if idx in highlighted:
            draw.rectangle(
                (x - half - 4, y - half - 4, x + half + 4, y + half + 4), outline=HIGHLIGHT, width=5
            )
        if changed and BUILDING_IDS[idx] in changed:
            since_marks.mark(draw, (x - half, y - half, x + half, y + half), 30)
    return GRID_Y + CELL * SIZE + 16


def draw_map(draw: ImageDraw.ImageDraw, view: PublicView) -> None:
    """The line the last play named, the roads with their names, and the buildings with nobody on them."""
    top, bottom = GRID_Y + 8, GRID_Y + CELL * SIZE - 8
    left, right = GRID_X + 8, GRID_X + CELL * SIZE - 8
    if view.highlight_line:
        line = view.highlight_line
        if line in AVENUES:
            y = GRID_Y + CELL * AVENUES.index(line)
            draw.rectangle((left, y, right, y + CELL), fill=(255, 111, 0, 64))
        elif line in STREETS:
            x = GRID_X + CELL * STREETS.index(line)
            draw.rectangle((x, top, x + CELL, bottom), fill=(255, 111, 0, 64))
    for i in range(SIZE):
        _, y = centre(i * SIZE)
        x, _ = centre(i)
        draw.line((left, y, right, y), fill=ROAD, width=16)
        draw.line((x, top, x, bottom), fill=ROAD, width=16)
        text(draw, (GRID_X - 12, y), words.AVENUES[AVENUES[i]], SMALL, AVENUE_INK, bold=True, anchor="rm")
        text(draw, (x, GRID_Y - 14), STREET_LABEL[STREETS[i]], SMALL, STREET_INK, bold=True, anchor="ms")
    half = TILE // 2
    for idx in range(SIZE * SIZE):
        x, y = centre(idx)
        draw.rectangle((x - half, y - half, x + half, y + half), fill=TILE_FILL, outline=TILE_EDGE, width=2)
        if view.show_specials and (idx in INNER or idx in CORNERS):
            mark = INNER_MARK if idx in INNER else CORNER_MARK
            draw.rectangle((x - half + 5, y - half + 5, x + half - 5, y + half - 5), outline=mark, width=3)


def player_label(view: PublicView, seat: int, names: Sequence[str]) -> str:
    return names[seat] if seat < len(names) and names[seat] else f"#{seat + 1}"


def colour_name(colour: str, locale: str) -> str:
    return said(locale, words.COLOURS[colour])


def status_line(view: PublicView, names: Sequence[str], locale: str) -> str:
    """Where the match stands, from the view's fields, in ``locale``: whose turn it is, or once over who
    won; on one line, the names shortened if need be."""
    room = WIDTH - 32
    if view.phase == "over":
        places = [1] * len(view.players)  # every seat listed in the scores; a seat missing is not first
        for score in view.scores:
            places[score.seat] = score.place
        return fitted_result_line(
            places, [player_label(view, s, names) for s in range(len(places))], locale, SMALL, room
        )
    if view.phase == "colour_choice":
        stage = t(locale, "Choosing colours") + " · "
    elif view.phase == "preliminary":
        stage = t(locale, "Preliminary round") + " · "
    elif view.final_phase:
        stage = t(locale, "Final phase: Stop cards in play") + " · "
    else:
        stage = ""

    def compose(shown: Sequence[str]) -> str:
        line = stage + t(locale, "{players} to act", players=", ".join(shown))
        return line[:1].upper() + line[1:]

    return names_in(compose, [player_label(view, s, names) for s in view.to_act], SMALL, room)


def draw_panel(
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    names: Sequence[str],
    y: int,
    locale: str,
    since: Since | None = None,
    changed: bool = False,
) -> int:
    """One two-line row per seat, then deck, discard, Stop cards, the last play and a legend."""
    for info in view.players:
        if info.to_act:
            draw.rectangle((8, y, WIDTH - 8, y + PANEL_ROW - 6), fill=(255, 111, 0, 40))
        marker = "▶ " if info.to_act else ""
        who = short_name(player_label(view, info.seat, names), BODY, 330, True, before=marker)
        text(draw, (16, y + 6), who, BODY, INK, bold=True)
        x = 360
        for colour in info.houses:
            draw_marker(draw, x + 14, y + 18, colour, radius=14)
            x += 34
        team = "  " + t(locale, "team {name}", name="AB"[info.team]) if info.team is not None else ""
        text(draw, (x + 6, y + 6), f"${info.money}{team}", BODY, INK, bold=True)
        detail = t(
            locale,
            "{board} on the board · {supply} in supply · hand: {red} red-backed, {blue} blue-backed",
            board=info.on_board,
            supply=info.supply,
            red=info.hand_red,
            blue=info.hand_blue,
        )
        text(draw, (16, y + 34), fit_text(detail, SMALL, WIDTH - 32), SMALL, MUTED)
        y += PANEL_ROW
    last = " + ".join(card_words(c, locale) for c in view.last_play) if view.last_play else "—"
    stop = {
        "aside": t(locale, "Stop cards: set aside"),
        "discard": t(locale, "Stop cards: in the discard pile"),
        "deck": t(locale, "Stop cards: in the deck"),
    }.get(view.stop_location, "")
    lines = [
        t(
            locale,
            "Deck {deck} · discards {discard} · unowned {unowned}",
            deck=view.deck_size,
            discard=view.discard_size,
            unowned=view.unowned,
        )
        + (f" · {stop}" if stop else ""),
        t(locale, "Last play: {cards}", cards=last),
        "   ".join(f"{SYMBOL[c]} {colour_name(c, locale)}" for c in SYMBOL),
    ]
    for line in lines:
        text(draw, (16, y + 4), fit_text(line, SMALL, WIDTH - 32), SMALL, INK)
        y += 28
    if since is not None:
        since_marks.legend_line(draw, (16, y + 4), since, names, locale, changed, SMALL, WIDTH - 32)
        y += 28
    return y + 8


def draw_scores(
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    names: Sequence[str],
    y: int,
    locale: str,
    since: Since | None = None,
    changed: bool = False,
) -> int:
    text(draw, (16, y), t(locale, "Final standings:"), BODY, INK, bold=True)
    y += 32
    for score in sorted(view.scores, key=lambda s: (s.place, s.seat)):
        who = short_name(player_label(view, score.seat, names), BODY, 260, True, before=f"{score.place}. ")
        text(draw, (16, y), who, BODY, INK, bold=True)
        x = 290
        for colour in score.houses:
            draw_marker(draw, x + 14, y + 12, colour, radius=13)
            x += 32
        team = (
            " · " + t(locale, "team {total}", total=score.team_total) if score.team_total is not None else ""
        )
        if "two_player" in view.variants:  # §7.3: the two largest groups count once, nothing else
            groups = "+".join(str(n) for n in score.largest)
            summary = t(
                locale,
                "groups {groups} + ${money} = {total}",
                groups=groups,
                money=score.money,
                total=score.total,
            )
        else:
            summary = t(
                locale,
                "group {largest}×2 + others {others} + ${money} = {total}",
                largest=score.largest[0],
                others=score.others,
                money=score.money,
                total=score.total,
            )
        text(draw, (x + 6, y + 2), fit_text(summary + team, SMALL, WIDTH - x - 20), SMALL, INK)
        y += 36
    if since is not None:
        since_marks.legend_line(draw, (16, y + 4), since, names, locale, changed, SMALL, WIDTH - 32)
        y += 28
    return y + 8


def board_height(view: PublicView, names: Sequence[str], locale: str, since: bool) -> int:
    """How tall ``board_image`` draws the board, in units: the last line ends 20 units above the
    bottom, as on every board."""
    height = GRID_Y + CELL * SIZE + 16 + PANEL_ROW * len(view.players) + 4 * 28 - 11
    if view.scores:
        height = GRID_Y + CELL * SIZE + 16 + 40 + 36 * len(view.scores) + 2
    return height + (36 if since else 0)


def board_image(
    view: PublicView,
    names: Sequence[str] = (),
    locale: str = lang.DEFAULT,
    since: Since | None = None,
    scale: float | None = None,
) -> Image.Image:
    """The public board image: grid, markers, last play, and the panel (or the final score); with
    ``since``, the buildings changed since the player to act last played are marked. Drawn at ``scale``
    pixels a unit (None: the posts' scale)."""
    changed: set[str] = set()
    if since is not None:
        if not isinstance(since.view, PublicView):
            raise TypeError(f"since.view is a {type(since.view).__name__}, not a PublicView")
        changed = changed_since(since.view, view)
    image, draw = new_canvas(WIDTH, board_height(view, names, locale, since is not None), scale=scale)
    text(draw, (16, 14), game_title("ny_piatnik", locale), TITLE, INK, bold=True)
    status = status_line(view, names, locale)
    text(draw, (16, 50), status, SMALL, INK, bold=view.phase == "over")
    y = draw_board(image, draw, view, changed)
    if view.scores:
        draw_scores(draw, view, names, y, locale, since, bool(changed))
    else:
        draw_panel(draw, view, names, y, locale, since, bool(changed))
    return image


def place_rects(
    view: PublicView, names: Sequence[str] = (), locale: str = lang.DEFAULT, scale: float | None = None
) -> PlaceMap:
    """Where ``board_image`` draws each building ("PARK-42"), at ``scale``: its tile, between the roads.
    The grid sits at the same place whatever the names and words."""
    half = TILE // 2
    placed = {}
    for idx, building in enumerate(BUILDING_IDS):
        x, y = centre(idx)
        placed[building] = (rect((x - half, y - half, x + half, y + half), scale),)
    return placed


def card_colour(code: str) -> str:
    family = code.split("-")[0]
    if family in CARD_FILL:
        return CARD_FILL[family]
    return AVENUE_INK if code in AVENUES or code == "RJ" else STREET_INK


def card_words(code: str, locale: str) -> str:
    """A card as the menus name it: "Park Ave", "42nd St", "red joker", "Ruin (red back)"."""
    return argument(locale, words.card(code))


CARD_WIDTH = 200
CARD_NAME_ROW = 28


def card_label(code: str, locale: str) -> tuple[tuple[str, ...], str]:
    """A hand card's name, wrapped to the card, and the line under it: its back, or what a joker is."""
    red_back = code in AVENUES or code == "RJ" or code.endswith("-R")
    back = t(locale, "red back") if red_back else t(locale, "blue back")
    if code in ("RJ", "BJ"):
        back = t(locale, "any avenue") if code == "RJ" else t(locale, "any street")
    return wrapped(card_words(code, locale), BODY, CARD_WIDTH - 20, True), back


def render_hand(view: PrivateView, names: Sequence[str] = (), locale: str = lang.DEFAULT) -> bytes:
    """One seat's private image: its houses, money and hand cards (and a V4 partner's hand)."""
    rows = [(t(locale, "Your hand"), view.hand)]
    if view.partner_hand is not None and view.partner is not None:
        partner = player_label(view, view.partner, names)
        rows.append((t(locale, "Your partner {player}", player=partner), view.partner_hand))
    card_w, gap, per_row = CARD_WIDTH, 12, 4
    # Every card as tall as the one whose name takes the most lines.
    labels = {code: card_label(code, locale) for _, cards in rows for code in cards}
    name_lines = max((len(label) for label, _ in labels.values()), default=1)
    card_h = 10 + CARD_NAME_ROW * name_lines + 6 + SMALL + 16
    height = 80
    for _, cards in rows:
        height += 40 + ((max(1, len(cards)) + per_row - 1) // per_row) * (card_h + gap)
    image, draw = new_canvas(WIDTH, height + 16)
    seat_name = short_name(player_label(view, view.seat, names), TITLE, 520, True)
    text(draw, (16, 14), seat_name, TITLE, INK, bold=True)
    x = 560
    for colour in view.my_houses:
        draw_marker(draw, x, 30, colour, radius=18)
        x += 44
    text(draw, (x, 16), f"${view.players[view.seat].money}", TITLE, INK, bold=True)
    y = 70
    for title, cards in rows:
        text(draw, (16, y), title, BODY, INK, bold=True)
        y += 36
        if not cards:
            text(draw, (16, y + 10), t(locale, "no cards yet"), BODY, MUTED)
        for i, code in enumerate(cards):
            col, row = i % per_row, i // per_row
            left, top = 16 + col * (card_w + gap), y + row * (card_h + gap)
            draw.rounded_rectangle((left, top, left + card_w, top + card_h), 10, fill=card_colour(code))
            label, back = labels[code]
            for line_number, line in enumerate(label):
                text(draw, (left + 10, top + 10 + line_number * CARD_NAME_ROW), line, BODY, "#FFFFFF", True)
            below = top + 10 + CARD_NAME_ROW * name_lines + 6
            text(draw, (left + 10, below), fit_text(back, SMALL, card_w - 20), SMALL, "#FFFFFF")
        y += ((max(1, len(cards)) + per_row - 1) // per_row) * (card_h + gap)
    return encode_png(trimmed(image))


__all__ = ["PrivateView", "PublicView", "board_image", "changed_since", "place_rects", "render_hand"]
