"""Board and hand images for Fifth Avenue, drawn from its public and private views.

Spec §9 draws the physical board; this image is a phone-first summary of the same facts: one row per
district with its lots (colour, shops, owner and building count), the shop supply row, the decks, the
players, and a running auction. Lot colours carry their two-letter code and owners their initial, so
colour is never the only cue; every text is at least 1/50 of the width.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from PIL import Image, ImageDraw

import lang
from engine.fifth_avenue import words
from engine.fifth_avenue.cards import BUILDINGS_FOR_VALUE, COLOURS, DISTRICTS, GROUPS, SLOTS
from engine.fifth_avenue.views import LotView, PrivateView, PublicView
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
    short_name,
    text,
    text_width,
    trimmed,
    wrapped,
)
from render.places import PlaceMap, Rect, rect, rects
from render.result import result_line
from render.since import Since

WIDTH = 1000
SMALL = 20  # = WIDTH / 50
BODY = 22
TITLE = 28
MARGIN = 20
LOT_COLOURS = {
    "GY": "#9E9E9E",
    "BR": "#8D5A2B",
    "OR": "#F39C12",
    "GN": "#43A047",
    "VI": "#8E44AD",
    "X": "#CFC8B8",
}
CARD_COLOURS = {**LOT_COLOURS, "BK": "#212121"}
PLAYER_COLOURS = {
    "red": "#D32F2F",
    "yellow": "#FBC02D",
    "blue": "#1E88E5",
    "green": "#1B5E20",
    "asso": "#555555",
}
SHOP_COLOURS = {"F": "#E91E63", "J": "#00ACC1", "A": "#5D4037", "P": "#AB47BC"}
# A symbol per shop type, the same in every language (the legend names them).
SHOP_SYMBOLS = {"F": "✂", "J": "◆", "A": "✎", "P": "✿"}
ROW = 64
SINCE_ROW = 30
LOTS_LEFT = 168
PHASES = {
    "setup": N_("starting buildings"),
    "action": N_("choosing an action (A, B, C or D)"),
    "draw": N_("taking coloured cards"),
    "move": N_("moving a pawn"),
    "auction": N_("auction"),
    "build": N_("building after an auction"),
}


def ink_on(fill: str) -> str:
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


def draw_lot(
    draw: ImageDraw.ImageDraw, left: float, top: float, lot: LotView, width: int, locale: str
) -> None:
    colour = lot.id.split(".")[1]
    fill = LOT_COLOURS.get(colour, "#CCCCCC")
    draw.rectangle((left, top, left + width - 6, top + ROW - 8), fill=fill, outline="#444444")
    name = fit_text(said(locale, words.LOT_COLOURS[colour]), SMALL, width - 14, bold=True)
    text(draw, (left + 6, top + 4), name, SMALL, ink_on(fill), bold=True)
    x = left + 6
    for shop in lot.shops:
        draw.rectangle((x, top + 30, x + 24, top + 54), fill=SHOP_COLOURS[shop])
        text(draw, (x + 12, top + 42), SHOP_SYMBOLS[shop], SMALL, "#FFFFFF", anchor="mm")
        x += 28
    if lot.owner is not None:
        owner_fill = PLAYER_COLOURS.get(lot.owner, "#333333")
        right = left + width - 12
        draw.rectangle((right - 46, top + 26, right, top + 54), fill=owner_fill, outline="#FFFFFF", width=2)
        label = f"⌂{lot.count}"
        text(draw, (right - 23, top + 40), label, SMALL, ink_on(owner_fill), bold=True, anchor="mm")


def places(view: PublicView) -> dict[str, tuple[object, ...]]:
    """What each place on the board holds: a lot its shops, owner and buildings; a district whether it is
    closed and which pawns and survey tokens stand on it."""
    held: dict[str, tuple[object, ...]] = {lot.id: (lot.shops, lot.owner, lot.count) for lot in view.lots}
    for district in DISTRICTS:
        pawns = tuple(sorted(pawn for pawn, where in view.pawns if where == district))
        tokens = tuple(sorted(pawn for pawn, where in view.tokens if district in where))
        held[district] = (district in view.closed, pawns, tokens)
    return held


def changed_since(before: PublicView, now: PublicView) -> set[str]:
    """The lots ("34W.GY") and districts ("34W") whose contents differ between the two public views."""
    old, new = places(before), places(now)
    return {place for place in old.keys() | new.keys() if old.get(place) != new.get(place)}


def lot_columns(view: PublicView) -> tuple[list[str], int]:
    """The lot colours of a district's row, in order, and the width of a lot's column."""
    columns = [*COLOURS, "X"] if view.six_lots else list(COLOURS)
    return columns, min(128, (WIDTH - LOTS_LEFT - 150) // len(columns))  # room for the pawns and tokens


def draw_districts(
    image: Image.Image,
    draw: Draw,
    top: int,
    view: PublicView,
    locale: str,
    changed: set[str] | None = None,
) -> int:
    lots = {lot.id: lot for lot in view.lots}
    pawns: dict[str, list[str]] = {}
    for pawn, where in view.pawns:
        pawns.setdefault(where, []).append(pawn)
    tokens = {d: [p for p, places in view.tokens if d in places] for d in DISTRICTS}
    columns, lot_width = lot_columns(view)
    for district in DISTRICTS:
        closed = district in view.closed
        name = said(locale, words.PLACES[district])
        first, _, second = name.rpartition(" ") if " " in name else (name, "", "")
        ink = MUTED if closed else INK
        text(
            draw,
            (MARGIN, top + 4),
            fit_text(first or second, SMALL, LOTS_LEFT - MARGIN - 6),
            SMALL,
            ink,
        )
        if first:
            text(draw, (MARGIN, top + 28), second + (" ✕" if closed else ""), SMALL, ink, bold=True)
        marks = [t(locale, "{pawn} pawn", pawn=said(locale, words.PAWNS[p])) for p in pawns.get(district, [])]
        marks += [t(locale, "{pawn} survey", pawn=said(locale, words.PAWNS[p])) for p in tokens[district]]
        marks_left = LOTS_LEFT + len(columns) * lot_width + 4
        for line, mark in enumerate(marks[:2]):
            text(
                draw,
                (marks_left, top + 4 + 26 * line),
                fit_text(mark, SMALL, WIDTH - marks_left - 8),
                SMALL,
                MUTED,
            )
        for index, colour in enumerate(columns):
            lot = lots.get(f"{district}.{colour}")
            if lot is not None:
                left = LOTS_LEFT + index * lot_width
                # A lot looks the same on every board until a shop or a building goes on it.
                box = (left, top, left + lot_width - 5, top + ROW - 7)
                key = ("fifth_avenue lot", lot, lot_width, locale)
                drawn_once(draw, box, key, partial(draw_lot, draw, left, top, lot, lot_width, locale))
        if closed:
            draw.rectangle((LOTS_LEFT - 10, top - 2, WIDTH - 10, top + ROW - 6), fill=(120, 120, 120, 90))
        if changed:
            if district in changed:
                # The district's name cell: pawns, surveys and closing are said beside it.
                since_marks.mark(draw, (MARGIN - 14, top - 4, LOTS_LEFT - 12, top + ROW - 6), 18)
            for index, colour in enumerate(columns):
                if f"{district}.{colour}" in changed:
                    box_left = LOTS_LEFT + index * lot_width
                    # Bottom left, where it hides neither the colour's name nor the owner's buildings.
                    box = (box_left, top, box_left + lot_width - 6, top + ROW - 8)
                    since_marks.mark(draw, box, 26, "bl", width=4)
        top += ROW
    return top


def draw_supply(draw: ImageDraw.ImageDraw, top: float, view: PublicView, locale: str) -> float:
    if view.game_over or view.active_group is None:
        heading = t(locale, "Shops placed: {count} of 12", count=view.placed)
    else:
        heading = t(locale, "Shops placed: {count} of 12 · the framed group is on offer", count=view.placed)
    text(draw, (MARGIN, top), fit_text(heading, SMALL, WIDTH - 2 * MARGIN, True), SMALL, INK, bold=True)
    top += 30
    x = MARGIN
    for number, group in enumerate(GROUPS):
        active = view.active_group == number
        width = 40 * len(group) + 8
        if active:
            draw.rectangle((x - 4, top - 4, x + width - 4, top + 44), outline="#FF6F00", width=4)
        for slot in group:
            shop = view.row[slot][1]
            fill = SHOP_COLOURS[shop] if shop else "#E0DAD0"
            draw.rectangle((x, top, x + 34, top + 40), fill=fill, outline="#888888")
            if shop:
                text(draw, (x + 17, top + 20), SHOP_SYMBOLS[shop], SMALL, "#FFFFFF", anchor="mm")
            x += 40
        x += 14
    return top + 60


LEGEND_ROW = 28
STATUS_ROW = 28
AUCTION_ROW = 32


def draw_legend(
    draw: ImageDraw.ImageDraw,
    top: float,
    locale: str,
    actions: Sequence[str],
    since: Since | None = None,
    names: Sequence[str] = (),
    changed: bool = False,
) -> float:
    """The shop symbols by name, the building mark and, with ``since``, the changed mark."""
    x = MARGIN
    for shop, symbol in SHOP_SYMBOLS.items():
        name = said(locale, words.SHOPS[shop])
        draw.rectangle((x, top, x + 24, top + 24), fill=SHOP_COLOURS[shop])
        text(draw, (x + 12, top + 12), symbol, SMALL, "#FFFFFF", anchor="mm")
        text(draw, (x + 30, top + 1), name, SMALL, INK)
        x += 40 + int(text_width(name, SMALL))
    text(draw, (MARGIN, top + 32), t(locale, "⌂2 = two buildings of the player in that colour"), SMALL, MUTED)
    bottom = top + 60
    for line in actions:
        text(draw, (MARGIN, bottom), line, SMALL, MUTED)
        bottom += LEGEND_ROW
    if since is not None:
        since_marks.legend_line(
            draw, (MARGIN, bottom), since, names, locale, changed, SMALL, WIDTH - 2 * MARGIN
        )
        return bottom + 4 + SINCE_ROW
    return bottom + 4


def action_lines(view: PublicView, locale: str) -> tuple[str, ...]:
    """The legend's lines naming the actions, wrapped; none once the game is over."""
    if view.game_over:
        return ()
    actions = t(
        locale, "Actions: A take buildings · B place a shop · C black card and pawn · D score a district"
    )
    return wrapped(actions, SMALL, WIDTH - 2 * MARGIN)


