"""Settings of people and servers (the language the bot speaks, the tournament organisers' role), in
the same SQLite file as the matches."""

from __future__ import annotations

import sqlite3

from data import db as dbmod
from data.store import SqliteMatchStore

# Each scope and the table and owner column its settings live in.
TABLES = {"user": ("user_settings", "user_id"), "guild": ("guild_settings", "guild_id")}


class SqliteSettings:
    """Key-value settings per user and per server; every call is one transaction."""

    def __init__(self, db: dbmod.Database) -> None:
        self._db = db

    @classmethod
    def beside(cls, store: SqliteMatchStore) -> SqliteSettings:
        return cls(store.database)

    async def get(self, scope: str, owner: int, key: str) -> str | None:
        """The ``key`` setting of a ``"user"`` or ``"guild"``, or None when unset."""
        table, column = TABLES[scope]

        def body(raw: sqlite3.Connection) -> str | None:
            row = raw.execute(
                f"SELECT value FROM {table} WHERE {column} = ? AND key = ?", (owner, key)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._db.read(body)

    async def set(self, scope: str, owner: int, key: str, value: str | None) -> None:
        """Set (or with None, clear) the ``key`` setting of a ``"user"`` or ``"guild"``."""
        table, column = TABLES[scope]

        def body(raw: sqlite3.Connection) -> None:
            if value is None:
                raw.execute(f"DELETE FROM {table} WHERE {column} = ? AND key = ?", (owner, key))
            else:
                raw.execute(
                    f"INSERT INTO {table} ({column}, key, value) VALUES (?, ?, ?) "
                    f"ON CONFLICT ({column}, key) DO UPDATE SET value = excluded.value",
                    (owner, key, value),
                )

        await self._db.write(body)
