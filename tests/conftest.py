"""Fixtures for the whole suite."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
from collections.abc import AsyncIterator, Generator, Iterator
from types import CoroutineType, GeneratorType
from typing import Any

import pytest

import data.db
from tests.postgres import Databases, Server, prepare_template, running_server


@pytest.fixture(autouse=True)
def commits_without_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's database syncs the WAL to disk at every commit (``synchronous=FULL``, for power cuts);
    no test cuts the power, and a sync costs milliseconds, many more on a busy disk, at every move of
    every match a test plays. tests/data keeps FULL: it checks that the store asks for it, and why."""
    monkeypatch.setattr(data.db, "SYNCHRONOUS", "NORMAL")


# Shortly before the ``timeout`` of pyproject.toml fails a hung test, say where each of its asyncio tasks
# waits: the tracebacks of threads that the timeout prints stop at the event loop's idle select.
HUNG_AFTER_S = 570


def awaiting(coro: Any) -> list[str]:
    """Where ``coro`` waits, outermost first, following what each coroutine awaits."""
    places = []
    while isinstance(coro, CoroutineType | GeneratorType):
        frame = coro.cr_frame if isinstance(coro, CoroutineType) else coro.gi_frame
        if frame is not None:
            places.append(f"  {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
        coro = coro.cr_await if isinstance(coro, CoroutineType) else coro.gi_yieldfrom
    return places


def unfinished_tasks() -> str:
    """Every asyncio task not done yet, with where it waits."""
    tasks = [t for t in gc.get_objects() if isinstance(t, asyncio.Task) and not t.done()]
    return "\n".join(f"task {t.get_name()}:\n" + "\n".join(awaiting(t.get_coro())) for t in tasks)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    def tell() -> None:
        print(f"{item.nodeid} hangs; its tasks wait here:\n{unfinished_tasks()}", file=sys.stderr, flush=True)

    timer = threading.Timer(HUNG_AFTER_S, tell)
    timer.daemon = True
    timer.start()
    try:
        return (yield)
    finally:
        timer.cancel()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Server]:
    """A real PostgreSQL server for the session (skipped, with the reason, where none is installed)."""
    with running_server() as server:
        asyncio.run(prepare_template(server))
        yield server


@pytest.fixture(scope="session")
def postgres_databases(postgres_server: Server) -> Databases:
    """The session's supply of fresh databases (see ``tests.postgres.Databases``)."""
    return Databases(postgres_server)


@pytest.fixture
async def postgres_dsn(postgres_databases: Databases) -> AsyncIterator[str]:
    """The DSN of a fresh, migrated, empty PostgreSQL database of its own for one test."""
    dsn = await postgres_databases.take()
    yield dsn
    await postgres_databases.give_back(dsn)
