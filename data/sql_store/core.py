"""What every part of the shared match store stands on: its settings, how it runs a transaction on its
database, the statements used across its parts, and the programs (``data.sql``) that load a match,
check a version guard and queue notices."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar

from data import clocks as clockrows
from data import db as dbmod
from data import rows, sql
from data.quarantine import Unreadable, report
from data.rows import MAX_DELIVERY_ATTEMPTS
from data.sql import NO_CLAUSE, Clause, Dialect, Program, ProgramFactory, Query, Transactions, Want
from engine.host.notify import TurnPing
from engine.host.ports import DeliveryDraft, MatchRecord
from engine.host.watch import MatchVersions

T = TypeVar("T")


class Closable(Protocol):
    async def close(self) -> None: ...


D = TypeVar("D", bound=Closable)

SELECT_MATCH = f"SELECT {rows.MATCH_COLUMNS} FROM matches WHERE id = ?"
SELECT_PLAYERS = f"SELECT {rows.PLAYER_COLUMNS} FROM players WHERE match_id = ? ORDER BY {rows.PLAYER_ORDER}"
INSERT_PLAYER = (
    "INSERT INTO players (match_id, joined, user_id, name, bot, seat) "
    "VALUES (?, (SELECT COALESCE(MAX(joined) + 1, 0) FROM players WHERE match_id = ?), ?, ?, ?, ?)"
)
REMEMBER_IMAGE = (
    "INSERT INTO sent_images (match_id, seat, digest) VALUES (?, ?, ?) "
    "ON CONFLICT (match_id, seat) DO UPDATE SET digest = excluded.digest"
)
INSERT_CHECKPOINT = "INSERT INTO checkpoints (match_id, version, state) VALUES (?, ?, ?)"
INSERT_DELIVERY = (
    "INSERT INTO deliveries (match_id, version, seat, payload, created_at) VALUES (?, ?, ?, ?, ?)"
)
INSERT_ACTION = (
    "INSERT INTO actions (match_id, version, seat, notation, created_at, stand_in) VALUES (?, ?, ?, ?, ?, ?)"
)
# The actions still in the log: those no undo has voided (see migration 0012).
KEPT = (
    "NOT EXISTS (SELECT 1 FROM void_actions AS v "
    "WHERE v.match_id = actions.match_id AND v.version = actions.version)"
)
SELECT_KEPT_LOG = (
    f"SELECT version, seat, notation, stand_in FROM actions WHERE match_id = ? AND {KEPT} ORDER BY version"
)
SELECT_LATEST_KEPT = (
    f"SELECT version, seat, notation, stand_in FROM actions WHERE match_id = ? AND {KEPT} "
    "ORDER BY version DESC LIMIT ?"
)
UPSERT_PING = (
    "INSERT INTO turn_pings (match_id, turn, seat, user_id, started_at, due_at, via, sent) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, turn, seat) DO UPDATE SET "
    "due_at = excluded.due_at, via = excluded.via, sent = excluded.sent WHERE turn_pings.sent = 0"
)

# Where each new version of a match is told, as "<match id> <version>", to whoever listens to the database.
VERSION_CHANNEL = "match_versions"

# The version guards. Each bumps the version only when the caller saw the current one and the match
# is in a status that allows the change; the status a guard needs is part of its WHERE clause.
GUARD_LOBBY = (
    "UPDATE matches SET version = version + 1, updated_at = ? "
    "WHERE id = ? AND version = ? AND status = 'lobby'"
)
GUARD_ACTIVE = (
    "UPDATE matches SET version = version + 1, updated_at = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)
GUARD_START = (
    "UPDATE matches SET version = version + 1, updated_at = ?, status = 'active', state_json = ? "
    "WHERE id = ? AND version = ? AND status = 'lobby'"
)
GUARD_COMMIT = (
    "UPDATE matches SET version = version + 1, updated_at = ?, status = ?, state_json = ?, result_json = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)
GUARD_UNDO = (
    "UPDATE matches SET version = version + 1, updated_at = ?, state_json = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)
GUARD_CLOSE = (
    "UPDATE matches SET version = version + 1, updated_at = ?, status = ?, result_json = ? "
    "WHERE id = ? AND version = ? AND status IN ('lobby', 'active')"
)


class StoreCore(Generic[D]):
    """The state of a match store on an SQL database ``D``, and the transactions it runs there."""

    def __init__(
        self,
        db: D,
        transactions: Transactions,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
    ) -> None:
        """A store on ``db``, whose programs ``transactions`` runs."""
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self._db = db
        self._transactions = transactions
        self.dialect: Dialect = transactions.dialect
        self.max_attempts = max_attempts
        self._clock = clock
        # The last record this store read or wrote per match (see ``commit_action``).
        self._known = rows.KnownMatches()
        # Told of every version this store's writes make, once each write is committed.
        self.versions = MatchVersions()

    @property
    def database(self) -> D:
        """The database under the store, for the other stores kept in it (tournaments, ratings)."""
        return self._db

    async def close(self) -> None:
        """Close the database (after the calls under way); closing twice is harmless."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    def hearing_others(self) -> AbstractAsyncContextManager[object]:
        """Within the block, ``versions`` is told as well of the versions other processes write. A SQLite
        file is held by one process (``data.db.OneProcess``): there is nobody else to hear."""
        return nullcontext()

    # A plain function handing over the transaction's coroutine: a read on the event loop costs a few
    # microseconds, and another coroutine in between would add a tenth to it. A write costs a commit.
    def _read(self, program: ProgramFactory[T], *, may_inline: bool = True) -> Coroutine[Any, Any, T]:
        return self._transactions.read(program, may_inline=may_inline)

    async def _write(self, program: ProgramFactory[T]) -> T:
        told: list[tuple[int, int]] = []
        result = await self._transactions.write(lambda: _telling(program(), told))
        for match_id, version in told:
            self.versions.publish(match_id, version)
        return result

    def _owned(self, guild_column: str) -> Clause:
        """The condition (on ``guild_column``) that keeps the matches whose duties this store does: the
        outbox, clocks, held pings and matches to resume. Every match, unless a store says otherwise."""
        return NO_CLAUSE

    async def _set_aside(self, unreadable: Sequence[Unreadable]) -> None:
        """Set aside the rows a sweep could not read, naming in the log each this call set aside."""
        if unreadable:
            for row in await self._write(lambda: clockrows.quarantine(unreadable)):
                report(row)


