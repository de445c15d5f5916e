"""Fixtures for the whole suite."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

import data.db
from tests.postgres import Databases, Server, prepare_template, running_server


@pytest.fixture(autouse=True)
def commits_without_fsync(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot's database syncs the WAL to disk at every commit (``synchronous=FULL``, for power cuts);
    no test cuts the power, and a sync costs milliseconds, many more on a busy disk, at every move of
    every match a test plays. tests/data keeps FULL: it checks that the store asks for it, and why."""
    monkeypatch.setattr(data.db, "SYNCHRONOUS", "NORMAL")


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
