"""The numbers New York 1901's statistics read from a public view: points, and skyscrapers standing."""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.figures import Figures, GameFigures
from engine.ny1901.views import NyView


def read(view: BaseModel) -> Figures:
    """Each player's points (with the end bonuses once the match is over, §5.3) and the skyscrapers of
    theirs standing on the board (a demolished one no longer counts, §4.6)."""
    assert isinstance(view, NyView)
    players = sorted(view.players, key=lambda p: p.seat)
    scores = view.final_scores or tuple(p.score for p in players)
    return Figures(
        track=tuple(scores),
        figure=tuple(sum(1 for b in view.buildings if b.owner == p.seat) for p in players),
    )


FIGURES = GameFigures(track="points", figure="skyscrapers", read=read)
