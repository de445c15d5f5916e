"""A PostgreSQL database for the stores, through asyncpg: a connection pool, the schema's migrations,
and each transaction as one async function.

SQLite stays the embedded default; PostgreSQL is for running several bot processes on one database
(``BIGAPPLE_DB=postgresql://…``). The stores keep the same guards on both: a write that changes a match
is ``UPDATE … WHERE id = $1 AND version = $2``, which under READ COMMITTED waits for a concurrent writer
of that row and then finds the version moved, so exactly one of two racing moves is stored.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from data import db as dbmod
from data.db import Migration

T = TypeVar("T")
# A connection of its own or one lent by the pool: the stores' transaction bodies take either.
Conn = asyncpg.Connection | PoolConnectionProxy
Body = Callable[[Conn], Awaitable[T]]

SCHEMES = ("postgresql://", "postgres://")
# Any number both processes agree on: the lock that lets one process at a time migrate the schema.
_MIGRATION_LOCK = 0x0B16A991E
POOL_SIZE = 10


def is_postgres(url: str) -> bool:
    """Whether ``url`` (a ``BIGAPPLE_DB`` value) names a PostgreSQL database rather than a file."""
    return url.strip().lower().startswith(SCHEMES)


def load_migrations() -> list[Migration]:
    """Every PostgreSQL migration shipped in ``data/postgres/migrations``, in number order."""
    return dbmod.load_migrations("data.postgres")


async def migrate(conn: Conn, migrations: Sequence[Migration] | None = None) -> list[int]:
    """Apply the migrations not yet recorded, each in its own transaction, holding an advisory lock so
    that processes starting together apply each once; returns the numbers applied now. Raises
    ``RuntimeError`` when the database was migrated by newer code."""
    steps = load_migrations() if migrations is None else list(migrations)
    known = {step.version for step in steps}
    applied: list[int] = []
    await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        recorded = {row[0] for row in await conn.fetch("SELECT version FROM schema_migrations")}
        if recorded - known:
            raise RuntimeError(
                f"the database was migrated by newer code (schema version {max(recorded)}; this code "
                f"knows up to {max(known, default=0)}); upgrade the bot instead of opening it with this one"
            )
        for step in steps:
            if step.version in recorded:
                continue
            async with conn.transaction():
                await conn.execute(step.sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", step.version, step.name
                )
            applied.append(step.version)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
    return applied


class PgDatabase:
    """A migrated PostgreSQL database behind a pool; each transaction is one async function of a
    connection. Bodies may be run again by nobody: a failure rolls back and is raised."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, dsn: str, *, pool_size: int = POOL_SIZE) -> PgDatabase:
        """Connect to ``dsn`` and migrate it. Raises asyncpg's errors when it cannot be reached."""
        pool = await asyncpg.create_pool(dsn, min_size=1, max_size=pool_size)
        try:
            async with pool.acquire() as conn:
                await migrate(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    async def close(self) -> None:
        await self.pool.close()

    async def read(self, body: Body[T]) -> T:
        """Run ``body`` in one read-only transaction that sees one snapshot across its queries."""
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            return await body(conn)

    async def write(self, body: Body[T]) -> T:
        """Run ``body`` in one READ COMMITTED write transaction; rolled back if it raises."""
        async with self.pool.acquire() as conn, conn.transaction():
            return await body(conn)
