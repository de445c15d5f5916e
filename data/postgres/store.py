"""``PostgresMatchStore``: the ``MatchStore`` port on PostgreSQL, for several bot processes sharing one
database. ``SqliteMatchStore`` (``data.store``) stays the embedded default; this is its twin: the same
methods, records, errors and messages, and the same transaction per call.

Every method runs its whole transaction as one async function (``data.postgres.db.PgDatabase``): reads
in one REPEATABLE READ snapshot, writes under READ COMMITTED. Writes that change a match are guarded by
``UPDATE matches SET version = version + 1 … WHERE id = $1 AND version = $2``: a concurrent writer of the
same match waits for the row, then finds the version moved and changes nothing, so it rolls back with
``StaleVersion``, whichever process it runs in.

What only a shared database needs:

* **Shards.** A process opened with ``shards`` does the duties of its own servers' matches only: the
  outbox (``pending_deliveries``, ``pending_by_destination``), clocks (``due_clocks``,
  ``next_clock_due``), held pings (``due_pings``, ``next_ping_due``) and the matches to resume
  (``match_ids``) see the matches whose guild is on one of its shards (no guild: shard 0). Everything
  else (reading a match, acting on it) sees every match.
* **Claimed notices.** ``pending_by_destination`` claims the rows it returns for this process
  (``claimed_by``, ``claimed_until`` = now + ``lease``), taking them ``FOR UPDATE SKIP LOCKED``; rows
  another process holds under a lease that has not run out are never returned, and a destination is
  returned from its first pending notice on or not at all, so no notice overtakes another. Sending one
  (``mark_delivered``) releases it and renews the lease on the rest of its destination; giving up
  (``mark_undeliverable``) releases it too, and a failure (``mark_failed``) releases the whole
  destination, which waits for its next attempt. A process that dies holding a claim holds it until the
  lease runs out; then any process, or the same one restarted under its name, takes the rows.
  Leases are times of the store's ``clock``: the processes' clocks must agree to well within a lease.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
from collections.abc import Callable, Collection, Sequence
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any, Self

import asyncpg

from data import db as dbmod
from data import rows
from data.checkpoints import is_checkpoint, pack_state
from data.clocks import utc_text
from data.postgres import clocks as clockrows
from data.postgres.db import POOL_SIZE, Conn, PgDatabase
from data.postgres.sql import Args, row_count, shard_clause
from data.quarantine import Unreadable, read_each, report, unreadable_row
from data.rows import MAX_DELIVERY_ATTEMPTS, Destination, MatchListing
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
from engine.host.shards import Shards

log = logging.getLogger(__name__)

# How long a process holds the notices it took to send; renewed by every one it sends.
LEASE = timedelta(seconds=60)

_SELECT_MATCH = f"SELECT {rows.MATCH_COLUMNS} FROM matches WHERE id = $1"
_REMEMBER_IMAGE = (
    "INSERT INTO sent_images (match_id, seat, digest) VALUES ($1, $2, $3) "
    "ON CONFLICT (match_id, seat) DO UPDATE SET digest = EXCLUDED.digest"
)
_SELECT_PLAYERS = (
    f"SELECT {rows.PLAYER_COLUMNS} FROM players WHERE match_id = $1 ORDER BY {rows.PLAYER_ORDER}"
)
_INSERT_PLAYER = (
    "INSERT INTO players (match_id, joined, user_id, name, bot, seat) "
    "VALUES ($1, (SELECT COALESCE(MAX(joined) + 1, 0) FROM players WHERE match_id = $1), $2, $3, $4, $5)"
)
_INSERT_CHECKPOINT = "INSERT INTO checkpoints (match_id, version, state) VALUES ($1, $2, $3)"
_INSERT_DELIVERY = (
    "INSERT INTO deliveries (match_id, version, seat, payload, created_at) VALUES ($1, $2, $3, $4, $5)"
)
_INSERT_ACTION = (
    "INSERT INTO actions (match_id, version, seat, notation, created_at, stand_in) "
    "VALUES ($1, $2, $3, $4, $5, $6)"
)
# The actions still in the log: those no undo has voided.
_KEPT = (
    "NOT EXISTS (SELECT 1 FROM void_actions AS v "
    "WHERE v.match_id = actions.match_id AND v.version = actions.version)"
)
_SELECT_KEPT_LOG = (
    f"SELECT version, seat, notation, stand_in FROM actions WHERE match_id = $1 AND {_KEPT} ORDER BY version"
)
_SELECT_LATEST_KEPT = (
    f"SELECT version, seat, notation, stand_in FROM actions WHERE match_id = $1 AND {_KEPT} "
    "ORDER BY version DESC LIMIT $2"
)

# The version guards, as in ``data.store``: each bumps the version only when the caller saw the current
# one and the match is in a status that allows the change.
_GUARD_LOBBY = (
    "UPDATE matches SET version = version + 1, updated_at = $1 "
    "WHERE id = $2 AND version = $3 AND status = 'lobby'"
)
_GUARD_ACTIVE = (
    "UPDATE matches SET version = version + 1, updated_at = $1 "
    "WHERE id = $2 AND version = $3 AND status = 'active'"
)
_GUARD_START = (
    "UPDATE matches SET version = version + 1, updated_at = $1, status = 'active', state_json = $2 "
    "WHERE id = $3 AND version = $4 AND status = 'lobby'"
)
_GUARD_COMMIT = (
    "UPDATE matches SET version = version + 1, updated_at = $1, status = $2, state_json = $3, "
    "result_json = $4 WHERE id = $5 AND version = $6 AND status = 'active'"
)
_GUARD_UNDO = (
    "UPDATE matches SET version = version + 1, updated_at = $1, state_json = $2 "
    "WHERE id = $3 AND version = $4 AND status = 'active'"
)
_GUARD_CLOSE = (
    "UPDATE matches SET version = version + 1, updated_at = $1, status = $2, result_json = $3 "
    "WHERE id = $4 AND version = $5 AND status IN ('lobby', 'active')"
)

# The pending notices ``pending_by_destination`` may take: per destination, in order, those before the
# first one another process holds under a running lease, at most $5 of them, for the $6 destinations
# whose first pending notice is oldest, leaving out those in the skip list ($3, $4: match ids, seats).
_OPEN_NOTICES = """
WITH pending AS (
    SELECT d.id,
           row_number() OVER destination AS n,
           bool_or(d.claimed_by IS NOT NULL AND d.claimed_by <> $1 AND COALESCE(d.claimed_until, '') > $2)
               OVER destination AS held,
           min(d.id) OVER (PARTITION BY d.match_id, d.seat) AS head
    FROM deliveries d {join}
    WHERE d.status = 'pending' {owned}
      AND NOT EXISTS (
          SELECT 1 FROM unnest($3::bigint[], $4::integer[]) AS skip (match_id, seat)
          WHERE skip.match_id = d.match_id AND skip.seat IS NOT DISTINCT FROM d.seat)
    WINDOW destination AS (PARTITION BY d.match_id, d.seat ORDER BY d.id)
), open AS (
    SELECT id, head FROM pending WHERE NOT held AND n <= $5
)
SELECT id, head FROM open
WHERE head IN (SELECT DISTINCT head FROM open ORDER BY head LIMIT $6)
ORDER BY head, id
"""
# Lock those still free (skipping rows another transaction is claiming or settling right now).
_LOCK_NOTICES = (
    f"SELECT {rows.DELIVERY_COLUMNS} FROM deliveries "
    "WHERE id = ANY($1::bigint[]) AND status = 'pending' "
    "AND (claimed_by IS NULL OR claimed_by = $2 OR COALESCE(claimed_until, '') <= $3) "
    "ORDER BY id FOR UPDATE SKIP LOCKED"
)
_UPSERT_PING = (
    "INSERT INTO turn_pings (match_id, turn, seat, user_id, started_at, due_at, via, sent) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (match_id, turn, seat) DO UPDATE "
    "SET due_at = EXCLUDED.due_at, via = EXCLUDED.via, sent = EXCLUDED.sent WHERE turn_pings.sent = 0"
)
_CLAIM = "UPDATE deliveries SET claimed_by = $1, claimed_until = $2 WHERE id = ANY($3::bigint[])"
_RELEASE = "claimed_by = NULL, claimed_until = NULL"


def default_process() -> str:
    """A name for this process that no other shares: host, process id and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class PostgresMatchStore:
    """Durable match storage in a PostgreSQL database (see ``engine.host.ports.MatchStore``), shared by
    any number of bot processes.

    Open with ``await PostgresMatchStore.open(dsn)`` and close with ``await store.close()``, or use
    ``async with await PostgresMatchStore.open(dsn) as store``. Reads raise ``MatchNotFound`` for an
    unknown match and ``CorruptRecord`` for a row that cannot be read; writes raise those too (and then
    change nothing), plus ``StaleVersion``, ``LobbyError`` or ``MatchClosed`` as ``SqliteMatchStore``
    documents per method.
    """

    def __init__(
        self,
        db: PgDatabase,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
        shards: Shards | None = None,
        process: str | None = None,
        lease: timedelta = LEASE,
    ) -> None:
        """Wrap an open, migrated ``PgDatabase``.

        ``max_attempts`` is how many failed sends make a delivery ``failed``; ``clock`` gives the
        ``*_at`` timestamps and the leases' times; ``shards`` are the shards whose duties this process
        does (None: every match); ``process`` names this process in the notices it claims (default:
        ``default_process()``); ``lease`` is how long a claim lasts.
        """
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if lease <= timedelta(0):
            raise ValueError("a lease must last some time")
        self._db = db
        self.max_attempts = max_attempts
        self._clock = clock
        self.shards = None if shards is None or shards.everything else shards
        self.process = process or default_process()
        self.lease = lease
        # The last record this store read or wrote per match (see ``commit_action``).
        self._known = rows.KnownMatches()

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        max_attempts: int = MAX_DELIVERY_ATTEMPTS,
        clock: Callable[[], str] = dbmod.utc_now,
        shards: Shards | None = None,
        process: str | None = None,
        lease: timedelta = LEASE,
        pool_size: int = POOL_SIZE,
    ) -> Self:
        """Connect to the database at ``dsn`` and migrate it as needed. Raises asyncpg's errors when it
        cannot be reached, ``RuntimeError`` when it was migrated by newer code."""
        db = await PgDatabase.open(dsn, pool_size=pool_size)
        try:
            return cls(
                db, max_attempts=max_attempts, clock=clock, shards=shards, process=process, lease=lease
            )
        except BaseException:
            await db.close()
            raise

    @property
    def database(self) -> PgDatabase:
        """The connection pool, for other stores kept in the same database."""
        return self._db

    async def close(self) -> None:
        """Close the pool (waiting for the calls under way); closing twice is harmless."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    def _owned(self, guild_column: str, args: Args) -> str:
        return shard_clause(self.shards, guild_column, args)

    # --------------------------------------------------------------------------------------- reads

    async def get_match(self, match_id: int) -> MatchRecord:
        """The match with its players. Raises ``MatchNotFound`` or ``CorruptRecord``."""
        return await self._known.track(match_id, self._db.read(lambda conn: _load_match(conn, match_id)))

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
        args = Args()
        where: list[str] = []
        order = "id DESC"
        if finished_by_end:
            where.append("status = 'finished'")  # written out, for the index of finished matches
            order = "updated_at DESC, id DESC"
        elif statuses:
            where.append(f"status = ANY({args(sorted({MatchStatus(s).value for s in statuses}))}::text[])")
        if guild_id is not None:
            where.append(f"guild_id = {args(guild_id)}")
        if user_id is not None:
            where.append(f"id IN (SELECT match_id FROM players WHERE user_id = {args(user_id)})")
        if thread_id is not None:
            where.append(f"thread_id = {args(thread_id)}")
        sql = (
            f"SELECT {rows.MATCH_COLUMNS} FROM matches {'WHERE ' + ' AND '.join(where) if where else ''} "
            f"ORDER BY {order} LIMIT {args(max(0, limit))}"
        )

        async def body(conn: Conn) -> MatchListing:
            found = await conn.fetch(sql, *args.values)
            if not found:
                return MatchListing()
            players = await conn.fetch(
                f"SELECT {rows.PLAYER_COLUMNS} FROM players WHERE match_id = ANY($1::bigint[]) "
                f"ORDER BY match_id, {rows.PLAYER_ORDER}",
                [row[0] for row in found],
            )
            return rows.listing_of(found, players)

        listing = await self._db.read(body)
        for match_id, problem in listing.unreadable.items():
            log.warning("left match %s out of a listing: %s", match_id, problem)
        return listing

    async def match_ids(
        self, statuses: Sequence[MatchStatus], limit: int = 100_000, after: int = 0
    ) -> list[int]:
        """The ids above ``after`` of the matches in ``statuses`` on this store's shards, oldest first, at
        most ``limit`` (nothing else is read, so a row that cannot be read is still listed)."""
        args = Args(sorted({MatchStatus(s).value for s in statuses}), after, max(0, limit))
        owned = self._owned("guild_id", args)
        sql = (
            f"SELECT id FROM matches WHERE status = ANY($1::text[]) AND id > $2 {owned} ORDER BY id LIMIT $3"
        )

        async def body(conn: Conn) -> list[int]:
            return [int(row[0]) for row in await conn.fetch(sql, *args.values)]

        return await self._db.read(body)

    async def match_summary(self, match_id: int) -> MatchSummary:
        """Who a match belongs to, read loosely enough to work on a row that ``get_match`` cannot read
        (so an unreadable match can still be scoped and abandoned). Raises ``MatchNotFound``."""

        async def body(conn: Conn) -> MatchSummary:
            row = await conn.fetchrow(
                "SELECT guild_id, creator_id, version, status FROM matches WHERE id = $1", match_id
            )
            if row is None:
                raise rows.not_found(match_id)
            users = await conn.fetch("SELECT user_id FROM players WHERE match_id = $1", match_id)
            return rows.summary_of(match_id, row, (u[0] for u in users))

        return await self._db.read(body)

    async def action_log(self, match_id: int) -> list[LoggedAction]:
        """Every accepted action of the match in the order played (by version), leaving out those taken
        back (void), so replaying it reproduces the current snapshot.

        Raises ``MatchNotFound``, or ``CorruptRecord`` naming the unreadable entry.
        """
        return [action for _, action in await self.kept_actions(match_id)]

    async def action_seats(
        self, match_id: int, upto: int | None = None, latest: int | None = None
    ) -> list[tuple[int, int]]:
        """(version, seat) of every accepted action of the match not taken back, in the order played;
        with ``upto``, of those at that version or before; with ``latest``, of the last ``latest`` of
        those only (a read whose cost does not grow with the match)."""
        sql = f"SELECT version, seat FROM actions WHERE match_id = $1 AND {_KEPT}"
        arguments: tuple[int, ...] = (match_id,)
        if upto is not None:
            arguments += (upto,)
            sql += f" AND version <= ${len(arguments)}"
        if latest is not None:
            arguments += (max(0, latest),)
            sql += f" ORDER BY version DESC LIMIT ${len(arguments)}"
        else:
            sql += " ORDER BY version"

        async def body(conn: Conn) -> list[tuple[int, int]]:
            found = [(int(version), int(seat)) for version, seat in await conn.fetch(sql, *arguments)]
            return found[::-1] if latest is not None else found

        return await self._db.read(body)

    async def last_action_version(self, match_id: int, seat: int) -> int | None:
        """The version of ``seat``'s latest action in the match not taken back (None: there is none)."""

        async def body(conn: Conn) -> int | None:
            latest = await conn.fetchval(
                f"SELECT MAX(version) FROM actions WHERE match_id = $1 AND seat = $2 AND {_KEPT}",
                match_id,
                seat,
            )
            return None if latest is None else int(latest)

        return await self._db.read(body)

    async def action_at(self, match_id: int, version: int) -> LoggedAction | None:
        """The action that made ``version`` of the match, if an action did and it was not taken back."""

        async def body(conn: Conn) -> LoggedAction | None:
            row = await conn.fetchrow(
                f"SELECT seat, notation FROM actions WHERE match_id = $1 AND version = $2 AND {_KEPT}",
                match_id,
                version,
            )
            return None if row is None else LoggedAction(seat=row[0], notation=row[1])

        return await self._db.read(body)

    async def board_at(self, match_id: int, version: int) -> StoredBoard:
        """What it takes to know the match as it stood at ``version``: the latest state when that is the
        current version, else the nearest checkpoint at or before it and the actions after it up to
        ``version`` (see ``data.checkpoints``).

        Raises ``MatchNotFound`` for an unknown match or a version with no board (before the start or
        after the current version), ``CorruptRecord`` if a stored state or action cannot be read.
        """

        async def body(conn: Conn) -> StoredBoard:
            row = await conn.fetchrow("SELECT version, state_json FROM matches WHERE id = $1", match_id)
            if row is None:
                raise rows.not_found(match_id)
            current, latest = row
            if latest is None:
                raise rows.not_started(match_id)
            if version == current:
                return rows.latest_board(match_id, current, latest)
            found = (
                await conn.fetchrow(
                    "SELECT version, state FROM checkpoints WHERE match_id = $1 AND version <= $2 "
                    "ORDER BY version DESC LIMIT 1",
                    match_id,
                    version,
                )
                if 0 <= version < current
                else None
            )
            if found is None:
                first = await conn.fetchval(
                    "SELECT MIN(version) FROM checkpoints WHERE match_id = $1", match_id
                )
                raise rows.no_board(match_id, version, first, current)
            since = int(found[0])
            # Every action in between, voided ones too (see ``SqliteMatchStore.board_at``).
            then = await conn.fetch(
                "SELECT version, seat, notation FROM actions "
                "WHERE match_id = $1 AND version > $2 AND version <= $3 ORDER BY version",
                match_id,
                since,
                version,
            )
            return rows.checkpoint_board(match_id, since, found[1], then)

        return await self._db.read(body)

    async def pending_deliveries(self, limit: int = 100) -> list[Delivery]:
        """Up to ``limit`` deliveries of this store's shards still to send, oldest first, whoever holds
        them. A row that cannot be read is left out; ``pending_by_destination`` settles such rows."""
        args = Args(max(0, limit))
        owned = self._owned("m.guild_id", args)
        join = "JOIN matches m ON m.id = d.match_id" if owned else ""
        columns = ", ".join(f"d.{c.strip()}" for c in rows.DELIVERY_COLUMNS.split(","))
        sql = (
            f"SELECT {columns} FROM deliveries d {join} WHERE d.status = 'pending' {owned} "
            "ORDER BY d.id LIMIT $1"
        )

        async def body(conn: Conn) -> list[Delivery]:
            return rows.readable_deliveries(await conn.fetch(sql, *args.values))[0]

        return await self._db.read(body)

    async def pending_by_destination(
        self,
        destinations: int = 50,
        per_destination: int = 20,
        skip: Collection[Destination] = (),
    ) -> list[list[Delivery]]:
        """The pending deliveries of up to ``destinations`` destinations (a match's thread, or one seat's
        messages) of this store's shards, those waiting longest first, each with its first
        ``per_destination`` deliveries in order, claimed for this process until ``lease`` from now.
        Destinations in ``skip`` (backing off) are passed over, and so are those whose first pending
        delivery another process holds; of the others, a delivery held by another process ends its
        destination's list, so nothing is sent out of order.

        A pending row that cannot be read is marked failed with the reason, and the others go on.
        """
        skipped = list(skip)
        now = self._clock()
        until = utc_text(datetime.fromisoformat(now) + self.lease)
        args = Args(
            self.process,
            now,
            [match_id for match_id, _ in skipped],
            [seat for _, seat in skipped],
            max(1, per_destination),
            max(0, destinations),
        )
        owned = self._owned("m.guild_id", args)
        join = "JOIN matches m ON m.id = d.match_id" if owned else ""
        open_sql = _OPEN_NOTICES.format(join=join, owned=owned)

        async def body(conn: Conn) -> list[list[Any]]:
            candidates = await conn.fetch(open_sql, *args.values)
            if not candidates:
                return []
            locked = {
                row[0]: row
                for row in await conn.fetch(_LOCK_NOTICES, [row[0] for row in candidates], self.process, now)
            }
            # Per destination, the notices from its first one on that this transaction holds now.
            taken: list[list[Any]] = []
            head = None
            stopped = False
            for delivery_id, destination_head in candidates:
                if destination_head != head:
                    head, stopped = destination_head, False
                    taken.append([])
                if stopped or delivery_id not in locked:
                    stopped = True
                    continue
                taken[-1].append(locked[delivery_id])
            taken = [batch for batch in taken if batch]
            claimed = [row[0] for batch in taken for row in batch]
            if claimed:
                await conn.execute(_CLAIM, self.process, until, claimed)
            return taken

        batches: list[list[Delivery]] = []
        unreadable: list[tuple[int, str]] = []
        for found in await self._db.write(body):
            readable, bad = rows.readable_deliveries(found)
            unreadable += bad
            if readable:
                batches.append(readable)
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

        async def body(conn: Conn) -> MatchRecord:
            if draft.origin is not None:
                made = await conn.fetchval("SELECT id FROM matches WHERE origin = $1", draft.origin)
                if made is not None:
                    return await _load_match(conn, int(made))
            match_id = await conn.fetchval(
                "INSERT INTO matches (game, options, seat_count, seed, status, version, creator_id, "
                "guild_id, channel_id, origin, created_at, updated_at, pace) "
                "VALUES ($1, $2, $3, $4, 'lobby', 0, $5, $6, $7, $8, $9, $10, $11) "
                "ON CONFLICT (origin) WHERE origin IS NOT NULL DO NOTHING RETURNING id",
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
            )
            if match_id is None:  # another process made it meanwhile: that one is the match
                made = await conn.fetchval("SELECT id FROM matches WHERE origin = $1", draft.origin)
                return await _load_match(conn, int(made))
            if creator is not None:
                await conn.execute(_INSERT_PLAYER, match_id, creator.user_id, creator.name, creator.bot, None)
            return await _load_match(conn, match_id)

        return self._known.remember(await self._db.write(body))

    async def add_player(self, match_id: int, expected_version: int, player: Player) -> MatchRecord:
        """Add ``player`` to the lobby (its ``seat`` is ignored: ``start_match`` assigns seats).

        Raises ``MatchNotFound``, ``StaleVersion``, or ``LobbyError`` when the match is not in the lobby,
        is full (``seat_count`` players) or ``player.user_id`` has already joined.
        """
        now = self._clock()

        async def body(conn: Conn) -> MatchRecord:
            await _guard(
                conn,
                _GUARD_LOBBY,
                (now, match_id, expected_version),
                match_id,
                expected_version,
                rows.lobby_closed,
            )
            counts = await conn.fetchrow(
                "SELECT seat_count, (SELECT COUNT(*) FROM players WHERE match_id = $1) "
                "FROM matches WHERE id = $1",
                match_id,
            )
            assert counts is not None  # the guard found the match
            seat_count, joined = counts
            already = player.user_id is not None and (
                await conn.fetchval(
                    "SELECT 1 FROM players WHERE match_id = $1 AND user_id = $2", match_id, player.user_id
                )
                is not None
            )
            rows.check_joining(match_id, seat_count, joined, already)
            await conn.execute(_INSERT_PLAYER, match_id, player.user_id, player.name, player.bot, None)
            return await _load_match(conn, match_id)

        return await self._known.track(match_id, self._db.write(body))

    async def remove_player(self, match_id: int, expected_version: int, user_id: int) -> MatchRecord:
        """Take ``user_id`` out of the lobby.

        Raises ``MatchNotFound``, ``StaleVersion``, or ``LobbyError`` when the match is not in the lobby
        or the user has not joined it.
        """
        now = self._clock()

        async def body(conn: Conn) -> MatchRecord:
            await _guard(
                conn,
                _GUARD_LOBBY,
                (now, match_id, expected_version),
                match_id,
                expected_version,
                rows.lobby_closed,
            )
            removed = await conn.execute(
                "DELETE FROM players WHERE match_id = $1 AND user_id = $2", match_id, user_id
            )
            if row_count(removed) == 0:
                raise rows.not_in_lobby(match_id)
            return await _load_match(conn, match_id)

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

        async def body(conn: Conn) -> MatchRecord:
            await _guard(
                conn,
                _GUARD_ACTIVE,
                (now, match_id, expected_version),
                match_id,
                expected_version,
                rows.no_moves,
            )
            try:
                changed = await conn.execute(
                    "UPDATE players SET user_id = $1, name = $2, bot = $3, resigned = $4, absent = $5 "
                    "WHERE match_id = $6 AND seat = $7",
                    player.user_id,
                    player.name,
                    player.bot,
                    int(player.resigned),
                    int(player.absent),
                    match_id,
                    seat,
                )
            except asyncpg.UniqueViolationError:
                raise rows.seat_taken(match_id) from None
            if row_count(changed) == 0:
                seats = await conn.fetch(
                    "SELECT seat FROM players WHERE match_id = $1 AND seat IS NOT NULL ORDER BY seat",
                    match_id,
                )
                raise rows.no_such_seat(match_id, seat, (row[0] for row in seats))
            await _queue(conn, match_id, expected_version + 1, deliveries, now)
            await clockrows.write_change(conn, clocks, now)
            return await _load_match(conn, match_id)

        return await self._known.track(match_id, self._db.write(body))

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        """Remember the match's Discord thread (does not change the version). Raises ``MatchNotFound``."""
        now = self._clock()

        async def body(conn: Conn) -> None:
            changed = await conn.execute(
                "UPDATE matches SET thread_id = $1, updated_at = $2 WHERE id = $3", thread_id, now, match_id
            )
            if row_count(changed) == 0:
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

        async def body(conn: Conn) -> MatchRecord:
            await _guard(
                conn,
                _GUARD_START,
                (now, state_json, match_id, expected_version),
                match_id,
                expected_version,
                rows.lobby_closed,
            )
            seat_count = await conn.fetchval("SELECT seat_count FROM matches WHERE id = $1", match_id)
            rows.check_seated(match_id, seat_count, players)
            version = expected_version + 1
            await conn.execute("DELETE FROM players WHERE match_id = $1", match_id)
            await conn.executemany(
                "INSERT INTO players (match_id, joined, user_id, name, bot, seat) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                [(match_id, i, p.user_id, p.name, p.bot, p.seat) for i, p in enumerate(players)],
            )
            await conn.execute(_INSERT_CHECKPOINT, match_id, version, pack_state(state_json))
            await _queue(conn, match_id, version, deliveries, now)
            await clockrows.write_change(conn, clocks, now)
            return await _load_match(conn, match_id)

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
        and a checkpoint when the version is one, see ``data.checkpoints``), set the status (ACTIVE, or
        FINISHED/ABANDONED with ``result_json``), queue ``deliveries`` and write the ``clocks`` the move
        changed.

        Raises ``MatchNotFound``, ``StaleVersion`` (another commit got there first; nothing stored),
        ``MatchClosed`` when the match is not active, ``ValueError`` for ``status`` LOBBY.
        """
        rows.check_commit_status(status)
        now = self._clock()
        guard_params = (now, status.value, state_json, result_json, match_id, expected_version)
        version = expected_version + 1
        checkpoint = pack_state(state_json) if is_checkpoint(version) else None
        known = self._known.at(match_id, expected_version)

        async def body(conn: Conn) -> MatchRecord:
            await _guard(conn, _GUARD_COMMIT, guard_params, match_id, expected_version, rows.no_moves)
            await conn.execute(
                _INSERT_ACTION, match_id, version, action.seat, action.notation, now, action.stand_in
            )
            if checkpoint is not None:
                await conn.execute(_INSERT_CHECKPOINT, match_id, version, checkpoint)
            await _queue(conn, match_id, version, deliveries, now)
            await clockrows.write_change(conn, clocks, now)
            if known is None:
                return await _load_match(conn, match_id)
            thread_id = await conn.fetchval("SELECT thread_id FROM matches WHERE id = $1", match_id)
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
        params = (now, MatchStatus.ABANDONED.value, None, match_id, expected_version)

        async def body(conn: Conn) -> None:
            await _guard(conn, _GUARD_CLOSE, params, match_id, expected_version, rows.already_closed)

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
        params = (now, status.value, result_json, match_id, expected_version)

        async def body(conn: Conn) -> MatchRecord:
            await _guard(conn, _GUARD_CLOSE, params, match_id, expected_version, rows.already_closed)
            await _queue(conn, match_id, expected_version + 1, deliveries, now)
            return await _load_match(conn, match_id)

        return await self._known.track(match_id, self._db.write(body))

    # ---------------------------------------------------------------------------------- deliveries

    async def mark_delivered(self, delivery_id: int) -> None:
        """Mark a delivery sent (again: harmless) and release its claim; the rest of its destination
        this process holds keeps its claim a lease longer. Raises ``LookupError`` for an unknown id."""
        now = self._clock()
        until = utc_text(datetime.fromisoformat(now) + self.lease)

        async def body(conn: Conn) -> None:
            sent = await conn.fetchrow(
                f"UPDATE deliveries SET status = 'sent', sent_at = $1, {_RELEASE} "
                "WHERE id = $2 AND status != 'sent' RETURNING match_id, seat",
                now,
                delivery_id,
            )
            if sent is None:
                await _require_delivery(conn, delivery_id)
                return
            await conn.execute(
                "UPDATE deliveries SET claimed_until = $1 WHERE match_id = $2 "
                "AND seat IS NOT DISTINCT FROM $3 AND status = 'pending' AND claimed_by = $4",
                until,
                sent[0],
                sent[1],
                self.process,
            )

        await self._db.write(body)

    async def mark_undeliverable(self, delivery_id: int, reason: str) -> None:
        """Give a pending delivery up at once (its destination is gone, or its row cannot be read)."""

        async def body(conn: Conn) -> None:
            await conn.execute(
                f"UPDATE deliveries SET status = 'failed', last_error = $1, attempts = $2, {_RELEASE} "
                "WHERE id = $3 AND status = 'pending'",
                reason[:500],
                self.max_attempts,
                delivery_id,
            )

        await self._db.write(body)

    async def mark_failed(self, delivery_id: int, error: str) -> None:
        """Count a failed send of a pending delivery and keep ``error``; after ``max_attempts`` failures
        it becomes ``failed`` and is no longer offered. Its destination waits: the claims this process
        holds on it are released. Deliveries already sent or failed are left alone. Raises
        ``LookupError`` for an unknown id.
        """

        async def body(conn: Conn) -> None:
            failed = await conn.fetchrow(
                "UPDATE deliveries SET attempts = attempts + 1, last_error = $1, "
                "status = CASE WHEN attempts + 1 >= $2 THEN 'failed' ELSE 'pending' END, "
                f"{_RELEASE} WHERE id = $3 AND status = 'pending' RETURNING match_id, seat",
                error,
                self.max_attempts,
                delivery_id,
            )
            if failed is None:
                await _require_delivery(conn, delivery_id)
                return
            await conn.execute(
                f"UPDATE deliveries SET {_RELEASE} WHERE match_id = $1 AND seat IS NOT DISTINCT FROM $2 "
                "AND status = 'pending' AND claimed_by = $3",
                failed[0],
                failed[1],
                self.process,
            )

        await self._db.write(body)

    async def dm_refused(self, match_id: int, user_id: int) -> bool:
        """Whether ``user_id`` was already told that their direct messages refuse ``match_id``'s notices."""

        async def body(conn: Conn) -> bool:
            found = await conn.fetchval(
                "SELECT 1 FROM dm_refusals WHERE match_id = $1 AND user_id = $2", match_id, user_id
            )
            return found is not None

        return await self._db.read(body)

    async def remember_dm_refused(self, match_id: int, user_id: int) -> bool:
        """Record that ``user_id``'s direct messages refused ``match_id``'s notices; True the first time
        only, so they are told about it once, restarts included."""
        now = self._clock()

        async def body(conn: Conn) -> bool:
            inserted = await conn.execute(
                "INSERT INTO dm_refusals (match_id, user_id, told_at) VALUES ($1, $2, $3) "
                "ON CONFLICT DO NOTHING",
                match_id,
                user_id,
                now,
            )
            return row_count(inserted) == 1

        return await self._db.write(body)

    async def turn_pings(self, match_id: int, turn: int | None = None) -> list[TurnPing]:
        """The pings of ``match_id``'s latest turn that has any (or of ``turn``), by seat."""
        where = (
            "turn = $2"
            if turn is not None
            else "turn = (SELECT MAX(turn) FROM turn_pings WHERE match_id = $1)"
        )
        sql = f"SELECT {rows.PING_COLUMNS} FROM turn_pings WHERE match_id = $1 AND {where} ORDER BY seat"

        async def body(conn: Conn) -> list[TurnPing]:
            found = await conn.fetch(sql, match_id) if turn is None else await conn.fetch(sql, match_id, turn)
            return [rows.to_ping(row) for row in found]

        return await self._db.read(body)

    async def due_pings(self, now: datetime, limit: int = 100) -> list[TurnPing]:
        """Held pings of this store's shards due by ``now``, the longest due first."""
        args = Args(utc_text(now), max(0, limit))
        owned = self._owned("m.guild_id", args)
        join = "JOIN matches m ON m.id = p.match_id" if owned else ""
        columns = ", ".join(f"p.{c.strip()}" for c in rows.PING_COLUMNS.split(","))
        sql = (
            f"SELECT {columns} FROM turn_pings p {join} WHERE p.sent = 0 AND p.due_at <= $1 "
            f"AND p.quarantined IS NULL {owned} ORDER BY p.due_at LIMIT $2"
        )

        async def body(conn: Conn) -> tuple[list[TurnPing], list[Unreadable]]:
            return read_each("turn_pings", await conn.fetch(sql, *args.values), rows.to_ping)

        readable, unreadable = await self._db.read(body)
        await self._set_aside(unreadable)
        return readable

    async def next_ping_due(self) -> datetime | None:
        """When the first held ping of this store's shards comes due (None: none is held)."""
        args = Args()
        owned = self._owned("m.guild_id", args)
        join = "JOIN matches m ON m.id = p.match_id" if owned else ""
        columns = ", ".join(f"p.{c.strip()}" for c in rows.PING_COLUMNS.split(","))
        sql = (
            f"SELECT {columns} FROM turn_pings p {join} WHERE p.sent = 0 AND p.quarantined IS NULL {owned} "
            "ORDER BY p.due_at LIMIT 1 OFFSET "
        )

        async def body(conn: Conn) -> tuple[datetime | None, list[Unreadable]]:
            unreadable: list[Unreadable] = []
            while (found := await conn.fetchrow(sql + str(len(unreadable)), *args.values)) is not None:
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
            for row in await self._db.write(lambda conn: clockrows.quarantine(conn, unreadable)):
                report(row)

    async def ping_user_now(self, user_id: int, now: datetime) -> None:
        """Make ``user_id``'s held pings due at ``now``, to be decided again (their settings changed)."""

        async def body(conn: Conn) -> None:
            await conn.execute(
                "UPDATE turn_pings SET due_at = $1 WHERE user_id = $2 AND sent = 0", utc_text(now), user_id
            )

        await self._db.write(body)

    async def settle_ping(self, ping: TurnPing, via: Via, due_at: datetime | None = None) -> bool:
        """Mark a held ping told ``via`` (or, with ``Via.HELD``, hold it until ``due_at``). True when it
        was still held: whoever gets True tells the player, so nobody tells them twice."""

        async def body(conn: Conn) -> bool:
            changed = await conn.execute(
                "UPDATE turn_pings SET via = $1, sent = $2, due_at = $3 "
                "WHERE match_id = $4 AND turn = $5 AND seat = $6 AND sent = 0",
                *rows.settle_params(ping, via, due_at),
            )
            return row_count(changed) == 1

        return await self._db.write(body)

    async def release_ping(self, ping: TurnPing, due_at: datetime) -> None:
        """Hold again a ping whose sending failed, to retry at ``due_at``."""

        async def body(conn: Conn) -> None:
            await conn.execute(
                "UPDATE turn_pings SET via = '', sent = 0, due_at = $1 "
                "WHERE match_id = $2 AND turn = $3 AND seat = $4",
                utc_text(due_at),
                ping.match_id,
                ping.turn,
                ping.seat,
            )

        await self._db.write(body)

    async def drop_pings(self, match_id: int, before: int | None = None) -> None:
        """Forget the pings of a match's turns (those before turn ``before`` only, when given)."""

        async def body(conn: Conn) -> None:
            if before is None:
                await conn.execute("DELETE FROM turn_pings WHERE match_id = $1", match_id)
            else:
                await conn.execute(
                    "DELETE FROM turn_pings WHERE match_id = $1 AND turn < $2", match_id, before
                )

        await self._db.write(body)

    async def has_private_notice(self, match_id: int, version: int, seat: int) -> bool:
        """Whether a private message to ``seat`` was recorded at ``version`` (sent or still to send)."""

        async def body(conn: Conn) -> bool:
            found = await conn.fetchval(
                "SELECT 1 FROM deliveries "
                "WHERE match_id = $1 AND version = $2 AND seat = $3 AND status != 'failed' LIMIT 1",
                match_id,
                version,
                seat,
            )
            return found is not None

        return await self._db.read(body)

    async def live_post(self, match_id: int) -> LivePost | None:
        """The post showing ``match_id``'s current turn, if one was made (``None`` if it cannot be read)."""

        async def body(conn: Conn) -> LivePost | None:
            row = await conn.fetchrow(
                f"SELECT {rows.LIVE_POST_COLUMNS} FROM live_posts WHERE match_id = $1", match_id
            )
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

        async def body(conn: Conn) -> None:
            if board_image is not None:
                await conn.execute(_REMEMBER_IMAGE, post.match_id, rows.BOARD_IMAGE_SEAT, board_image)
            if pings is not None:
                await conn.execute(
                    "DELETE FROM turn_pings WHERE match_id = $1 AND turn < $2", post.match_id, post.version
                )
                if pings:
                    await conn.executemany(
                        _UPSERT_PING,
                        rows.ping_params(post.match_id, post.version, pings),
                    )
            await conn.execute(
                f"INSERT INTO live_posts (match_id, {rows.LIVE_POST_COLUMNS}) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (match_id) DO UPDATE SET "
                "channel_id = EXCLUDED.channel_id, message_id = EXCLUDED.message_id, "
                "to_act = EXCLUDED.to_act, lines = EXCLUDED.lines, version = EXCLUDED.version, "
                "history = EXCLUDED.history",
                *rows.live_post_params(post),
            )

        await self._db.write(body)

    async def sent_image(self, match_id: int, seat: int) -> str | None:
        """The digest of the last image of ``match_id`` sent to ``seat`` (-1: the live post's board)."""

        async def body(conn: Conn) -> str | None:
            digest = await conn.fetchval(
                "SELECT digest FROM sent_images WHERE match_id = $1 AND seat = $2", match_id, seat
            )
            return None if digest is None else str(digest)

        return await self._db.read(body)

    async def remember_sent_image(self, match_id: int, seat: int, digest: str) -> None:
        """Record ``digest`` as the last image of ``match_id`` that ``seat`` (-1: the board) received."""

        async def body(conn: Conn) -> None:
            await conn.execute(_REMEMBER_IMAGE, match_id, seat, digest)

        await self._db.write(body)

    async def forget_sent(self, before: datetime, limit: int = 5000) -> int:
        """Delete up to ``limit`` notices settled (sent, or given up) before ``before``; how many. The
        action log and snapshots are the truth of a match: a sent notice is only a record of a post."""
        cutoff = utc_text(before)

        async def body(conn: Conn) -> int:
            gone = await conn.execute(
                "DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries "
                "WHERE status IN ('sent', 'failed') AND COALESCE(sent_at, created_at) < $1 LIMIT $2)",
                cutoff,
                None if limit < 0 else limit,
            )
            return row_count(gone)

        return await self._db.write(body)

    # -------------------------------------------------------------------------------------- clocks

    async def seat_clocks(self, match_id: int) -> list[SeatClock]:
        """The match's seat clocks, by seat (none for a match without a clock)."""
        return await self._db.read(lambda conn: clockrows.seat_clocks(conn, match_id))

    async def due_clocks(self, now: datetime, limit: int = 100) -> list[SeatClock]:
        """The seat clocks of this store's shards whose reminder or deadline has fallen by ``now``, the
        earliest first."""
        readable, unreadable = await self._db.read(
            lambda conn: clockrows.due_clocks(conn, now, limit, self.shards)
        )
        await self._set_aside(unreadable)
        return readable

    async def next_clock_due(self) -> datetime | None:
        """When the first clock of this store's shards comes due (None: none is running)."""
        due, unreadable = await self._db.read(lambda conn: clockrows.next_due(conn, self.shards))
        await self._set_aside(unreadable)
        return due

    async def settle_clock(self, old: SeatClock, new: SeatClock) -> bool:
        """Move a clock on past a reminder; False (nothing written) when the row changed since ``old``
        was read, so a reminder is never sent twice."""
        return await self._db.write(lambda conn: clockrows.replace_if_unchanged(conn, old, new))

    async def timeouts_of(self, user_id: int, guild_id: int | None = None) -> int:
        """How many turns a computer played for ``user_id`` because their time ran out (with
        ``guild_id``, in that server's matches only)."""
        return await self._db.read(lambda conn: clockrows.timeouts_of(conn, user_id, guild_id))

    async def absences(
        self, user_ids: Sequence[int], ending_after: datetime
    ) -> dict[int, list[tuple[datetime, datetime]]]:
        """The absences (start, end) of ``user_ids`` that end after ``ending_after``, by user id."""
        return await self._db.read(lambda conn: clockrows.absences(conn, user_ids, ending_after))

    async def begin_absence(
        self,
        user_id: int,
        starts: datetime,
        ends: datetime,
        check: AbsenceCheck | None = None,
        considering: datetime | None = None,
    ) -> list[SeatClock]:
        """Record an absence and move the user's running turns on by its length, in one transaction
        that no other absence of the user's runs beside; ``check`` first judges the user's absences
        ending after ``considering`` (default ``starts``) and raises to refuse. Returns the clocks as
        moved."""
        length = ends - starts

        async def body(conn: Conn) -> list[SeatClock]:
            await clockrows.hold_absences_of(conn, user_id)
            if check is not None:
                spans = await clockrows.absences(conn, [user_id], considering or starts)
                check(spans.get(user_id, []))
            await conn.execute(
                "INSERT INTO absences (user_id, starts_at, ends_at) VALUES ($1, $2, $3)",
                user_id,
                utc_text(starts),
                utc_text(ends),
            )
            running = await clockrows.running_clocks_of(conn, user_id, hold=True)
            moved = [paused(clock, length) for clock in running]
            await clockrows.write_change(conn, ClockChange(clocks=tuple(moved)), self._clock())
            return moved

        return await self._db.write(body)

    async def end_absence(self, user_id: int, now: datetime) -> list[SeatClock] | None:
        """End the user's current absence at ``now`` and move their running turns back by the time it
        had left; None when they are not away."""

        async def body(conn: Conn) -> list[SeatClock] | None:
            await clockrows.hold_absences_of(conn, user_id)
            row = await conn.fetchrow(
                "SELECT starts_at, ends_at FROM absences "
                "WHERE user_id = $1 AND starts_at <= $2 AND ends_at > $2",
                user_id,
                utc_text(now),
            )
            if row is None:
                return None
            starts, ends = row
            unused = datetime.fromisoformat(ends) - now
            await conn.execute(
                "UPDATE absences SET ends_at = $1 WHERE user_id = $2 AND starts_at = $3",
                utc_text(now),
                user_id,
                starts,
            )
            running = await clockrows.running_clocks_of(conn, user_id, hold=True)
            moved = [paused(clock, -unused) for clock in running]
            await clockrows.write_change(conn, ClockChange(clocks=tuple(moved)), self._clock())
            return moved

        return await self._db.write(body)

    # ---------------------------------------------------------------------------------------- undo

    async def kept_actions(self, match_id: int, latest: int | None = None) -> list[tuple[int, LoggedAction]]:
        """(version, action) of every action of the match not taken back, in the order played; with
        ``latest``, of the last ``latest`` of them only.

        Raises ``MatchNotFound``, or ``CorruptRecord`` naming the unreadable entry.
        """

        async def body(conn: Conn) -> list[tuple[int, LoggedAction]]:
            if await conn.fetchval("SELECT 1 FROM matches WHERE id = $1", match_id) is None:
                raise rows.not_found(match_id)
            found = (
                await conn.fetch(_SELECT_KEPT_LOG, match_id)
                if latest is None
                else reversed(await conn.fetch(_SELECT_LATEST_KEPT, match_id, max(0, latest)))
            )
            return [
                (int(version), rows.logged_action(match_id, version, seat, notation, stand_in))
                for version, seat, notation, stand_in in found
            ]

        return await self._db.read(body)

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

        async def body(conn: Conn) -> MatchRecord:
            await _guard(
                conn,
                _GUARD_UNDO,
                (now, state_json, match_id, expected_version),
                match_id,
                expected_version,
                rows.no_moves,
            )
            kept = [
                int(row[0])
                for row in await conn.fetch(
                    f"SELECT version FROM actions WHERE match_id = $1 AND {_KEPT} "
                    "ORDER BY version DESC LIMIT $2",
                    match_id,
                    len(versions),
                )
            ]
            rows.check_latest(match_id, kept, versions)
            await conn.executemany(
                "INSERT INTO void_actions (match_id, version, undone_at) VALUES ($1, $2, $3)",
                [(match_id, undone, version) for undone in versions],
            )
            await conn.execute(_INSERT_CHECKPOINT, match_id, version, pack_state(state_json))
            await _queue(conn, match_id, version, deliveries, now)
            await clockrows.write_change(conn, clocks, now)
            return await _load_match(conn, match_id)

        return await self._known.track(match_id, self._db.write(body))


