"""Every registered game has a renderer that draws its board and hands at every stage of a match."""

from __future__ import annotations

import importlib
import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES
from render.canvas import PAPER, pixels
from render.registry import RENDERERS, render_view
from render.since import Since


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_boards_and_hands_render_from_start_to_finish(slug: str) -> None:
    rules = GAMES[slug]
    seats = max(n for n in rules.seat_counts if n <= 4)
    states: list[Any] = []
    result = play_match(rules, seats, 2, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append)
    assert result.outcome is not None
    sample = [states[0], states[len(states) // 2], result.state]
    names = [f"Player {n}" for n in range(seats)]
    for state, locale in zip(sample, ("en", "it", "it"), strict=True):
        for seat in (None, *range(seats)):
            png = render_view(slug, rules.view(state, seat), names, locale)
            assert png is not None and len(png) < 1_000_000
            with Image.open(io.BytesIO(png)) as image:
                assert image.format == "PNG" and image.width >= pixels(400)
                # Legible on a phone: not much taller than 1.6 times the width (a long game's cities
                # may stretch it a little).
                assert image.height <= 1.8 * image.width, (slug, seat, image.size)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_board_ends_with_a_margin_of_paper_not_a_band_of_it(slug: str) -> None:
    rules = GAMES[slug]
    seats = max(n for n in rules.seat_counts if n <= 4)
    states: list[Any] = []
    play_match(rules, seats, 4, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append)
    names = [f"Player {n}" for n in range(seats)]
    before = rules.view(states[len(states) // 3], None)
    for state in (states[0], states[len(states) // 2], states[-1]):
        for locale in ("en", "it"):
            for since in (None, Since(before, 0)):
                png = render_view(slug, rules.view(state, None), names, locale, since)
                assert png is not None
                with Image.open(io.BytesIO(png)) as image:
                    rgb = image.convert("RGB")
                # The paper's colour moves by a level or two in a 256-colour image.
                away = ImageChops.difference(rgb, Image.new("RGB", rgb.size, PAPER))
                drawn = away.point(lambda level: 255 if level > 12 else 0).getbbox()
                assert drawn is not None
                # Nothing is cut off at the bottom, and a phone shows no band of empty paper under it.
                margin = rgb.height - drawn[3]
                assert pixels(16) <= margin <= pixels(40), (slug, locale, since is not None, rgb.size, drawn)


def test_every_game_has_a_renderer() -> None:
    assert set(RENDERERS) == set(GAMES)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_smallest_text_is_a_fiftieth_of_the_width(slug: str) -> None:
    module = importlib.import_module(f"render.{slug}")
    assert module.SMALL * 50 >= module.WIDTH


def test_six_cities_of_dirk_henns_new_york_still_fit_a_phone() -> None:
    rules = GAMES["ny_henn"]
    result = play_match(rules, 6, 3, frozenset(), [POLICIES["ny_henn"]["greedy"]])
    assert result.outcome is not None
    png = render_view("ny_henn", rules.view(result.state, None), [f"Player {n}" for n in range(6)], "it")
    assert png is not None
    with Image.open(io.BytesIO(png)) as image:
        assert image.height <= 1.8 * image.width, image.size


def test_a_hand_is_as_wide_as_what_it_shows() -> None:
    """A hand drawn on the board's canvas loses the empty paper on its right, so a phone shows it large."""
    rules = GAMES["ny_henn"]
    states: list[Any] = []
    play_match(rules, 4, 3, frozenset(), [POLICIES["ny_henn"]["greedy"]], on_state=states.append)
    names = ["Ann", "Bob", "Cy", "Di"]
    start = render_view("ny_henn", rules.view(states[0], 1), names, "en")
    later = render_view("ny_henn", rules.view(states[int(len(states) * 0.6)], 1), names, "en")
    assert start is not None and later is not None
    with Image.open(io.BytesIO(start)) as image:
        assert image.width == pixels(400)  # a little money and the starting tile: the least width
    with Image.open(io.BytesIO(later)) as image:
        assert pixels(400) < image.width < pixels(1000), image.size
        rgb = image.convert("RGB")
        # The right margin is paper, and something is drawn within the 40 units left of it.
        margin = pixels(20)
        edge = rgb.crop((image.width - margin, 0, image.width, image.height))
        assert len(edge.getcolors(1 << 16) or []) == 1
        inside = rgb.crop((image.width - pixels(60), 0, image.width - margin, image.height))
        assert len(inside.getcolors(1 << 16) or []) > 1
