"""A read-only look into a SQLite file that another process holds for itself (the bot, or the web table):
the little a command needs to print a link, read without taking the file, which stays theirs."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from data.settings import TABLES


def _reader(path: str | os.PathLike[str]) -> sqlite3.Connection:
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)


def seat_count(path: str | os.PathLike[str], match_id: int) -> int | None:
    """How many seats match ``match_id`` has; None when there is no such match."""
    with contextlib.closing(_reader(path)) as db:
        row = db.execute("SELECT seat_count FROM matches WHERE id = ?", (match_id,)).fetchone()
    return None if row is None else int(row[0])


def setting(path: str | os.PathLike[str], scope: str, owner: int, key: str) -> str | None:
    """The setting ``key`` of ``owner`` (a user or a server, as ``scope`` says); None when unset."""
    table, column = TABLES[scope]
    with contextlib.closing(_reader(path)) as db:
        query = f"SELECT value FROM {table} WHERE {column} = ? AND key = ?"
        row = db.execute(query, (owner, key)).fetchone()
    return None if row is None else str(row[0])
