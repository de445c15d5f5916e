"""``SqliteMatchStore``: the ``MatchStore`` port on SQLite, through aiosqlite.

The methods and their SQL are ``data.sql_store``'s, shared with the PostgreSQL store; this module runs
their transactions on SQLite and keeps the outbox, which one process per file serves alone. Every
method runs its whole transaction as one function (``data.db.Database``): a read on the event loop
when it can take its locks without waiting, else (and every write, whose commit is synced to disk) on
aiosqlite's worker thread in one hop. Either way calls from concurrent tasks on one store never
interleave inside a transaction. Writes open with ``BEGIN IMMEDIATE``, so a write transaction runs
alone and needs no other lock.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Collection
from typing import Self

from data import db as dbmod
from data import rows, sql
from data.rows import MAX_DELIVERY_ATTEMPTS, Destination, MatchListing
from data.sql import Program, SqliteTransactions
from data.sql_store.core import (
    GUARD_COMMIT,
    INSERT_ACTION,
    INSERT_CHECKPOINT,
    INSERT_DELIVERY,
    SELECT_MATCH,
    SELECT_PLAYERS,
    load_match,
    require_delivery,
)
from data.sql_store.store import SqlMatchStore
from engine.host.ports import Delivery, MatchRecord

__all__ = [
    "GUARD_COMMIT",
    "INSERT_ACTION",
    "INSERT_CHECKPOINT",
    "INSERT_DELIVERY",
    "MAX_DELIVERY_ATTEMPTS",
    "SELECT_MATCH",
    "SELECT_PLAYERS",
    "Destination",
    "MatchListing",
    "SqliteMatchStore",
    "read_match",
]

_PENDING_HEADS = (
    "SELECT match_id, seat FROM deliveries WHERE status = 'pending' GROUP BY match_id, seat ORDER BY MIN(id)"
)
_PENDING_OF = (
    f"SELECT {rows.DELIVERY_COLUMNS} FROM deliveries WHERE status = 'pending' AND match_id IS ? "
    "AND seat IS ? ORDER BY id LIMIT ?"
)


class SqliteMatchStore(SqlMatchStore[dbmod.Database]):
    """Durable match storage in one SQLite file (see ``data.sql_store.SqlMatchStore``).

    Open with ``await SqliteMatchStore.open(path)`` and close with ``await store.close()``, or use
    ``async with await SqliteMatchStore.open(path) as store``.
    """

    def __init__(
        self,
        db: dbmod.Database,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
    ) -> None:
        """Wrap an open, migrated ``data.db.Database``.

        ``max_attempts`` is how many failed sends make a delivery ``failed``; ``clock`` gives the
        ``*_at`` timestamps.
        """
        super().__init__(db, SqliteTransactions(db), max_attempts=max_attempts, clock=clock)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
        busy_timeout_ms: int = dbmod.BUSY_TIMEOUT_MS,
        inline: bool = True,
    ) -> Self:
        """Open the database at ``path`` (default: ``data.db.default_db_path()``), creating and migrating
        it as needed. ``inline=False`` runs every transaction on aiosqlite's worker thread (see
        ``data.db.Database``). Raises ``sqlite3.Error`` or ``RuntimeError`` as ``data.db.connect`` does.
        """
        target = dbmod.default_db_path() if path is None else path
        db = await dbmod.Database.open(target, busy_timeout_ms=busy_timeout_ms, inline=inline)
        return cls(db, max_attempts=max_attempts, clock=clock)

    # ------------------------------------------------------------------------------------- outbox

    async def pending_by_destination(
        self,
        destinations: int = 50,
        per_destination: int = 20,
        skip: Collection[Destination] = (),
    ) -> list[list[Delivery]]:
        """The pending deliveries of up to ``destinations`` destinations (a match's thread, or one seat's
        messages), those waiting longest first, each with its first ``per_destination`` deliveries in
        order. Destinations in ``skip`` (backing off) are passed over, so they never hide the others.

        A pending row that cannot be read is marked failed with the reason, and the others go on.
        """

        def body() -> Program[tuple[list[list[Delivery]], list[tuple[int, str]]]]:
            heads = yield sql.rows(_PENDING_HEADS)
            chosen = [(m, s) for m, s in heads if (m, s) not in skip][: max(0, destinations)]
            batches: list[list[Delivery]] = []
            unreadable: list[tuple[int, str]] = []
            for match_id, seat in chosen:
                found = yield sql.rows(_PENDING_OF, match_id, seat, max(1, per_destination))
                readable, bad = rows.readable_deliveries(found)
                unreadable += bad
                if readable:
                    batches.append(readable)
            return batches, unreadable

        batches, unreadable = await self._read(body)
        for delivery_id, problem in unreadable:
            await self.mark_undeliverable(delivery_id, problem)
        return batches

    async def mark_delivered(self, delivery_id: int) -> None:
        """Mark a delivery sent (again: harmless). Raises ``LookupError`` for an unknown id."""
        now = self._clock()

        def body() -> Program[None]:
            changed = yield sql.count(
                "UPDATE deliveries SET status = 'sent', sent_at = ? WHERE id = ? AND status != 'sent'",
                now,
                delivery_id,
            )
            if changed == 0:
                yield from require_delivery(delivery_id)

        await self._write(body)

    async def mark_undeliverable(self, delivery_id: int, reason: str) -> None:
        """Give a pending delivery up at once (its destination is gone, or its row cannot be read)."""
        statement = (
            "UPDATE deliveries SET status = 'failed', last_error = ?, attempts = ? "
            "WHERE id = ? AND status = 'pending'"
        )
        params = (reason[:500], self.max_attempts, delivery_id)
        await self._write(lambda: sql.changing(statement, *params))

    async def mark_failed(self, delivery_id: int, error: str) -> None:
        """Count a failed send of a pending delivery and keep ``error``; after ``max_attempts`` failures
        it becomes ``failed`` and is no longer offered. Deliveries already sent or failed are left alone.
        Raises ``LookupError`` for an unknown id.
        """

        def body() -> Program[None]:
            changed = yield sql.count(
                "UPDATE deliveries SET attempts = attempts + 1, last_error = ?, "
                "status = CASE WHEN attempts + 1 >= ? THEN 'failed' ELSE 'pending' END "
                "WHERE id = ? AND status = 'pending'",
                error,
                self.max_attempts,
                delivery_id,
            )
            if changed == 0:
                yield from require_delivery(delivery_id)

        await self._write(body)


def read_match(raw: sqlite3.Connection, match_id: int) -> MatchRecord:
    """Match ``match_id`` as the file holds it, read in one transaction through ``raw``: any connection to
    the file, such as a read-only one beside a running bot's. Raises ``MatchNotFound`` or
    ``CorruptRecord``."""
    return dbmod.read_transaction(raw, lambda held: sql.run(held, load_match(match_id)))
