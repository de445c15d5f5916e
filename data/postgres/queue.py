"""The servers' queues on PostgreSQL (``data.queue.SqlQueue``)."""

from __future__ import annotations

from data.postgres.db import PgDatabase
from data.postgres.sql import PgTransactions
from data.queue import SqlQueue


class PostgresQueue(SqlQueue):
    """The queues in the matches' PostgreSQL database."""

    def __init__(self, database: PgDatabase) -> None:
        super().__init__(PgTransactions(database))
