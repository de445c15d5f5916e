"""The database the bot keeps everything in: a SQLite file (the default, one process) or PostgreSQL
(``BIGAPPLE_DB=postgresql://…``, any number of processes, each running its own shards).

``open_stores`` opens the match store and the stores beside it on the same database, and says clearly why
it cannot: a second process on one SQLite file, or a shard range on SQLite, which one process serves whole.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from data.db import OneProcess
from data.digests import SqliteDigests
from data.postgres.db import is_postgres
from data.postgres.digests import PostgresDigests
from data.postgres.queue import PostgresQueue
from data.postgres.ratings import PostgresRatings
from data.postgres.settings import PostgresSettings
from data.postgres.store import PostgresMatchStore
from data.postgres.tournaments import PostgresTournamentStore
from data.queue import SqliteQueue
from data.ratings import SqliteRatings
from data.settings import SqliteSettings
from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.host.shards import Shards

AnyMatchStore = SqliteMatchStore | PostgresMatchStore
AnyRatings = SqliteRatings | PostgresRatings
AnyTournamentStore = SqliteTournamentStore | PostgresTournamentStore
AnySettings = SqliteSettings | PostgresSettings
AnyQueue = SqliteQueue | PostgresQueue
AnyDigests = SqliteDigests | PostgresDigests


@dataclass
class Stores:
    """The stores of one database, and what to let go of when closing it."""

    matches: AnyMatchStore
    ratings: AnyRatings
    tournaments: AnyTournamentStore
    settings: AnySettings
    queue: AnyQueue
    digests: AnyDigests
    lock: OneProcess | None = None

    async def close(self) -> None:
        try:
            await self.matches.close()
        finally:
            if self.lock is not None:
                self.lock.release()


def claim_name(shards: Shards | None) -> str:
    """How a process signs the notices it claims: by its shards, so that the same shards started again
    (after a crash) take their unsent notices back at once instead of waiting for the claims to lapse."""
    if shards is None or shards.everything:
        return "all shards"
    return f"shards {','.join(map(str, sorted(shards.ids)))} of {shards.count}"


async def open_stores(
    database: str | os.PathLike[str], *, clock: Callable[[], str], shards: Shards | None = None
) -> Stores:
    """Open the stores on ``database``. Raises ``RuntimeError`` saying what to do when this process may
    not use it, and the database's own errors when it cannot be opened."""
    target = os.fspath(database)
    if is_postgres(target):
        store = await PostgresMatchStore.open(target, clock=clock, shards=shards, process=claim_name(shards))
        pool = store.database
        return Stores(
            matches=store,
            ratings=PostgresRatings(pool, clock=clock),
            tournaments=PostgresTournamentStore(pool, clock=clock, shards=shards),
            settings=PostgresSettings(pool),
            queue=PostgresQueue(pool),
            digests=PostgresDigests(pool),
        )
    if shards is not None and not shards.everything:
        raise RuntimeError(
            "a SQLite database is served by one process, which runs every shard: leave "
            "BIGAPPLE_SHARD_IDS unset, or use PostgreSQL (BIGAPPLE_DB=postgresql://…) for several processes"
        )
    lock = OneProcess.claim(Path(target))
    try:
        sqlite = await SqliteMatchStore.open(Path(target), clock=clock)
    except BaseException:
        lock.release()
        raise
    return Stores(
        matches=sqlite,
        ratings=SqliteRatings.from_store(sqlite),
        tournaments=SqliteTournamentStore.beside(sqlite),
        settings=SqliteSettings.beside(sqlite),
        queue=SqliteQueue.beside(sqlite),
        digests=SqliteDigests.beside(sqlite),
        lock=lock,
    )
