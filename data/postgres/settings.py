"""Settings of people and servers on PostgreSQL (see ``data.settings`` for the SQLite twin)."""

from __future__ import annotations

from data.postgres.db import Conn, PgDatabase
from data.settings import TABLES


class PostgresSettings:
    """Key-value settings per user and per server (see ``data.settings``); every call is one
    transaction."""

    def __init__(self, database: PgDatabase) -> None:
        self._db = database

    async def get(self, scope: str, owner: int, key: str) -> str | None:
        """The ``key`` setting of a ``"user"`` or ``"guild"``, or None when unset."""
        table, column = TABLES[scope]
        value = await self._db.read(
            lambda conn: conn.fetchval(
                f"SELECT value FROM {table} WHERE {column} = $1 AND key = $2", owner, key
            )
        )
        return None if value is None else str(value)

    async def set(self, scope: str, owner: int, key: str, value: str | None) -> None:
        """Set (or with None, clear) the ``key`` setting of a ``"user"`` or ``"guild"``."""
        table, column = TABLES[scope]

        async def body(conn: Conn) -> None:
            if value is None:
                await conn.execute(f"DELETE FROM {table} WHERE {column} = $1 AND key = $2", owner, key)
            else:
                await conn.execute(
                    f"INSERT INTO {table} ({column}, key, value) VALUES ($1, $2, $3) "
                    f"ON CONFLICT ({column}, key) DO UPDATE SET value = excluded.value",
                    owner,
                    key,
                    value,
                )

        await self._db.write(body)
