"""Each person's daily digest (``engine.host.digests``) in the same database as the matches: one
implementation for SQLite and PostgreSQL."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from data import db as dbmod
from data import sql
from data.clocks import read_moment, utc_text
from data.sql import Program, SqliteTransactions, Transactions
from data.store import SqliteMatchStore
from engine.core.errors import CorruptRecord
from engine.host.digests import Digest

log = logging.getLogger(__name__)

_COLUMNS = "user_id, hour, zone, next_at"


def _digest(row: dbmod.Row) -> Digest:
    what = f"the daily digest of user {row[0]}"
    next_at = read_moment(row[3], "next_at", what)
    assert next_at is not None
    fields: dict[str, Any] = {"user_id": row[0], "time": {"hour": row[1], "zone": row[2]}, "next_at": next_at}
    return dbmod.validated_row(Digest, fields, what)


def _readable(rows: list[dbmod.Row]) -> list[Digest]:
    """The digests of ``rows`` that can be read; the others are logged and passed over, so one broken
    row never stops everyone else's digest."""
    found = []
    for row in rows:
        try:
            found.append(_digest(row))
        except CorruptRecord as exc:
            log.warning("%s", exc)
    return found


class SqlDigests:
    """The ``DigestStore`` of ``engine.host.digests``; every call is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    async def digest_of(self, user_id: int) -> Digest | None:
        def body() -> Program[Digest | None]:
            found = yield sql.row(f"SELECT {_COLUMNS} FROM digests WHERE user_id = ?", user_id)
            return None if found is None else _digest(found)

        return await self._transactions.read(body)

    async def save_digest(self, user_id: int, digest: Digest | None) -> None:
        """Keep ``digest`` as ``user_id``'s (None: they want none)."""
        if digest is None:
            statement = "DELETE FROM digests WHERE user_id = ?"
            params: tuple[object, ...] = (user_id,)
        else:
            statement = (
                f"INSERT INTO digests ({_COLUMNS}) VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE "
                "SET hour = excluded.hour, zone = excluded.zone, next_at = excluded.next_at"
            )
            params = (user_id, digest.time.hour, digest.time.zone, utc_text(digest.next_at))
        await self._transactions.write(lambda: sql.changing(statement, *params))

    async def due_digests(self, now: datetime, limit: int = 100) -> list[Digest]:
        """The digests due by ``now``, the earliest first (unreadable rows passed over)."""

        def body() -> Program[list[Digest]]:
            found = yield sql.rows(
                f"SELECT {_COLUMNS} FROM digests WHERE next_at <= ? ORDER BY next_at LIMIT ?",
                utc_text(now),
                max(0, limit),
            )
            return _readable(found)

        return await self._transactions.read(body)

    async def next_digest_due(self) -> datetime | None:
        """When the first digest is due (None: nobody wants one)."""

        def body() -> Program[datetime | None]:
            found = yield sql.value("SELECT MIN(next_at) FROM digests")
            return None if found is None else datetime.fromisoformat(str(found))

        return await self._transactions.read(body)

    async def move_digest(self, digest: Digest, to: datetime) -> bool:
        """Make ``digest`` next due at ``to`` if its row is still as read; whether it was."""

        def body() -> Program[bool]:
            changed = yield sql.count(
                "UPDATE digests SET next_at = ? WHERE user_id = ? AND next_at = ? AND hour = ? AND zone = ?",
                utc_text(to),
                digest.user_id,
                utc_text(digest.next_at),
                digest.time.hour,
                digest.time.zone,
            )
            return bool(changed == 1)

        return await self._transactions.write(body)


class SqliteDigests(SqlDigests):
    """Digests in the matches' SQLite file."""

    def __init__(self, db: dbmod.Database) -> None:
        super().__init__(SqliteTransactions(db))

    @classmethod
    def beside(cls, store: SqliteMatchStore) -> SqliteDigests:
        return cls(store.database)
