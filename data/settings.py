"""Settings of people and servers (the language the bot speaks, the tournament organisers' role), in
the same database as the matches: one implementation for SQLite and PostgreSQL."""

from __future__ import annotations

from data import db as dbmod
from data import sql
from data.sql import Program, SqliteTransactions, Transactions
from data.store import SqliteMatchStore

# Each scope and the table and owner column its settings live in.
TABLES = {"user": ("user_settings", "user_id"), "guild": ("guild_settings", "guild_id")}


class SqlSettings:
    """Key-value settings per user and per server; every call is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    async def get(self, scope: str, owner: int, key: str) -> str | None:
        """The ``key`` setting of a ``"user"`` or ``"guild"``, or None when unset."""
        table, column = TABLES[scope]

        def body() -> Program[str | None]:
            found = yield sql.value(f"SELECT value FROM {table} WHERE {column} = ? AND key = ?", owner, key)
            return None if found is None else str(found)

        return await self._transactions.read(body)

    async def owners_with(self, scope: str, key: str) -> list[int]:
        """The users or servers (``scope``) that have set ``key``, in order."""
        table, column = TABLES[scope]

        def body() -> Program[list[int]]:
            found = yield sql.rows(f"SELECT {column} FROM {table} WHERE key = ? ORDER BY {column}", key)
            return [int(row[0]) for row in found]

        return await self._transactions.read(body)

    async def set(self, scope: str, owner: int, key: str, value: str | None) -> None:
        """Set (or with None, clear) the ``key`` setting of a ``"user"`` or ``"guild"``."""
        table, column = TABLES[scope]
        if value is None:
            statement = f"DELETE FROM {table} WHERE {column} = ? AND key = ?"
            params: tuple[object, ...] = (owner, key)
        else:
            statement = (
                f"INSERT INTO {table} ({column}, key, value) VALUES (?, ?, ?) "
                f"ON CONFLICT ({column}, key) DO UPDATE SET value = excluded.value"
            )
            params = (owner, key, value)
        await self._transactions.write(lambda: sql.changing(statement, *params))

    async def swap(self, scope: str, owner: int, key: str, expected: str | None, value: str) -> bool:
        """Set ``key`` to ``value`` only if it holds ``expected`` (None: unset), as one statement (two
        processes that swap from the same value: one of them does); whether it did."""
        table, column = TABLES[scope]
        if expected is None:
            statement = (
                f"INSERT INTO {table} ({column}, key, value) VALUES (?, ?, ?) "
                f"ON CONFLICT ({column}, key) DO NOTHING"
            )
            params: tuple[object, ...] = (owner, key, value)
        else:
            statement = f"UPDATE {table} SET value = ? WHERE {column} = ? AND key = ? AND value = ?"
            params = (value, owner, key, expected)
        return bool(await self._transactions.write(lambda: sql.changing(statement, *params)))


class SqliteSettings(SqlSettings):
    """Settings in the matches' SQLite file."""

    def __init__(self, db: dbmod.Database) -> None:
        super().__init__(SqliteTransactions(db))

    @classmethod
    def beside(cls, store: SqliteMatchStore) -> SqliteSettings:
        return cls(store.database)
