"""The statistics image of a finished match: legible on a phone in both languages, nothing running off
its edge, and every number it shows one of the match's statistics."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.host.match_stats import GAME_FIGURES, compute_stats
from engine.registry import GAMES
from render.canvas import recording
from render.match_stats import render_match_stats
from tests.host.test_match_stats import finished, self_played, timed

NAMES = ["Annunziata Bellavista-Castelfranco", "bob", "Cy (computer)"]


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("locale", ["en", "it"])
def test_the_match_in_numbers_reads_on_a_phone(game: str, locale: str) -> None:
    seed = 3
    stats = compute_stats(
        GAMES[game], GAME_FIGURES[game], finished(game, seed), timed(self_played(game, seed)), NAMES
    )
    with recording() as log:
        png = render_match_stats(stats, locale)
    with Image.open(io.BytesIO(png)) as image:
        width = image.width
    assert log.smallest * 50 >= width
    assert not log.overflowing
    # Only a long name is ever cut short, never a figure or a sentence.
    assert all(whole.startswith(("1. ", "2. ", "3. ", *NAMES)) for whole, _ in log.cut)
    drawn = "\n".join(log.drawn)
    for seat in stats.seats:
        assert str(seat.figure) in drawn and str(seat.score) in drawn
    if stats.scoring_moves:
        totals = [sum(seat.scorings) for seat in stats.seats]
        assert all(str(total) in log.drawn for total in totals)
