"""Fixtures for the whole suite."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

import data.db
from tests.postgres import Server, fresh_database, prepare_template, running_server


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


@pytest.fixture
async def postgres_dsn(postgres_server: Server) -> str:
    """The DSN of a fresh, migrated, empty PostgreSQL database of its own for one test."""
    return await fresh_database(postgres_server)