def colour_namer(view: PublicView, names: Sequence[str]) -> Callable[[str | None], str]:
    """Who plays a colour, by name (Asso for the computer's own colour, "—" for nobody)."""
    seat_of = {seat.colour: index for index, seat in enumerate(view.seats)}

    def name_of(colour: str | None) -> str:
        if colour is None:
            return "—"
        if colour == "asso":
            return "Asso"
        index = seat_of.get(colour)
        return names[index] if index is not None and index < len(names) else colour

    return name_of


def status_lines(view: PublicView, names: Sequence[str], locale: str) -> tuple[str, ...]:
    """The header's status, wrapped: who is to act and in which phase, or once over who won."""
    if view.game_over:
        return wrapped(result_line(view.places, names, locale), SMALL, WIDTH - 2 * MARGIN, True)
    phase = t(locale, PHASES.get(view.phase, view.phase))
    said_status = (
        t(locale, "{players} to act", players=colour_namer(view, names)(view.to_act)) + f" · {phase}"
    )
    return wrapped(said_status[:1].upper() + said_status[1:], SMALL, WIDTH - 2 * MARGIN)


def districts_top(status: Sequence[str]) -> int:
    """Where the first district's row begins, under the header's ``status`` lines."""
    return 90 + STATUS_ROW * (len(status) - 1)


