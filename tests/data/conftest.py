from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import SqliteMatchStore
from tests.data.backends import BACKENDS, AnyStore, Backdoor, PostgresBackdoor, SqliteBackdoor
from tests.postgres import Server, fresh_database


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store" / "matches.db"


@pytest.fixture(params=[True, False], ids=["inline", "worker"])
def inline(request: pytest.FixtureRequest) -> bool:
    """Run store tests both with transactions on the event loop when possible and always on the worker."""
    return bool(request.param)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The match store suite runs on SQLite (inline and worker) and on PostgreSQL."""
    return str(request.param)


@pytest.fixture
def server_for(backend: str, request: pytest.FixtureRequest) -> Server | None:
    """The PostgreSQL server when the backend is PostgreSQL; asked for only then, so the SQLite runs
    never need one (and outside the event loop, where the session's server is started)."""
    if backend != "postgres":
        return None
    server: Server = request.getfixturevalue("postgres_server")
    return server


@pytest.fixture
async def backdoor(backend: str, db_path: Path, server_for: Server | None) -> AsyncIterator[Backdoor]:
    """The test's database, fresh, reached behind its stores' backs; the stores it opens are closed after."""
    if server_for is not None:
        door: Backdoor = PostgresBackdoor(await fresh_database(server_for))
    else:
        door = SqliteBackdoor(db_path, inline=backend == "inline")
    try:
        yield door
    finally:
        await door.close_all()


@pytest.fixture
async def store(backdoor: Backdoor) -> AnyStore:
    """A match store on the test's fresh database, on each backend in turn."""
    return await backdoor.open()


@pytest.fixture
async def sqlite_store(db_path: Path, inline: bool) -> AsyncIterator[SqliteMatchStore]:
    """A SQLite store, for the tests that reach into its file (raw writes, file locks, disk syncs)."""
    opened = await SqliteMatchStore.open(db_path, inline=inline)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def commits_without_fsync() -> None:
    """Overrides tests/conftest.py: here the store keeps its ``synchronous=FULL``, which these tests check."""
