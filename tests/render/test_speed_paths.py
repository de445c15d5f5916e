"""The faster render paths draw what the plain ones drew: cached text masks and repeated renders."""

from __future__ import annotations

import io
from importlib import resources
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES
from render import canvas
from render.registry import render_view
from render.since import Since


def sample_views(slug: str) -> tuple[list[tuple[Any, str, Since | None]], list[str]]:
    """Boards and a hand at a few points of a seeded match, in both languages, and one marked board."""
    rules = GAMES[slug]
    seats = max(n for n in rules.seat_counts if n <= 4)
    states: list[Any] = []
    play_match(rules, seats, 3, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append)
    picked = [states[0], states[len(states) // 2], states[-1]]
    jobs: list[tuple[Any, str, Since | None]] = [
        (rules.view(state, seat), locale, None)
        for state in picked
        for seat in (None, 0)
        for locale in ("en", "it")
    ]
    before = rules.view(states[len(states) // 3], None)
    jobs.append((rules.view(states[-1], None), "en", Since(before, 1)))
    return jobs, [f"Player {n + 1}" for n in range(seats)]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_cached_masks_draw_the_same_bytes_as_fresh_ones(slug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    jobs, names = sample_views(slug)
    monkeypatch.setattr(canvas, "MASKS", canvas.MaskCache(budget=0))
    fresh = [render_view(slug, view, names, locale, since) for view, locale, since in jobs]
    assert canvas.MASKS.hits == 0 and canvas.MASKS.pixels == 0
    cache = canvas.MaskCache()
    monkeypatch.setattr(canvas, "MASKS", cache)
    first = [render_view(slug, view, names, locale, since) for view, locale, since in jobs]
    second = [render_view(slug, view, names, locale, since) for view, locale, since in jobs]
    assert cache.hits > cache.misses > 0
    assert first == fresh and second == fresh


def uncached_font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(
        io.BytesIO(resources.files("render").joinpath("assets", name).read_bytes()), size
    )


def test_a_cached_mask_is_drawn_like_pillows_own_text() -> None:
    """Fractional positions, anchors and both weights, drawn twice over (the second time from the cache)
    and compared with Pillow drawing the same text with an uncached font."""
    cases = [
        ((10.0, 10.0), "Broadway", 18, False, "la"),
        ((10.25, 40.5), "Broadway", 18, False, "la"),
        ((150.7, 80.0), "42nd ▲ ● ★", 22, True, "mm"),
        ((290.0, 120.3), "Spesa: 12 €", 20, False, "rm"),
        ((5.5, 150.9), "…", 26, True, "ls"),
    ]
    plain = {(size, bold): uncached_font(size, bold) for *_, size, bold, _ in cases}
    for _ in range(2):
        cached_image, cached_draw = canvas.new_canvas(300, 200)
        plain_image = cached_image.copy()
        plain_draw = ImageDraw.Draw(plain_image, "RGBA")
        for xy, content, size, bold, anchor in cases:
            canvas.text(cached_draw, xy, content, size, "#0072B2", bold, anchor)
            plain_draw.text(xy, content, font=plain[size, bold], fill="#0072B2", anchor=anchor)
        assert cached_image.tobytes() == plain_image.tobytes()


def test_the_mask_cache_keeps_to_its_budget() -> None:
    cache = canvas.MaskCache(budget=1_000)
    mask = Image.new("L", (20, 20)).im
    for n in range(10):
        cache.put(("key", n), (mask, (0, 0)))
    assert cache.pixels <= 1_000 and cache.get(("key", 9)) is not None and cache.get(("key", 0)) is None
