"""Tournament storage in the same SQLite file as the matches (see ``engine.host.tournaments``)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError

from data import db as dbmod
from data.store import SqliteMatchStore
from engine.core.errors import CorruptRecord, StaleVersion
from engine.core.errors import MatchNotFound as TournamentNotFound
from engine.host.tournaments import TournamentDraft, TournamentRecord, TournamentStatus

log = logging.getLogger(__name__)


class SqliteTournamentStore:
    """``TournamentStore`` on a ``data.db.Database``; every write is one transaction."""

    def __init__(self, db: dbmod.Database, clock: Callable[[], str] = dbmod.utc_now) -> None:
        self._db = db
        self._clock = clock

    @classmethod
    def beside(cls, store: SqliteMatchStore) -> SqliteTournamentStore:
        """A tournament store sharing ``store``'s connection (and so its transactions' file)."""
        return cls(store.database)

    async def create_tournament(self, draft: TournamentDraft) -> TournamentRecord:
        now = self._clock()

        def body(raw: sqlite3.Connection) -> TournamentRecord:
            cursor = raw.execute(
                "INSERT INTO tournaments (guild_id, status, version, record, created_at, updated_at) "
                "VALUES (?, ?, 0, '{}', ?, ?)",
                (draft.guild_id, TournamentStatus.DRAFT.value, now, now),
            )
            tournament_id = cursor.lastrowid
            assert tournament_id is not None
            record = TournamentRecord(**draft.model_dump(), id=tournament_id, announced=())
            raw.execute(
                "UPDATE tournaments SET record = ? WHERE id = ?", (record.model_dump_json(), tournament_id)
            )
            return record

        return await self._db.write(body)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord:
        """Raises ``MatchNotFound`` (no such tournament) or ``CorruptRecord``."""

        def body(raw: sqlite3.Connection) -> TournamentRecord:
            row = raw.execute(
                "SELECT id, status, version, record FROM tournaments WHERE id = ?", (tournament_id,)
            ).fetchone()
            if row is None:
                raise TournamentNotFound(f"there is no tournament {tournament_id}")
            return tournament_of_row(row)

        return await self._db.read(body)

    async def list_tournaments(
        self, statuses: Sequence[TournamentStatus] = (), guild_id: int | None = None, limit: int = 50
    ) -> list[TournamentRecord]:
        where: list[str] = []
        params: list[Any] = []
        if statuses:
            where.append(f"status IN ({', '.join('?' * len(statuses))})")
            params += [TournamentStatus(s).value for s in statuses]
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        sql = f"SELECT id, status, version, record FROM tournaments {clause} ORDER BY id DESC LIMIT ?"

        def body(raw: sqlite3.Connection) -> list[TournamentRecord]:
            records = []
            for row in raw.execute(sql, (*params, max(0, limit))):
                try:
                    records.append(tournament_of_row(row))
                except CorruptRecord as exc:
                    # One unreadable tournament never hides the others.
                    log.warning("left tournament %s out of a listing: %s", row[0], exc.message)
            return records

        return await self._db.read(body, may_inline=False)

    async def tournament_ids(self, statuses: Sequence[TournamentStatus]) -> list[int]:
        """Ids of the tournaments in ``statuses``, oldest first (records are not read)."""
        wanted = [TournamentStatus(s).value for s in statuses]
        sql = f"SELECT id FROM tournaments WHERE status IN ({', '.join('?' * len(wanted))}) ORDER BY id"

        def body(raw: sqlite3.Connection) -> list[int]:
            return [int(row[0]) for row in raw.execute(sql, wanted)]

        return await self._db.read(body, may_inline=False)

    async def save_tournament(self, record: TournamentRecord, expected_version: int) -> TournamentRecord:
        """Store ``record`` if the tournament is still at ``expected_version``; raises ``StaleVersion``."""
        saved = record.model_copy(update={"version": expected_version + 1})
        now = self._clock()

        def body(raw: sqlite3.Connection) -> TournamentRecord:
            changed = raw.execute(
                "UPDATE tournaments SET status = ?, version = version + 1, record = ?, guild_id = ?, "
                "updated_at = ? WHERE id = ? AND version = ?",
                (
                    saved.status.value,
                    saved.model_dump_json(),
                    saved.guild_id,
                    now,
                    saved.id,
                    expected_version,
                ),
            ).rowcount
            if changed != 1:
                row = raw.execute("SELECT version FROM tournaments WHERE id = ?", (saved.id,)).fetchone()
                if row is None:
                    raise TournamentNotFound(f"there is no tournament {saved.id}")
                raise StaleVersion(
                    f"tournament {saved.id} changed meanwhile (version {row[0]}, "
                    f"not {expected_version}); try again"
                )
            links = match_links(saved)
            raw.executemany(
                "INSERT OR IGNORE INTO tournament_matches (match_id, tournament_id) VALUES (?, ?)", links
            )
            return saved

        return await self._db.write(body)

    async def tournament_of_match(self, match_id: int) -> int | None:
        def body(raw: sqlite3.Connection) -> int | None:
            row = raw.execute(
                "SELECT tournament_id FROM tournament_matches WHERE match_id = ?", (match_id,)
            ).fetchone()
            return None if row is None else int(row[0])

        return await self._db.read(body)

    async def setting(self, guild_id: int, key: str) -> str | None:
        """A server's setting (e.g. ``tournament_role``), or None when unset."""

        def body(raw: sqlite3.Connection) -> str | None:
            row = raw.execute(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._db.read(body)

    async def set_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set (or with None, clear) a server's setting."""

        def body(raw: sqlite3.Connection) -> None:
            if value is None:
                raw.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
            else:
                raw.execute(
                    "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                    (guild_id, key, value),
                )

        await self._db.write(body)


def match_links(record: TournamentRecord) -> list[tuple[int, int]]:
    """(match id, tournament id) of every table of ``record`` that has its match."""
    return [
        (table.match_id, record.id)
        for rnd in record.rounds
        for table in rnd.tables
        if table.match_id is not None
    ]


def tournament_of_row(row: Sequence[Any]) -> TournamentRecord:
    tournament_id, status, version, text = row
    try:
        record = TournamentRecord.model_validate_json(text)
        return record.model_copy(
            update={"id": tournament_id, "version": version, "status": TournamentStatus(status)}
        )
    except (ValidationError, ValueError) as exc:
        raise CorruptRecord(
            f"tournament {tournament_id} cannot be read ({exc.__class__.__name__}); nothing was changed"
        ) from None
