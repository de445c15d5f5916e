"""Tournament storage in the same database as the matches (see ``engine.host.tournaments``): one
implementation for SQLite and PostgreSQL."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError

from data import db as dbmod
from data import sql
from data.settings import SqlSettings
from data.sql import NO_CLAUSE, Clause, Program, SqliteTransactions, Transactions
from data.store import SqliteMatchStore
from engine.core.errors import CorruptRecord, StaleVersion
from engine.core.errors import MatchNotFound as TournamentNotFound
from engine.host.tournaments import TournamentDraft, TournamentRecord, TournamentStatus

log = logging.getLogger(__name__)
_COLUMNS = "id, status, version, record"


class SqlTournamentStore:
    """``TournamentStore`` on an SQL database; every write is one transaction."""

    def __init__(self, transactions: Transactions, clock: Callable[[], str] = dbmod.utc_now) -> None:
        self._transactions = transactions
        self._clock = clock

    def _owned(self) -> Clause:
        """The condition (on ``guild_id``) that keeps the tournaments whose timers this store drives:
        every tournament, unless a store says otherwise."""
        return NO_CLAUSE

    async def create_tournament(self, draft: TournamentDraft) -> TournamentRecord:
        now = self._clock()

        def body() -> Program[TournamentRecord]:
            tournament_id = yield sql.new_id(
                "INSERT INTO tournaments (guild_id, status, version, record, created_at, updated_at) "
                "VALUES (?, ?, 0, '{}', ?, ?)",
                draft.guild_id,
                TournamentStatus.DRAFT.value,
                now,
                now,
            )
            assert tournament_id is not None
            record = TournamentRecord(**draft.model_dump(), id=tournament_id, announced=())
            text = record.model_dump_json()
            yield sql.count("UPDATE tournaments SET record = ? WHERE id = ?", text, tournament_id)
            return record

        return await self._transactions.write(body)

    async def get_tournament(self, tournament_id: int) -> TournamentRecord:
        """Raises ``MatchNotFound`` (no such tournament) or ``CorruptRecord``."""

        def body() -> Program[TournamentRecord]:
            found = yield sql.row(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", tournament_id)
            if found is None:
                raise TournamentNotFound(f"there is no tournament {tournament_id}")
            return tournament_of_row(tuple(found))

        return await self._transactions.read(body)

    async def list_tournaments(
        self, statuses: Sequence[TournamentStatus] = (), guild_id: int | None = None, limit: int = 50
    ) -> list[TournamentRecord]:
        where: list[str] = []
        params: list[Any] = []
        if statuses:
            where.append(f"status IN ({sql.marks(len(statuses))})")
            params += [TournamentStatus(s).value for s in statuses]
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        statement = f"SELECT {_COLUMNS} FROM tournaments {clause} ORDER BY id DESC LIMIT ?"

        def body() -> Program[list[TournamentRecord]]:
            records = []
            for found in (yield sql.rows(statement, *params, max(0, limit))):
                try:
                    records.append(tournament_of_row(tuple(found)))
                except CorruptRecord as exc:
                    # One unreadable tournament never hides the others.
                    log.warning("left tournament %s out of a listing: %s", found[0], exc.message)
            return records

        return await self._transactions.read(body, may_inline=False)

    async def tournament_ids(self, statuses: Sequence[TournamentStatus]) -> list[int]:
        """Ids of the tournaments in ``statuses`` whose timers this store drives, oldest first (records
        are not read)."""
        wanted = [TournamentStatus(s).value for s in statuses]
        owned, owned_params = self._owned()
        statement = (
            f"SELECT id FROM tournaments WHERE status IN ({sql.marks(len(wanted))}) {owned} ORDER BY id"
        )

        def body() -> Program[list[int]]:
            return [int(found[0]) for found in (yield sql.rows(statement, *wanted, *owned_params))]

        return await self._transactions.read(body, may_inline=False)

    async def save_tournament(self, record: TournamentRecord, expected_version: int) -> TournamentRecord:
        """Store ``record`` if the tournament is still at ``expected_version``; raises ``StaleVersion``."""
        saved = record.model_copy(update={"version": expected_version + 1})
        now = self._clock()
        link = self._transactions.dialect.insert_ignoring(
            "tournament_matches (match_id, tournament_id) VALUES (?, ?)"
        )

        def body() -> Program[TournamentRecord]:
            changed = yield sql.count(
                "UPDATE tournaments SET status = ?, version = version + 1, record = ?, guild_id = ?, "
                "updated_at = ? WHERE id = ? AND version = ?",
                saved.status.value,
                saved.model_dump_json(),
                saved.guild_id,
                now,
                saved.id,
                expected_version,
            )
            if changed != 1:
                version = yield sql.value("SELECT version FROM tournaments WHERE id = ?", saved.id)
                if version is None:
                    raise TournamentNotFound(f"there is no tournament {saved.id}")
                raise StaleVersion(
                    f"tournament {saved.id} changed meanwhile (version {version}, "
                    f"not {expected_version}); try again"
                )
            yield sql.each(link, match_links(saved))
            return saved

        return await self._transactions.write(body)

    async def tournament_of_match(self, match_id: int) -> int | None:
        def body() -> Program[int | None]:
            found = yield sql.value(
                "SELECT tournament_id FROM tournament_matches WHERE match_id = ?", match_id
            )
            return None if found is None else int(found)

        return await self._transactions.read(body)

    async def setting(self, guild_id: int, key: str) -> str | None:
        """A server's setting (e.g. ``tournament_role``), or None when unset."""
        return await SqlSettings(self._transactions).get("guild", guild_id, key)

    async def set_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set (or with None, clear) a server's setting."""
        await SqlSettings(self._transactions).set("guild", guild_id, key, value)


class SqliteTournamentStore(SqlTournamentStore):
    """``TournamentStore`` on a ``data.db.Database``."""

    def __init__(self, db: dbmod.Database, clock: Callable[[], str] = dbmod.utc_now) -> None:
        super().__init__(SqliteTransactions(db), clock)

    @classmethod
    def beside(cls, store: SqliteMatchStore) -> SqliteTournamentStore:
        """A tournament store sharing ``store``'s connection (and so its transactions' file)."""
        return cls(store.database)


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
