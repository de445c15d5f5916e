"""Rows a sweep cannot read (a seat's clock, a held turn ping), set aside so they never stop the others.

A sweep reads its due rows one by one: a row that cannot be read is kept out of what the sweep gets,
marked in its ``quarantined`` column with what is wrong with it (so no later pass reads it again) and
named once in the log, by its match and seat, never by a secret value. Both stores use these helpers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.core.errors import CorruptRecord

log = logging.getLogger(__name__)

T = TypeVar("T")

# The primary key of each table a sweep reads, as the quarantine finds its row again.
KEYS = {"seat_clocks": ("match_id", "seat"), "turn_pings": ("match_id", "turn", "seat")}


@dataclass(frozen=True)
class Unreadable:
    """A row of ``table`` that cannot be read: its key values as stored, and what is wrong with it."""

    table: str
    key: tuple[Any, ...]
    problem: str


def unreadable_row(table: str, key: tuple[Any, ...], problem: CorruptRecord) -> Unreadable:
    """The row of ``table`` with ``key`` that cannot be read for ``problem``."""
    return Unreadable(table, key, problem.message.removesuffix("; nothing was changed"))


def read_each(table: str, found: Iterable[Any], read: Callable[[Any], T]) -> tuple[list[T], list[Unreadable]]:
    """``read`` applied to each row of ``found`` (its key columns first, as ``KEYS`` has them), and the
    rows it could not read."""
    width = len(KEYS[table])
    readable: list[T] = []
    unreadable: list[Unreadable] = []
    for row in found:
        try:
            readable.append(read(row))
        except CorruptRecord as exc:
            unreadable.append(unreadable_row(table, tuple(row[:width]), exc))
    return readable, unreadable


def quarantine_sql(table: str, mark: Callable[[int], str]) -> str:
    """The update setting one row of ``table`` aside (the problem first, then its key), unless it already
    is; ``mark(n)`` is the database's ``n``-th placeholder."""
    where = " AND ".join(f"{column} = {mark(i)}" for i, column in enumerate(KEYS[table], start=2))
    return f"UPDATE {table} SET quarantined = {mark(1)} WHERE {where} AND quarantined IS NULL"


def quarantine_params(row: Unreadable) -> tuple[Any, ...]:
    return (row.problem, *row.key)


def report(row: Unreadable) -> None:
    """Name a row just set aside (once: only the pass that set it aside calls this)."""
    names = dict(zip(KEYS[row.table], row.key, strict=True))
    where = ", ".join(f"{column} {value!r:.40}" for column, value in names.items() if column != "match_id")
    log.warning(
        "match %s: a %s row (%s) is set aside and no sweep reads it again: %s",
        names.get("match_id"),
        row.table,
        where,
        row.problem,
    )
