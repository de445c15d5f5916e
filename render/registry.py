"""Which renderer draws which game: the public board, where it drew each place, and one seat's private
hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image
from pydantic import BaseModel

import lang
from render import fifth_avenue, ny1901, ny_henn, ny_piatnik, skyline
from render.canvas import encode_png, pixels
from render.places import BoardPlaces, PlaceMap
from render.since import Since

__all__ = [
    "RENDERERS",
    "GameRenderer",
    "Since",
    "board_image",
    "board_places",
    "render_board",
    "render_view",
]


@dataclass(frozen=True, slots=True)
class GameRenderer:
    # public view, names, locale, what changed since the player to act last played, scale -> the board
    board: Callable[[Any, Sequence[str], str, Since | None, float | None], Image.Image]
    hand: Callable[[Any, Sequence[str], str], bytes]  # a seat's view, names, locale -> PNG
    is_private: Callable[[BaseModel], bool]  # whether a view is a seat's (drawn as its hand)
    # public view, names, locale, scale -> where the board drew each place
    places: Callable[[Any, Sequence[str], str, float | None], PlaceMap]
    width: int  # of the board, in units
    # public view, names, locale, whether it marks what changed -> the board's height in units
    height: Callable[[Any, Sequence[str], str, bool], int]


def of_type(model: type[BaseModel]) -> Callable[[BaseModel], bool]:
    return lambda view: isinstance(view, model)


RENDERERS: dict[str, GameRenderer] = {
    "fifth_avenue": GameRenderer(
        fifth_avenue.board_image,
        fifth_avenue.render_hand,
        of_type(fifth_avenue.PrivateView),
        fifth_avenue.place_rects,
        fifth_avenue.WIDTH,
        fifth_avenue.board_height,
    ),
    # New York 1901 has one view model for everybody; a seat's view names its seat.
    "ny1901": GameRenderer(
        ny1901.board_image,
        ny1901.render_hand,
        lambda view: getattr(view, "seat", None) is not None,
        ny1901.place_rects,
        ny1901.WIDTH,
        ny1901.board_height,
    ),
    "ny_henn": GameRenderer(
        ny_henn.board_image,
        ny_henn.render_hand,
        of_type(ny_henn.PrivateView),
        ny_henn.place_rects,
        ny_henn.WIDTH,
        ny_henn.board_height,
    ),
    "ny_piatnik": GameRenderer(
        ny_piatnik.board_image,
        ny_piatnik.render_hand,
        of_type(ny_piatnik.PrivateView),
        ny_piatnik.place_rects,
        ny_piatnik.WIDTH,
        ny_piatnik.board_height,
    ),
    "skyline": GameRenderer(
        skyline.board_image,
        skyline.render_hand,
        of_type(skyline.PrivateView),
        skyline.place_rects,
        skyline.WIDTH,
        skyline.board_height,
    ),
}


def render_view(
    game: str,
    view: BaseModel,
    names: Sequence[str] = (),
    locale: str = lang.DEFAULT,
    since: Since | None = None,
) -> bytes | None:
    """PNG bytes of ``view`` with its words in ``locale``: a seat's view draws its hand, the public view
    the board; None without a renderer. With ``since``, the board also marks every place that differs
    from ``since.view``; a hand ignores it, being one seat's own cards rather than the shared board."""
    renderer = RENDERERS.get(game)
    if renderer is None:
        return None
    if renderer.is_private(view):
        return renderer.hand(view, names, locale)
    return encode_png(renderer.board(view, names, locale, since, None))


def board_image(
    game: str, view: BaseModel, names: Sequence[str] = (), locale: str = lang.DEFAULT
) -> Image.Image:
    """The public board of ``view`` in full colour, as ``render_view`` draws it before encoding it.
    Raises ``KeyError`` for a game without a renderer."""
    return RENDERERS[game].board(view, names, locale, None, None)


def render_board(
    game: str, view: BaseModel, names: Sequence[str], locale: str, scale: float | None = None
) -> bytes | None:
    """PNG bytes of the public board of ``view`` drawn at ``scale`` pixels a unit (None: the posts'
    scale); None without a renderer."""
    renderer = RENDERERS.get(game)
    if renderer is None or renderer.is_private(view):
        return None
    return encode_png(renderer.board(view, names, locale, None, scale))


def board_places(
    game: str, view: BaseModel, names: Sequence[str], locale: str, scale: float | None = None
) -> BoardPlaces | None:
    """The size in pixels of the public board of ``view`` as ``render_board`` draws it at ``scale``,
    and where it shows each place: its key, as the game's moves name it, and the rectangles in pixels
    it covers; without drawing it. None without a renderer."""
    renderer = RENDERERS.get(game)
    if renderer is None or renderer.is_private(view):
        return None
    return BoardPlaces(
        pixels(renderer.width, scale),
        pixels(renderer.height(view, names, locale, False), scale),
        renderer.places(view, names, locale, scale),
    )
