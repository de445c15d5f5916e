"""Every board says where it drew its places: rectangles inside the picture, apart from one another, on
what the renderer drew there; and every move a seat can make points at places the board has, but for the
moves that point at nothing on it."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

import pytest
from PIL import Image, ImageColor

from engine.fifth_avenue.cards import DISTRICTS, SLOTS
from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES, PRESENTATIONS
from lang.says import render
from render import fifth_avenue, ny1901, ny_henn, ny_piatnik, places, skyline
from render.canvas import SCALE
from render.registry import board_places, render_board

# The moves that point at nothing on a board, by the first word of their notation: passing, ending a turn
# or a phase, choosing or trading cards and pieces, colours. Fifth Avenue's pawn moves and builds after an
# auction may have none too, when both ends or the auctioned site are City Hall or Central Park, which the
# board does not draw. Every other move points at one place or more.
PLACELESS = {
    "fifth_avenue": {"A", "draw", "bid", "pass", "C", "move", "build", "close"},
    "ny1901": {"shift", "end", "pass"},
    "ny_henn": {"pass"},
    "ny_piatnik": {"colour", "event", "reset", "exchange", "return"},
    "skyline": {"endbuild", "buy", "sell", "endturn", "exchange"},
}
NAMES = ("Ottoline", "Prudence", "Quentin", "Rosalind", "Sebastian", "Theodora")


def positions(slug: str, seats: int, seed: int = 3) -> list[Any]:
    """The states of a whole self-played match of ``slug``."""
    states: list[Any] = []
    play_match(GAMES[slug], seats, seed, frozenset(), [POLICIES[slug]["random"]], on_state=states.append)
    return states


def sample(states: list[Any], count: int) -> list[Any]:
    return [*states[:: max(1, len(states) // count)], states[-1]]


def drawn(slug: str, view: Any, locale: str, scale: float | None) -> tuple[Image.Image, places.BoardPlaces]:
    seats = getattr(view, "players", None) or getattr(view, "seats", None) or ()
    names = NAMES[: len(seats)]
    png = render_board(slug, view, names, locale, scale)
    board = board_places(slug, view, names, locale, scale)
    assert png is not None and board is not None
    return Image.open(io.BytesIO(png)).convert("RGB"), board


def overlap(a: places.Rect, b: places.Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_place_lies_in_the_picture_apart_from_the_others(slug: str) -> None:
    rules = GAMES[slug]
    for seats in (min(rules.seat_counts), max(rules.seat_counts)):
        for number, state in enumerate(sample(positions(slug, seats), 3)):
            view = rules.view(state, None)
            locale = ("en", "it")[number % 2]
            for scale in (None, places.LARGE):
                image, board = drawn(slug, view, locale, scale)
                assert (board.width, board.height) == image.size
                rects = [(key, r) for key, rs in board.places.items() for r in rs]
                assert len(board.places) >= 20 and all(board.places.values())
                for key, (x, y, w, h) in rects:
                    assert w > 0 and h > 0, key
                    assert x >= 0 and x + w <= image.width and y >= 0 and y + h <= image.height, key
                for (one, a), (other, b) in combinations(rects, 2):
                    assert not overlap(a, b), (slug, one, a, other, b)


def test_the_web_scale_is_twice_the_posts() -> None:
    assert places.LARGE == 2 * SCALE
    view = GAMES["skyline"].view(positions("skyline", 3)[-1], None)
    small, small_board = drawn("skyline", view, "en", None)
    large, large_board = drawn("skyline", view, "en", places.LARGE)
    assert large.size == (2 * small.width, 2 * small.height)
    for key, (rect,) in small_board.places.items():
        (twice,) = large_board.places[key]
        # Each edge rounds to a whole pixel on its own: a size may differ by two.
        assert all(abs(big - 2 * little) <= 2 for big, little in zip(twice, rect, strict=True)), key


def test_an_l_shaped_lot_is_two_rectangles_and_a_square_one() -> None:
    assert sorted(places.cell_runs([(6, 1), (6, 2), (7, 1)])) == [(6, 1, 7, 1), (6, 2, 6, 2)]
    assert places.cell_runs([(3, 4), (4, 4), (3, 5), (4, 5)]) == [(3, 4, 4, 5)]
    assert sorted(places.cell_runs([(1, 1), (3, 1)])) == [(1, 1, 1, 1), (3, 1, 3, 1)]


def inside(rect: places.Rect, across: float, down: float) -> tuple[int, int]:
    """The pixel ``across`` and ``down`` of the way into ``rect``."""
    x, y, w, h = rect
    return int(x + across * w), int(y + down * h)


def rgb(colour: str) -> tuple[int, ...]:
    return ImageColor.getrgb(colour)[:3]


def near(pixel: Any, colour: str) -> bool:
    """Whether ``pixel`` is ``colour``, up to what a 256-colour picture moves a colour by."""
    return all(abs(a - b) <= 10 for a, b in zip(pixel, rgb(colour), strict=True))


def ny1901_grounds(view: Any, board: places.BoardPlaces) -> Iterator[tuple[tuple[int, int], str]]:
    built = {cell for building in view.buildings for cell in building.cells}
    for lot in view.lots:
        if lot.worker or built & set(lot.cells) or set(view.highlight) & set(lot.cells):
            continue
        for rect in board.places[lot.id]:
            yield inside(rect, 0.15, 0.15), lot.hex if lot.usable else "#BDBDBD"


def skyline_grounds(view: Any, board: places.BoardPlaces) -> Iterator[tuple[tuple[int, int], str]]:
    for site in view.sites:
        (rect,) = board.places[site.id]
        yield inside(rect, 0.07, 0.5), skyline.ORANGE if site.orange else skyline.PLAIN


def piatnik_grounds(view: Any, board: places.BoardPlaces) -> Iterator[tuple[tuple[int, int], str]]:
    for (rect,) in board.places.values():
        yield inside(rect, 0.12, 0.12), ny_piatnik.TILE_FILL


def fifth_avenue_grounds(view: Any, board: places.BoardPlaces) -> Iterator[tuple[tuple[int, int], str]]:
    for lot in view.lots:
        if lot.id.split(".")[0] in view.closed:
            continue
        x, y, _, h = board.places[lot.id][0]
        yield (x + 2, y + h - 3), fifth_avenue.LOT_COLOURS[lot.id.split(".")[1]]
    for slot, shop in view.row:
        if shop is not None:
            yield inside(board.places[slot][0], 0.1, 0.1), fifth_avenue.SHOP_COLOURS[shop]


def henn_grounds(view: Any, board: places.BoardPlaces) -> Iterator[tuple[tuple[int, int], str]]:
    for panel in view.players:
        for placed in panel.city:
            (rect,) = board.places[f"city{panel.seat}:{placed.x},{placed.y}"]
            kind = placed.tile.type
            # Below the street band along the top, above the letters in the middle.
            yield inside(rect, 0.25, 0.24), ny_henn.TYPE_BY_CODE[kind].colour if kind else panel.colour
    for slot in view.market:
        x, y, _, h = board.places[f"market:{slot.bank}"][0]
        yield (x + 1, y + h // 2), ny_henn.BANK_HEX[slot.bank]


GROUNDS: dict[str, Callable[[Any, places.BoardPlaces], Iterator[tuple[tuple[int, int], str]]]] = {
    "ny1901": ny1901_grounds,
    "skyline": skyline_grounds,
    "ny_piatnik": piatnik_grounds,
    "fifth_avenue": fifth_avenue_grounds,
    "ny_henn": henn_grounds,
}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_place_is_where_the_board_drew_it(slug: str) -> None:
    """Inside each place's rectangles the picture shows that place's own ground: a lot's district colour,
    a site's paper or orange, a tile's type, a slot's shop."""
    rules = GAMES[slug]
    seats = 4 if 4 in rules.seat_counts else max(rules.seat_counts)
    looked = 0
    for number, state in enumerate(sample(positions(slug, seats), 3)):
        view = rules.view(state, None)
        for scale in (None, places.LARGE):
            image, board = drawn(slug, view, ("en", "it")[number % 2], scale)
            for point, colour in GROUNDS[slug](view, board):
                assert near(image.getpixel(point), colour), (slug, point, image.getpixel(point), colour)
                looked += 1
    assert looked >= 60


