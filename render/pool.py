"""Rendering off the event loop: worker processes, one per core, so that boards render side by side.

Pillow holds the GIL for most of a render, so a thread keeps the bot's event loop from running Python
while it draws and two threads never draw at once. ``RenderPool.render`` sends the view to a process pool
instead (started on first use, with the ``spawn`` method: forking a process that runs discord.py's and
aiosqlite's threads could copy a held lock into the child). When processes cannot be started, or the pool
keeps breaking, it renders in a thread as before; the picture is the same byte for byte either way.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from pydantic import BaseModel

import lang
from render import canvas
from render.animation import Still, animate
from render.registry import render_view
from render.since import Since

T = TypeVar("T")

log = logging.getLogger(__name__)

# How many processes render when nothing says otherwise; 0 renders in a thread.
WORKERS_VARIABLE = "BIGAPPLE_RENDER_WORKERS"
# After this many broken pools the bot stops starting new ones and renders in a thread.
MAX_FAILURES = 3


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def configured_workers(workers: int | None = None) -> int:
    """``workers`` if given, else ``BIGAPPLE_RENDER_WORKERS`` from the environment, else one per core."""
    if workers is not None:
        return max(0, workers)
    value = os.environ.get(WORKERS_VARIABLE, "").strip()
    if value:
        try:
            return max(0, int(value))
        except ValueError:
            log.warning("%s=%r is not a number; rendering with one process per core", WORKERS_VARIABLE, value)
    return cores()


def warm() -> None:
    """Run in each new worker before its first job: importing this module (to find this function) has
    loaded every renderer; the two fonts are opened here too."""
    canvas.font(18)
    canvas.font(18, bold=True)


class RenderPool:
    """Where a bot's images are rendered: ``workers`` processes (None: see ``configured_workers``), or a
    thread when that is 0 or processes cannot run. Call ``close`` when the bot stops."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = configured_workers(workers)
        self._executor: ProcessPoolExecutor | None = None
        self.failures = 0
        self.rendered_in_processes = 0
        self.rendered_in_threads = 0

    @property
    def uses_processes(self) -> bool:
        """Whether the next render goes to worker processes."""
        return self.workers > 0 and self.failures < MAX_FAILURES

    def _pool(self) -> ProcessPoolExecutor | None:
        if not self.uses_processes:
            return None
        if self._executor is None:
            try:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=warm,
                )
            except (OSError, ValueError, NotImplementedError) as exc:
                self._give_up(exc, forever=True)
                return None
        return self._executor

    def _give_up(
        self, problem: BaseException, failed: ProcessPoolExecutor | None = None, forever: bool = False
    ) -> None:
        """Drop the pool ``failed`` (counted once, however many of its images were in flight); after
        MAX_FAILURES, or at once with ``forever``, render in threads only."""
        if forever:
            self.failures = MAX_FAILURES
        elif failed is None or failed is not self._executor:
            return  # that pool was dropped already, for another image it was drawing
        else:
            self.failures += 1
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        fallback = "in a thread from now on" if not self.uses_processes else "in a thread until it restarts"
        log.warning(
            "render processes failed (%s: %s); rendering %s", type(problem).__name__, problem, fallback
        )

    async def render(
        self,
        game: str,
        view: BaseModel,
        names: Sequence[str] = (),
        locale: str = lang.DEFAULT,
        since: Since | None = None,
    ) -> bytes | None:
        """``render_view(game, view, names, locale, since)`` without holding up the event loop."""
        return await self._run(render_view, game, view, tuple(names), locale, since)

    async def animation(
        self, game: str, frames: Sequence[tuple[BaseModel, bool]], names: Sequence[str]
    ) -> bytes:
        """The animated GIF of ``frames`` (a view and whether its move ended a turn, in order; see
        ``render.animation``). The boards are drawn one after another, so the images other matches need
        meanwhile are drawn between them rather than after them all. Raises ``ValueError`` as ``animate``."""
        stills = []
        for view, turn_ends in frames:
            png = await self.render(game, view, names)
            if png is not None:
                stills.append(Still(png, turn_ends))
        return await self._run(animate, stills)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process, or in a thread when there are none (or they broke)."""
        pool = self._pool()
        if pool is not None:
            try:
                # Submitting fails when a process cannot be started (OSError) or the pool is already
                # broken or shut down (RuntimeError is BrokenProcessPool's base).
                future: Future[T] = pool.submit(fn, *args)
            except (OSError, RuntimeError) as exc:
                self._give_up(exc, pool)
            else:
                try:
                    result = await asyncio.wrap_future(future)
                except BrokenProcessPool as exc:
                    # A worker died while drawing: this image is drawn here instead. An error of the
                    # renderer itself is not a broken pool and reaches the caller as it would in a thread.
                    self._give_up(exc, pool)
                else:
                    self.rendered_in_processes += 1
                    return result
        self.rendered_in_threads += 1
        return await asyncio.to_thread(fn, *args)

    async def close(self) -> None:
        """Stop the worker processes (waiting in a thread for the images they are drawing)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