# ------------------------------------------------------------------------ helpers inside a transaction


async def _guard(
    conn: Conn,
    sql: str,
    params: Sequence[Any],
    match_id: int,
    expected_version: int,
    refuse: rows.Refusal,
) -> None:
    """Run a version guard; if it changed no row, raise why (see ``data.rows.guard_refusal``)."""
    if row_count(await conn.execute(sql, *params)) == 1:
        return
    row = await conn.fetchrow("SELECT version, status FROM matches WHERE id = $1", match_id)
    raise rows.guard_refusal(match_id, expected_version, row, refuse)


async def _load_match(conn: Conn, match_id: int) -> MatchRecord:
    """The match and its players; raises ``MatchNotFound`` or ``CorruptRecord``."""
    row = await conn.fetchrow(_SELECT_MATCH, match_id)
    if row is None:
        raise rows.not_found(match_id)
    return rows.to_record(row, await conn.fetch(_SELECT_PLAYERS, match_id))


async def _queue(
    conn: Conn, match_id: int, version: int, deliveries: Sequence[DeliveryDraft], now: str
) -> None:
    """Record ``deliveries`` as pending at ``version``."""
    if deliveries:
        await conn.executemany(
            _INSERT_DELIVERY, [(match_id, version, d.seat, d.payload, now) for d in deliveries]
        )


async def _require_delivery(conn: Conn, delivery_id: int) -> None:
    if await conn.fetchval("SELECT 1 FROM deliveries WHERE id = $1", delivery_id) is None:
        raise LookupError(f"there is no delivery {delivery_id}")
