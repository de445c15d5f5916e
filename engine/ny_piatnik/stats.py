"""The numbers Piatnik's New York statistics read from a public view: money during play, and the
largest connected group of buildings, which the final count pays double (§5)."""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.figures import Figures, GameFigures
from engine.ny_piatnik.views import PublicView


def read(view: BaseModel) -> Figures:
    """Each player's money, and once the match is scored the size of their largest group (the two
    largest, summed, for a player of two colours, §7.3); 0 before the final count."""
    assert isinstance(view, PublicView)
    players = sorted(view.players, key=lambda p: p.seat)
    largest = {line.seat: sum(line.largest) for line in view.scores}
    return Figures(
        track=tuple(p.money for p in players),
        figure=tuple(largest.get(p.seat, 0) for p in players),
    )


FIGURES = GameFigures(track="money", figure="largest_group", read=read)
