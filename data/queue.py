"""The servers' queues (``engine.host.queue_entries``) in the same database as the matches: one
implementation for SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from data import db as dbmod
from data import sql
from data.sql import Program, SqliteTransactions, Transactions
from data.store import SqliteMatchStore
from engine.host.clock import Pace
from engine.host.queue_entries import QueueEntry

_COLUMNS = (
    "guild_id, user_id, game, name, channel_id, pace, seat_counts, computers, patience_s, since, "
    "least_reliability"
)


class NotAllThere(Exception):
    """Rolls back a taking of entries of which one was gone."""


def _entry(row: Sequence[Any]) -> QueueEntry:
    guild_id, user_id, game, name, channel_id, pace, counts, computers, patience_s, since, least = row
    return QueueEntry(
        guild_id=int(guild_id),
        user_id=int(user_id),
        game=str(game),
        name=str(name),
        channel_id=None if channel_id is None else int(channel_id),
        pace=Pace(pace),
        seat_counts=frozenset(int(n) for n in str(counts).split(",") if n),
        computers=None if computers is None else str(computers),
        patience=timedelta(seconds=int(patience_s)),
        since=datetime.fromisoformat(str(since)),
        least_reliability=float(least),
    )


class SqlQueue:
    """``QueueStore`` on an SQL database; every call is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    async def put(self, entry: QueueEntry) -> None:
        statement = self._transactions.dialect.upsert(
            "queue_entries", _COLUMNS, ("guild_id", "user_id", "game")
        )
        params = (
            entry.guild_id,
            entry.user_id,
            entry.game,
            entry.name,
            entry.channel_id,
            entry.pace.value,
            ",".join(str(n) for n in sorted(entry.seat_counts)),
            entry.computers,
            int(entry.patience.total_seconds()),
            entry.since.isoformat(timespec="milliseconds"),
            entry.least_reliability,
        )
        await self._transactions.write(lambda: sql.changing(statement, *params))

    async def remove(self, guild_id: int, user_id: int, game: str | None = None) -> int:
        if game is None:
            statement = "DELETE FROM queue_entries WHERE guild_id = ? AND user_id = ?"
            params: tuple[object, ...] = (guild_id, user_id)
        else:
            statement = "DELETE FROM queue_entries WHERE guild_id = ? AND user_id = ? AND game = ?"
            params = (guild_id, user_id, game)
        return await self._transactions.write(lambda: sql.changing(statement, *params))

    async def entries(self, guild_id: int | None = None) -> list[QueueEntry]:
        where, params = ("WHERE guild_id = ?", (guild_id,)) if guild_id is not None else ("", ())

        def body() -> Program[list[QueueEntry]]:
            found = yield sql.rows(f"SELECT {_COLUMNS} FROM queue_entries {where} ORDER BY since", *params)
            return [_entry(row) for row in found]

        return await self._transactions.read(body)

    async def take(self, guild_id: int, game: str, user_ids: Sequence[int]) -> bool:
        def body() -> Program[bool]:
            taken = yield sql.count(
                "DELETE FROM queue_entries WHERE guild_id = ? AND game = ? "
                f"AND user_id IN ({sql.marks(len(user_ids))})",
                guild_id,
                game,
                *user_ids,
            )
            if taken != len(set(user_ids)):
                raise NotAllThere
            return True

        try:
            return await self._transactions.write(body)
        except NotAllThere:
            return False

    async def move_moments(self, user_id: int, limit: int) -> list[datetime]:
        def body() -> Program[list[datetime]]:
            found = yield sql.rows(
                "SELECT a.created_at FROM players p "
                "JOIN actions a ON a.match_id = p.match_id AND a.seat = p.seat "
                "WHERE p.user_id = ? AND NOT a.stand_in "
                "ORDER BY a.match_id DESC, a.version DESC LIMIT ?",
                user_id,
                limit,
            )
            return [datetime.fromisoformat(str(row[0])) for row in found]

        return await self._transactions.read(body)


class SqliteQueue(SqlQueue):
    """The queues in the matches' SQLite file."""

    def __init__(self, db: dbmod.Database) -> None:
        super().__init__(SqliteTransactions(db))

    @classmethod
    def beside(cls, store: SqliteMatchStore) -> SqliteQueue:
        return cls(store.database)
