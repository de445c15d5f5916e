"""SQL written once for both databases: SQLite's ``?`` placeholders become PostgreSQL's ``$1, $2, …``."""

from __future__ import annotations

import re

# A quoted literal or identifier (left as it is), or a placeholder.
_PIECE = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?")


def numbered(sql: str) -> str:
    """``sql`` with each ``?`` outside quotes replaced by ``$n``, numbered from 1 in order."""
    count = 0

    def replace(found: re.Match[str]) -> str:
        nonlocal count
        if found.group(0) != "?":
            return found.group(0)
        count += 1
        return f"${count}"

    return _PIECE.sub(replace, sql)
