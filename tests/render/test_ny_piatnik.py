"""Piatnik's board and hand images over whole matches, for every setup."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from engine.core.bots import RandomPolicy
from engine.host.selfplay import play_match
from engine.ny_piatnik import RULES
from render import ny_piatnik
from render.canvas import pixels
from render.registry import render_view


def test_the_smallest_text_is_legible_on_a_phone() -> None:
    assert ny_piatnik.SMALL * 50 >= ny_piatnik.WIDTH


@pytest.mark.parametrize(
    ("seats", "options"), [(2, ""), (3, "events"), (4, "team"), (5, "chosen_colours")], ids=str
)
def test_every_phase_renders(seats: int, options: str) -> None:
    states: list = []
    chosen = frozenset(o for o in options.split(",") if o)
    result = play_match(RULES, seats, 3, chosen, [RandomPolicy()], on_state=states.append)
    states.append(result.state)
    phases: dict[str, Any] = {}
    for state in states:
        phases.setdefault(state.phase, state)
    assert {"preliminary", "main", "over"} <= set(phases)
    for state in phases.values():
        board = render_view("ny_piatnik", RULES.view(state, None), [f"P{i}" for i in range(seats)])
        hand = render_view("ny_piatnik", RULES.view(state, 0), [f"P{i}" for i in range(seats)])
        width = pixels(ny_piatnik.WIDTH)
        for png, widths in ((board, {width}), (hand, range(pixels(400), width + 1))):
            assert png is not None and len(png) < 1_000_000
            with Image.open(io.BytesIO(png)) as image:
                # A hand is trimmed to what it shows (see render.canvas.trimmed).
                assert image.format == "PNG" and image.width in widths


def test_the_board_shows_the_last_play() -> None:
    states: list = []
    play_match(RULES, 3, 4, frozenset(), [RandomPolicy()], on_state=states.append)
    state = next(s for s in states if s.phase == "main" and s.highlight)
    plain = state.model_copy(update={"highlight": ()})
    with_mark = render_view("ny_piatnik", RULES.view(state, None))
    without = render_view("ny_piatnik", RULES.view(plain, None))
    assert with_mark != without
