"""Render speed and size figures for ``python bot.py bench``."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from render.registry import RENDERERS, render_view


def measure_render(game: str, views: Sequence[BaseModel], names: Sequence[str] = ()) -> dict[str, Any] | None:
    """Milliseconds per image (p50/p95) and mean PNG size over ``views``; None without a renderer."""
    if game not in RENDERERS or not views:
        return None
    timings: list[float] = []
    sizes: list[int] = []
    for view in views:
        start = time.perf_counter()
        png = render_view(game, view, names)
        timings.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png or b""))
    timings.sort()
    return {
        "render_ms": {
            "p50": round(timings[len(timings) // 2], 2),
            "p95": round(timings[min(len(timings) - 1, int(len(timings) * 0.95))], 2),
        },
        "png_bytes": round(statistics.fmean(sizes)),
    }
