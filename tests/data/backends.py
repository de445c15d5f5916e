"""The match store suite on every backend: SQLite with transactions on the event loop when possible
(``inline``) or always on the worker thread (``worker``), and PostgreSQL (``postgres``).

A test takes ``store`` (a store on a fresh database of the backend) and, when it must reach the database
behind the store's back, ``backdoor``: SQL run straight on that database, as a broken tool, a bad disk
or another process would, and more stores opened on it.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from data.postgres.store import PostgresMatchStore
from data.store import SqliteMatchStore

AnyStore = SqliteMatchStore | PostgresMatchStore
BACKENDS = ("inline", "worker", "postgres")
_MARK = re.compile(r"\?")
T = TypeVar("T")


class Backdoor:
    """Straight to the database under a test's store. SQL is written with ``?`` placeholders (the
    PostgreSQL backdoor numbers them). ``integrity_error``: what the database raises when a trigger or
    constraint refuses a change."""

    backend: str
    integrity_error: type[Exception]

    def __init__(self) -> None:
        self.opened: list[AnyStore] = []

    async def fetch(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def execute(self, sql: str, *params: object) -> None:
        """Write behind the store's back (SQLite's CHECK constraints are ignored for it)."""
        raise NotImplementedError

    async def drop_checks(self, table: str) -> None:
        """Let ``execute`` store what ``table``'s CHECK constraints refuse (a row no store would write)."""

    def holding_write_lock(self, match_id: int) -> Any:
        """An async context in which another connection holds what a write to ``match_id`` must wait for."""
        raise NotImplementedError

    async def waiting(self, stores: Sequence[AnyStore]) -> int:
        """How many transactions of ``stores`` wait for a lock another connection holds."""
        raise NotImplementedError

    async def _open(self, **options: Any) -> AnyStore:
        raise NotImplementedError

    async def open(self, **options: Any) -> AnyStore:
        """Another store on the same database (closed at the end of the test if the test does not)."""
        opened = await self._open(**options)
        self.opened.append(opened)
        return opened

    async def interleaved(
        self, match_id: int, stores: Sequence[AnyStore], calls: Sequence[Awaitable[T]]
    ) -> list[T | BaseException]:
        """What ``calls`` give when each has read what it reads before any may write: they start while
        another connection holds ``match_id``'s write lock, which is let go only once every one of them
        waits for it (or has finished without needing it)."""
        async with self.holding_write_lock(match_id):
            tasks = [asyncio.ensure_future(call) for call in calls]
            while not all(task.done() for task in tasks) and await self.waiting(stores) < len(tasks):
                await asyncio.sleep(0)
        return await asyncio.gather(*tasks, return_exceptions=True)

    async def close_all(self) -> None:
        for store in self.opened:
            await store.close()


class SqliteBackdoor(Backdoor):
    integrity_error = sqlite3.IntegrityError

    def __init__(self, path: Path, inline: bool) -> None:
        super().__init__()
        self.path = path
        self.inline = inline
        self.backend = "inline" if inline else "worker"

    async def fetch(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        raw = sqlite3.connect(self.path)
        try:
            return [tuple(row) for row in raw.execute(sql, params)]
        finally:
            raw.close()

    async def execute(self, sql: str, *params: object) -> None:
        raw = sqlite3.connect(self.path)
        try:
            with raw:
                raw.execute("PRAGMA ignore_check_constraints = ON")
                raw.execute(sql, params)
        finally:
            raw.close()

    @asynccontextmanager
    async def holding_write_lock(self, match_id: int) -> AsyncIterator[None]:
        blocker = sqlite3.connect(self.path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # the whole file's write lock
        try:
            yield
        finally:
            blocker.execute("COMMIT")
            blocker.close()

    async def waiting(self, stores: Sequence[AnyStore]) -> int:
        # A write runs on its connection's worker, which waits there for the file's write lock.
        return sum(store.database.writing for store in stores if isinstance(store, SqliteMatchStore))

    async def _open(self, **options: Any) -> AnyStore:
        return await SqliteMatchStore.open(self.path, **{"inline": self.inline, **options})


class PostgresBackdoor(Backdoor):
    backend = "postgres"
    integrity_error = asyncpg.IntegrityConstraintViolationError

    def __init__(self, dsn: str) -> None:
        super().__init__()
        self.dsn = dsn

    @staticmethod
    def numbered(sql: str) -> str:
        count = iter(range(1, 1000))
        return _MARK.sub(lambda _: f"${next(count)}", sql)

    async def _run(self, call: Callable[[asyncpg.Connection], Awaitable[Any]]) -> Any:
        conn = await asyncpg.connect(self.dsn)
        try:
            return await call(conn)
        finally:
            await conn.close()

    async def fetch(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        found = await self._run(lambda conn: conn.fetch(self.numbered(sql), *params))
        return [tuple(row) for row in found]

    async def execute(self, sql: str, *params: object) -> None:
        await self._run(lambda conn: conn.execute(self.numbered(sql), *params))

    async def drop_checks(self, table: str) -> None:
        async def drop(conn: asyncpg.Connection) -> None:
            names = await conn.fetch(
                "SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'", table
            )
            for (name,) in names:
                await conn.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')

        await self._run(drop)

    @asynccontextmanager
    async def holding_write_lock(self, match_id: int) -> AsyncIterator[None]:
        blocker = await asyncpg.connect(self.dsn)
        try:
            async with blocker.transaction():
                await blocker.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match_id)
                yield
        finally:
            await blocker.close()

    async def waiting(self, stores: Sequence[AnyStore]) -> int:
        # Every store of a test is on the test's own database, where nothing else runs.
        found = await self.fetch(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        )
        return int(found[0][0])

    async def _open(self, **options: Any) -> AnyStore:
        return await PostgresMatchStore.open(self.dsn, **options)
