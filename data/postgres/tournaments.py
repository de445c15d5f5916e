"""Tournaments on PostgreSQL (``data.tournaments.SqlTournamentStore``)."""

from __future__ import annotations

from collections.abc import Callable

from data import db as dbmod
from data.postgres.db import PgDatabase
from data.postgres.sql import PgTransactions, shard_filter
from data.sql import Clause
from data.tournaments import SqlTournamentStore
from engine.host.shards import Shards


class PostgresTournamentStore(SqlTournamentStore):
    """``TournamentStore`` on PostgreSQL. ``shards``: the process runs the tournaments of these shards'
    servers alone (``tournament_ids``, which drives its timers)."""

    def __init__(
        self, database: PgDatabase, clock: Callable[[], str] = dbmod.utc_now, shards: Shards | None = None
    ) -> None:
        super().__init__(PgTransactions(database), clock)
        self._shards = shards

    def _owned(self) -> Clause:
        return shard_filter(self._shards, "guild_id")
