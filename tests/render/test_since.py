"""The board marks what changed since the player to act last played: the places each game's
``changed_since`` finds, and the images drawn with and without it."""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from PIL import Image
from pydantic import BaseModel

from engine.fifth_avenue.cards import DISTRICTS
from engine.host.selfplay import play_match
from engine.ny_piatnik.cards import BUILDING_IDS
from engine.registry import GAMES, POLICIES
from render.registry import Since, render_view
from render.since import CHANGED, legend_text

SEATS = 3
SEED = 7
NAMES = ["Alice", "Bob", "Carla"]


def cells_1901(view: Any) -> dict[object, tuple[object, object, object, object]]:
    """Every grid cell of a lot: the lot it belongs to, its owner and worker, and what stands on it."""
    standing = {cell: (b.tile, b.owner) for b in view.buildings for cell in b.cells}
    return {
        cell: (lot.id, lot.owner, lot.worker, standing.get(cell)) for lot in view.lots for cell in lot.cells
    }


def places_1901(view: Any) -> dict[object, object]:
    # A lot is one place: group its cells' contents under the lot id.
    grouped: dict[object, list[object]] = {}
    for cell, content in sorted(cells_1901(view).items()):
        grouped.setdefault(content[0], []).append((cell, content))
    return {lot: tuple(cells) for lot, cells in grouped.items()}


def places_henn(view: Any) -> dict[object, object]:
    return {
        (panel.seat, placed.x, placed.y): (placed.tile.id, placed.tile.type, placed.tile.streets)
        for panel in view.players
        for placed in panel.city
    }


def places_piatnik(view: Any) -> dict[object, object]:
    return dict(zip(BUILDING_IDS, view.board, strict=True))


def places_fifth(view: Any) -> dict[object, object]:
    places: dict[object, object] = {lot.id: (lot.shops, lot.owner, lot.count) for lot in view.lots}
    where = dict(view.pawns)
    surveyed = {pawn: set(districts) for pawn, districts in view.tokens}
    for district in DISTRICTS:
        places[district] = (
            district in view.closed,
            {pawn for pawn, at in where.items() if at == district},
            {pawn for pawn, districts in surveyed.items() if district in districts},
        )
    return places


def places_skyline(view: Any) -> dict[object, object]:
    return {site.id: [(piece.code, piece.colour) for piece in site.stack] for site in view.sites}


# What each game's board is made of, read straight from the public view's fields.
PLACES: dict[str, Callable[[Any], dict[object, object]]] = {
    "ny1901": places_1901,
    "ny_henn": places_henn,
    "ny_piatnik": places_piatnik,
    "fifth_avenue": places_fifth,
    "skyline": places_skyline,
}


def expected(slug: str, before: BaseModel, now: BaseModel) -> set[object]:
    old, new = PLACES[slug](before), PLACES[slug](now)
    return {place for place in old.keys() | new.keys() if old.get(place) != new.get(place)}


@cache
def match(slug: str) -> tuple[list[Any], list[tuple[int, int, int]]]:
    """A seeded greedy match's states, and for every seat each (end of its turn, start of its next one)."""
    rules = GAMES[slug]
    states: list[Any] = []
    play_match(rules, SEATS, SEED, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append)
    acting = [set(rules.to_act(state)) for state in states]
    turns = []
    for seat in range(SEATS):
        for end in range(1, len(states)):
            if seat in acting[end - 1] and seat not in acting[end]:
                start = next((i for i in range(end + 1, len(states)) if seat in acting[i]), None)
                if start is not None:
                    turns.append((seat, end, start))
    return states, turns


def public(slug: str, state: Any) -> BaseModel:
    view: BaseModel = GAMES[slug].view(state, None)
    return view


def changes(slug: str) -> Callable[[Any, Any], set[Any]]:
    function: Callable[[Any, Any], set[Any]] = importlib.import_module(f"render.{slug}").changed_since
    return function


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_changed_since_finds_exactly_the_places_that_differ(slug: str) -> None:
    states, turns = match(slug)
    assert turns
    found_some = 0
    for seat, end, start in turns:
        before, now = public(slug, states[end]), public(slug, states[start])
        want = expected(slug, before, now)
        assert changes(slug)(before, now) == want, (slug, seat, end, start)
        found_some += bool(want)
    # The other players did build or buy between a good share of the turns.
    assert found_some >= 3, (slug, found_some)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_nothing_is_marked_between_equal_views(slug: str) -> None:
    states, _ = match(slug)
    for state in (states[0], states[len(states) // 2], states[-1]):
        view = public(slug, state)
        assert changes(slug)(view, view) == set()
        assert changes(slug)(view, public(slug, state)) == set()


def magenta(png: bytes) -> int:
    """How many pixels are in the changed mark's colour."""
    target = tuple(int(CHANGED[i : i + 2], 16) for i in (1, 3, 5))
    with Image.open(io.BytesIO(png)) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    return sum(count for count, colour in colours if colour == target)


def size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        return image.size


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("locale", ["en", "it"])
def test_the_board_marks_the_changes_and_stays_the_same_without(slug: str, locale: str) -> None:
    states, turns = match(slug)
    seat, end, start = max(
        turns, key=lambda turn: len(expected(slug, *(public(slug, states[i]) for i in turn[1:])))
    )
    before, now = public(slug, states[end]), public(slug, states[start])
    assert expected(slug, before, now)
    plain = render_view(slug, now, NAMES, locale)
    assert plain is not None
    assert render_view(slug, now, NAMES, locale, since=None) == plain
    marked = render_view(slug, now, NAMES, locale, since=Since(before, seat))
    unchanged = render_view(slug, now, NAMES, locale, since=Since(now, seat))
    assert marked is not None and unchanged is not None
    assert marked != plain and unchanged not in (plain, marked)
    (width, height), (marked_width, marked_height) = size(plain), size(marked)
    # Only the legend's line is added, and the image still fits a phone.
    assert marked_width == width and height < marked_height <= height + 40
    assert marked_height <= 1.8 * marked_width
    assert size(unchanged) == size(marked)
    # The legend's swatch alone when nothing changed; the places too when something did.
    assert magenta(plain) == 0 < magenta(unchanged) < magenta(marked)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_hand_ignores_since(slug: str) -> None:
    states, turns = match(slug)
    seat, end, start = turns[len(turns) // 2]
    hand = GAMES[slug].view(states[start], seat)
    since = Since(public(slug, states[end]), seat)
    assert render_view(slug, hand, NAMES, "it", since=since) == render_view(slug, hand, NAMES, "it")


def test_the_legend_names_the_player_to_act_in_their_language() -> None:
    view = public("skyline", match("skyline")[0][0])
    since = Since(view, 1)
    assert legend_text(since, NAMES, "en", True) == "changed since Bob's last turn"
    assert legend_text(since, NAMES, "it", True) == "cambiato dall'ultimo turno di Bob"
    assert "Bob" in legend_text(since, NAMES, "it", False)
    assert legend_text(Since(view, 2), (), "en", True) == "changed since #3's last turn"


def test_a_view_of_another_game_is_refused() -> None:
    skyline, ny1901 = match("skyline")[0][-1], match("ny1901")[0][0]
    with pytest.raises(TypeError):
        render_view("skyline", public("skyline", skyline), NAMES, since=Since(public("ny1901", ny1901), 0))
