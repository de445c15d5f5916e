"""The numbers Fifth Avenue's statistics read from a public view: points, and buildings on the lots."""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.figures import Figures, GameFigures
from engine.fifth_avenue.views import PublicView


def read(view: BaseModel) -> Figures:
    """Each player's points and the buildings of their colour standing on the lots."""
    assert isinstance(view, PublicView)
    return Figures(
        track=tuple(s.score for s in view.seats),
        figure=tuple(sum(lot.count for lot in view.lots if lot.owner == s.colour) for s in view.seats),
    )


FIGURES = GameFigures(track="points", figure="buildings", read=read)
