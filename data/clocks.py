"""The rows of match clocks (``seat_clocks``), timeouts and absences: programs (``data.sql``) that both
match stores run inside their own transactions, so a move and the clocks it changes are written
together (see ``engine.host.clock``), and the pure helpers (rows to clocks and back, stored times).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from data import db as dbmod
from data import sql
from data.quarantine import Unreadable, quarantine_params, quarantine_sql, read_each, unreadable_row
from data.sql import NO_CLAUSE, Clause, Dialect, Program
from engine.core.errors import CorruptRecord
from engine.host.clock import ClockChange, SeatClock

COLUMNS = (
    "match_id, seat, user_id, bank_seconds, started_at, deadline, reminded, due_at, timeouts, "
    "last_started, last_deadline, last_bank_seconds, used_seconds, last_used_seconds, extended_seconds, "
    "extension_used"
)
_KEY = ("match_id", "seat")
_PREFIXED = ", ".join("c." + c.strip() for c in COLUMNS.split(","))


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
            "extended": _seconds(row[14]),
            "extension_used": bool(row[15]),
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
        clock.extended.total_seconds(),
        int(clock.extension_used),
    )


def write_change(dialect: Dialect, change: ClockChange | None, now: str) -> Program[None]:
    """Store the seat clocks of ``change`` (each replacing its seat's row) and count its timeouts, once
    its absences are checked (``ClockChange.absences_seen``): SQLite runs a write transaction alone, so
    its read is current; PostgreSQL first takes the locks ``/away`` takes, so either the absence is
    written first and seen here, or this commit is, and the absence pauses its turn."""
    if not change:
        return
    if (seen := change.absences_seen) is not None:
        for user_id in sorted(seen.users):
            yield from hold_absences_of(dialect, user_id)
        seen.check((yield from absences(seen.users, seen.as_of)))
    yield sql.each(
        dialect.upsert("seat_clocks", COLUMNS, _KEY), [clock_params(clock) for clock in change.clocks]
    )
    yield sql.each(
        dialect.insert_ignoring("timeouts (match_id, seat, user_id, at) VALUES (?, ?, ?, ?)"),
        [(clock.match_id, clock.seat, clock.user_id, now) for clock in change.timeouts],
    )


def seat_clocks(match_id: int) -> Program[list[SeatClock]]:
    found = yield sql.rows(f"SELECT {COLUMNS} FROM seat_clocks WHERE match_id = ? ORDER BY seat", match_id)
    return [to_clock(row) for row in found]


def due_clocks(
    dialect: Dialect, now: datetime, limit: int, owned: Clause = NO_CLAUSE
) -> Program[tuple[list[SeatClock], list[Unreadable]]]:
    """The clocks due by ``now`` (none set aside) that ``owned`` (a condition on ``m.guild_id``) keeps,
    and those of them that cannot be read."""
    condition, params = owned
    found = yield sql.rows(
        f"SELECT {_PREFIXED} FROM seat_clocks c {_joined(condition)} WHERE c.due_at IS NOT NULL "
        f"AND c.due_at <= ? AND c.quarantined IS NULL {condition} ORDER BY c.due_at LIMIT ?",
        utc_text(now),
        *params,
        dialect.limit(limit),
    )
    return read_each("seat_clocks", found, to_clock)


def next_due(owned: Clause = NO_CLAUSE) -> Program[tuple[datetime | None, list[Unreadable]]]:
    """When the first clock not set aside that ``owned`` keeps comes due, and the rows before it whose
    time cannot be read."""
    condition, params = owned
    unreadable: list[Unreadable] = []
    while True:
        found = yield sql.row(
            f"SELECT c.match_id, c.seat, c.due_at FROM seat_clocks c {_joined(condition)} "
            f"WHERE c.due_at IS NOT NULL AND c.quarantined IS NULL {condition} ORDER BY c.due_at "
            f"LIMIT 1 OFFSET {len(unreadable)}",
            *params,
        )
        if found is None:
            return None, unreadable
        match_id, seat, due_at = found
        try:
            return read_moment(due_at, "due_at", f"the clock of seat {seat} in match {match_id}"), unreadable
        except CorruptRecord as exc:
            unreadable.append(unreadable_row("seat_clocks", (match_id, seat), exc))


def quarantine(unreadable: Sequence[Unreadable]) -> Program[list[Unreadable]]:
    """Set ``unreadable`` rows aside; those this call set aside (not already set aside by another)."""
    newly: list[Unreadable] = []
    for row in unreadable:
        changed = yield sql.count(quarantine_sql(row.table, lambda _: "?"), *quarantine_params(row))
        if changed == 1:
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


def replace_if_unchanged(dialect: Dialect, old: SeatClock, new: SeatClock) -> Program[bool]:
    """Write ``new`` over ``old`` only if the row is still ``old`` (nobody acted on it meanwhile)."""
    changed = yield sql.count(
        "UPDATE seat_clocks SET reminded = ?, due_at = ? WHERE match_id = ? AND seat = ? AND reminded = ? "
        f"AND due_at {dialect.same} ? AND deadline {dialect.same} ?",
        *settle_params(old, new),
    )
    return bool(changed == 1)


def hold_absences_of(dialect: Dialect, user_id: int) -> Program[None]:
    """Wait for, then hold until the transaction ends, the right to begin or end ``user_id``'s absences:
    two requests at once are judged one after the other, the second seeing what the first wrote (a
    write transaction of SQLite holds it already)."""
    if dialect.absence_lock is not None:
        yield sql.run_only(dialect.absence_lock, user_id)


def running_clocks_of(dialect: Dialect, user_id: int, *, hold: bool = False) -> Program[list[SeatClock]]:
    """The clocks of ``user_id`` that are running, in matches still being played. ``hold``: first lock
    those matches where other writers may run beside this one (in id order, as a move locks its match
    before its clocks), so a move being written now is read once committed and no move writes them
    before this transaction ends."""
    if hold and dialect.locks_rows:
        yield sql.rows(
            "SELECT id FROM matches WHERE status = 'active' AND id IN "
            "(SELECT match_id FROM seat_clocks WHERE user_id = ? AND deadline IS NOT NULL) "
            "ORDER BY id FOR UPDATE",
            user_id,
        )
    found = yield sql.rows(
        f"SELECT {_PREFIXED} FROM seat_clocks c JOIN matches m ON m.id = c.match_id "
        "WHERE c.user_id = ? AND c.deadline IS NOT NULL AND m.status = 'active'",
        user_id,
    )
    return [to_clock(row) for row in found]


def timeouts_of(user_id: int, guild_id: int | None) -> Program[int]:
    if guild_id is None:
        found = yield sql.value("SELECT COUNT(*) FROM timeouts WHERE user_id = ?", user_id)
    else:
        found = yield sql.value(
            "SELECT COUNT(*) FROM timeouts t JOIN matches m ON m.id = t.match_id "
            "WHERE t.user_id = ? AND m.guild_id = ?",
            user_id,
            guild_id,
        )
    return int(found)


def absences(
    user_ids: Collection[int], ending_after: datetime
) -> Program[dict[int, list[tuple[datetime, datetime]]]]:
    """The absences of ``user_ids`` that end after ``ending_after``, as (start, end) by user id."""
    if not user_ids:
        return {}
    found = yield sql.rows(
        f"SELECT user_id, starts_at, ends_at FROM absences WHERE user_id IN ({sql.marks(len(user_ids))}) "
        "AND ends_at > ? ORDER BY starts_at",
        *user_ids,
        utc_text(ending_after),
    )
    return absences_of(found)


def _joined(owned: str) -> str:
    """The join a condition on ``m.guild_id`` needs (none without a condition)."""
    return "JOIN matches m ON m.id = c.match_id" if owned else ""


def absences_of(rows: Iterable[dbmod.Row]) -> dict[int, list[tuple[datetime, datetime]]]:
    """(user_id, starts_at, ends_at) rows as (start, end) by user id, in the rows' order."""
    found: dict[int, list[tuple[datetime, datetime]]] = {}
    for user_id, starts, ends in rows:
        found.setdefault(int(user_id), []).append(
            (datetime.fromisoformat(starts), datetime.fromisoformat(ends))
        )
    return found