def test_the_places_a_move_names_are_the_ones_drawn_for_it() -> None:
    """Spot checks by hand: Fifth Avenue's lots of a district lie in its row, right of its name; a
    Skyline site's rectangle is in its column and row; New York 1901's green lot 7 is an L of three cells."""
    view: Any = GAMES["fifth_avenue"].view(positions("fifth_avenue", 3)[0], None)
    _, board = drawn("fifth_avenue", view, "en", None)
    for district in DISTRICTS:
        name, marks = board.places[district]
        for lot in (lot for lot in view.lots if lot.id.startswith(district + ".")):
            (rect,) = board.places[lot.id]
            assert name[1] == rect[1] and name[0] + name[2] <= rect[0] < rect[0] + rect[2] <= marks[0]
    assert [board.places[slot][0][0] for slot in SLOTS] == sorted(board.places[slot][0][0] for slot in SLOTS)
    view = GAMES["skyline"].view(positions("skyline", 3)[0], None)
    _, board = drawn("skyline", view, "en", None)
    assert (
        board.places["A1"][0][0] < board.places["B1"][0][0]
        and board.places["A1"][0][1] < board.places["A2"][0][1]
    )
    view = GAMES["ny1901"].view(positions("ny1901", 3)[0], None)
    _, board = drawn("ny1901", view, "en", None)
    # Green lot 7 covers the cells (6, 1), (7, 1) and (6, 2): a bar of two over one cell.
    left, top, _, _ = ny1901.cell_box(6, 1)
    right, bottom, _, _ = ny1901.cell_box(8, 2)
    below = ny1901.cell_box(7, 3)
    assert sorted(board.places["G07"]) == sorted(
        [places.rect((left, top, right, bottom)), places.rect((left, bottom, below[0], below[1]))]
    )


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_move_points_at_places_of_the_board_but_the_placeless_ones(slug: str) -> None:
    rules, presentation = GAMES[slug], PRESENTATIONS[slug]
    moves = with_places = 0
    for seats in (min(rules.seat_counts), max(rules.seat_counts)):
        for seed in (1, 2):
            for state in sample(positions(slug, seats, seed), 25):
                view = rules.view(state, None)
                board = board_places(slug, view, NAMES[:seats], "en")
                assert board is not None
                for seat in rules.to_act(state):
                    for action in rules.legal_actions(state, seat):
                        touched = presentation.places_of(state, seat, action)
                        notation = rules.notation(action)
                        assert set(touched) <= set(board.places), (notation, touched)
                        assert len(set(touched)) == len(touched), notation
                        if not touched:
                            assert notation.split()[0] in PLACELESS[slug], notation
                        moves += 1
                        with_places += bool(touched)
                for key in board.places:
                    for locale in ("en", "it"):
                        name = render(locale, presentation.place_name(state, key), lambda s: NAMES[s])
                        assert name and name != key, (key, name)
    assert moves > 300 and with_places > moves // 5
