"""Settings of people and servers on PostgreSQL (``data.settings.SqlSettings``)."""

from __future__ import annotations

from data.postgres.db import PgDatabase
from data.postgres.sql import PgTransactions
from data.settings import SqlSettings


class PostgresSettings(SqlSettings):
    """Settings in the matches' PostgreSQL database."""

    def __init__(self, database: PgDatabase) -> None:
        super().__init__(PgTransactions(database))
