"""``PostgresRatings``: the ratings of ``data.ratings`` on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

from data import db as dbmod
from data.postgres.db import PgDatabase
from data.postgres.sql import PgTransactions
from data.ratings import SqlRatings


class PostgresRatings(SqlRatings):
    """Ratings on the matches' PostgreSQL database (see ``data.ratings.SqlRatings``)."""

    def __init__(self, database: PgDatabase, *, clock: Callable[[], str] = dbmod.utc_now) -> None:
        super().__init__(PgTransactions(database), clock=clock)
