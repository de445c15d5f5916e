from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import SqliteMatchStore
from tests.data.backends import BACKENDS, AnyStore, Backdoor, PostgresBackdoor, SqliteBackdoor
from tests.postgres import Databases


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
def databases(backend: str, request: pytest.FixtureRequest) -> Databases | None:
    """The PostgreSQL databases when the backend is PostgreSQL; asked for only then, so the SQLite runs
    never need a server (and outside the event loop, where the session's server is started)."""
    if backend != "postgres":
        return None
    supply: Databases = request.getfixturevalue("postgres_databases")
    return supply


@pytest.fixture
async def backdoor(backend: str, db_path: Path, databases: Databases | None) -> AsyncIterator[Backdoor]:
    """The test's database, fresh, reached behind its stores' backs; the stores it opens are closed after."""
    door: Backdoor
    if databases is None:
        door = SqliteBackdoor(db_path, inline=backend == "inline")
    else:
        door = PostgresBackdoor(await databases.take())
    try:
        yield door
    finally:
        await door.close_all()
        if databases is not None and isinstance(door, PostgresBackdoor):
            await databases.give_back(door.dsn)


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