def place_rects(
    view: PublicView, names: Sequence[str] = (), locale: str = lang.DEFAULT, scale: float | None = None
) -> PlaceMap:
    """Where ``board_image`` draws each place, at ``scale``: a lot ("34W.GY") its square; a district
    ("34W") its name and, right of its lots, the pawns and surveys on it; a slot of the shop supply
    ("S1") its square. The rows move down with the header's lines, which the names and words decide."""
    columns, lot_width = lot_columns(view)
    marks_left = LOTS_LEFT + len(columns) * lot_width + 4
    lots = {lot.id for lot in view.lots}
    top = districts_top(status_lines(view, names, locale))
    placed: dict[str, tuple[Rect, ...]] = {}
    for row, district in enumerate(DISTRICTS):
        y = top + row * ROW
        name_box = (MARGIN, y, LOTS_LEFT - 10, y + ROW - 8)
        placed[district] = rects((name_box, (marks_left, y, WIDTH - MARGIN, y + ROW - 8)), scale)
        for index, colour in enumerate(columns):
            if f"{district}.{colour}" in lots:
                left = LOTS_LEFT + index * lot_width
                placed[f"{district}.{colour}"] = (rect((left, y, left + lot_width - 6, y + ROW - 8), scale),)
    supply_top = top + ROW * len(DISTRICTS) + 10 + 30
    x = MARGIN
    for group in GROUPS:
        for slot in group:
            placed[SLOTS[slot]] = (rect((x, supply_top, x + 34, supply_top + 40), scale),)
            x += 40
        x += 14
    return placed


