"""Render speed and size figures for ``python bot.py bench``: public boards, against a floor.

The floor is encoding a blank canvas of the board's size with the same settings (``encode_png``): what
any picture of that size costs however simple, so ``render_floor_ratio`` says how much drawing adds and
stays comparable between a quiet machine and a busy one. Boards and floors are timed alternately, in the
same run, for that reason.
"""

from __future__ import annotations

import io
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from PIL import Image
from pydantic import BaseModel

from bench.engine import percentile
from engine.core.replay import LoggedAction
from engine.core.rng import bot_rng
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.registry import get_game, get_policy
from render.animation import animate_boards, animate_match
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


def played_match(
    slug: str, seats: int, seed: int, policy: str = "random", moves: int | None = None
) -> tuple[MatchRecord, list[tuple[int, LoggedAction]]]:
    """A match of ``slug`` played to its end by computers (``policy``), or its first ``moves`` moves, as
    the store would hold it, and its kept log: what the bot animates."""
    rules = get_game(slug)
    chooser = get_policy(slug, policy)
    state = rules.setup(seats, seed, frozenset())
    log: list[tuple[int, LoggedAction]] = []
    while rules.outcome(state) is None and (moves is None or len(log) < moves):
        seat = min(rules.to_act(state))
        action = chooser.choose(rules, state, seat, rules.legal_actions(state, seat), bot_rng(seed, len(log)))
        log.append((len(log) + 2, LoggedAction(seat=seat, notation=rules.notation(action))))
        state = rules.apply(state, seat, action).state
    now = "2026-01-01T00:00:00+00:00"
    match = MatchRecord(
        id=1,
        game=slug,
        options=frozenset(),
        seat_count=seats,
        seed=seed,
        status=MatchStatus.FINISHED if rules.outcome(state) is not None else MatchStatus.ACTIVE,
        version=len(log) + 1,
        players=tuple(Player(name=f"Player {n + 1}", bot=policy, seat=n) for n in range(seats)),
        created_at=now,
        updated_at=now,
    )
    return match, log


def draw_longest(slug: str, seats: int, seed: int, moves: int | None = None) -> dict[str, Any]:
    """Run in a process of its own: play the match ``played_match`` makes (its first ``moves`` moves)
    and draw its animation as the bot's animation process does; what that took (``s_longest``), the
    process's peak memory (``peak_mb_longest``, all of it: the modules and the drawing), the moves drawn
    and what the animation shows of them."""
    match, kept = played_match(slug, seats, seed, moves=moves)
    start = time.perf_counter()
    animation = animate_match(match, kept, match.seat_names())
    seconds = time.perf_counter() - start
    return {
        "peak_mb_longest": round(peak_rss_mb(), 1),
        "s_longest": round(seconds, 2),
        "moves_longest": len(kept),
        "shows_longest": animation.shows.value,
        "bytes_longest": len(animation.gif),
    }


def peak_rss_mb() -> float:
    """The most memory this process has held at once, in MB (0 where the system does not say). On Linux
    from the process's own high-water mark: the one ``getrusage`` gives keeps, across the start of a new
    program, the peak of the process that started it, so a drawing process started by a large one would
    report that one's memory."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / 1024 / 1024


def measure_longest_animation(slug: str, seats: int, seed: int, moves: int | None = None) -> dict[str, Any]:
    """``draw_longest`` in a new process, started as the bot starts its animation process."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        return pool.submit(draw_longest, slug, seats, seed, moves).result()