# ------------------------------------------------------------------------ programs inside a transaction


def _telling(program: Program[T], told: list[tuple[int, int]]) -> Program[T]:
    """``program``, keeping in ``told`` the new versions its notices tell (those of its last run: a
    transaction run again starts afresh)."""
    told.clear()
    try:
        query: Query = next(program)
        while True:
            if query.want is Want.NOTICE and query.sql == VERSION_CHANNEL:
                match_id, version = query.params[0].split()
                told.append((int(match_id), int(version)))
            query = program.send((yield query))
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        program.close()


def guard(
    statement: str,
    params: Sequence[Any],
    match_id: int,
    expected_version: int,
    refuse: rows.Refusal,
) -> Program[None]:
    """Run a version guard; if it changed no row, raise why: ``MatchNotFound``, ``StaleVersion``,
    ``CorruptRecord`` (unreadable status) or ``refuse(match_id, status)`` for a status it does not allow."""
    if (yield sql.count(statement, *params)) == 1:
        yield sql.notice(VERSION_CHANNEL, f"{match_id} {expected_version + 1}")
        return
    found = yield sql.row("SELECT version, status FROM matches WHERE id = ?", match_id)
    raise rows.guard_refusal(match_id, expected_version, found, refuse)


def current_version(match_id: int) -> Program[int]:
    """The match's version; raises ``MatchNotFound``."""
    version = yield sql.value("SELECT version FROM matches WHERE id = ?", match_id)
    if version is None:
        raise rows.not_found(match_id)
    return int(version)


def load_match(match_id: int) -> Program[MatchRecord]:
    """The match and its players; raises ``MatchNotFound`` or ``CorruptRecord``."""
    found = yield sql.row(SELECT_MATCH, match_id)
    if found is None:
        raise rows.not_found(match_id)
    return rows.to_record(found, (yield sql.rows(SELECT_PLAYERS, match_id)))


def queue(match_id: int, version: int, deliveries: Sequence[DeliveryDraft], now: str) -> Program[None]:
    """Record ``deliveries`` as pending at ``version``."""
    yield sql.each(INSERT_DELIVERY, [(match_id, version, d.seat, d.payload, now) for d in deliveries])


def save_turn_pings(match_id: int, turn: int, pings: Sequence[TurnPing]) -> Program[None]:
    """Drop the pings of the match's turns before ``turn`` and record ``pings`` (a ping already sent
    stays sent)."""
    yield sql.count("DELETE FROM turn_pings WHERE match_id = ? AND turn < ?", match_id, turn)
    yield sql.each(UPSERT_PING, rows.ping_params(match_id, turn, pings))


def require_delivery(delivery_id: int) -> Program[None]:
    """Raise ``LookupError`` unless there is a delivery ``delivery_id``."""
    if (yield sql.value("SELECT 1 FROM deliveries WHERE id = ?", delivery_id)) is None:
        raise LookupError(f"there is no delivery {delivery_id}")
