"""Small pieces of SQL for the PostgreSQL stores: numbered parameters for queries built from parts or
written once for both databases, the shard filter, and the row counts asyncpg reports."""

from __future__ import annotations

import re
from typing import Any

from engine.host.shards import Shards


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
