"""``SqliteMatchStore``: the ``MatchStore`` port on SQLite, through aiosqlite.

Every method runs its whole transaction as one function (``data.db.Database``): a read on the event
loop when it can take its locks without waiting, else (and every write, whose commit is synced to
disk) on aiosqlite's worker thread in one hop. Either way calls from concurrent tasks on one store
never interleave inside a transaction. Writes open with ``BEGIN IMMEDIATE``; writes that change a
match are guarded by ``UPDATE matches SET version = version + 1 … WHERE id = ? AND version = ?`` and
roll back with ``StaleVersion`` when another writer (task, store or process) got there first.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Self, TypeVar

from data import clocks as clockrows
from data import db as dbmod
from data import rows
from data.checkpoints import is_checkpoint, pack_state
from data.quarantine import Unreadable, read_each, report, unreadable_row
from data.rows import BOARD_IMAGE_SEAT, MAX_DELIVERY_ATTEMPTS, Destination, MatchListing
from engine.core.errors import CorruptRecord
from engine.core.replay import LoggedAction
from engine.host.clock import ClockChange, SeatClock, paused
from engine.host.notify import TurnPing, Via
from engine.host.ports import (
    AbsenceCheck,
    Delivery,
    DeliveryDraft,
    LivePost,
    MatchRecord,
    MatchStatus,
    MatchSummary,
    NewMatch,
    Player,
    StoredBoard,
)

__all__ = ["MAX_DELIVERY_ATTEMPTS", "Destination", "MatchListing", "SqliteMatchStore"]

T = TypeVar("T")
log = logging.getLogger(__name__)
_DELIVERY_COLUMNS = rows.DELIVERY_COLUMNS
_MATCH_COLUMNS = rows.MATCH_COLUMNS
_PLAYER_COLUMNS = rows.PLAYER_COLUMNS
_PLAYER_ORDER = rows.PLAYER_ORDER

SELECT_MATCH = f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?"
_SELECT_THREAD = "SELECT thread_id FROM matches WHERE id = ?"
SELECT_PLAYERS = f"SELECT {_PLAYER_COLUMNS} FROM players WHERE match_id = ? ORDER BY {_PLAYER_ORDER}"
_INSERT_PLAYER = (
    "INSERT INTO players (match_id, joined, user_id, name, bot, seat) "
    "VALUES (?, (SELECT COALESCE(MAX(joined) + 1, 0) FROM players WHERE match_id = ?), ?, ?, ?, ?)"
)
_REMEMBER_IMAGE = (
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
_KEPT = (
    "NOT EXISTS (SELECT 1 FROM void_actions AS v "
    "WHERE v.match_id = actions.match_id AND v.version = actions.version)"
)
_SELECT_KEPT_LOG = (
    f"SELECT version, seat, notation, stand_in FROM actions WHERE match_id = ? AND {_KEPT} ORDER BY version"
)
_SELECT_LATEST_KEPT = (
    f"SELECT version, seat, notation, stand_in FROM actions WHERE match_id = ? AND {_KEPT} "
    "ORDER BY version DESC LIMIT ?"
)

# The version guards. Each bumps the version only when the caller saw the current one and the match
# is in a status that allows the change; the status a guard needs is part of its WHERE clause.
_GUARD_LOBBY = (
    "UPDATE matches SET version = version + 1, updated_at = ? "
    "WHERE id = ? AND version = ? AND status = 'lobby'"
)
_GUARD_ACTIVE = (
    "UPDATE matches SET version = version + 1, updated_at = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)
_GUARD_START = (
    "UPDATE matches SET version = version + 1, updated_at = ?, status = 'active', state_json = ? "
    "WHERE id = ? AND version = ? AND status = 'lobby'"
)
GUARD_COMMIT = (
    "UPDATE matches SET version = version + 1, updated_at = ?, status = ?, state_json = ?, result_json = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)
_GUARD_UNDO = (
    "UPDATE matches SET version = version + 1, updated_at = ?, state_json = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)
_GUARD_CLOSE = (
    "UPDATE matches SET version = version + 1, updated_at = ?, status = ?, result_json = ? "
    "WHERE id = ? AND version = ? AND status IN ('lobby', 'active')"
)


class SqliteMatchStore:
    """Durable match storage in one SQLite file (see ``engine.host.ports.MatchStore``).

    Open with ``await SqliteMatchStore.open(path)`` and close with ``await store.close()``, or use
    ``async with await SqliteMatchStore.open(path) as store``. Reads raise ``MatchNotFound`` for an
    unknown match and ``CorruptRecord`` for a row that cannot be read; writes raise those too (and then
    change nothing), plus ``StaleVersion``, ``LobbyError`` or ``MatchClosed`` as documented per method.
    """

    def __init__(
        self,
        db: dbmod.Database,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
    ) -> None:
        """Wrap an open, migrated ``data.db.Database``.

        ``max_attempts`` is how many failed sends make a delivery ``failed``; ``clock`` gives the
        ``*_at`` timestamps.
        """
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self._db = db
        self.max_attempts = max_attempts
        self._clock = clock
        # The last record this store read or wrote per match (see ``commit_action``).
        self._known = rows.KnownMatches()

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
        busy_timeout_ms: int = dbmod.BUSY_TIMEOUT_MS,
        inline: bool = True,
    ) -> Self:
        """Open the database at ``path`` (default: ``data.db.default_db_path()``), creating and migrating
        it as needed. ``inline=False`` runs every transaction on aiosqlite's worker thread (see
        ``data.db.Database``). Raises ``sqlite3.Error`` or ``RuntimeError`` as ``data.db.connect`` does.
        """
        target = dbmod.default_db_path() if path is None else path
        db = await dbmod.Database.open(target, busy_timeout_ms=busy_timeout_ms, inline=inline)
        return cls(db, max_attempts=max_attempts, clock=clock)

    @property
    def database(self) -> dbmod.Database:
        """The connection, for other stores kept in the same file (tournaments, ratings)."""
        return self._db

    async def close(self) -> None:
        """Close the connection (after calls already queued); closing twice is harmless."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # --------------------------------------------------------------------------------------- reads

    async def get_match(self, match_id: int) -> MatchRecord:
        """The match with its players. Raises ``MatchNotFound`` or ``CorruptRecord``."""
        return await self._known.track(match_id, self._db.read(lambda raw: _load_match(raw, match_id)))

    async def list_matches(
        self,
        statuses: Sequence[MatchStatus] = (),
        guild_id: int | None = None,
        limit: int = 50,
        user_id: int | None = None,
        thread_id: int | None = None,
    ) -> list[MatchRecord]:
        """Up to ``limit`` matches, newest first, optionally only those in ``statuses``, in ``guild_id``,
        with ``user_id`` among the players, or posted in ``thread_id``.

        A row that cannot be read is left out (and logged), so one bad match never hides the others;
        ``survey_matches`` also names them.
        """
        return (await self.survey_matches(statuses, guild_id, limit, user_id, thread_id)).matches

    async def survey_matches(
        self,
        statuses: Sequence[MatchStatus] = (),
        guild_id: int | None = None,
        limit: int = 50,
        user_id: int | None = None,
        thread_id: int | None = None,
        finished_by_end: bool = False,
    ) -> MatchListing:
        """Like ``list_matches``, with the problems of the rows that cannot be read, by match id.
        ``finished_by_end``: finished matches only (``statuses`` aside), the last to end first."""
        where: list[str] = []
        params: list[Any] = []
        order = "id DESC"
        if finished_by_end:
            # Written out, so that the index of finished matches (migration 0016) serves it.
            where.append("status = 'finished'")
            order = "updated_at DESC, id DESC"
        elif statuses:
            wanted = sorted({MatchStatus(s).value for s in statuses})
            where.append(f"status IN ({', '.join('?' * len(wanted))})")
            params += wanted
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if user_id is not None:
            where.append("id IN (SELECT match_id FROM players WHERE user_id = ?)")
            params.append(user_id)
        if thread_id is not None:
            where.append("thread_id = ?")
            params.append(thread_id)
        selection = f"FROM matches {'WHERE ' + ' AND '.join(where) if where else ''} ORDER BY {order} LIMIT ?"
        params.append(max(0, limit))

        def body(raw: sqlite3.Connection) -> MatchListing:
            found = raw.execute(f"SELECT {_MATCH_COLUMNS} {selection}", params).fetchall()
            if not found:
                return MatchListing()
            players = raw.execute(
                f"SELECT {_PLAYER_COLUMNS} FROM players WHERE match_id IN (SELECT id {selection}) "
                f"ORDER BY match_id, {_PLAYER_ORDER}",
                params,
            )
            return rows.listing_of(found, players)

        # One match (the one of a thread, looked up on every move) is a read like any other.
        listing = await self._db.read(body, may_inline=limit <= 1)
        for match_id, problem in listing.unreadable.items():
            log.warning("left match %s out of a listing: %s", match_id, problem)
        return listing

    async def match_ids(
        self, statuses: Sequence[MatchStatus], limit: int = 100_000, after: int = 0
    ) -> list[int]:
        """The ids above ``after`` of the matches in ``statuses``, oldest first, at most ``limit`` (nothing
        else is read, so a row that cannot be read is still listed)."""
        wanted = sorted({MatchStatus(s).value for s in statuses})
        marks = ", ".join("?" * len(wanted))
        sql = f"SELECT id FROM matches WHERE status IN ({marks}) AND id > ? ORDER BY id LIMIT ?"

        def body(raw: sqlite3.Connection) -> list[int]:
            return [int(row[0]) for row in raw.execute(sql, (*wanted, after, max(0, limit)))]

        return await self._db.read(body, may_inline=False)

    async def match_summary(self, match_id: int) -> MatchSummary:
        """Who a match belongs to, read loosely enough to work on a row that ``get_match`` cannot read
        (so an unreadable match can still be scoped and abandoned). Raises ``MatchNotFound``."""

        def body(raw: sqlite3.Connection) -> MatchSummary:
            row = raw.execute(
                "SELECT guild_id, creator_id, version, status FROM matches WHERE id = ?", (match_id,)
            ).fetchone()
            if row is None:
                raise rows.not_found(match_id)
            users = raw.execute("SELECT user_id FROM players WHERE match_id = ?", (match_id,)).fetchall()
            return rows.summary_of(match_id, row, (u for (u,) in users))

        return await self._db.read(body)

    async def action_log(self, match_id: int) -> list[LoggedAction]:
        """Every accepted action of the match in the order played (by version), leaving out those taken
        back (void), so replaying it reproduces the current snapshot.

        Raises ``MatchNotFound``, or ``CorruptRecord`` naming the unreadable entry.
        """

        def body(raw: sqlite3.Connection) -> list[LoggedAction]:
            _current_version(raw, match_id)
            return [
                rows.logged_action(match_id, version, seat, notation, stand_in)
                for version, seat, notation, stand_in in raw.execute(_SELECT_KEPT_LOG, (match_id,))
            ]

        return await self._db.read(body, may_inline=False)

    async def action_seats(
        self, match_id: int, upto: int | None = None, latest: int | None = None
    ) -> list[tuple[int, int]]:
        """(version, seat) of every accepted action of the match not taken back, in the order played;
        with ``upto``, of those at that version or before; with ``latest``, of the last ``latest`` of
        those only (a read whose cost does not grow with the match)."""
        sql = f"SELECT version, seat FROM actions WHERE match_id = ? AND {_KEPT}"
        arguments: tuple[int, ...] = (match_id,)
        if upto is not None:
            sql += " AND version <= ?"
            arguments += (upto,)
        if latest is not None:
            sql += " ORDER BY version DESC LIMIT ?"
            arguments += (max(0, latest),)
        else:
            sql += " ORDER BY version"

        def body(raw: sqlite3.Connection) -> list[tuple[int, int]]:
            found = [(int(version), int(seat)) for version, seat in raw.execute(sql, arguments)]
            return found[::-1] if latest is not None else found

        return await self._db.read(body, may_inline=latest is not None)

    async def last_action_version(self, match_id: int, seat: int) -> int | None:
        """The version of ``seat``'s latest action in the match not taken back (None: there is none)."""

        def body(raw: sqlite3.Connection) -> int | None:
            row = raw.execute(
                f"SELECT MAX(version) FROM actions WHERE match_id = ? AND seat = ? AND {_KEPT}",
                (match_id, seat),
            ).fetchone()
            return None if row[0] is None else int(row[0])

        return await self._db.read(body)

    async def action_at(self, match_id: int, version: int) -> LoggedAction | None:
        """The action that made ``version`` of the match, if an action did and it was not taken back."""

        def body(raw: sqlite3.Connection) -> LoggedAction | None:
            row = raw.execute(
                f"SELECT seat, notation FROM actions WHERE match_id = ? AND version = ? AND {_KEPT}",
                (match_id, version),
            ).fetchone()
            return None if row is None else LoggedAction(seat=row[0], notation=row[1])

        return await self._db.read(body)

    async def board_at(self, match_id: int, version: int) -> StoredBoard:
        """What it takes to know the match as it stood at ``version``: the latest state when that is the
        current version, else the nearest checkpoint at or before it and the actions after it up to
        ``version`` (see ``data.checkpoints``). Versions that changed no state (such as ``close_match``)
        have the state of the version before.

        Raises ``MatchNotFound`` for an unknown match or a version with no board (before the start or
        after the current version), ``CorruptRecord`` if a stored state or action cannot be read.
        """

        def body(raw: sqlite3.Connection) -> StoredBoard:
            row = raw.execute("SELECT version, state_json FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise rows.not_found(match_id)
            current, latest = row
            if latest is None:
                raise rows.not_started(match_id)
            if version == current:
                return rows.latest_board(match_id, current, latest)
            found = (
                raw.execute(
                    "SELECT version, state FROM checkpoints WHERE match_id = ? AND version <= ? "
                    "ORDER BY version DESC LIMIT 1",
                    (match_id, version),
                ).fetchone()
                if 0 <= version < current
                else None
            )
            if found is None:
                (first,) = raw.execute(
                    "SELECT MIN(version) FROM checkpoints WHERE match_id = ?", (match_id,)
                ).fetchone()
                raise rows.no_board(match_id, version, first, current)
            since = int(found[0])
            # Every action in between, voided ones too: an undo stores a checkpoint, so an action voided
            # by an undo after ``since`` was still in play at ``version`` if it comes before it.
            then = raw.execute(
                "SELECT version, seat, notation FROM actions "
                "WHERE match_id = ? AND version > ? AND version <= ? ORDER BY version",
                (match_id, since, version),
            )
            return rows.checkpoint_board(match_id, since, found[1], then)

        return await self._db.read(body)

    async def pending_deliveries(self, limit: int = 100) -> list[Delivery]:
        """Up to ``limit`` deliveries still to send, oldest first. A row that cannot be read is left out
        (and logged); ``pending_by_destination`` settles such rows."""

        def body(raw: sqlite3.Connection) -> list[Delivery]:
            found = raw.execute(
                f"SELECT {_DELIVERY_COLUMNS} FROM deliveries WHERE status = 'pending' ORDER BY id LIMIT ?",
                (max(0, limit),),
            ).fetchall()
            return rows.readable_deliveries(found)[0]

        return await self._db.read(body)

    async def pending_by_destination(
        self,
        destinations: int = 50,
        per_destination: int = 20,
        skip: Collection[Destination] = (),
    ) -> list[list[Delivery]]:
        """The pending deliveries of up to ``destinations`` destinations (a match's thread, or one seat's
        messages), those waiting longest first, each with its first ``per_destination`` deliveries in
        order. Destinations in ``skip`` (backing off) are passed over, so they never hide the others.

        A pending row that cannot be read is marked failed with the reason, and the others go on.
        """

        def body(raw: sqlite3.Connection) -> tuple[list[list[Delivery]], list[tuple[int, str]]]:
            heads = raw.execute(
                "SELECT match_id, seat FROM deliveries WHERE status = 'pending' "
                "GROUP BY match_id, seat ORDER BY MIN(id)"
            ).fetchall()
            chosen = [(m, s) for m, s in heads if (m, s) not in skip][: max(0, destinations)]
            batches: list[list[Delivery]] = []
            unreadable: list[tuple[int, str]] = []
            for match_id, seat in chosen:
                found = raw.execute(
                    f"SELECT {_DELIVERY_COLUMNS} FROM deliveries WHERE status = 'pending' AND match_id IS ? "
                    "AND seat IS ? ORDER BY id LIMIT ?",
                    (match_id, seat, max(1, per_destination)),
                ).fetchall()
                readable, bad = rows.readable_deliveries(found)
                unreadable += bad
                if readable:
                    batches.append(readable)
            return batches, unreadable

        batches, unreadable = await self._db.read(body)
        for delivery_id, problem in unreadable:
            await self.mark_undeliverable(delivery_id, problem)
        return batches

    # --------------------------------------------------------------------------------------- lobby

    async def create_match(self, draft: NewMatch, creator: Player | None = None) -> MatchRecord:
        """Open a lobby at version 0, with ``creator`` (if given) as its first player; a draft with an
        ``origin`` already used returns the match made then, as it is now.

        Raises ``ValueError`` when the seed does not fit a signed 64-bit integer.
        """
        rows.check_seed(draft.seed)
        now = self._clock()

        def body(raw: sqlite3.Connection) -> MatchRecord:
            if draft.origin is not None:
                made = raw.execute("SELECT id FROM matches WHERE origin = ?", (draft.origin,)).fetchone()
                if made is not None:
                    return _load_match(raw, int(made[0]))
            cursor = raw.execute(
                "INSERT INTO matches (game, options, seat_count, seed, status, version, creator_id, "
                "guild_id, channel_id, origin, created_at, updated_at, pace) "
                "VALUES (?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, ?, ?)",
                (
                    draft.game,
                    json.dumps(sorted(draft.options)),
                    draft.seat_count,
                    draft.seed,
                    draft.creator_id,
                    draft.guild_id,
                    draft.channel_id,
                    draft.origin,
                    now,
                    now,
                    draft.pace.value,
                ),
            )
            match_id = cursor.lastrowid
            assert match_id is not None
            if creator is not None:
                raw.execute(
                    _INSERT_PLAYER, (match_id, match_id, creator.user_id, creator.name, creator.bot, None)
                )
            return _load_match(raw, match_id)

        return self._known.remember(await self._db.write(body))

    async def add_player(self, match_id: int, expected_version: int, player: Player) -> MatchRecord:
        """Add ``player`` to the lobby (its ``seat`` is ignored: ``start_match`` assigns seats).

        Raises ``MatchNotFound``, ``StaleVersion``, or ``LobbyError`` when the match is not in the lobby,
        is full (``seat_count`` players) or ``player.user_id`` has already joined.
        """
        now = self._clock()

        def body(raw: sqlite3.Connection) -> MatchRecord:
            _guard(
                raw,
                _GUARD_LOBBY,
                (now, match_id, expected_version),
                match_id,
                expected_version,
                rows.lobby_closed,
            )
            seat_count, joined = raw.execute(
                "SELECT seat_count, (SELECT COUNT(*) FROM players WHERE match_id = ?) "
                "FROM matches WHERE id = ?",
                (match_id, match_id),
            ).fetchone()
            already = player.user_id is not None and bool(
                raw.execute(
                    "SELECT 1 FROM players WHERE match_id = ? AND user_id = ?", (match_id, player.user_id)
                ).fetchone()
            )
            rows.check_joining(match_id, seat_count, joined, already)
            raw.execute(_INSERT_PLAYER, (match_id, match_id, player.user_id, player.name, player.bot, None))
            return _load_match(raw, match_id)

        return await self._known.track(match_id, self._db.write(body))

    async def remove_player(self, match_id: int, expected_version: int, user_id: int) -> MatchRecord:
        """Take ``user_id`` out of the lobby.

        Raises ``MatchNotFound``, ``StaleVersion``, or ``LobbyError`` when the match is not in the lobby
        or the user has not joined it.
        """
        now = self._clock()

        def body(raw: sqlite3.Connection) -> MatchRecord:
            _guard(
                raw,
                _GUARD_LOBBY,
                (now, match_id, expected_version),
                match_id,
                expected_version,
                rows.lobby_closed,
            )
            removed = raw.execute(
                "DELETE FROM players WHERE match_id = ? AND user_id = ?", (match_id, user_id)
            )
            if removed.rowcount == 0:
                raise rows.not_in_lobby(match_id)
            return _load_match(raw, match_id)

        return await self._known.track(match_id, self._db.write(body))

    async def replace_player(
        self,
        match_id: int,
        expected_version: int,
        seat: int,
        player: Player,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """Put ``player`` in ``seat`` of an active match (e.g. a computer taking over); bumps the version,
        queues ``deliveries`` at the new version and writes ``clocks``.

        Raises ``MatchNotFound``, ``StaleVersion``, ``MatchClosed`` when the match is not active, or
        ``LobbyError`` when there is no such seat or ``player.user_id`` already holds another seat.
        """
        now = self._clock()

        def body(raw: sqlite3.Connection) -> MatchRecord:
            _guard(
                raw,
                _GUARD_ACTIVE,
                (now, match_id, expected_version),
                match_id,
                expected_version,
                rows.no_moves,
            )
            try:
                changed = raw.execute(
                    "UPDATE players SET user_id = ?, name = ?, bot = ?, resigned = ?, absent = ? "
                    "WHERE match_id = ? AND seat = ?",
                    (
                        player.user_id,
                        player.name,
                        player.bot,
                        int(player.resigned),
                        int(player.absent),
                        match_id,
                        seat,
                    ),
                )
            except sqlite3.IntegrityError:
                raise rows.seat_taken(match_id) from None
            if changed.rowcount == 0:
                seats = raw.execute(
                    "SELECT seat FROM players WHERE match_id = ? AND seat IS NOT NULL ORDER BY seat",
                    (match_id,),
                )
                raise rows.no_such_seat(match_id, seat, (row[0] for row in seats))
            if deliveries:
                _queue(raw, match_id, expected_version + 1, deliveries, now)
            clockrows.write_change(raw, clocks, now)
            return _load_match(raw, match_id)

        return await self._known.track(match_id, self._db.write(body))

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        """Remember the match's Discord thread (does not change the version). Raises ``MatchNotFound``."""
        now = self._clock()

        def body(raw: sqlite3.Connection) -> None:
            changed = raw.execute(
                "UPDATE matches SET thread_id = ?, updated_at = ? WHERE id = ?", (thread_id, now, match_id)
            )
            if changed.rowcount == 0:
                raise rows.not_found(match_id)

        await self._db.write(body)

    # ---------------------------------------------------------------------------------------- play

    async def start_match(
        self,
        match_id: int,
        expected_version: int,
        players: Sequence[Player],
        state_json: str,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """Seat ``players`` (each with its ``seat``; they replace the lobby list), store the opening
        snapshot at the new version, go ACTIVE, queue ``deliveries`` at that version and start the
        ``clocks``.

        Raises ``MatchNotFound``, ``StaleVersion``, or ``LobbyError`` when the match is not in the lobby,
        the seats are not exactly ``0 .. seat_count - 1`` or a user appears twice.
        """
        rows.check_seating(players)
        now = self._clock()

        def body(raw: sqlite3.Connection) -> MatchRecord:
            _guard(
                raw,
                _GUARD_START,
                (now, state_json, match_id, expected_version),
                match_id,
                expected_version,
                rows.lobby_closed,
            )
            (seat_count,) = raw.execute("SELECT seat_count FROM matches WHERE id = ?", (match_id,)).fetchone()
            rows.check_seated(match_id, seat_count, players)
            version = expected_version + 1
            raw.execute("DELETE FROM players WHERE match_id = ?", (match_id,))
            raw.executemany(
                "INSERT INTO players (match_id, joined, user_id, name, bot, seat) VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, i, p.user_id, p.name, p.bot, p.seat) for i, p in enumerate(players)],
            )
            raw.execute(INSERT_CHECKPOINT, (match_id, version, pack_state(state_json)))
            _queue(raw, match_id, version, deliveries, now)
            clockrows.write_change(raw, clocks, now)
            return _load_match(raw, match_id)

        return await self._known.track(match_id, self._db.write(body))

    async def commit_action(
        self,
        match_id: int,
        expected_version: int,
        action: LoggedAction,
        state_json: str,
        status: MatchStatus = MatchStatus.ACTIVE,
        result_json: str | None = None,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """Append ``action`` at version ``expected_version + 1`` with its resulting state (the latest,
        and a checkpoint when the version is one, see ``data.checkpoints``), set the
        status (ACTIVE, or FINISHED/ABANDONED with ``result_json``), queue ``deliveries`` and write the
        ``clocks`` the move changed.

        Raises ``MatchNotFound``, ``StaleVersion`` (another commit got there first; nothing stored),
        ``MatchClosed`` when the match is not active, ``ValueError`` for ``status`` LOBBY.
        """
        rows.check_commit_status(status)
        now = self._clock()
        guard_params = (now, status.value, state_json, result_json, match_id, expected_version)
        version = expected_version + 1
        checkpoint = pack_state(state_json) if is_checkpoint(version) else None
        known = self._known.at(match_id, expected_version)

        def body(raw: sqlite3.Connection) -> MatchRecord:
            _guard(raw, GUARD_COMMIT, guard_params, match_id, expected_version, rows.no_moves)
            raw.execute(
                INSERT_ACTION, (match_id, version, action.seat, action.notation, now, action.stand_in)
            )
            if checkpoint is not None:
                raw.execute(INSERT_CHECKPOINT, (match_id, version, checkpoint))
            if deliveries:
                _queue(raw, match_id, version, deliveries, now)
            clockrows.write_change(raw, clocks, now)
            if known is None:
                return _load_match(raw, match_id)
            (thread_id,) = raw.execute(_SELECT_THREAD, (match_id,)).fetchone()
            return rows.committed_record(
                known,
                version=version,
                status=status,
                state_json=state_json,
                result_json=result_json,
                now=now,
                thread_id=rows.thread_of(match_id, thread_id),
            )

        return await self._known.track(match_id, self._db.write(body))

    async def abandon_unreadable(self, match_id: int, expected_version: int) -> None:
        """Abandon a match whose row cannot be read in full (only its version and status are needed).

        Raises ``MatchNotFound``, ``StaleVersion`` or ``MatchClosed`` as ``close_match`` does."""
        now = self._clock()

        def body(raw: sqlite3.Connection) -> None:
            _guard(
                raw,
                _GUARD_CLOSE,
                (now, MatchStatus.ABANDONED.value, None, match_id, expected_version),
                match_id,
                expected_version,
                rows.already_closed,
            )

        await self._db.write(body)

    async def close_match(
        self,
        match_id: int,
        expected_version: int,
        status: MatchStatus,
        result_json: str | None = None,
        deliveries: Sequence[DeliveryDraft] = (),
    ) -> MatchRecord:
        """Finish or abandon a lobby or active match without an action; bumps the version.

        Raises ``MatchNotFound``, ``StaleVersion``, ``MatchClosed`` when it is already closed, and
        ``ValueError`` unless ``status`` is FINISHED or ABANDONED.
        """
        rows.check_close_status(status)
        now = self._clock()

        def body(raw: sqlite3.Connection) -> MatchRecord:
            _guard(
                raw,
                _GUARD_CLOSE,
                (now, status.value, result_json, match_id, expected_version),
                match_id,
                expected_version,
                rows.already_closed,
            )
            _queue(raw, match_id, expected_version + 1, deliveries, now)
            return _load_match(raw, match_id)

        return await self._known.track(match_id, self._db.write(body))

    # ---------------------------------------------------------------------------------- deliveries

    async def mark_delivered(self, delivery_id: int) -> None:
        """Mark a delivery sent (again: harmless). Raises ``LookupError`` for an unknown id."""
        now = self._clock()

        def body(raw: sqlite3.Connection) -> None:
            changed = raw.execute(
                "UPDATE deliveries SET status = 'sent', sent_at = ? WHERE id = ? AND status != 'sent'",
                (now, delivery_id),
            )
            if changed.rowcount == 0:
                _require_delivery(raw, delivery_id)

        await self._db.write(body)

    async def mark_undeliverable(self, delivery_id: int, reason: str) -> None:
        """Give a pending delivery up at once (its destination is gone, or its row cannot be read)."""

        def body(raw: sqlite3.Connection) -> None:
            raw.execute(
                "UPDATE deliveries SET status = 'failed', last_error = ?, attempts = ? "
                "WHERE id = ? AND status = 'pending'",
                (reason[:500], self.max_attempts, delivery_id),
            )

        await self._db.write(body)

    async def dm_refused(self, match_id: int, user_id: int) -> bool:
        """Whether ``user_id`` was already told that their direct messages refuse ``match_id``'s notices."""

        def body(raw: sqlite3.Connection) -> bool:
            row = raw.execute(
                "SELECT 1 FROM dm_refusals WHERE match_id = ? AND user_id = ?", (match_id, user_id)
            ).fetchone()
            return row is not None

        return await self._db.read(body)

    async def remember_dm_refused(self, match_id: int, user_id: int) -> bool:
        """Record that ``user_id``'s direct messages refused ``match_id``'s notices; True the first time
        only, so they are told about it once, restarts included."""
        now = self._clock()

        def body(raw: sqlite3.Connection) -> bool:
            inserted = raw.execute(
                "INSERT OR IGNORE INTO dm_refusals (match_id, user_id, told_at) VALUES (?, ?, ?)",
                (match_id, user_id, now),
            )
            return inserted.rowcount == 1

        return await self._db.write(body)

    async def turn_pings(self, match_id: int, turn: int | None = None) -> list[TurnPing]:
        """The pings of ``match_id``'s latest turn that has any (or of ``turn``), by seat."""

        def body(raw: sqlite3.Connection) -> list[TurnPing]:
            where = (
                "turn = ?"
                if turn is not None
                else "turn = (SELECT MAX(turn) FROM turn_pings WHERE match_id = ?)"
            )
            found = raw.execute(
                f"SELECT {_PING_COLUMNS} FROM turn_pings WHERE match_id = ? AND {where} ORDER BY seat",
                (match_id, match_id if turn is None else turn),
            ).fetchall()
            return [rows.to_ping(row) for row in found]

        return await self._db.read(body)

    async def due_pings(self, now: datetime, limit: int = 100) -> list[TurnPing]:
        """Held pings due by ``now``, the longest due first."""

        def body(raw: sqlite3.Connection) -> tuple[list[TurnPing], list[Unreadable]]:
            found = raw.execute(
                f"SELECT {_PING_COLUMNS} FROM turn_pings WHERE sent = 0 AND due_at <= ? "
                "AND quarantined IS NULL ORDER BY due_at LIMIT ?",
                (clockrows.utc_text(now), max(0, limit)),
            )
            return read_each("turn_pings", found, rows.to_ping)

        readable, unreadable = await self._db.read(body)
        await self._set_aside(unreadable)
        return readable

    async def next_ping_due(self) -> datetime | None:
        """When the first held ping comes due (None: none is held)."""

        def body(raw: sqlite3.Connection) -> tuple[datetime | None, list[Unreadable]]:
            unreadable: list[Unreadable] = []
            for found in raw.execute(
                f"SELECT {_PING_COLUMNS} FROM turn_pings WHERE sent = 0 AND quarantined IS NULL "
                "ORDER BY due_at"
            ):
                try:
                    return rows.to_ping(found).due_at, unreadable
                except CorruptRecord as exc:
                    unreadable.append(unreadable_row("turn_pings", tuple(found[:3]), exc))
            return None, unreadable

        due, unreadable = await self._db.read(body)
        await self._set_aside(unreadable)
        return due

    async def _set_aside(self, unreadable: Sequence[Unreadable]) -> None:
        """Set aside the rows a sweep could not read, naming in the log each this call set aside."""
        if unreadable:
            for row in await self._db.write(lambda raw: clockrows.quarantine(raw, unreadable)):
                report(row)

    async def ping_user_now(self, user_id: int, now: datetime) -> None:
        """Make ``user_id``'s held pings due at ``now``, to be decided again (their settings changed)."""

        def body(raw: sqlite3.Connection) -> None:
            raw.execute(
                "UPDATE turn_pings SET due_at = ? WHERE user_id = ? AND sent = 0",
                (clockrows.utc_text(now), user_id),
            )

        await self._db.write(body)

    async def settle_ping(self, ping: TurnPing, via: Via, due_at: datetime | None = None) -> bool:
        """Mark a held ping told ``via`` (or, with ``Via.HELD``, hold it until ``due_at``). True when it
        was still held: whoever gets True tells the player, so nobody tells them twice."""

        def body(raw: sqlite3.Connection) -> bool:
            changed = raw.execute(
                "UPDATE turn_pings SET via = ?, sent = ?, due_at = ? "
                "WHERE match_id = ? AND turn = ? AND seat = ? AND sent = 0",
                rows.settle_params(ping, via, due_at),
            )
            return changed.rowcount == 1

        return await self._db.write(body)

    async def release_ping(self, ping: TurnPing, due_at: datetime) -> None:
        """Hold again a ping whose sending failed, to retry at ``due_at``."""

        def body(raw: sqlite3.Connection) -> None:
            raw.execute(
                "UPDATE turn_pings SET via = '', sent = 0, due_at = ? "
                "WHERE match_id = ? AND turn = ? AND seat = ?",
                (clockrows.utc_text(due_at), ping.match_id, ping.turn, ping.seat),
            )

        await self._db.write(body)

    async def drop_pings(self, match_id: int, before: int | None = None) -> None:
        """Forget the pings of a match's turns (those before turn ``before`` only, when given)."""

        def body(raw: sqlite3.Connection) -> None:
            raw.execute(
                "DELETE FROM turn_pings WHERE match_id = ? AND turn < ?",
                (match_id, 2**62 if before is None else before),
            )

        await self._db.write(body)

    async def has_private_notice(self, match_id: int, version: int, seat: int) -> bool:
        """Whether a private message to ``seat`` was recorded at ``version`` (sent or still to send)."""

        def body(raw: sqlite3.Connection) -> bool:
            row = raw.execute(
                "SELECT 1 FROM deliveries "
                "WHERE match_id = ? AND version = ? AND seat = ? AND status != 'failed'",
                (match_id, version, seat),
            ).fetchone()
            return row is not None

        return await self._db.read(body)

    async def live_post(self, match_id: int) -> LivePost | None:
        """The post showing ``match_id``'s current turn, if one was made (``None`` if it cannot be read)."""

        def body(raw: sqlite3.Connection) -> LivePost | None:
            row = raw.execute(
                f"SELECT {rows.LIVE_POST_COLUMNS} FROM live_posts WHERE match_id = ?", (match_id,)
            ).fetchone()
            if row is None:
                return None
            post = rows.live_post_of(match_id, row)
            if post is None:
                log.warning("the live post of match %s cannot be read; a new post will replace it", match_id)
            return post

        return await self._db.read(body)

    async def save_live_post(
        self, post: LivePost, pings: Sequence[TurnPing] | None = None, board_image: str | None = None
    ) -> None:
        """Remember ``post`` as the one showing its match's current turn (replacing the previous one).

        With ``pings`` the post begins a turn (``post.version``): in the same transaction, earlier turns'
        pings are dropped and these recorded; a ping already sent stays sent (a retried post). With
        ``board_image``, the digest of the board the post shows is remembered in it too (see
        ``remember_sent_image``)."""

        def body(raw: sqlite3.Connection) -> None:
            if pings is not None:
                _save_turn_pings(raw, post.match_id, post.version, pings)
            if board_image is not None:
                raw.execute(_REMEMBER_IMAGE, (post.match_id, BOARD_IMAGE_SEAT, board_image))
            raw.execute(
                "INSERT INTO live_posts (match_id, channel_id, message_id, to_act, lines, version, history) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET "
                "channel_id = excluded.channel_id, message_id = excluded.message_id, "
                "to_act = excluded.to_act, lines = excluded.lines, version = excluded.version, "
                "history = excluded.history",
                rows.live_post_params(post),
            )

        await self._db.write(body)

    async def sent_image(self, match_id: int, seat: int) -> str | None:
        """The digest of the last image of ``match_id`` sent to ``seat`` (-1: the live post's board)."""

        def body(raw: sqlite3.Connection) -> str | None:
            row = raw.execute(
                "SELECT digest FROM sent_images WHERE match_id = ? AND seat = ?", (match_id, seat)
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._db.read(body)

    async def remember_sent_image(self, match_id: int, seat: int, digest: str) -> None:
        """Record ``digest`` as the last image of ``match_id`` that ``seat`` (-1: the board) received."""

        await self._db.write(lambda raw: raw.execute(_REMEMBER_IMAGE, (match_id, seat, digest)))

    async def forget_sent(self, before: datetime, limit: int = 5000) -> int:
        """Delete up to ``limit`` notices settled (sent, or given up) before ``before``; how many. The
        action log and snapshots are the truth of a match: a sent notice is only a record of a post."""
        cutoff = clockrows.utc_text(before)

        def body(raw: sqlite3.Connection) -> int:
            gone = raw.execute(
                "DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries "
                "WHERE status IN ('sent', 'failed') AND COALESCE(sent_at, created_at) < ? LIMIT ?)",
                (cutoff, limit),
            )
            return gone.rowcount

        return await self._db.write(body)

    # -------------------------------------------------------------------------------------- clocks

    async def seat_clocks(self, match_id: int) -> list[SeatClock]:
        """The match's seat clocks, by seat (none for a match without a clock)."""
        return await self._db.read(lambda raw: clockrows.seat_clocks(raw, match_id))

    async def due_clocks(self, now: datetime, limit: int = 100) -> list[SeatClock]:
        """The seat clocks whose reminder or deadline has fallen by ``now``, the earliest first."""
        readable, unreadable = await self._db.read(lambda raw: clockrows.due_clocks(raw, now, limit))
        await self._set_aside(unreadable)
        return readable

    async def next_clock_due(self) -> datetime | None:
        due, unreadable = await self._db.read(clockrows.next_due)
        await self._set_aside(unreadable)
        return due

    async def settle_clock(self, old: SeatClock, new: SeatClock) -> bool:
        """Move a clock on past a reminder; False (nothing written) when the row changed since ``old``
        was read, so a reminder is never sent twice."""
        return await self._db.write(lambda raw: clockrows.replace_if_unchanged(raw, old, new))

    async def timeouts_of(self, user_id: int, guild_id: int | None = None) -> int:
        """How many turns a computer played for ``user_id`` because their time ran out (with
        ``guild_id``, in that server's matches only)."""
        return await self._db.read(lambda raw: clockrows.timeouts_of(raw, user_id, guild_id))

    async def absences(
        self, user_ids: Sequence[int], ending_after: datetime
    ) -> dict[int, list[tuple[datetime, datetime]]]:
        """The absences (start, end) of ``user_ids`` that end after ``ending_after``, by user id."""
        return await self._db.read(lambda raw: clockrows.absences(raw, user_ids, ending_after))

    async def begin_absence(
        self,
        user_id: int,
        starts: datetime,
        ends: datetime,
        check: AbsenceCheck | None = None,
        considering: datetime | None = None,
    ) -> list[SeatClock]:
        """Record an absence and move the user's running turns on by its length, in one transaction
        (which SQLite runs alone); ``check`` first judges the user's absences ending after
        ``considering`` (default ``starts``) and raises to refuse. Returns the clocks as moved."""
        length = ends - starts

        def body(raw: sqlite3.Connection) -> list[SeatClock]:
            if check is not None:
                check(clockrows.absences(raw, [user_id], considering or starts).get(user_id, []))
            raw.execute(
                "INSERT INTO absences (user_id, starts_at, ends_at) VALUES (?, ?, ?)",
                (user_id, clockrows.utc_text(starts), clockrows.utc_text(ends)),
            )
            moved = [paused(clock, length) for clock in clockrows.running_clocks_of(raw, user_id)]
            clockrows.write_change(raw, ClockChange(clocks=tuple(moved)), self._clock())
            return moved

        return await self._db.write(body)

    async def end_absence(self, user_id: int, now: datetime) -> list[SeatClock] | None:
        """End the user's current absence at ``now`` and move their running turns back by the time it
        had left; None when they are not away."""

        def body(raw: sqlite3.Connection) -> list[SeatClock] | None:
            row = raw.execute(
                "SELECT starts_at, ends_at FROM absences "
                "WHERE user_id = ? AND starts_at <= ? AND ends_at > ?",
                (user_id, clockrows.utc_text(now), clockrows.utc_text(now)),
            ).fetchone()
            if row is None:
                return None
            starts, ends = row
            unused = datetime.fromisoformat(ends) - now
            raw.execute(
                "UPDATE absences SET ends_at = ? WHERE user_id = ? AND starts_at = ?",
                (clockrows.utc_text(now), user_id, starts),
            )
            moved = [paused(clock, -unused) for clock in clockrows.running_clocks_of(raw, user_id)]
            clockrows.write_change(raw, ClockChange(clocks=tuple(moved)), self._clock())
            return moved

        return await self._db.write(body)

    async def mark_failed(self, delivery_id: int, error: str) -> None:
        """Count a failed send of a pending delivery and keep ``error``; after ``max_attempts`` failures
        it becomes ``failed`` and is no longer offered. Deliveries already sent or failed are left alone.
        Raises ``LookupError`` for an unknown id.
        """

        def body(raw: sqlite3.Connection) -> None:
            changed = raw.execute(
                "UPDATE deliveries SET attempts = attempts + 1, last_error = ?, "
                "status = CASE WHEN attempts + 1 >= ? THEN 'failed' ELSE 'pending' END "
                "WHERE id = ? AND status = 'pending'",
                (error, self.max_attempts, delivery_id),
            )
            if changed.rowcount == 0:
                _require_delivery(raw, delivery_id)

        await self._db.write(body)

    # ---------------------------------------------------------------------------------------- undo

    async def kept_actions(self, match_id: int, latest: int | None = None) -> list[tuple[int, LoggedAction]]:
        """(version, action) of every action of the match not taken back, in the order played; with
        ``latest``, of the last ``latest`` of them only.

        Raises ``MatchNotFound``, or ``CorruptRecord`` naming the unreadable entry.
        """

        def body(raw: sqlite3.Connection) -> list[tuple[int, LoggedAction]]:
            _current_version(raw, match_id)
            found = (
                raw.execute(_SELECT_KEPT_LOG, (match_id,))
                if latest is None
                else reversed(raw.execute(_SELECT_LATEST_KEPT, (match_id, max(0, latest))).fetchall())
            )
            return [
                (int(version), rows.logged_action(match_id, version, seat, notation, stand_in))
                for version, seat, notation, stand_in in found
            ]

        # The whole log may be long; the last few actions are a read like any other.
        return await self._db.read(body, may_inline=latest is not None)

    async def undo_actions(
        self,
        match_id: int,
        expected_version: int,
        versions: Sequence[int],
        state_json: str,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """Take back the actions at ``versions`` (the latest of the log): mark them void, never deleting
        them, and commit version ``expected_version + 1`` with ``state_json``, the state before them,
        as its snapshot; queue ``deliveries`` at that version and write the ``clocks`` it moves.

        Raises ``MatchNotFound``, ``StaleVersion``, ``MatchClosed`` when the match is not active, and
        ``ValueError`` when ``versions`` is empty or names an action that is not the latest kept ones.
        """
        rows.check_undo(versions)
        now = self._clock()
        version = expected_version + 1

        def body(raw: sqlite3.Connection) -> MatchRecord:
            _guard(
                raw,
                _GUARD_UNDO,
                (now, state_json, match_id, expected_version),
                match_id,
                expected_version,
                rows.no_moves,
            )
            kept = [
                int(row[0])
                for row in raw.execute(
                    f"SELECT version FROM actions WHERE match_id = ? AND {_KEPT} "
                    "ORDER BY version DESC LIMIT ?",
                    (match_id, len(versions)),
                )
            ]
            rows.check_latest(match_id, kept, versions)
            raw.executemany(
                "INSERT INTO void_actions (match_id, version, undone_at) VALUES (?, ?, ?)",
                [(match_id, undone, version) for undone in versions],
            )
            raw.execute(INSERT_CHECKPOINT, (match_id, version, pack_state(state_json)))
            _queue(raw, match_id, version, deliveries, now)
            clockrows.write_change(raw, clocks, now)
            return _load_match(raw, match_id)

        return await self._known.track(match_id, self._db.write(body))


# ----------------------------------------------------------------------------- worker-thread helpers
# These run inside a transaction opened by ``data.db.Database`` (on the event loop or the worker thread).


def _guard(
    raw: sqlite3.Connection,
    sql: str,
    params: Sequence[Any],
    match_id: int,
    expected_version: int,
    refuse: rows.Refusal,
) -> None:
    """Run a version guard; if it changed no row, raise why: ``MatchNotFound``, ``StaleVersion``,
    ``CorruptRecord`` (unreadable status) or ``refuse(match_id, status)`` for a status it does not allow."""
    if raw.execute(sql, params).rowcount == 1:
        return
    row = raw.execute("SELECT version, status FROM matches WHERE id = ?", (match_id,)).fetchone()
    raise rows.guard_refusal(match_id, expected_version, row, refuse)


def _current_version(raw: sqlite3.Connection, match_id: int) -> int:
    """The match's version; raises ``MatchNotFound``."""
    row = raw.execute("SELECT version FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        raise rows.not_found(match_id)
    version: int = row[0]
    return version


def read_match(raw: sqlite3.Connection, match_id: int) -> MatchRecord:
    """Match ``match_id`` as the file holds it, read in one transaction through ``raw``: any connection to
    the file, such as a read-only one beside a running bot's. Raises as ``_load_match``."""
    return dbmod.read_transaction(raw, lambda held: _load_match(held, match_id))


def _load_match(raw: sqlite3.Connection, match_id: int) -> MatchRecord:
    """The match and its players; raises ``MatchNotFound`` or ``CorruptRecord``."""
    row = raw.execute(SELECT_MATCH, (match_id,)).fetchone()
    if row is None:
        raise rows.not_found(match_id)
    return rows.to_record(row, raw.execute(SELECT_PLAYERS, (match_id,)).fetchall())


_PING_COLUMNS = rows.PING_COLUMNS


def _save_turn_pings(raw: sqlite3.Connection, match_id: int, turn: int, pings: Sequence[TurnPing]) -> None:
    raw.execute("DELETE FROM turn_pings WHERE match_id = ? AND turn < ?", (match_id, turn))
    raw.executemany(
        "INSERT INTO turn_pings (match_id, turn, seat, user_id, started_at, due_at, via, sent) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, turn, seat) DO UPDATE SET "
        "due_at = excluded.due_at, via = excluded.via, sent = excluded.sent WHERE turn_pings.sent = 0",
        rows.ping_params(match_id, turn, pings),
    )


def _queue(
    raw: sqlite3.Connection, match_id: int, version: int, deliveries: Sequence[DeliveryDraft], now: str
) -> None:
    """Record ``deliveries`` as pending at ``version``."""
    if deliveries:
        raw.executemany(INSERT_DELIVERY, [(match_id, version, d.seat, d.payload, now) for d in deliveries])


def _require_delivery(raw: sqlite3.Connection, delivery_id: int) -> None:
    if raw.execute("SELECT 1 FROM deliveries WHERE id = ?", (delivery_id,)).fetchone() is None:
        raise LookupError(f"there is no delivery {delivery_id}")
