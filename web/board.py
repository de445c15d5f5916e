"""The board on a match's pages: drawn at twice the posts' scale, with a link on every place of it.

The picture goes in an inline SVG whose view box is the picture's size, so that it fits any screen and
the links stay on their places; each place is a link to the same page with ``?place=KEY#place``, named in
words in its title. The page then says which place was chosen and, on a seat's own page, which of its
moves now touch it. The places' names are public; their moves only reach the seat's page.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from pydantic import BaseModel

from engine.host.places import PlaceSight, place_namer, places_in_words
from engine.host.ports import MatchRecord
from engine.host.recent import Shared
from engine.host.service import GameHost
from lang import t
from render.places import LARGE, Rect
from render.registry import board_places, render_board


async def draw_large(game: str, view: BaseModel, names: Sequence[str], locale: str) -> bytes | None:
    """The public board of ``view`` drawn for the web page (twice the posts' scale), off the event
    loop; None without a renderer."""
    return await asyncio.to_thread(render_board, game, view, tuple(names), locale, LARGE)


@dataclass(frozen=True, slots=True)
class Spot:
    """A place on the picture: its ``key``, its ``name`` in words, the ``href`` that chooses it, the
    ``rects`` it covers (in the picture's pixels) and whether it is the one chosen."""

    key: str
    name: str
    href: str
    rects: tuple[Rect, ...]
    chosen: bool


@dataclass(frozen=True, slots=True)
class BoardFigure:
    """The board as a page shows it: the picture's ``src``, ``width`` and ``height`` in pixels, its
    ``spots``, and the place the address chose (``?place=``) with, on a seat's page, the seat's moves
    that touch it (None when no place, or no place of this board, is chosen)."""

    src: str
    width: int
    height: int
    spots: tuple[Spot, ...]
    chosen: PlaceSight | None


def figure_words(locale: str, figure: BoardFigure) -> dict[str, str]:
    """What the board's part of a page says around the picture, in ``locale``."""
    place = figure.chosen.name if figure.chosen else ""
    return {
        "full": t(locale, "Show the board at full size"),
        "fit": t(locale, "Fit the board to the screen"),
        "hint": t(locale, "Choose a place on the board to see the moves that touch it."),
        "on": t(locale, "Moves on {place}", place=place),
        "none": t(locale, "None of your moves now touches {place}.", place=place),
    }


def place_href(key: str, asked_locale: str | None) -> str:
    """The address, relative to the page, that chooses place ``key`` (keeping an asked language)."""
    query = {"lang": asked_locale} if asked_locale else {}
    return "?" + urlencode({**query, "place": key}) + "#place"


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a board of one match version is drawn large, in one language: the picture's size and each
    place's rectangles and name (public: the same for every page of that version)."""

    width: int
    height: int
    places: tuple[tuple[str, str, tuple[Rect, ...]], ...]


def _layout(
    game: str,
    view: BaseModel,
    names: Sequence[str],
    locale: str,
    say_place: Callable[[str], str],
) -> Layout | None:
    board = board_places(game, view, names, locale, LARGE)
    if board is None:
        return None
    return Layout(
        board.width,
        board.height,
        tuple((key, say_place(key), rects) for key, rects in board.places.items()),
    )


# Layouts kept: a few versions of every match followed at once, in a language or two.
KEPT_LAYOUTS = 128


class Layouts:
    """Each board's layout worked out once per match version and language, off the event loop: every page
    following a match asks for the same one as soon as a move is told."""

    def __init__(self, size: int = KEPT_LAYOUTS) -> None:
        self._kept: Shared[tuple[int, int, str], Layout | None] = Shared(size)

    async def of(self, host: GameHost, match: MatchRecord, locale: str) -> Layout | None:
        async def laid_out() -> Layout | None:
            # The host is read here; the drawing and the naming, which read only that, run off the loop.
            say_place = place_namer(host, match, locale)
            view = host.view(match, None)
            return await asyncio.to_thread(_layout, match.game, view, match.seat_names(), locale, say_place)

        return await self._kept.get((match.id, match.version, locale), laid_out)


async def board_figure(
    layouts: Layouts,
    host: GameHost,
    match: MatchRecord,
    locale: str,
    src: str,
    chosen: str | None,
    seat: int | None = None,
    asked_locale: str | None = None,
) -> BoardFigure | None:
    """The board of the started ``match`` with a spot on each place, in ``locale``, the picture at
    ``src``; ``chosen`` is the place the address asks for; with ``seat``, the chosen place carries the
    moves of that seat now. None for a game without a renderer."""
    layout = await layouts.of(host, match, locale)
    if layout is None:
        return None
    chosen = chosen if any(key == chosen for key, _, _ in layout.places) else None
    spots = tuple(
        Spot(key, name, place_href(key, asked_locale), rects, key == chosen)
        for key, name, rects in layout.places
    )
    picked = places_in_words(host, match, [chosen], locale, seat)[chosen] if chosen else None
    return BoardFigure(src, layout.width, layout.height, spots, picked)
