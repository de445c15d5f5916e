"""Which renderer draws which game: the public board and one seat's private hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from render import fifth_avenue, ny_henn, ny_piatnik, skyline


@dataclass(frozen=True, slots=True)
class GameRenderer:
    board: Callable[[Any, Sequence[str]], bytes]  # public view -> PNG
    hand: Callable[[Any, Sequence[str]], bytes]  # private view -> PNG
    private_view: type[BaseModel]


RENDERERS: dict[str, GameRenderer] = {
    "fifth_avenue": GameRenderer(
        fifth_avenue.render_board, fifth_avenue.render_hand, fifth_avenue.PrivateView
    ),
    "ny_henn": GameRenderer(ny_henn.render_board, ny_henn.render_hand, ny_henn.PrivateView),
    "ny_piatnik": GameRenderer(ny_piatnik.render_board, ny_piatnik.render_hand, ny_piatnik.PrivateView),
    "skyline": GameRenderer(skyline.render_board, skyline.render_hand, skyline.PrivateView),
}


def render_view(game: str, view: BaseModel, names: Sequence[str] = ()) -> bytes | None:
    """PNG bytes of ``view``: a private view draws the hand, others the board; None without a renderer."""
    renderer = RENDERERS.get(game)
    if renderer is None:
        return None
    if isinstance(view, renderer.private_view):
        return renderer.hand(view, names)
    return renderer.board(view, names)
