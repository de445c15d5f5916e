"""The rows of match clocks (``seat_clocks``), timeouts and absences, as functions on an open transaction.

``SqliteMatchStore`` calls them inside its own transactions, so a move and the clocks it changes are
written together (see ``engine.host.clock``). The pure helpers (rows to clocks and back, stored times)
are shared with the PostgreSQL store's twin of this module, ``data.postgres.clocks``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from data import db as dbmod
from data.quarantine import Unreadable, quarantine_params, quarantine_sql, read_each, unreadable_row
from engine.core.errors import CorruptRecord
from engine.host.clock import ClockChange, SeatClock

COLUMNS = (
    "match_id, seat, user_id, bank_seconds, started_at, deadline, reminded, due_at, timeouts, "
    "last_started, last_deadline, last_bank_seconds, used_seconds, last_used_seconds"
)
_MARKS = ", ".join("?" for _ in COLUMNS.split(","))


def utc_text(moment: datetime) -> str:
    """An aware time as stored: UTC ISO-8601 text, which sorts as time does."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def stored_time(at: datetime | None) -> str | None:
    """``utc_text`` of ``at`` (None stays None)."""
    return None if at is None else utc_text(at)


def moment(text: Any) -> datetime | None:
    """A stored time (None stays None)."""
    return None if text is None else datetime.fromisoformat(str(text))


def read_moment(text: Any, column: str, what: str) -> datetime | None:
    """A stored time (None stays None); ``CorruptRecord`` naming ``column`` of ``what`` when it is not
    a time with its zone."""
    if text is None:
        return None
    try:
        found = datetime.fromisoformat(str(text))
    except ValueError:
        found = None
    if found is None or found.tzinfo is None:
        raise CorruptRecord(
            f"{what} cannot be read: {column}: not a time with its zone (stored {str(text)!r:.60}); "
            "nothing was changed"
        )
    return found


def _seconds(value: Any) -> timedelta:
    return timedelta(seconds=float(value))


def to_clock(row: dbmod.Row) -> SeatClock:
    what = f"the clock of seat {row[1]} in match {row[0]}"
    try:
        fields = {
            "match_id": row[0],
            "seat": row[1],
            "user_id": row[2],
            "bank": _seconds(row[3]),
            "started_at": read_moment(row[4], "started_at", what),
            "deadline": read_moment(row[5], "deadline", what),
            "reminded": row[6],
            "due_at": read_moment(row[7], "due_at", what),
            "timeouts": row[8],
            "last_started": read_moment(row[9], "last_started", what),
            "last_deadline": read_moment(row[10], "last_deadline", what),
            "last_bank": None if row[11] is None else _seconds(row[11]),
            "used": _seconds(row[12]),
            "last_used": None if row[13] is None else _seconds(row[13]),
        }
    except (TypeError, ValueError) as exc:  # a number of seconds that is not one
        raise CorruptRecord(f"{what} cannot be read: {exc}; nothing was changed") from None
    return dbmod.validated_row(SeatClock, fields, what)


def clock_params(clock: SeatClock) -> tuple[Any, ...]:
    """The ``seat_clocks`` row (``COLUMNS``) of ``clock``."""
    text = stored_time
    return (
        clock.match_id,
        clock.seat,
        clock.user_id,
        clock.bank.total_seconds(),
        text(clock.started_at),
        text(clock.deadline),
        clock.reminded,
        text(clock.due_at),
        clock.timeouts,
        text(clock.last_started),
        text(clock.last_deadline),
        None if clock.last_bank is None else clock.last_bank.total_seconds(),
        clock.used.total_seconds(),
        None if clock.last_used is None else clock.last_used.total_seconds(),
    )


def write_change(raw: sqlite3.Connection, change: ClockChange | None, now: str) -> None:
    """Store the seat clocks of ``change`` and count its timeouts, once its absences are checked
    (``ClockChange.absences_seen``; a write transaction of SQLite runs alone, so this read is current)."""
    if not change:
        return
    if (seen := change.absences_seen) is not None:
        seen.check(absences(raw, seen.users, seen.as_of))
    raw.executemany(
        f"INSERT OR REPLACE INTO seat_clocks ({COLUMNS}) VALUES ({_MARKS})",
        [clock_params(clock) for clock in change.clocks],
    )
    raw.executemany(
        "INSERT OR IGNORE INTO timeouts (match_id, seat, user_id, at) VALUES (?, ?, ?, ?)",
        [(clock.match_id, clock.seat, clock.user_id, now) for clock in change.timeouts],
    )


def seat_clocks(raw: sqlite3.Connection, match_id: int) -> list[SeatClock]:
    rows = raw.execute(f"SELECT {COLUMNS} FROM seat_clocks WHERE match_id = ? ORDER BY seat", (match_id,))
    return [to_clock(row) for row in rows]


