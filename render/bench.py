"""Render speed and size figures for ``python bot.py bench``: public boards, against a floor.

The floor is encoding a blank canvas of the board's size with the same settings (``encode_png``): what
any picture of that size costs however simple, so ``render_floor_ratio`` says how much drawing adds and
stays comparable between a quiet machine and a busy one. Boards and floors are timed alternately, in the
same run, for that reason.
"""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from PIL import Image
from pydantic import BaseModel

from engine.host.benchmarks import percentile
from render.animation import animate_boards
from render.canvas import encode_png, new_canvas
from render.registry import RENDERERS, render_view

T = TypeVar("T")

# Boards timed per game: enough for a p95, few enough for bench's time budget.
SAMPLES = 24


@dataclass(frozen=True, slots=True)
class RenderTimings:
    """Milliseconds per board and per blank canvas of the same size, and each board's PNG bytes."""

    board_ms: list[float]
    floor_ms: list[float]
    png_bytes: list[int]


def spread(views: Sequence[T], count: int) -> list[T]:
    """At most ``count`` of ``views``, evenly spaced from the first to the last."""
    if len(views) <= count:
        return list(views)
    return [views[round(n * (len(views) - 1) / (count - 1))] for n in range(count)]


def time_boards(
    game: str, views: Sequence[BaseModel], names: Sequence[str] = (), samples: int = SAMPLES
) -> RenderTimings:
    """Render up to ``samples`` of the public ``views`` (spread over the match), each followed by the
    encoding of a blank canvas of its size; the first of each is a warm-up and not counted.

    Each board is timed after the board of the move before it, untimed: in a thread, that board was
    drawn moments before, and the caches of text and of unchanged parts hold what it drew. (With two
    render processes it was drawn in the same one about half the time: this is the warmer side of what
    a bot sees. Without it, each board came after one drawn several moves earlier, which no thread
    does.)"""
    picked = spread(range(len(views)), samples)
    timings = RenderTimings([], [], [])
    for index, number in enumerate([picked[0], *picked]):
        if number > 0:
            render_view(game, views[number - 1], names, "en")
        start = time.perf_counter()
        png = render_view(game, views[number], names, "en")
        assert png is not None  # the caller checked that the game has a renderer
        board_ms = (time.perf_counter() - start) * 1000
        with Image.open(io.BytesIO(png)) as decoded:
            blank, _ = new_canvas(*decoded.size, scale=1.0)  # the size in pixels
        start = time.perf_counter()
        encode_png(blank)
        floor_ms = (time.perf_counter() - start) * 1000
        if index > 0:
            timings.board_ms.append(board_ms)
            timings.floor_ms.append(floor_ms)
            timings.png_bytes.append(len(png))
    return timings


def measure_render(
    game: str, views: Sequence[BaseModel], names: Sequence[str] = (), samples: int = SAMPLES
) -> dict[str, Any] | None:
    """``render_ms`` (p50/p95) of the public board over ``views``, ``render_floor_ratio`` (its p95 over the
    p95 of the blank canvas) and the mean ``png_bytes``; None without a renderer or views."""
    if game not in RENDERERS or not views:
        return None
    timings = time_boards(game, views, names, samples)
    floor = percentile(timings.floor_ms, 0.95)
    board_p95 = percentile(timings.board_ms, 0.95)
    return {
        "render_ms": {"p50": round(percentile(timings.board_ms, 0.5), 2), "p95": round(board_p95, 2)},
        "render_floor_ratio": round(board_p95 / floor, 2) if floor > 0 else 0.0,
        "png_bytes": round(statistics.fmean(timings.png_bytes)),
    }


def measure_animation(
    game: str,
    views: Sequence[BaseModel],
    turn_ends: Sequence[bool],
    names: Sequence[str] = (),
    samples: int = SAMPLES,
) -> dict[str, Any] | None:
    """What the animation of a whole match costs, from ``samples`` of its boards spread over the match:
    ``animation_ms_per_frame`` to draw a board and make it a GIF frame (in one process, as the bot does,
    a board at a time), ``match_frames`` (the match's frames) and ``animation_s``, their product: the
    time to build this match's animation."""
    if game not in RENDERERS or not views:
        return None
    picked = spread(list(zip(views, turn_ends, strict=True)), samples)
    start = time.perf_counter()
    animate_boards(game, picked, names)
    per_frame = (time.perf_counter() - start) / len(picked)
    return {
        "animation_ms_per_frame": round(per_frame * 1000, 2),
        "match_frames": len(views),
        "animation_s": round(per_frame * len(views), 2),
    }