def board_height(view: PublicView, names: Sequence[str], locale: str, since: bool) -> int:
    """How tall ``board_image`` draws the board, in units: the last line ends 20 units above the
    bottom, as on every board."""
    auction = auction_lines(view, colour_namer(view, names), locale)
    return (
        120
        + ROW * len(DISTRICTS)
        + 100
        + 64
        + LEGEND_ROW * len(action_lines(view, locale))
        + 68
        + 70 * len(view.seats)
        + AUCTION_ROW * len(auction)
        + STATUS_ROW * (len(status_lines(view, names, locale)) - 1)
        - 17
        + (SINCE_ROW if since else 0)
    )


def board_image(
    view: PublicView,
    names: Sequence[str] = (),
    locale: str = lang.DEFAULT,
    since: Since | None = None,
    scale: float | None = None,
) -> Image.Image:
    """The public image: districts and lots, shop supply, legend, decks, players, a running auction; with
    ``since``, the lots and districts changed since the player to act last played are marked. Drawn at
    ``scale`` pixels a unit (None: the posts' scale)."""
    changed: set[str] = set()
    if since is not None:
        if not isinstance(since.view, PublicView):
            raise TypeError(f"since.view is a {type(since.view).__name__}, not a PublicView")
        changed = changed_since(since.view, view)
    name_of = colour_namer(view, names)
    auction = auction_lines(view, name_of, locale)
    actions = action_lines(view, locale)
    status = status_lines(view, names, locale)
    image, draw = new_canvas(WIDTH, board_height(view, names, locale, since is not None), scale=scale)
    text(draw, (MARGIN, 14), game_title("fifth_avenue", locale), TITLE, INK, bold=True)
    for row, line in enumerate(status):
        text(draw, (MARGIN, 54 + row * STATUS_ROW), line, SMALL, INK, bold=view.game_over)
    top = districts_top(status)
    y: float = draw_districts(image, draw, top, view, locale, changed)
    y = draw_supply(draw, y + 10, view, locale)
    y = draw_legend(draw, y, locale, actions, since, names, bool(changed))
    tops = [
        f"{said(locale, words.CARD_COLOURS[colour])} {top[2:] if top else '—'} ({count})"
        for colour, top, count in view.deck_tops
    ]
    decks = t(locale, "Top cards (cards left): {decks}", decks=" · ".join(tops[:3]))
    rest = " · ".join([*tops[3:], t(locale, "black ({count})", count=view.black_count)])
    for line in (decks, rest):
        text(draw, (MARGIN, y), fit_text(line, SMALL, WIDTH - 40), SMALL, INK)
        y += 28
    y += 12
    for index, seat in enumerate(view.seats):
        name = names[index] if index < len(names) else seat.colour
        acting = seat.active and not view.game_over
        if acting:
            draw.rectangle((6, y - 4, WIDTH - 6, y + 62), fill=(255, 111, 0, 40))
        draw.rectangle((MARGIN, y + 2, MARGIN + 24, y + 26), fill=PLAYER_COLOURS[seat.colour], outline=INK)
        stats = t(
            locale,
            "{points} · reserve {reserve} · supply {supply} · Central Park {park}",
            points=tn(locale, "{count} point", "{count} points", seat.score),
            reserve=seat.reserve,
            supply=seat.supply,
            park=seat.cp_buildings,
        )
        stats = fit_text(stats, SMALL, 520)
        text(draw, (WIDTH - MARGIN, y + 2), stats, SMALL, INK, anchor="ra")
        marker = "▶ " if acting else ""
        colour = said(locale, words.PLAYER_COLOURS[seat.colour])
        # Left of the figures at the right edge, with a gap of 20 units.
        room = WIDTH - 2 * MARGIN - 34 - text_width(stats, SMALL) - 20
        header = short_name(name, BODY, room, True, marker, f" ({colour})")
        text(draw, (MARGIN + 34, y), header, BODY, INK, True)
        hand = ", ".join(f"{said(locale, words.CARD_COLOURS[c])} {n}" for c, n in seat.hand_colours if n)
        line = tn(
            locale,
            "{count} card in hand: {cards}",
            "{count} cards in hand: {cards}",
            seat.hand_size,
            cards=hand or "—",
        )
        text(draw, (MARGIN, y + 34), fit_text(line, SMALL, WIDTH - 40), SMALL, MUTED)
        y += 70
    for line in auction:
        text(draw, (MARGIN, y), line, SMALL, INK)
        y += AUCTION_ROW
    return image


