"""Which renderer draws which game: the public board and one seat's private hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

import lang
from render import fifth_avenue, ny1901, ny_henn, ny_piatnik, skyline
from render.since import Since

__all__ = ["RENDERERS", "GameRenderer", "Since", "render_view"]


@dataclass(frozen=True, slots=True)
class GameRenderer:
    # public view, names, locale, what changed since the player to act last played -> PNG
    board: Callable[[Any, Sequence[str], str, Since | None], bytes]
    hand: Callable[[Any, Sequence[str], str], bytes]  # a seat's view, names, locale -> PNG
    is_private: Callable[[BaseModel], bool]  # whether a view is a seat's (drawn as its hand)


def of_type(model: type[BaseModel]) -> Callable[[BaseModel], bool]:
    return lambda view: isinstance(view, model)


RENDERERS: dict[str, GameRenderer] = {
    "fifth_avenue": GameRenderer(
        fifth_avenue.render_board, fifth_avenue.render_hand, of_type(fifth_avenue.PrivateView)
    ),
    # New York 1901 has one view model for everybody; a seat's view names its seat.
    "ny1901": GameRenderer(
        ny1901.render_board, ny1901.render_hand, lambda view: getattr(view, "seat", None) is not None
    ),
    "ny_henn": GameRenderer(ny_henn.render_board, ny_henn.render_hand, of_type(ny_henn.PrivateView)),
    "ny_piatnik": GameRenderer(
        ny_piatnik.render_board, ny_piatnik.render_hand, of_type(ny_piatnik.PrivateView)
    ),
    "skyline": GameRenderer(skyline.render_board, skyline.render_hand, of_type(skyline.PrivateView)),
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
    return renderer.board(view, names, locale, since)