def due_clocks(
    raw: sqlite3.Connection, now: datetime, limit: int
) -> tuple[list[SeatClock], list[Unreadable]]:
    """The clocks due by ``now`` (none set aside), and those of them that cannot be read."""
    rows = raw.execute(
        f"SELECT {COLUMNS} FROM seat_clocks WHERE due_at IS NOT NULL AND due_at <= ? AND quarantined IS NULL "
        "ORDER BY due_at LIMIT ?",
        (utc_text(now), limit),
    )
    return read_each("seat_clocks", rows, to_clock)


def next_due(raw: sqlite3.Connection) -> tuple[datetime | None, list[Unreadable]]:
    """When the first clock not set aside comes due, and the rows before it whose time cannot be read."""
    unreadable: list[Unreadable] = []
    for match_id, seat, due_at in raw.execute(
        "SELECT match_id, seat, due_at FROM seat_clocks WHERE due_at IS NOT NULL AND quarantined IS NULL "
        "ORDER BY due_at"
    ):
        try:
            return read_moment(due_at, "due_at", f"the clock of seat {seat} in match {match_id}"), unreadable
        except CorruptRecord as exc:
            unreadable.append(unreadable_row("seat_clocks", (match_id, seat), exc))
    return None, unreadable


def quarantine(raw: sqlite3.Connection, unreadable: Sequence[Unreadable]) -> list[Unreadable]:
    """Set ``unreadable`` rows aside; those this call set aside (not already set aside by another)."""
    newly: list[Unreadable] = []
    for row in unreadable:
        changed = raw.execute(quarantine_sql(row.table, lambda _: "?"), quarantine_params(row))
        if changed.rowcount == 1:
            newly.append(row)
    return newly


def settle_params(old: SeatClock, new: SeatClock) -> tuple[Any, ...]:
    """(new reminded, new due_at; match_id, seat, and old reminded, due_at, deadline) of a clock moved on
    past a reminder only if its row is still ``old``."""
    text = stored_time
    return (
        new.reminded,
        text(new.due_at),
        old.match_id,
        old.seat,
        old.reminded,
        text(old.due_at),
        text(old.deadline),
    )


def replace_if_unchanged(raw: sqlite3.Connection, old: SeatClock, new: SeatClock) -> bool:
    """Write ``new`` over ``old`` only if the row is still ``old`` (nobody acted on it meanwhile)."""
    changed = raw.execute(
        "UPDATE seat_clocks SET reminded = ?, due_at = ? "
        "WHERE match_id = ? AND seat = ? AND reminded = ? AND due_at IS ? AND deadline IS ?",
        settle_params(old, new),
    )
    return changed.rowcount == 1


def running_clocks_of(raw: sqlite3.Connection, user_id: int) -> list[SeatClock]:
    """The clocks of ``user_id`` that are running, in matches still being played."""
    rows = raw.execute(
        f"SELECT {', '.join('c.' + c.strip() for c in COLUMNS.split(','))} FROM seat_clocks c "
        "JOIN matches m ON m.id = c.match_id "
        "WHERE c.user_id = ? AND c.deadline IS NOT NULL AND m.status = 'active'",
        (user_id,),
    )
    return [to_clock(row) for row in rows]


def timeouts_of(raw: sqlite3.Connection, user_id: int, guild_id: int | None) -> int:
    if guild_id is None:
        (count,) = raw.execute("SELECT COUNT(*) FROM timeouts WHERE user_id = ?", (user_id,)).fetchone()
    else:
        (count,) = raw.execute(
            "SELECT COUNT(*) FROM timeouts t JOIN matches m ON m.id = t.match_id "
            "WHERE t.user_id = ? AND m.guild_id = ?",
            (user_id, guild_id),
        ).fetchone()
    return int(count)


def absences(
    raw: sqlite3.Connection, user_ids: Sequence[int], ending_after: datetime
) -> dict[int, list[tuple[datetime, datetime]]]:
    """The absences of ``user_ids`` that end after ``ending_after``, as (start, end) by user id."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    rows = raw.execute(
        f"SELECT user_id, starts_at, ends_at FROM absences WHERE user_id IN ({marks}) AND ends_at > ? "
        "ORDER BY starts_at",
        (*user_ids, utc_text(ending_after)),
    )
    return absences_of(rows)


def absences_of(rows: Iterable[dbmod.Row]) -> dict[int, list[tuple[datetime, datetime]]]:
    """(user_id, starts_at, ends_at) rows as (start, end) by user id, in the rows' order."""
    found: dict[int, list[tuple[datetime, datetime]]] = {}
    for user_id, starts, ends in rows:
        found.setdefault(int(user_id), []).append(
            (datetime.fromisoformat(starts), datetime.fromisoformat(ends))
        )
    return found
