"""SQL written once for SQLite and PostgreSQL: transactions as programs of queries, and the table of
what the two databases write differently.

A transaction body shared by both stores is a generator (a ``Program``): it yields each ``Query`` and
is sent back its answer, so the same body runs synchronously on sqlite3 (``run``, one thread hop for
the whole transaction) and asynchronously on asyncpg (``data.postgres.sql.run``). Queries use ``?``
placeholders; the PostgreSQL driver numbers them. What cannot be written the same way on both is a
field of ``Dialect``: ``SQLITE`` and ``POSTGRES`` below are its only two rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine, Generator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple, Protocol, TypeVar

from data.db import Database

T = TypeVar("T")


class Want(Enum):
    """What a query answers its program with."""

    ROWS = "rows"  # every row
    ROW = "row"  # the first row, or None
    VALUE = "value"  # the first column of the first row, or None
    COUNT = "count"  # how many rows an INSERT, UPDATE or DELETE touched
    EACH = "each"  # nothing: the statement is run once per parameter tuple
    NEW_ID = "new_id"  # the id of the row an INSERT added, or None when it added none
    NOTHING = "nothing"  # nothing (a statement run for its effect, such as taking a lock)
    NOTICE = "notice"  # nothing: a notice to the database's other listeners, sent if the transaction commits


class Query(NamedTuple):
    """One statement of a program, with ``?`` placeholders, and what its answer is. With
    ``duplicate_is_none``, a row refused by a uniqueness constraint answers None instead of raising
    (on PostgreSQL the transaction can then only end: the program must raise or return)."""

    sql: str
    params: Sequence[Any]
    want: Want
    duplicate_is_none: bool = False


# A transaction body: yields queries, is sent their answers, returns its result.
Program = Generator[Query, Any, T]
# What the stores run: a fresh program per attempt (SQLite may run a read again when it was busy).
ProgramFactory = Callable[[], Program[T]]
# An extra ``AND …`` condition with its parameters (empty: no condition).
Clause = tuple[str, tuple[Any, ...]]
NO_CLAUSE: Clause = ("", ())


def rows(sql: str, *params: Any) -> Query:
    return Query(sql, params, Want.ROWS)


def row(sql: str, *params: Any) -> Query:
    return Query(sql, params, Want.ROW)


def value(sql: str, *params: Any) -> Query:
    return Query(sql, params, Want.VALUE)


def count(sql: str, *params: Any) -> Query:
    return Query(sql, params, Want.COUNT)


def each(sql: str, params: Sequence[Sequence[Any]]) -> Query:
    return Query(sql, params, Want.EACH)


def new_id(sql: str, *params: Any) -> Query:
    """An ``INSERT`` of one row into a table whose key is ``id``, answered with that id."""
    return Query(sql, params, Want.NEW_ID)


def run_only(sql: str, *params: Any) -> Query:
    return Query(sql, params, Want.NOTHING)


def notice(channel: str, message: str) -> Query:
    """Tell ``message`` on ``channel`` to whoever listens to the database, once the transaction commits
    (PostgreSQL's NOTIFY). SQLite sends none: one process holds its file, and hears its own writes."""
    return Query(channel, (message,), Want.NOTICE)


def changing(statement: str, *params: Any) -> Program[int]:
    """A transaction of one statement: how many rows it changed."""
    return int((yield Query(statement, params, Want.COUNT)))


def marks(count: int) -> str:
    """``count`` placeholders for ``IN (…)``; a list of none is ``NULL``, which matches no row on both
    databases (PostgreSQL refuses an empty ``IN ()``)."""
    return ", ".join("?" * count) if count else "NULL"


# The transaction lock one person's absences are begun and ended under on PostgreSQL: two-key advisory
# locks are kept apart from one-key ones, and this is the first key (the second is the person's id).
ABSENCE_LOCK = 0x41574159


@dataclass(frozen=True)
class Dialect:
    """What SQLite and PostgreSQL write differently in the statements the stores share."""

    # Equality that holds between two NULLs.
    same: str
    # An INSERT that skips the rows a constraint refuses: the words before the table and after the values.
    ignoring_before: str
    ignoring_after: str
    # Whether an upsert replaces the whole row (the columns it names; the others back to their defaults)
    # or updates the columns it names in the row already there.
    replaces_rows: bool
    # The LIMIT that limits nothing.
    unlimited: int | None
    # The locks a write transaction takes besides the rows it writes, where writers run side by side
    # (SQLite's run one at a time, so they need none). The statement that makes one person's absences
    # wait for each other, with the person's id:
    absence_lock: str | None
    # Whether the rows a write reads to decide what it writes are locked first (``FOR UPDATE``):
    locks_rows: bool

    def insert_ignoring(self, into: str) -> str:
        """``INSERT INTO {into}`` skipping the rows a constraint refuses (on PostgreSQL, a uniqueness
        constraint only)."""
        return f"{self.ignoring_before} {into}{self.ignoring_after}"

    def upsert(self, table: str, columns: str, key: Sequence[str]) -> str:
        """An INSERT of ``columns`` into ``table`` that replaces the row with the same ``key``."""
        values = f"{table} ({columns}) VALUES ({marks(len(columns.split(',')))})"
        if self.replaces_rows:
            return f"INSERT OR REPLACE INTO {values}"
        updates = ", ".join(
            f"{name} = EXCLUDED.{name}" for name in (c.strip() for c in columns.split(",")) if name not in key
        )
        return f"INSERT INTO {values} ON CONFLICT ({', '.join(key)}) DO UPDATE SET {updates}"

    def limit(self, limit: int) -> int | None:
        """``limit`` as a LIMIT parameter: a negative one limits nothing."""
        return limit if limit >= 0 else self.unlimited


SQLITE = Dialect(
    same="IS",
    ignoring_before="INSERT OR IGNORE INTO",
    ignoring_after="",
    replaces_rows=True,
    unlimited=-1,
    absence_lock=None,
    locks_rows=False,
)
POSTGRES = Dialect(
    same="IS NOT DISTINCT FROM",
    ignoring_before="INSERT INTO",
    ignoring_after=" ON CONFLICT DO NOTHING",
    replaces_rows=False,
    unlimited=None,
    absence_lock=f"SELECT pg_advisory_xact_lock({ABSENCE_LOCK}, hashint8(?))",
    locks_rows=True,
)


class Transactions(Protocol):
    """A database that runs programs, each in one transaction, and the dialect they are written in."""

    @property
    def dialect(self) -> Dialect: ...

    async def read(self, program: ProgramFactory[T], *, may_inline: bool = True) -> T:
        """Run a fresh ``program()`` in one read transaction. ``may_inline=False``: the read may be long,
        so SQLite keeps it off the event loop."""
        ...

    async def write(self, program: ProgramFactory[T]) -> T:
        """Run a fresh ``program()`` in one write transaction, rolled back if it raises."""
        ...


class SqliteTransactions:
    """``Transactions`` on a ``data.db.Database``: each program runs whole on the database's connection
    (see ``Database.read`` and ``Database.write`` for where and how). Its calls hand over the database's
    own coroutines, which a read on the event loop is cheaper without another around them."""

    dialect = SQLITE

    def __init__(self, db: Database) -> None:
        self.db = db

    def read(self, program: ProgramFactory[T], *, may_inline: bool = True) -> Coroutine[Any, Any, T]:
        return self.db.read(lambda raw: run(raw, program()), may_inline=may_inline)

    def write(self, program: ProgramFactory[T]) -> Coroutine[Any, Any, T]:
        return self.db.write(lambda raw: run(raw, program()))


def run(raw: sqlite3.Connection, program: Program[T]) -> T:
    """Run ``program`` to its end on ``raw`` (inside a transaction the caller opened); its result."""
    try:
        query = next(program)
        while True:
            query = program.send(_answer(raw, query))
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        program.close()


def _answer(raw: sqlite3.Connection, query: Query) -> Any:
    want = query.want
    if want is Want.EACH:
        if query.params:
            raw.executemany(query.sql, query.params)
        return None
    if want is Want.NOTICE:
        return None
    try:
        cursor = raw.execute(query.sql, query.params)
    except sqlite3.IntegrityError:
        if query.duplicate_is_none:
            return None
        raise
    if want is Want.ROWS:
        return cursor.fetchall()
    if want is Want.ROW:
        return cursor.fetchone()
    if want is Want.VALUE:
        found = cursor.fetchone()
        return None if found is None else found[0]
    if want is Want.COUNT:
        return cursor.rowcount
    if want is Want.NEW_ID:
        return cursor.lastrowid if cursor.rowcount == 1 else None
    return None
