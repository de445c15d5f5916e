"""``PostgresMatchStore``: the ``MatchStore`` port on PostgreSQL, for several bot processes sharing one
database. ``SqliteMatchStore`` (``data.store``) stays the embedded default; both are
``data.sql_store.SqlMatchStore``: the same methods, queries, records, errors and messages, and the same
transaction per call.

Every method runs its whole transaction on one pooled connection (``data.postgres.db.PgDatabase``):
reads in one REPEATABLE READ snapshot, writes under READ COMMITTED. Writes that change a match are
guarded by ``UPDATE matches SET version = version + 1 … WHERE id = $1 AND version = $2``: a concurrent
writer of the same match waits for the row, then finds the version moved and changes nothing, so it
rolls back with ``StaleVersion``, whichever process it runs in.

What only a shared database needs:

* **New versions heard.** Each write that changes a match tells its new version to the database's
  listeners when it commits; ``hearing_others`` listens, so that a web table follows the moves another
  process stores.

* **Shards.** A process opened with ``shards`` does the duties of its own servers' matches only: the
  outbox (``pending_deliveries``, ``pending_by_destination``), clocks (``due_clocks``,
  ``next_clock_due``), held pings (``due_pings``, ``next_ping_due``) and the matches to resume
  (``match_ids``) see the matches whose guild is on one of its shards (no guild: shard 0). Everything
  else (reading a match, acting on it) sees every match.
* **Claimed notices.** ``pending_by_destination`` claims the rows it returns for this process
  (``claimed_by``, ``claimed_until`` = now + ``lease``), taking them ``FOR UPDATE SKIP LOCKED``; rows
  another process holds under a lease that has not run out are never returned, and a destination is
  returned from its first pending notice on or not at all, so no notice overtakes another. Sending one
  (``mark_delivered``) releases it and renews the lease on the rest of its destination; giving up
  (``mark_undeliverable``) releases it too, and a failure (``mark_failed``) releases the whole
  destination, which waits for its next attempt. A process that dies holding a claim holds it until the
  lease runs out; then any process, or the same one restarted under its name, takes the rows.
  Leases are times of the store's ``clock``: the processes' clocks must agree to well within a lease.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable, Collection
from contextlib import AbstractAsyncContextManager
from datetime import datetime, timedelta
from typing import Any, Self

from data import db as dbmod
from data import rows
from data.clocks import utc_text
from data.postgres import sql as pgsql
from data.postgres.db import POOL_SIZE, Conn, PgDatabase
from data.postgres.sql import Args, PgTransactions, shard_clause, shard_filter
from data.postgres.versions import hearing_versions
from data.rows import MAX_DELIVERY_ATTEMPTS, Destination
from data.sql import Clause
from data.sql_store.core import require_delivery
from data.sql_store.store import SqlMatchStore
from engine.host.ports import Delivery
from engine.host.shards import Shards

# How long a process holds the notices it took to send; renewed by every one it sends.
LEASE = timedelta(seconds=60)

# The pending notices ``pending_by_destination`` may take: per destination, in order, those before the
# first one another process holds under a running lease, at most $5 of them, for the $6 destinations
# whose first pending notice is oldest, leaving out those in the skip list ($3, $4: match ids, seats).
_OPEN_NOTICES = """
WITH pending AS (
    SELECT d.id,
           row_number() OVER destination AS n,
           bool_or(d.claimed_by IS NOT NULL AND d.claimed_by <> $1 AND COALESCE(d.claimed_until, '') > $2)
               OVER destination AS held,
           min(d.id) OVER (PARTITION BY d.match_id, d.seat) AS head
    FROM deliveries d {join}
    WHERE d.status = 'pending' {owned}
      AND NOT EXISTS (
          SELECT 1 FROM unnest($3::bigint[], $4::integer[]) AS skip (match_id, seat)
          WHERE skip.match_id = d.match_id AND skip.seat IS NOT DISTINCT FROM d.seat)
    WINDOW destination AS (PARTITION BY d.match_id, d.seat ORDER BY d.id)
), open AS (
    SELECT id, head FROM pending WHERE NOT held AND n <= $5
)
SELECT id, head FROM open
WHERE head IN (SELECT DISTINCT head FROM open ORDER BY head LIMIT $6)
ORDER BY head, id
"""
# Lock those still free (skipping rows another transaction is claiming or settling right now).
_LOCK_NOTICES = (
    f"SELECT {rows.DELIVERY_COLUMNS} FROM deliveries "
    "WHERE id = ANY($1::bigint[]) AND status = 'pending' "
    "AND (claimed_by IS NULL OR claimed_by = $2 OR COALESCE(claimed_until, '') <= $3) "
    "ORDER BY id FOR UPDATE SKIP LOCKED"
)
_CLAIM = "UPDATE deliveries SET claimed_by = $1, claimed_until = $2 WHERE id = ANY($3::bigint[])"
_RELEASE = "claimed_by = NULL, claimed_until = NULL"


def default_process() -> str:
    """A name for this process that no other shares: host, process id and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class PostgresMatchStore(SqlMatchStore[PgDatabase]):
    """Durable match storage in a PostgreSQL database (see ``engine.host.ports.MatchStore``), shared by
    any number of bot processes.

    Open with ``await PostgresMatchStore.open(dsn)`` and close with ``await store.close()``, or use
    ``async with await PostgresMatchStore.open(dsn) as store``.
    """

    def __init__(
        self,
        db: PgDatabase,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
        shards: Shards | None = None,
        process: str | None = None,
        lease: timedelta = LEASE,
    ) -> None:
        """Wrap an open, migrated ``PgDatabase``.

        ``max_attempts`` is how many failed sends make a delivery ``failed``; ``clock`` gives the
        ``*_at`` timestamps and the leases' times; ``shards`` are the shards whose duties this process
        does (None: every match); ``process`` names this process in the notices it claims (default:
        ``default_process()``); ``lease`` is how long a claim lasts.
        """
        super().__init__(db, PgTransactions(db), max_attempts=max_attempts, clock=clock)
        if lease <= timedelta(0):
            raise ValueError("a lease must last some time")
        self.shards = None if shards is None or shards.everything else shards
        self.process = process or default_process()
        self.lease = lease

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
        shards: Shards | None = None,
        process: str | None = None,
        lease: timedelta = LEASE,
        pool_size: int = POOL_SIZE,
    ) -> Self:
        """Connect to the database at ``dsn`` and migrate it as needed. Raises asyncpg's errors when it
        cannot be reached, ``RuntimeError`` when it was migrated by newer code."""
        db = await PgDatabase.open(dsn, pool_size=pool_size)
        try:
            return cls(
                db, max_attempts=max_attempts, clock=clock, shards=shards, process=process, lease=lease
            )
        except BaseException:
            await db.close()
            raise

    def hearing_others(self) -> AbstractAsyncContextManager[object]:
        """Within the block, ``versions`` is told as well of the versions every other process writes to
        the database (see ``data.postgres.versions``)."""
        return hearing_versions(self._db, self.versions)

    def _owned(self, guild_column: str) -> Clause:
        """The matches whose server is on one of this process's shards (every match without shards)."""
        return shard_filter(self.shards, guild_column)

    # ------------------------------------------------------------------------------------- outbox

    async def pending_by_destination(
        self,
        destinations: int = 50,
        per_destination: int = 20,
        skip: Collection[Destination] = (),
    ) -> list[list[Delivery]]:
        """The pending deliveries of up to ``destinations`` destinations (a match's thread, or one seat's
        messages) of this store's shards, those waiting longest first, each with its first
        ``per_destination`` deliveries in order, claimed for this process until ``lease`` from now.
        Destinations in ``skip`` (backing off) are passed over, and so are those whose first pending
        delivery another process holds; of the others, a delivery held by another process ends its
        destination's list, so nothing is sent out of order.

        A pending row that cannot be read is marked failed with the reason, and the others go on.
        """
        skipped = list(skip)
        now = self._clock()
        until = utc_text(datetime.fromisoformat(now) + self.lease)
        args = Args(
            self.process,
            now,
            [match_id for match_id, _ in skipped],
            [seat for _, seat in skipped],
            max(1, per_destination),
            max(0, destinations),
        )
        owned = shard_clause(self.shards, "m.guild_id", args)
        join = "JOIN matches m ON m.id = d.match_id" if owned else ""
        open_sql = _OPEN_NOTICES.format(join=join, owned=owned)

        async def body(conn: Conn) -> list[list[Any]]:
            candidates = await conn.fetch(open_sql, *args.values)
            if not candidates:
                return []
            locked = {
                row[0]: row
                for row in await conn.fetch(_LOCK_NOTICES, [row[0] for row in candidates], self.process, now)
            }
            # Per destination, the notices from its first one on that this transaction holds now.
            taken: list[list[Any]] = []
            head = None
            stopped = False
            for delivery_id, destination_head in candidates:
                if destination_head != head:
                    head, stopped = destination_head, False
                    taken.append([])
                if stopped or delivery_id not in locked:
                    stopped = True
                    continue
                taken[-1].append(locked[delivery_id])
            taken = [batch for batch in taken if batch]
            claimed = [row[0] for batch in taken for row in batch]
            if claimed:
                await conn.execute(_CLAIM, self.process, until, claimed)
            return taken

        batches: list[list[Delivery]] = []
        unreadable: list[tuple[int, str]] = []
        for found in await self._db.write(body):
            readable, bad = rows.readable_deliveries(found)
            unreadable += bad
            if readable:
                batches.append(readable)
        for delivery_id, problem in unreadable:
            await self.mark_undeliverable(delivery_id, problem)
        return batches

    async def mark_delivered(self, delivery_id: int) -> None:
        """Mark a delivery sent (again: harmless) and release its claim; the rest of its destination
        this process holds keeps its claim a lease longer. Raises ``LookupError`` for an unknown id."""
        now = self._clock()
        until = utc_text(datetime.fromisoformat(now) + self.lease)

        async def body(conn: Conn) -> None:
            sent = await conn.fetchrow(
                f"UPDATE deliveries SET status = 'sent', sent_at = $1, {_RELEASE} "
                "WHERE id = $2 AND status != 'sent' RETURNING match_id, seat",
                now,
                delivery_id,
            )
            if sent is None:
                await pgsql.run(conn, require_delivery(delivery_id))
                return
            await conn.execute(
                "UPDATE deliveries SET claimed_until = $1 WHERE match_id = $2 "
                "AND seat IS NOT DISTINCT FROM $3 AND status = 'pending' AND claimed_by = $4",
                until,
                sent[0],
                sent[1],
                self.process,
            )

        await self._db.write(body)

    async def mark_undeliverable(self, delivery_id: int, reason: str) -> None:
        """Give a pending delivery up at once (its destination is gone, or its row cannot be read)."""

        async def body(conn: Conn) -> None:
            await conn.execute(
                f"UPDATE deliveries SET status = 'failed', last_error = $1, attempts = $2, {_RELEASE} "
                "WHERE id = $3 AND status = 'pending'",
                reason[:500],
                self.max_attempts,
                delivery_id,
            )

        await self._db.write(body)

    async def mark_failed(self, delivery_id: int, error: str) -> None:
        """Count a failed send of a pending delivery and keep ``error``; after ``max_attempts`` failures
        it becomes ``failed`` and is no longer offered. Its destination waits: the claims this process
        holds on it are released. Deliveries already sent or failed are left alone. Raises
        ``LookupError`` for an unknown id.
        """

        async def body(conn: Conn) -> None:
            failed = await conn.fetchrow(
                "UPDATE deliveries SET attempts = attempts + 1, last_error = $1, "
                "status = CASE WHEN attempts + 1 >= $2 THEN 'failed' ELSE 'pending' END, "
                f"{_RELEASE} WHERE id = $3 AND status = 'pending' RETURNING match_id, seat",
                error,
                self.max_attempts,
                delivery_id,
            )
            if failed is None:
                await pgsql.run(conn, require_delivery(delivery_id))
                return
            await conn.execute(
                f"UPDATE deliveries SET {_RELEASE} WHERE match_id = $1 AND seat IS NOT DISTINCT FROM $2 "
                "AND status = 'pending' AND claimed_by = $3",
                failed[0],
                failed[1],
                self.process,
            )

        await self._db.write(body)
