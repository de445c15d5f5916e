"""Work off the event loop: a pool of worker processes, one per core, with a thread when there are none.

Pure Python and Pillow hold the GIL, so a thread keeps the bot's event loop from running Python while it
works, and two threads never work at once. A ``WorkerPool`` sends the work to a process pool instead
(started on first use, with the ``spawn`` method: forking a process that runs discord.py's and
aiosqlite's threads could copy a held lock into the child). A pool whose worker dies is replaced by a
new one, after a pause that doubles with each pool that breaks in a row; meanwhile the work waits for
the new pool. Work runs in a thread only when the operator asked for no processes or this platform
cannot start any.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from engine.core.errors import EngineError
from engine.host.text import HOST

T = TypeVar("T")

log = logging.getLogger(__name__)

# The pause before the pool that replaces a broken one, doubled for each pool in a row that broke, up to
# the longest pause: a job waits at most that long for a pool.
FIRST_PAUSE_S = 0.5
LONGEST_PAUSE_S = 30.0
# A pool that worked this long before it broke ends the run of breaks: the next pause is the first one.
HEALTHY_S = 300.0


class WorkerLost(EngineError):
    """A job's worker died twice: in its pool, and again in the pool that replaced it."""

    code = "worker_lost"


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
    each new worker with ``initializer``. ``clock`` (seconds, only ever growing) and ``pause`` time the
    pauses before a broken pool is replaced. Call ``close`` when the bot stops."""

    variable = "BIGAPPLE_WORKERS"
    what = "work"

    def __init__(
        self,
        workers: int | None = None,
        initializer: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        pause: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.workers = configured_workers(self.variable, workers)
        self._initializer = initializer
        self._clock = clock
        self._pause = pause
        self._executor: ProcessPoolExecutor | None = None
        self._started_at = 0.0
        self._worked = False  # whether any pool has finished a job, so processes can run here
        self._cannot_start = False
        self._breaks_in_a_row = 0
        self._next_start = 0.0  # no pool starts before this time of ``clock``
        self.failures = 0  # pools that broke
        self.last_pause = 0.0  # the pause before the latest replacement
        self.ran_in_processes = 0
        self.ran_in_threads = 0

    @property
    def uses_processes(self) -> bool:
        """Whether the next job goes to worker processes."""
        return self.workers > 0 and not self._cannot_start

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
                self._no_processes(exc)
                return None
            self._started_at = self._clock()
        return self._executor

    def _no_processes(self, problem: BaseException) -> None:
        """Processes cannot be started here at all: work in a thread from now on, said once."""
        self._cannot_start = True
        log.warning(
            "%s processes cannot be started here (%s: %s); %s runs in a thread of the bot's process",
            self.what,
            type(problem).__name__,
            problem,
            self.what,
        )

    def _broken(self, problem: BaseException, failed: ProcessPoolExecutor) -> None:
        """Drop the pool ``failed`` (counted once, however many of its jobs were in flight) and set the
        pause before its replacement starts."""
        if failed is not self._executor:
            return  # that pool was dropped already, for another job it was running
        self._executor = None
        failed.shutdown(wait=False, cancel_futures=True)
        self.failures += 1
        now = self._clock()
        if now - self._started_at >= HEALTHY_S:
            self._breaks_in_a_row = 0
        self._breaks_in_a_row += 1
        self.last_pause = min(LONGEST_PAUSE_S, FIRST_PAUSE_S * 2 ** (self._breaks_in_a_row - 1))
        self._next_start = now + self.last_pause
        log.warning(
            "%s processes failed (%s: %s); a new pool starts in %.1f s, and %s waits for it",
            self.what,
            type(problem).__name__,
            problem,
            self.last_pause,
            self.what,
        )

    async def _ready_pool(self) -> ProcessPoolExecutor | None:
        """The pool to work in, once the pause after a broken pool is over (None: work in a thread)."""
        while self.uses_processes and self._executor is None:
            left = self._next_start - self._clock()
            if left <= 0:
                break
            await self._pause(left)
        return self._pool()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process, or in a thread when processes cannot run here. A job whose
        worker dies runs once more in the pool that replaces it; when that one dies too, raises
        ``WorkerLost``. An error of the job itself reaches the caller as it would in a thread."""
        for _ in range(2):
            pool = await self._ready_pool()
            if pool is None:
                break
            try:
                # Submitting fails when a process cannot be started (OSError) or the pool is already
                # broken or shut down (RuntimeError is BrokenProcessPool's base).
                future: Future[T] = pool.submit(fn, *args)
            except (OSError, RuntimeError) as exc:
                if isinstance(exc, OSError) and not self._worked:
                    # No pool has ever worked here: this platform cannot start the processes.
                    self._executor = None
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._no_processes(exc)
                    break
                self._broken(exc, pool)
                continue
            try:
                result = await asyncio.wrap_future(future)
            except BrokenProcessPool as exc:
                self._broken(exc, pool)
            else:
                self._worked = True
                self.ran_in_processes += 1
                return result
        else:
            raise WorkerLost(
                HOST.say("the process doing this stopped twice before it finished; try again in a minute")
            )
        self.ran_in_threads += 1
        return await asyncio.to_thread(fn, *args)

    async def close(self) -> None:
        """Stop the worker processes (waiting in a thread for the jobs they are running)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
