"""Work off the event loop: a pool of worker processes, one per core, with a thread when there are none.

Pure Python and Pillow hold the GIL, so a thread keeps the bot's event loop from running Python while it
works, and two threads never work at once. A ``WorkerPool`` sends the work to a process pool instead
(started on first use, with the ``spawn`` method: forking a process that runs discord.py's and
aiosqlite's threads could copy a held lock into the child). When processes cannot be started, or the pool
keeps breaking, the work runs in a thread as before, with the same result.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)

# After this many broken pools a pool stops starting new ones and works in a thread.
MAX_FAILURES = 3


def cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def lowest_priority() -> None:
    """Have this process run only while the cores have nothing more pressing to run: Linux's idle
    scheduling, which gives way at once to any other process that wakes, and Unix's nice 19 (where
    processes have neither, nothing changes)."""
    if hasattr(os, "nice"):
        os.nice(19 - os.nice(0))
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def configured_workers(variable: str, workers: int | None = None) -> int:
    """``workers`` if given, else the number in the environment ``variable``, else one per core."""
    if workers is not None:
        return max(0, workers)
    value = os.environ.get(variable, "").strip()
    if value:
        try:
            return max(0, int(value))
        except ValueError:
            log.warning("%s=%r is not a number; using one process per core", variable, value)
    return cores()


class WorkerPool:
    """``workers`` processes (None: the environment's ``variable``, else one per core), or a thread when
    that is 0 or processes cannot run. Subclasses name what they do (``what``, for the logs) and may warm
    each new worker with ``initializer``. Call ``close`` when the bot stops."""

    variable = "BIGAPPLE_WORKERS"
    what = "work"

    def __init__(self, workers: int | None = None, initializer: Callable[[], None] | None = None) -> None:
        self.workers = configured_workers(self.variable, workers)
        self._initializer = initializer
        self._executor: ProcessPoolExecutor | None = None
        self.failures = 0
        self.ran_in_processes = 0
        self.ran_in_threads = 0

    @property
    def uses_processes(self) -> bool:
        """Whether the next job goes to worker processes."""
        return self.workers > 0 and self.failures < MAX_FAILURES

    def _pool(self) -> ProcessPoolExecutor | None:
        if not self.uses_processes:
            return None
        if self._executor is None:
            try:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=self._initializer,
                )
            except (OSError, ValueError, NotImplementedError) as exc:
                self._give_up(exc, forever=True)
                return None
        return self._executor

    def _give_up(
        self, problem: BaseException, failed: ProcessPoolExecutor | None = None, forever: bool = False
    ) -> None:
        """Drop the pool ``failed`` (counted once, however many of its jobs were in flight); after
        MAX_FAILURES, or at once with ``forever``, work in threads only."""
        if forever:
            self.failures = MAX_FAILURES
        elif failed is None or failed is not self._executor:
            return  # that pool was dropped already, for another job it was running
        else:
            self.failures += 1
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        fallback = "in a thread from now on" if not self.uses_processes else "in a thread until it restarts"
        log.warning(
            "%s processes failed (%s: %s); %s %s",
            self.what,
            type(problem).__name__,
            problem,
            self.what,
            fallback,
        )

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
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
                    # A worker died on this job: it runs here instead. An error of the job itself is not
                    # a broken pool and reaches the caller as it would in a thread.
                    self._give_up(exc, pool)
                else:
                    self.ran_in_processes += 1
                    return result
        self.ran_in_threads += 1
        return await asyncio.to_thread(fn, *args)

    async def close(self) -> None:
        """Stop the worker processes (waiting in a thread for the jobs they are running)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
