"""The numbers Skyline of the World's statistics read from a public view: the prestige on show (§5.2,
without the missions, which stay secret until the end), and the bonus cards claimed."""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.figures import Figures, GameFigures
from engine.skyline.views import PublicView


def read(view: BaseModel) -> Figures:
    """Each player's prestige on show and the bonus cards they claimed."""
    assert isinstance(view, PublicView)
    players = sorted(view.players, key=lambda p: p.seat)
    return Figures(
        track=tuple(p.prestige_preview for p in players),
        figure=tuple(len(p.claimed) for p in players),
    )


FIGURES = GameFigures(track="prestige", figure="bonus_cards", read=read)
