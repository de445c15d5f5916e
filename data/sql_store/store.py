"""``SqlMatchStore``: the ``MatchStore`` port written once for SQLite and PostgreSQL.

Every method runs its whole transaction as one program of queries (``data.sql``), which the store
under it runs on its own database: ``SqliteMatchStore`` (``data.store``) in one hop to aiosqlite's
worker thread or on the event loop, ``PostgresMatchStore`` (``data.postgres.store``) on a pooled
asyncpg connection. Writes that change a match are guarded by ``UPDATE matches SET version = version
+ 1 … WHERE id = ? AND version = ?`` and roll back with ``StaleVersion`` when another writer (task,
store or process) got there first. What the two databases write differently is in ``data.sql.Dialect``;
what only one of them does (the outbox's claims on PostgreSQL) is in its own store.
"""

from __future__ import annotations

from data.sql_store.core import D
from data.sql_store.matches import MatchMethods
from data.sql_store.notices import NoticeMethods
from data.sql_store.offers import OfferMethods


class SqlMatchStore(MatchMethods[D], NoticeMethods[D], OfferMethods[D]):
    """Durable match storage in an SQL database ``D`` (see ``engine.host.ports.MatchStore``). Reads raise
    ``MatchNotFound`` for an unknown match and ``CorruptRecord`` for a row that cannot be read; writes
    raise those too (and then change nothing), plus ``StaleVersion``, ``LobbyError`` or ``MatchClosed``
    as documented per method."""