def auction_lines(view: PublicView, name_of: Callable[[str | None], str], locale: str) -> list[str]:
    """The running auction's lines, wrapped (none without an auction)."""
    lines: list[str] = []
    if view.auction is not None:
        a = view.auction
        place = said(locale, words.PLACES[a.site])
        said_lines = [
            t(
                locale,
                "Auction for {place}: high bid {high} by {player}; next to bid: {next}",
                place=place,
                high=a.high,
                player=name_of(a.high_bidder),
                next=name_of(a.turn),
            ),
            t(
                locale,
                "Bids: {bids}",
                bids=" · ".join(f"{name_of(c)} {total}" for c, _cards, total in a.piles),
            ),
            t(locale, "Passed: {players}", players=", ".join(name_of(c) for c in a.passed) or "—"),
        ]
        for line in said_lines:
            lines.extend(wrapped(line, SMALL, WIDTH - 2 * MARGIN))
    return lines


def render_hand(view: PrivateView, names: Sequence[str] = (), locale: str = lang.DEFAULT) -> bytes:
    """One player's cards, grouped by colour, with the colours they may bid now."""
    colours = [*COLOURS, "BK"]
    rows = [c for c in colours if any(card.startswith(c) for card in view.hand)] or ["BK"]
    height = 130 + 76 * len(rows) + 60
    image, draw = new_canvas(WIDTH, height)
    seat = view.seats[view.seat]
    name = names[view.seat] if view.seat < len(names) else seat.colour
    colour_word = said(locale, words.PLAYER_COLOURS[seat.colour])
    title = name_in(
        lambda shown: t(locale, "{player} ({colour}) · your cards", player=shown, colour=colour_word),
        name,
        TITLE,
        WIDTH - 40,
        True,
    )
    text(draw, (MARGIN, 14), title, TITLE, INK, True)
    eligible = ", ".join(said(locale, words.CARD_COLOURS[c]) for c in view.eligible) or t(locale, "none now")
    if not view.game_over:  # what may be bid now means nothing on a finished game
        text(
            draw,
            (MARGIN, 58),
            fit_text(t(locale, "May bid with: {colours}", colours=eligible), SMALL, WIDTH - 40),
            SMALL,
            MUTED,
        )
    hands = {
        colour: sorted((c for c in view.hand if c.startswith(colour)), key=lambda c: int(c[2:]))
        for colour in rows
    }
    labels = {
        colour: f"{said(locale, words.CARD_COLOURS[colour])} ({sum(int(c[2:]) for c in cards)})"
        for colour, cards in hands.items()
    }
    # The cards start right of the longest colour's name ("arancione (12)" is wider than "grey (8)").
    cards_left = MARGIN + max(140, max(int(text_width(label, BODY, True)) for label in labels.values()) + 20)
    y = 100
    for colour, cards in hands.items():
        text(draw, (MARGIN, y + 20), labels[colour], BODY, INK, bold=True)
        x = cards_left
        for card in cards:
            fill = CARD_COLOURS[colour]
            draw.rounded_rectangle((x, y, x + 56, y + 66), 8, fill=fill, outline="#333333")
            text(draw, (x + 28, y + 24), card[2:], TITLE, ink_on(fill), bold=True, anchor="mm")
            # The building icons printed on the card: how many buildings it allows (§2.1).
            houses = "⌂" * BUILDINGS_FOR_VALUE[int(card[2:])]
            text(draw, (x + 28, y + 52), houses, SMALL, ink_on(fill), anchor="mm")
            x += 64
        y += 76
    text(draw, (MARGIN, y + 10), t(locale, "⌂ on a card = buildings it allows if the bid wins"), SMALL, MUTED)
    return encode_png(trimmed(image))


__all__ = ["PrivateView", "PublicView", "board_image", "changed_since", "place_rects", "render_hand"]
