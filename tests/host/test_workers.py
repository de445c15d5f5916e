"""Worker pools: a pool whose workers die is replaced after a pause that grows, its jobs run again there
once, and nothing runs in the bot's own process unless processes cannot run at all."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path
from typing import Any

import pytest

import engine.host.workers as workers_module
from engine.host.workers import FIRST_PAUSE_S, LONGEST_PAUSE_S, WorkerLost, WorkerPool


class VirtualTime:
    """A clock that moves only when the pool pauses, by the pause it asked for."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: list[float] = []

    def clock(self) -> float:
        return self.now

    async def pause(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def die_once(marker: str) -> int:
    """Kills its worker the first time (leaving ``marker`` behind), then says which process it ran in."""
    path = Path(marker)
    if not path.exists():
        path.touch()
        die()
    return os.getpid()


def fail() -> None:
    raise RuntimeError("the job's own error")


def kill_workers(pool: WorkerPool) -> list[int]:
    """Kill every process of ``pool``'s current executor, as the kernel's out-of-memory killer would."""
    assert pool._executor is not None
    processes = list(pool._executor._processes.values())
    for process in processes:
        assert process.pid is not None
        os.kill(process.pid, signal.SIGKILL)
    for process in processes:
        process.join()
    return [process.pid for process in processes if process.pid is not None]


async def test_dead_workers_are_replaced_again_and_again_after_a_growing_pause() -> None:
    time = VirtualTime()
    pool = WorkerPool(1, clock=time.clock, pause=time.pause)
    try:
        seen = [await pool.run(os.getpid)]
        for _ in range(5):
            killed = kill_workers(pool)
            assert killed == seen[-1:]
            seen.append(await pool.run(os.getpid))
        assert os.getpid() not in seen and len(set(seen)) == 6  # a new worker each time, never this process
        assert time.pauses == [FIRST_PAUSE_S * 2**n for n in range(5)]
        assert pool.failures == 5 and pool.last_pause == time.pauses[-1] and pool.uses_processes
        assert pool.ran_in_processes == 6 and pool.ran_in_threads == 0
    finally:
        await pool.close()


async def test_the_pause_stops_growing_and_starts_over_after_a_pool_that_lasted() -> None:
    time = VirtualTime()
    pool = WorkerPool(1, clock=time.clock, pause=time.pause)
    pool._breaks_in_a_row = 20  # as after twenty pools in a row broke
    try:
        await pool.run(os.getpid)
        kill_workers(pool)
        await pool.run(os.getpid)
        assert time.pauses == [LONGEST_PAUSE_S]
        time.now += workers_module.HEALTHY_S  # the new pool works for a while
        kill_workers(pool)
        await pool.run(os.getpid)
        assert time.pauses == [LONGEST_PAUSE_S, FIRST_PAUSE_S] and pool.ran_in_threads == 0
    finally:
        await pool.close()


async def test_jobs_wait_for_the_new_pool_rather_than_run_in_a_thread() -> None:
    time = VirtualTime()
    pool = WorkerPool(2, clock=time.clock, pause=time.pause)
    try:
        await pool.run(os.getpid)
        kill_workers(pool)
        # Four jobs at once on the broken pool: the break is counted once and all four run in the new one.
        pids = await asyncio.gather(*(pool.run(os.getpid) for _ in range(4)))
        assert os.getpid() not in pids and pool.failures == 1
        assert pool.ran_in_processes == 5 and pool.ran_in_threads == 0
    finally:
        await pool.close()


async def test_a_job_whose_worker_died_runs_once_more_in_the_new_pool(tmp_path: Path) -> None:
    time = VirtualTime()
    pool = WorkerPool(1, clock=time.clock, pause=time.pause)
    try:
        pid = await pool.run(die_once, str(tmp_path / "died"))
        assert pid != os.getpid() and pool.failures == 1 and time.pauses == [FIRST_PAUSE_S]
    finally:
        await pool.close()


async def test_a_job_that_kills_its_worker_twice_fails_in_words() -> None:
    time = VirtualTime()
    pool = WorkerPool(1, clock=time.clock, pause=time.pause)
    try:
        with pytest.raises(WorkerLost) as lost:
            await pool.run(die)
        assert lost.value.say is not None and "stopped twice" in lost.value.message
        assert pool.failures == 2 and pool.ran_in_threads == 0
        assert await pool.run(os.getpid) != os.getpid()  # and the next job is served as usual
    finally:
        await pool.close()


async def test_a_jobs_own_error_does_not_break_the_pool() -> None:
    time = VirtualTime()
    pool = WorkerPool(1, clock=time.clock, pause=time.pause)
    try:
        with pytest.raises(RuntimeError, match="own error"):
            await pool.run(fail)
        assert pool.failures == 0 and time.pauses == [] and pool.ran_in_threads == 0
    finally:
        await pool.close()


async def test_where_processes_cannot_start_work_runs_in_a_thread_said_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OSError("no processes here")

    monkeypatch.setattr(workers_module, "ProcessPoolExecutor", refuse)
    pool = WorkerPool(2)
    with caplog.at_level(logging.WARNING, logger=workers_module.__name__):
        assert [await pool.run(os.getpid) for _ in range(3)] == [os.getpid()] * 3
    assert not pool.uses_processes and pool.ran_in_threads == 3
    assert len([r for r in caplog.records if "cannot be started" in r.getMessage()]) == 1
    await pool.close()


async def test_no_workers_asked_for_work_in_a_thread() -> None:
    pool = WorkerPool(0)
    assert await pool.run(os.getpid) == os.getpid()
    assert not pool.uses_processes and pool.ran_in_threads == 1
    await pool.close()
