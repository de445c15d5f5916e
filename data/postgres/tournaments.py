"""Tournaments on PostgreSQL (see ``data.tournaments`` for the SQLite twin)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from data import db as dbmod
from data.postgres.db import Conn, PgDatabase
from data.postgres.settings import PostgresSettings
from data.postgres.sql import Args, row_count, shard_clause
from data.tournaments import match_links, tournament_of_row
from engine.core.errors import CorruptRecord, StaleVersion
from engine.core.errors import MatchNotFound as TournamentNotFound
from engine.host.shards import Shards
from engine.host.tournaments import TournamentDraft, TournamentRecord, TournamentStatus

log = logging.getLogger(__name__)
_COLUMNS = "id, status, version, record"


class PostgresTournamentStore:
    """``TournamentStore`` on PostgreSQL; every write is one transaction. ``shards``: the process runs
    the tournaments of these shards' servers alone (``tournament_ids``, which drives its timers)."""

    def __init__(
        self, database: PgDatabase, clock: Callable[[], str] = dbmod.utc_now, shards: Shards | None = None
    ) -> None:
        self._db = database
        self._clock = clock
        self._shards = shards

    async def create_tournament(self, draft: TournamentDraft) -> TournamentRecord:
        now = self._clock()

        async def body(conn: Conn) -> TournamentRecord:
            tournament_id = await conn.fetchval(
                "INSERT INTO tournaments (guild_id, status, version, record, created_at, updated_at) "
                "VALUES ($1, $2, 0, '{}', $3, $3) RETURNING id",
                draft.guild_id,
                TournamentStatus.DRAFT.value,
                now,
            )
            record = TournamentRecord(**draft.model_dump(), id=tournament_id, announced=())
            await conn.execute(
                "UPDATE tournaments SET record = $1 WHERE id = $2", record.model_dump_json(), tournament_id
            )
            return record

        return await self._db.write(body)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord:
        """Raises ``MatchNotFound`` (no such tournament) or ``CorruptRecord``."""
        row = await self._db.read(
            lambda conn: conn.fetchrow(f"SELECT {_COLUMNS} FROM tournaments WHERE id = $1", tournament_id)
        )
        if row is None:
            raise TournamentNotFound(f"there is no tournament {tournament_id}")
        return tournament_of_row(tuple(row))

    async def list_tournaments(
        self, statuses: Sequence[TournamentStatus] = (), guild_id: int | None = None, limit: int = 50
    ) -> list[TournamentRecord]:
        wanted = [TournamentStatus(s).value for s in statuses] or None
        rows = await self._db.read(
            lambda conn: conn.fetch(
                f"SELECT {_COLUMNS} FROM tournaments WHERE ($1::text[] IS NULL OR status = ANY($1)) "
                "AND ($2::bigint IS NULL OR guild_id = $2) ORDER BY id DESC LIMIT $3",
                wanted,
                guild_id,
                max(0, limit),
            )
        )
        records = []
        for row in rows:
            try:
                records.append(tournament_of_row(tuple(row)))
            except CorruptRecord as exc:
                # One unreadable tournament never hides the others.
                log.warning("left tournament %s out of a listing: %s", row[0], exc.message)
        return records

    async def tournament_ids(self, statuses: Sequence[TournamentStatus]) -> list[int]:
        """Ids of this process's tournaments in ``statuses``, oldest first (records are not read)."""
        args = Args([TournamentStatus(s).value for s in statuses])
        shards = shard_clause(self._shards, "guild_id", args)
        sql = f"SELECT id FROM tournaments WHERE status = ANY($1) {shards} ORDER BY id"
        rows = await self._db.read(lambda conn: conn.fetch(sql, *args.values))
        return [int(row[0]) for row in rows]

    async def save_tournament(self, record: TournamentRecord, expected_version: int) -> TournamentRecord:
        """Store ``record`` if the tournament is still at ``expected_version``; raises ``StaleVersion``."""
        saved = record.model_copy(update={"version": expected_version + 1})
        now = self._clock()

        async def body(conn: Conn) -> TournamentRecord:
            changed = await conn.execute(
                "UPDATE tournaments SET status = $1, version = version + 1, record = $2, guild_id = $3, "
                "updated_at = $4 WHERE id = $5 AND version = $6",
                saved.status.value,
                saved.model_dump_json(),
                saved.guild_id,
                now,
                saved.id,
                expected_version,
            )
            if row_count(changed) != 1:
                version = await conn.fetchval("SELECT version FROM tournaments WHERE id = $1", saved.id)
                if version is None:
                    raise TournamentNotFound(f"there is no tournament {saved.id}")
                raise StaleVersion(
                    f"tournament {saved.id} changed meanwhile (version {version}, "
                    f"not {expected_version}); try again"
                )
            links = match_links(saved)
            await conn.executemany(
                "INSERT INTO tournament_matches (match_id, tournament_id) VALUES ($1, $2) "
                "ON CONFLICT DO NOTHING",
                links,
            )
            return saved

        return await self._db.write(body)

    async def tournament_of_match(self, match_id: int) -> int | None:
        found = await self._db.read(
            lambda conn: conn.fetchval(
                "SELECT tournament_id FROM tournament_matches WHERE match_id = $1", match_id
            )
        )
        return None if found is None else int(found)

    async def setting(self, guild_id: int, key: str) -> str | None:
        """A server's setting (e.g. ``tournament_role``), or None when unset."""
        return await PostgresSettings(self._db).get("guild", guild_id, key)

    async def set_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set (or with None, clear) a server's setting."""
        await PostgresSettings(self._db).set("guild", guild_id, key, value)
