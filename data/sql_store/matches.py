"""The matches themselves in the shared match store: reading them and their action logs, the lobby,
starting, moves, closing and undo."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from data import clocks as clockrows
from data import rows, sql
from data.checkpoints import is_checkpoint, pack_state
from data.rows import MatchListing
from data.sql import Program
from data.sql_store.core import (
    GUARD_ACTIVE,
    GUARD_CLOSE,
    GUARD_COMMIT,
    GUARD_LOBBY,
    GUARD_START,
    GUARD_UNDO,
    INSERT_ACTION,
    INSERT_CHECKPOINT,
    INSERT_PLAYER,
    KEPT,
    SELECT_KEPT_LOG,
    SELECT_LATEST_KEPT,
    D,
    StoreCore,
    current_version,
    guard,
    load_match,
    queue,
)
from engine.core.errors import CorruptRecord
from engine.core.replay import LoggedAction
from engine.host.clock import ClockChange
from engine.host.ports import (
    DeliveryDraft,
    MatchRecord,
    MatchStatus,
    MatchSummary,
    NewMatch,
    Player,
    SeatResult,
    StoredBoard,
    TimedAction,
)

log = logging.getLogger(__name__)


class MatchMethods(StoreCore[D]):
    """The ``MatchStore`` methods that read and change matches (see ``SqlMatchStore``)."""

    # ----------------------------------------------------------------------------------- reads

    async def get_match(self, match_id: int) -> MatchRecord:
        """The match with its players. Raises ``MatchNotFound`` or ``CorruptRecord``."""
        return await self._known.track(match_id, self._read(lambda: load_match(match_id)))

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
            where.append(f"status IN ({sql.marks(len(wanted))})")
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

        def body() -> Program[MatchListing]:
            found = yield sql.rows(f"SELECT {rows.MATCH_COLUMNS} {selection}", *params)
            if not found:
                return MatchListing()
            players = yield sql.rows(
                f"SELECT {rows.PLAYER_COLUMNS} FROM players WHERE match_id IN (SELECT id {selection}) "
                f"ORDER BY match_id, {rows.PLAYER_ORDER}",
                *params,
            )
            return rows.listing_of(found, players)

        # One match (the one of a thread, looked up on every move) is a read like any other.
        listing = await self._read(body, may_inline=limit <= 1)
        for match_id, problem in listing.unreadable.items():
            log.warning("left match %s out of a listing: %s", match_id, problem)
        return listing

    async def match_ids(
        self, statuses: Sequence[MatchStatus], limit: int = 100_000, after: int = 0
    ) -> list[int]:
        """The ids above ``after`` of the matches in ``statuses`` whose duties this store does, oldest
        first, at most ``limit`` (nothing else is read, so a row that cannot be read is still listed)."""
        wanted = sorted({MatchStatus(s).value for s in statuses})
        owned, owned_params = self._owned("guild_id")
        statement = (
            f"SELECT id FROM matches WHERE status IN ({sql.marks(len(wanted))}) AND id > ? {owned} "
            "ORDER BY id LIMIT ?"
        )

        def body() -> Program[list[int]]:
            found = yield sql.rows(statement, *wanted, after, *owned_params, max(0, limit))
            return [int(row[0]) for row in found]

        return await self._read(body, may_inline=False)

    async def match_summary(self, match_id: int) -> MatchSummary:
        """Who a match belongs to, read loosely enough to work on a row that ``get_match`` cannot read
        (so an unreadable match can still be scoped and abandoned). Raises ``MatchNotFound``."""

        def body() -> Program[MatchSummary]:
            found = yield sql.row(
                "SELECT guild_id, creator_id, version, status FROM matches WHERE id = ?", match_id
            )
            if found is None:
                raise rows.not_found(match_id)
            users = yield sql.rows("SELECT user_id FROM players WHERE match_id = ?", match_id)
            return rows.summary_of(match_id, found, (u[0] for u in users))

        return await self._read(body)

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
        statement = f"SELECT version, seat FROM actions WHERE match_id = ? AND {KEPT}"
        arguments: tuple[int, ...] = (match_id,)
        if upto is not None:
            statement += " AND version <= ?"
            arguments += (upto,)
        if latest is not None:
            statement += " ORDER BY version DESC LIMIT ?"
            arguments += (max(0, latest),)
        else:
            statement += " ORDER BY version"

        def body() -> Program[list[tuple[int, int]]]:
            found = [(int(version), int(seat)) for version, seat in (yield sql.rows(statement, *arguments))]
            return found[::-1] if latest is not None else found

        return await self._read(body, may_inline=latest is not None)

    async def last_action_version(self, match_id: int, seat: int) -> int | None:
        """The version of ``seat``'s latest action in the match not taken back (None: there is none)."""

        def body() -> Program[int | None]:
            found = yield sql.value(
                f"SELECT MAX(version) FROM actions WHERE match_id = ? AND seat = ? AND {KEPT}", match_id, seat
            )
            return None if found is None else int(found)

        return await self._read(body)

    async def action_at(self, match_id: int, version: int) -> LoggedAction | None:
        """The action that made ``version`` of the match, if an action did and it was not taken back."""

        def body() -> Program[LoggedAction | None]:
            found = yield sql.row(
                f"SELECT seat, notation FROM actions WHERE match_id = ? AND version = ? AND {KEPT}",
                match_id,
                version,
            )
            return None if found is None else LoggedAction(seat=found[0], notation=found[1])

        return await self._read(body)

    async def board_at(self, match_id: int, version: int) -> StoredBoard:
        """What it takes to know the match as it stood at ``version``: the latest state when that is the
        current version, else the nearest checkpoint at or before it and the actions after it up to
        ``version`` (see ``data.checkpoints``). Versions that changed no state (such as ``close_match``)
        have the state of the version before.

        Raises ``MatchNotFound`` for an unknown match or a version with no board (before the start or
        after the current version), ``CorruptRecord`` if a stored state or action cannot be read.
        """

        def body() -> Program[StoredBoard]:
            found = yield sql.row("SELECT version, state_json FROM matches WHERE id = ?", match_id)
            if found is None:
                raise rows.not_found(match_id)
            current, latest = found
            if latest is None:
                raise rows.not_started(match_id)
            if version == current:
                return rows.latest_board(match_id, current, latest)
            checkpoint = None
            if 0 <= version < current:
                checkpoint = yield sql.row(
                    "SELECT version, state FROM checkpoints WHERE match_id = ? AND version <= ? "
                    "ORDER BY version DESC LIMIT 1",
                    match_id,
                    version,
                )
            if checkpoint is None:
                first = yield sql.value("SELECT MIN(version) FROM checkpoints WHERE match_id = ?", match_id)
                raise rows.no_board(match_id, version, first, current)
            since = int(checkpoint[0])
            # Every action in between, voided ones too: an undo stores a checkpoint, so an action voided
            # by an undo after ``since`` was still in play at ``version`` if it comes before it.
            then = yield sql.rows(
                "SELECT version, seat, notation FROM actions "
                "WHERE match_id = ? AND version > ? AND version <= ? ORDER BY version",
                match_id,
                since,
                version,
            )
            return rows.checkpoint_board(match_id, since, checkpoint[1], then)

        return await self._read(body)

    # ----------------------------------------------------------------------------------- lobby

    async def create_match(self, draft: NewMatch, creator: Player | None = None) -> MatchRecord:
        """Open a lobby at version 0, with ``creator`` (if given) as its first player; a draft with an
        ``origin`` already used returns the match made then, as it is now.

        Raises ``ValueError`` when the seed does not fit a signed 64-bit integer.
        """
        rows.check_seed(draft.seed)
        now = self._clock()
        made_by_origin = "SELECT id FROM matches WHERE origin = ?"

        def body() -> Program[MatchRecord]:
            if draft.origin is not None:
                made = yield sql.value(made_by_origin, draft.origin)
                if made is not None:
                    return (yield from load_match(int(made)))
            match_id = yield sql.new_id(
                "INSERT INTO matches (game, options, seat_count, seed, status, version, creator_id, "
                "guild_id, channel_id, origin, created_at, updated_at, pace, least_reliability) "
                "VALUES (?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (origin) WHERE origin IS NOT NULL DO NOTHING",
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
                draft.least_reliability,
            )
            if match_id is None:  # another process made it meanwhile: that one is the match
                made = yield sql.value(made_by_origin, draft.origin)
                return (yield from load_match(int(made)))
            if creator is not None:
                yield sql.count(
                    INSERT_PLAYER, match_id, match_id, creator.user_id, creator.name, creator.bot, None
                )
            return (yield from load_match(match_id))

        return self._known.remember(await self._write(body))

    async def add_player(self, match_id: int, expected_version: int, player: Player) -> MatchRecord:
        """Add ``player`` to the lobby (its ``seat`` is ignored: ``start_match`` assigns seats).

        Raises ``MatchNotFound``, ``StaleVersion``, or ``LobbyError`` when the match is not in the lobby,
        is full (``seat_count`` players) or ``player.user_id`` has already joined.
        """
        now = self._clock()

        def body() -> Program[MatchRecord]:
            yield from guard(
                GUARD_LOBBY, (now, match_id, expected_version), match_id, expected_version, rows.lobby_closed
            )
            counts = yield sql.row(
                "SELECT seat_count, (SELECT COUNT(*) FROM players WHERE match_id = ?) "
                "FROM matches WHERE id = ?",
                match_id,
                match_id,
            )
            assert counts is not None  # the guard found the match
            seat_count, joined = counts
            already = player.user_id is not None and (
                (
                    yield sql.value(
                        "SELECT 1 FROM players WHERE match_id = ? AND user_id = ?", match_id, player.user_id
                    )
                )
                is not None
            )
            rows.check_joining(match_id, seat_count, joined, already)
            yield sql.count(INSERT_PLAYER, match_id, match_id, player.user_id, player.name, player.bot, None)
            return (yield from load_match(match_id))

        return await self._known.track(match_id, self._write(body))

    async def remove_player(self, match_id: int, expected_version: int, user_id: int) -> MatchRecord:
        """Take ``user_id`` out of the lobby.

        Raises ``MatchNotFound``, ``StaleVersion``, or ``LobbyError`` when the match is not in the lobby
        or the user has not joined it.
        """
        now = self._clock()

        def body() -> Program[MatchRecord]:
            yield from guard(
                GUARD_LOBBY, (now, match_id, expected_version), match_id, expected_version, rows.lobby_closed
            )
            removed = yield sql.count(
                "DELETE FROM players WHERE match_id = ? AND user_id = ?", match_id, user_id
            )
            if removed == 0:
                raise rows.not_in_lobby(match_id)
            return (yield from load_match(match_id))

        return await self._known.track(match_id, self._write(body))

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
        replace = sql.Query(
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
            sql.Want.COUNT,
            duplicate_is_none=True,
        )

        def body() -> Program[MatchRecord]:
            yield from guard(
                GUARD_ACTIVE, (now, match_id, expected_version), match_id, expected_version, rows.no_moves
            )
            changed = yield replace
            if changed is None:  # the user holds another seat
                raise rows.seat_taken(match_id)
            if changed == 0:
                seats = yield sql.rows(
                    "SELECT seat FROM players WHERE match_id = ? AND seat IS NOT NULL ORDER BY seat", match_id
                )
                raise rows.no_such_seat(match_id, seat, (found[0] for found in seats))
            yield from queue(match_id, expected_version + 1, deliveries, now)
            yield from clockrows.write_change(self.dialect, clocks, now)
            return (yield from load_match(match_id))

        return await self._known.track(match_id, self._write(body))

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        """Remember the match's Discord thread (does not change the version). Raises ``MatchNotFound``."""
        now = self._clock()

        def body() -> Program[None]:
            changed = yield sql.count(
                "UPDATE matches SET thread_id = ?, updated_at = ? WHERE id = ?", thread_id, now, match_id
            )
            if changed == 0:
                raise rows.not_found(match_id)

        await self._write(body)

    # ------------------------------------------------------------------------------------ play

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
        version = expected_version + 1
        guard_params = (now, state_json, match_id, expected_version)

        def body() -> Program[MatchRecord]:
            yield from guard(GUARD_START, guard_params, match_id, expected_version, rows.lobby_closed)
            seat_count = yield sql.value("SELECT seat_count FROM matches WHERE id = ?", match_id)
            rows.check_seated(match_id, seat_count, players)
            yield sql.count("DELETE FROM players WHERE match_id = ?", match_id)
            yield sql.each(
                "INSERT INTO players (match_id, joined, user_id, name, bot, seat) VALUES (?, ?, ?, ?, ?, ?)",
                [(match_id, i, p.user_id, p.name, p.bot, p.seat) for i, p in enumerate(players)],
            )
            yield sql.count(INSERT_CHECKPOINT, match_id, version, pack_state(state_json))
            yield from queue(match_id, version, deliveries, now)
            yield from clockrows.write_change(self.dialect, clocks, now)
            return (yield from load_match(match_id))

        return await self._known.track(match_id, self._write(body))

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

        def body() -> Program[MatchRecord]:
            yield from guard(GUARD_COMMIT, guard_params, match_id, expected_version, rows.no_moves)
            yield sql.count(
                INSERT_ACTION, match_id, version, action.seat, action.notation, now, action.stand_in
            )
            if checkpoint is not None:
                yield sql.count(INSERT_CHECKPOINT, match_id, version, checkpoint)
            if deliveries:
                yield from queue(match_id, version, deliveries, now)
            yield from clockrows.write_change(self.dialect, clocks, now)
            if known is None:
                return (yield from load_match(match_id))
            thread_id = yield sql.value("SELECT thread_id FROM matches WHERE id = ?", match_id)
            return rows.committed_record(
                known,
                version=version,
                status=status,
                state_json=state_json,
                result_json=result_json,
                now=now,
                thread_id=rows.thread_of(match_id, thread_id),
            )

        return await self._known.track(match_id, self._write(body))

    async def abandon_unreadable(self, match_id: int, expected_version: int) -> None:
        """Abandon a match whose row cannot be read in full (only its version and status are needed).

        Raises ``MatchNotFound``, ``StaleVersion`` or ``MatchClosed`` as ``close_match`` does."""
        params = (self._clock(), MatchStatus.ABANDONED.value, None, match_id, expected_version)
        await self._write(lambda: guard(GUARD_CLOSE, params, match_id, expected_version, rows.already_closed))

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

        def body() -> Program[MatchRecord]:
            yield from guard(GUARD_CLOSE, params, match_id, expected_version, rows.already_closed)
            yield from queue(match_id, expected_version + 1, deliveries, now)
            return (yield from load_match(match_id))

        return await self._known.track(match_id, self._write(body))

    async def seat_results(
        self, user_id: int, guild_id: int | None = None, limit: int = 50, started: bool = False
    ) -> list[SeatResult]:
        """``user_id``'s seats in their ``limit`` latest finished matches (with ``started``, in every
        match that started), on ``guild_id`` only when given, the last changed first, with each match's
        result and resigned seats; a seat row that cannot be read is left out. Reads no board, so a
        long career costs little."""
        status = "m.status <> 'lobby'" if started else "m.status = 'finished'"
        where = f"p.user_id = ? AND p.seat IS NOT NULL AND {status}"
        params: list[Any] = [user_id]
        if guild_id is not None:
            where += " AND m.guild_id = ?"
            params.append(guild_id)
        selection = (
            f"FROM matches AS m JOIN players AS p ON p.match_id = m.id WHERE {where} "
            "ORDER BY m.updated_at DESC, m.id DESC LIMIT ?"
        )
        params.append(max(0, limit))

        def body() -> Program[list[SeatResult]]:
            found = yield sql.rows(f"SELECT m.id, m.game, p.seat, m.result_json {selection}", *params)
            if not found:
                return []
            gave_up = yield sql.rows(
                f"SELECT match_id, seat FROM players WHERE resigned = 1 AND seat IS NOT NULL "
                f"AND match_id IN (SELECT m.id {selection})",
                *params,
            )
            resigned: dict[int, set[int]] = {}
            for match_id, seat in gave_up:
                resigned.setdefault(int(match_id), set()).add(int(seat))
            results = []
            for match_id, game, seat, result in found:
                fields = {"match_id": match_id, "game": game, "seat": seat, "result_json": result}
                fields["resigned"] = frozenset(resigned.get(int(match_id), ()))
                try:
                    results.append(SeatResult.model_validate(fields))
                except ValidationError as exc:
                    log.warning("left match %s out of a career: %s", match_id, exc)
            return results

        return await self._read(body)

    async def timed_logs(self, match_ids: Sequence[int]) -> dict[int, list[TimedAction]]:
        """The kept actions of each of ``match_ids`` in the order played, with when each was committed;
        an unknown match, or one without actions, maps to an empty list. Raises ``CorruptRecord`` naming
        an unreadable entry."""
        wanted = sorted(set(match_ids))
        if not wanted:
            return {}

        def body() -> Program[dict[int, list[TimedAction]]]:
            found = yield sql.rows(
                "SELECT match_id, version, seat, notation, stand_in, created_at FROM actions "
                f"WHERE match_id IN ({sql.marks(len(wanted))}) AND {KEPT} ORDER BY match_id, version",
                *wanted,
            )
            logs: dict[int, list[TimedAction]] = {match_id: [] for match_id in wanted}
            for match_id, version, seat, notation, stand_in, at in found:
                action = rows.logged_action(match_id, version, seat, notation, stand_in)
                what = f"the action at version {version} of match {match_id}"
                when = clockrows.read_moment(at, "created_at", what)
                if when is None:
                    raise CorruptRecord(f"{what} cannot be read: created_at is empty")
                logs[int(match_id)].append(TimedAction(version=int(version), action=action, at=when))
            return logs

        return await self._read(body)

    # ------------------------------------------------------------------------------------ undo

    async def kept_actions(self, match_id: int, latest: int | None = None) -> list[tuple[int, LoggedAction]]:
        """(version, action) of every action of the match not taken back, in the order played; with
        ``latest``, of the last ``latest`` of them only.

        Raises ``MatchNotFound``, or ``CorruptRecord`` naming the unreadable entry.
        """

        def body() -> Program[list[tuple[int, LoggedAction]]]:
            yield from current_version(match_id)
            if latest is None:
                found = yield sql.rows(SELECT_KEPT_LOG, match_id)
            else:
                found = (yield sql.rows(SELECT_LATEST_KEPT, match_id, max(0, latest)))[::-1]
            return [
                (int(version), rows.logged_action(match_id, version, seat, notation, stand_in))
                for version, seat, notation, stand_in in found
            ]

        # The whole log may be long; the last few actions are a read like any other.
        return await self._read(body, may_inline=latest is not None)

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
        guard_params = (now, state_json, match_id, expected_version)

        def body() -> Program[MatchRecord]:
            yield from guard(GUARD_UNDO, guard_params, match_id, expected_version, rows.no_moves)
            kept = yield sql.rows(
                f"SELECT version FROM actions WHERE match_id = ? AND {KEPT} ORDER BY version DESC LIMIT ?",
                match_id,
                len(versions),
            )
            rows.check_latest(match_id, [int(found[0]) for found in kept], versions)
            yield sql.each(
                "INSERT INTO void_actions (match_id, version, undone_at) VALUES (?, ?, ?)",
                [(match_id, undone, version) for undone in versions],
            )
            yield sql.count(INSERT_CHECKPOINT, match_id, version, pack_state(state_json))
            yield from queue(match_id, version, deliveries, now)
            yield from clockrows.write_change(self.dialect, clocks, now)
            return (yield from load_match(match_id))

        return await self._known.track(match_id, self._write(body))
