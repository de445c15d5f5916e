"""Each person's daily digest on PostgreSQL (``data.digests.SqlDigests``)."""

from __future__ import annotations

from data.digests import SqlDigests
from data.postgres.db import PgDatabase
from data.postgres.sql import PgTransactions


class PostgresDigests(SqlDigests):
    """Digests in the matches' PostgreSQL database."""

    def __init__(self, database: PgDatabase) -> None:
        super().__init__(PgTransactions(database))
