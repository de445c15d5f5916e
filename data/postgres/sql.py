"""Small pieces of SQL for the PostgreSQL stores: numbered parameters for queries built from parts or
written once for both databases, the shard filter, the row counts asyncpg reports, and the driver that
runs the programs both stores share (``data.sql``) on an asyncpg connection."""

from __future__ import annotations

import re
from collections.abc import Coroutine
from typing import Any, TypeVar

import asyncpg

from data.postgres.db import Conn, PgDatabase
from data.sql import POSTGRES, Clause, Program, ProgramFactory, Query, Want
from engine.host.shards import Shards

T = TypeVar("T")


class Args:
    """The parameters of a query built from parts: ``args(value)`` adds one and gives its ``$n``."""

    def __init__(self, *values: Any) -> None:
        self.values: list[Any] = list(values)

    def __call__(self, value: Any) -> str:
        self.values.append(value)
        return f"${len(self.values)}"


def shard_clause(shards: Shards | None, guild_column: str, args: Args) -> str:
    """``AND`` the rows whose match's server is on one of ``shards`` (Discord's formula; no server,
    direct messages, is shard 0), or nothing when ``shards`` is None or owns every shard."""
    if shards is None or shards.everything:
        return ""
    count = args(shards.count)
    ids = args(sorted(shards.ids))
    return f"AND ((COALESCE({guild_column}, 0) >> 22) % {count}) = ANY({ids}::int[])"


def shard_filter(shards: Shards | None, guild_column: str) -> Clause:
    """``shard_clause`` with ``?`` placeholders, for the queries written once for both databases."""
    args = Args()
    clause = shard_clause(shards, guild_column, args)
    return re.sub(r"\$\d+", "?", clause), tuple(args.values)


def row_count(status: str) -> int:
    """The rows an ``INSERT``/``UPDATE``/``DELETE`` touched, from its status (``'UPDATE 1'``)."""
    return int(status.rsplit(" ", 1)[-1])


# A quoted literal or identifier (left as it is), or a placeholder.
_PIECE = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")


def numbered(sql: str) -> str:
    """SQL written for SQLite with ``?`` placeholders, for PostgreSQL: each ``?`` outside quotes becomes
    ``$n``, numbered from 1 in order."""
    count = 0

    def replace(found: re.Match[str]) -> str:
        nonlocal count
        if found.group(0) != "?":
            return found.group(0)
        count += 1
        return f"${count}"

    return _PIECE.sub(replace, sql)


# Queries written for both databases, numbered once each: a store asks the same few hundred again and again.
_NUMBERED: dict[str, str] = {}
_NUMBERED_MOST = 4096


def _numbered_once(sql: str) -> str:
    found = _NUMBERED.get(sql)
    if found is None:
        found = numbered(sql)
        if len(_NUMBERED) < _NUMBERED_MOST:
            _NUMBERED[sql] = found
    return found


class PgTransactions:
    """``Transactions`` (``data.sql``) on a ``PgDatabase``: each program runs whole on one pooled
    connection, reads in one snapshot (``PgDatabase.read``), writes under READ COMMITTED."""

    dialect = POSTGRES

    def __init__(self, db: PgDatabase) -> None:
        self.db = db

    def read(self, program: ProgramFactory[T], *, may_inline: bool = True) -> Coroutine[Any, Any, T]:
        return self.db.read(lambda conn: run(conn, program()))

    def write(self, program: ProgramFactory[T]) -> Coroutine[Any, Any, T]:
        return self.db.write(lambda conn: run(conn, program()))


async def run(conn: Conn, program: Program[T]) -> T:
    """Run ``program`` (see ``data.sql``) to its end on ``conn`` (inside a transaction the caller
    opened); its result."""
    try:
        query = next(program)
        while True:
            query = program.send(await _answer(conn, query))
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        program.close()


async def _answer(conn: Conn, query: Query) -> Any:
    want = query.want
    if want is Want.NOTICE:
        await conn.execute("SELECT pg_notify($1, $2)", query.sql, *query.params)
        return None
    sql = _numbered_once(query.sql)
    if want is Want.EACH:
        if query.params:
            await conn.executemany(sql, query.params)
        return None
    try:
        if want is Want.ROWS:
            return await conn.fetch(sql, *query.params)
        if want is Want.ROW:
            return await conn.fetchrow(sql, *query.params)
        if want is Want.VALUE:
            return await conn.fetchval(sql, *query.params)
        if want is Want.NEW_ID:
            return await conn.fetchval(f"{sql} RETURNING id", *query.params)
        status = await conn.execute(sql, *query.params)
    except asyncpg.UniqueViolationError:
        if query.duplicate_is_none:
            return None
        raise
    return row_count(status) if want is Want.COUNT else None
