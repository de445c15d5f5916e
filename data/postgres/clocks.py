"""The rows of match clocks (``seat_clocks``), timeouts and absences on PostgreSQL: ``data.clocks``'s
twin, as async functions on a connection inside a transaction of ``PostgresMatchStore``.

Rows are turned into clocks and back by ``data.clocks``'s own helpers, so both stores read and write
the same values. The reads of due clocks take a shard filter (``shard_clause``): a process fires the
clocks of its own servers' matches only.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from data import clocks as clockrows
from data.postgres.db import Conn
from data.postgres.sql import Args, row_count, shard_clause
from data.quarantine import Unreadable, quarantine_params, quarantine_sql, read_each, unreadable_row
from engine.core.errors import CorruptRecord
from engine.host.clock import ClockChange, SeatClock
from engine.host.shards import Shards

COLUMNS = clockrows.COLUMNS
_MARKS = ", ".join(f"${i}" for i in range(1, len(COLUMNS.split(",")) + 1))
_KEY = ("match_id", "seat")
_UPSERT = (
    f"INSERT INTO seat_clocks ({COLUMNS}) VALUES ({_MARKS}) ON CONFLICT (match_id, seat) DO UPDATE SET "
    + ", ".join(
        f"{column} = EXCLUDED.{column}"
        for column in (c.strip() for c in COLUMNS.split(","))
        if column not in _KEY
    )
)
_PREFIXED = ", ".join("c." + c.strip() for c in COLUMNS.split(","))


async def write_change(conn: Conn, change: ClockChange | None, now: str) -> None:
    """Store the seat clocks of ``change`` (each replacing its seat's row) and count its timeouts, once
    its absences are checked (``ClockChange.absences_seen``) under the locks ``/away`` takes, so either
    the absence is written first and seen here, or this commit is, and the absence pauses its turn."""
    if not change:
        return
    if (seen := change.absences_seen) is not None:
        for user_id in sorted(seen.users):
            await hold_absences_of(conn, user_id)
        seen.check(await absences(conn, seen.users, seen.as_of))
    if change.clocks:
        await conn.executemany(_UPSERT, [clockrows.clock_params(clock) for clock in change.clocks])
    if change.timeouts:
        await conn.executemany(
            "INSERT INTO timeouts (match_id, seat, user_id, at) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT DO NOTHING",
            [(clock.match_id, clock.seat, clock.user_id, now) for clock in change.timeouts],
        )


async def seat_clocks(conn: Conn, match_id: int) -> list[SeatClock]:
    rows = await conn.fetch(f"SELECT {COLUMNS} FROM seat_clocks WHERE match_id = $1 ORDER BY seat", match_id)
    return [clockrows.to_clock(row) for row in rows]


async def due_clocks(
    conn: Conn, now: datetime, limit: int, shards: Shards | None
) -> tuple[list[SeatClock], list[Unreadable]]:
    """The clocks due by ``now`` in the matches of ``shards``' servers (None: every match), none set
    aside, and those of them that cannot be read."""
    args = Args(clockrows.utc_text(now))
    owned = shard_clause(shards, "m.guild_id", args)
    rows = await conn.fetch(
        f"SELECT {_PREFIXED} FROM seat_clocks c {_joined(owned)} WHERE c.due_at IS NOT NULL "
        f"AND c.due_at <= $1 AND c.quarantined IS NULL {owned} ORDER BY c.due_at LIMIT {args(_limit(limit))}",
        *args.values,
    )
    return read_each("seat_clocks", rows, clockrows.to_clock)


async def next_due(conn: Conn, shards: Shards | None) -> tuple[datetime | None, list[Unreadable]]:
    """When the first clock not set aside comes due, and the rows before it whose time cannot be read."""
    args = Args()
    owned = shard_clause(shards, "m.guild_id", args)
    unreadable: list[Unreadable] = []
    while True:
        found = await conn.fetchrow(
            f"SELECT c.match_id, c.seat, c.due_at FROM seat_clocks c {_joined(owned)} "
            f"WHERE c.due_at IS NOT NULL AND c.quarantined IS NULL {owned} ORDER BY c.due_at "
            f"LIMIT 1 OFFSET {len(unreadable)}",
            *args.values,
        )
        if found is None:
            return None, unreadable
        match_id, seat, due_at = found
        try:
            what = f"the clock of seat {seat} in match {match_id}"
            return clockrows.read_moment(due_at, "due_at", what), unreadable
        except CorruptRecord as exc:
            unreadable.append(unreadable_row("seat_clocks", (match_id, seat), exc))


async def quarantine(conn: Conn, unreadable: Sequence[Unreadable]) -> list[Unreadable]:
    """Set ``unreadable`` rows aside; those this call set aside (not already set aside by another)."""
    newly: list[Unreadable] = []
    for row in unreadable:
        status = await conn.execute(quarantine_sql(row.table, lambda n: f"${n}"), *quarantine_params(row))
        if row_count(status) == 1:
            newly.append(row)
    return newly


async def replace_if_unchanged(conn: Conn, old: SeatClock, new: SeatClock) -> bool:
    """Write ``new`` over ``old`` only if the row is still ``old`` (nobody acted on it meanwhile)."""
    status = await conn.execute(
        "UPDATE seat_clocks SET reminded = $1, due_at = $2 "
        "WHERE match_id = $3 AND seat = $4 AND reminded = $5 "
        "AND due_at IS NOT DISTINCT FROM $6 AND deadline IS NOT DISTINCT FROM $7",
        *clockrows.settle_params(old, new),
    )
    return row_count(status) == 1


# The first key of the transaction lock that one person's absences are begun and ended under (the
# second is the person's id, hashed); PostgreSQL keeps two-key advisory locks apart from one-key ones.
_ABSENCE_LOCK = 0x41574159


async def hold_absences_of(conn: Conn, user_id: int) -> None:
    """Wait for, then hold until the transaction ends, the right to begin or end ``user_id``'s absences:
    two requests at once are judged one after the other, the second seeing what the first wrote."""
    await conn.execute("SELECT pg_advisory_xact_lock($1, hashint8($2))", _ABSENCE_LOCK, user_id)


async def running_clocks_of(conn: Conn, user_id: int, *, hold: bool = False) -> list[SeatClock]:
    """The clocks of ``user_id`` that are running, in matches still being played. ``hold``: first lock
    those matches (in id order, as a move locks its match before its clocks), so a move being written
    now is read once committed and no move writes them before this transaction ends."""
    if hold:
        await conn.execute(
            "SELECT id FROM matches WHERE status = 'active' AND id IN "
            "(SELECT match_id FROM seat_clocks WHERE user_id = $1 AND deadline IS NOT NULL) "
            "ORDER BY id FOR UPDATE",
            user_id,
        )
    rows = await conn.fetch(
        f"SELECT {_PREFIXED} FROM seat_clocks c JOIN matches m ON m.id = c.match_id "
        "WHERE c.user_id = $1 AND c.deadline IS NOT NULL AND m.status = 'active'",
        user_id,
    )
    return [clockrows.to_clock(row) for row in rows]


async def timeouts_of(conn: Conn, user_id: int, guild_id: int | None) -> int:
    if guild_id is None:
        count = await conn.fetchval("SELECT COUNT(*) FROM timeouts WHERE user_id = $1", user_id)
    else:
        count = await conn.fetchval(
            "SELECT COUNT(*) FROM timeouts t JOIN matches m ON m.id = t.match_id "
            "WHERE t.user_id = $1 AND m.guild_id = $2",
            user_id,
            guild_id,
        )
    return int(count)


async def absences(
    conn: Conn, user_ids: Sequence[int], ending_after: datetime
) -> dict[int, list[tuple[datetime, datetime]]]:
    """The absences of ``user_ids`` that end after ``ending_after``, as (start, end) by user id."""
    if not user_ids:
        return {}
    rows = await conn.fetch(
        "SELECT user_id, starts_at, ends_at FROM absences WHERE user_id = ANY($1::bigint[]) AND ends_at > $2 "
        "ORDER BY starts_at",
        list(user_ids),
        clockrows.utc_text(ending_after),
    )
    return clockrows.absences_of(rows)


def _joined(owned: str) -> str:
    """The join a shard filter on ``m.guild_id`` needs (none when nothing is filtered)."""
    return "JOIN matches m ON m.id = c.match_id" if owned else ""


def _limit(limit: int) -> int | None:
    """SQLite reads a negative LIMIT as none; PostgreSQL's is NULL."""
    return None if limit < 0 else limit
