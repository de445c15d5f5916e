"""The numbers New York's statistics read from a public view: points, and the buildings in each city."""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.figures import Figures, GameFigures
from engine.ny_henn.views import PublicView


def read(view: BaseModel) -> Figures:
    """Each player's points and the building tiles in their city (the start tile is no building)."""
    assert isinstance(view, PublicView)
    players = sorted(view.players, key=lambda p: p.seat)
    return Figures(
        track=tuple(p.score for p in players),
        figure=tuple(sum(p.type_counts.values()) for p in players),
    )


FIGURES = GameFigures(track="points", figure="buildings", read=read)
