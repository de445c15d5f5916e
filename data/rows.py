"""What the match stores share whatever database is under them: stored rows to records (read strictly,
``CorruptRecord`` naming what cannot be read), the checks made before a write, and the refusals.

Pure: no I/O. ``data.sql_store`` runs the SQL, on SQLite or PostgreSQL, and hands the rows here.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from data import clocks as clockrows
from data import db as dbmod
from data.checkpoints import unpack_state
from engine.core.errors import (
    CorruptRecord,
    EngineError,
    LobbyError,
    MatchClosed,
    MatchNotFound,
    StaleVersion,
)
from engine.core.replay import LoggedAction
from engine.host.clock import Pace
from engine.host.ledgers import BOARD_IMAGE_SEAT as BOARD_IMAGE_SEAT  # kept here for the stores
from engine.host.notify import TurnPing, Via
from engine.host.ports import (
    Delivery,
    LivePost,
    MatchListing,
    MatchRecord,
    MatchStatus,
    MatchSummary,
    Player,
    StoredBoard,
    TurnLines,
)

# A stream of notices kept in order: a match's thread (seat None) or one seat's private messages.
Destination = tuple[int, int | None]

MAX_DELIVERY_ATTEMPTS = 5
KNOWN_MATCHES = 256
INT64 = range(-(2**63), 2**63)

MATCH_COLUMNS = (
    "id, game, options, seat_count, seed, status, version, creator_id, guild_id, channel_id, thread_id, "
    "state_json, result_json, created_at, updated_at, pace, least_reliability"
)
PLAYER_COLUMNS = "match_id, user_id, name, bot, seat, resigned, absent"
# Seated players in seat order; lobby players (no seat yet) in the order they joined.
PLAYER_ORDER = "seat IS NULL, seat, joined"
DELIVERY_COLUMNS = "id, match_id, version, seat, payload, attempts"
PING_COLUMNS = "match_id, turn, seat, user_id, started_at, due_at, via"
LIVE_POST_COLUMNS = "channel_id, message_id, to_act, lines, version, history"


class KnownMatches:
    """The last record a store read or wrote per match, most recent last (at most ``size``). A commit
    whose guard proves the match is still at that record's version derives its result from it instead
    of reading the match back (see ``committed_record``)."""

    def __init__(self, size: int = KNOWN_MATCHES) -> None:
        self._size = size
        self._records: dict[int, MatchRecord] = {}

    def at(self, match_id: int, version: int) -> MatchRecord | None:
        """The known record of the match if it is at ``version``."""
        known = self._records.get(match_id)
        return known if known is not None and known.version == version else None

    def remember(self, record: MatchRecord) -> MatchRecord:
        self._records.pop(record.id, None)
        self._records[record.id] = record
        if len(self._records) > self._size:
            del self._records[next(iter(self._records))]
        return record

    async def track(self, match_id: int, call: Awaitable[MatchRecord]) -> MatchRecord:
        """Await ``call`` and remember the record it returns; if it raises (stale, corrupt, ...), forget
        what was known of the match so the next commit reads it afresh."""
        try:
            record = await call
        except BaseException:
            self._records.pop(match_id, None)
            raise
        return self.remember(record)


# ------------------------------------------------------------------------------ checks before a write


def check_seed(seed: int) -> None:
    if seed not in INT64:
        raise ValueError(f"the seed {seed} does not fit a signed 64-bit integer")


def check_seating(players: Sequence[Player]) -> None:
    """``LobbyError`` unless the seats are ``0 .. n - 1`` and no user takes two."""
    seats = sorted(p.seat for p in players if p.seat is not None)
    if len(seats) != len(players) or seats != list(range(len(players))):
        raise LobbyError(
            "every player needs a different seat, numbered from 0",
            [f"{p.name}: {p.seat}" for p in players],
        )
    users = [p.user_id for p in players if p.user_id is not None]
    if len(set(users)) != len(users):
        raise LobbyError("a player cannot take two seats")


def check_seated(match_id: int, seat_count: int, players: Sequence[Player]) -> None:
    if len(players) != seat_count:
        raise LobbyError(f"match {match_id} needs {seat_count} players and {len(players)} were seated")


def check_joining(match_id: int, seat_count: int, joined: int, already: bool) -> None:
    """``LobbyError`` when the user has ``already`` joined or the lobby is full."""
    if already:
        raise LobbyError(f"you have already joined match {match_id}", ["leave"])
    if joined >= seat_count:
        raise LobbyError(f"match {match_id} is full ({joined} of {seat_count} seats taken)")


def not_in_lobby(match_id: int) -> LobbyError:
    return LobbyError(f"you are not in match {match_id}", ["join"])


def seat_taken(match_id: int) -> LobbyError:
    return LobbyError(f"that player already holds another seat in match {match_id}")


def no_such_seat(match_id: int, seat: int, seats: Iterable[int]) -> LobbyError:
    return LobbyError(f"match {match_id} has no seat {seat}", [str(s) for s in seats])


def check_commit_status(status: MatchStatus) -> None:
    if status is MatchStatus.LOBBY:
        raise ValueError("a committed action cannot put a match back in the lobby")


def check_close_status(status: MatchStatus) -> None:
    if status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
        raise ValueError(f"close_match needs FINISHED or ABANDONED, not {status.value}")


def check_undo(versions: Sequence[int]) -> None:
    if not versions:
        raise ValueError("an undo takes back at least one action")


def check_latest(match_id: int, kept: Sequence[int], versions: Sequence[int]) -> None:
    """``ValueError`` unless ``versions`` are exactly the ``kept`` latest actions."""
    if sorted(kept) != sorted(versions):
        raise ValueError(
            f"match {match_id} can only take back its latest actions {sorted(kept)}, not {sorted(versions)}"
        )


# --------------------------------------------------------------------------------------- refusals


def not_found(match_id: int) -> MatchNotFound:
    return MatchNotFound(f"there is no match {match_id}")


def lobby_closed(match_id: int, status: MatchStatus) -> EngineError:
    return LobbyError(f"match {match_id} is {status.value}; the lobby is closed")


def no_moves(match_id: int, status: MatchStatus) -> EngineError:
    allowed = ["start"] if status is MatchStatus.LOBBY else []
    return MatchClosed(f"match {match_id} is {status.value}; no moves can be made", allowed)


def already_closed(match_id: int, status: MatchStatus) -> EngineError:
    return MatchClosed(f"match {match_id} is already {status.value}")


# Why a guard refuses a status it does not allow: (match id, status) -> the error to raise.
Refusal = Callable[[int, MatchStatus], EngineError]


def guard_refusal(
    match_id: int, expected_version: int, row: dbmod.Row | None, refuse: Refusal
) -> EngineError:
    """Why a version guard changed no row, given the match's (version, status) as it is now (None: no
    such match): ``MatchNotFound``, ``CorruptRecord`` (unreadable version or status), ``StaleVersion``,
    or ``refuse(match_id, status)`` for a status the guard does not allow."""
    if row is None:
        return not_found(match_id)
    version, status = row
    if type(version) is not int:
        return CorruptRecord(
            f"match {match_id} cannot be read: its version is {version!r}; nothing was changed"
        )
    if version != expected_version:
        return StaleVersion(
            f"this board has moved on (now at version {version}, you acted on {expected_version})",
            [str(version)],
        )
    return refuse(match_id, status_of(match_id, status))


def thread_of(match_id: int, thread_id: Any) -> int | None:
    """The match's thread id; raises ``CorruptRecord`` if it is not an integer."""
    if thread_id is not None and type(thread_id) is not int:
        raise CorruptRecord(
            f"match {match_id} cannot be read: thread_id is {thread_id!r}, not a Discord id; "
            "nothing was changed"
        )
    return thread_id


# --------------------------------------------------------------------------------- rows to models


def to_record(row: dbmod.Row, player_rows: Iterable[dbmod.Row]) -> MatchRecord:
    """Build a ``MatchRecord`` from a ``matches`` row and its ``players`` rows (strictly typed).

    Raises ``CorruptRecord`` naming the match and what cannot be read.
    """
    match_id = row[0]
    players = tuple(
        dbmod.validated_row(
            Player,
            {
                "user_id": user_id,
                "name": name,
                "bot": bot,
                "seat": seat,
                "resigned": bool(resigned),
                "absent": bool(absent),
            },
            f"a player of match {match_id}",
        )
        for _, user_id, name, bot, seat, resigned, absent in player_rows
    )
    fields = {
        "id": match_id,
        "game": row[1],
        "options": _options(match_id, row[2]),
        "seat_count": row[3],
        "seed": row[4],
        "status": status_of(match_id, row[5]),
        "version": row[6],
        "creator_id": row[7],
        "guild_id": row[8],
        "channel_id": row[9],
        "thread_id": row[10],
        "players": players,
        "state_json": row[11],
        "result_json": row[12],
        "created_at": row[13],
        "updated_at": row[14],
        "pace": _pace(match_id, row[15]),
        "least_reliability": row[16],
    }
    return dbmod.validated_row(MatchRecord, fields, f"match {match_id}")


def listing_of(rows: Iterable[dbmod.Row], player_rows: Iterable[dbmod.Row]) -> MatchListing:
    """The records of ``rows`` (in their order) with their players, and why each unreadable one is not."""
    players: dict[int, list[dbmod.Row]] = {}
    for player in player_rows:
        players.setdefault(player[0], []).append(player)
    listing = MatchListing()
    for row in rows:
        try:
            listing.matches.append(to_record(row, players.get(row[0], ())))
        except CorruptRecord as exc:
            listing.unreadable[row[0]] = exc.message
    return listing


def summary_of(match_id: int, row: dbmod.Row, user_ids: Iterable[Any]) -> MatchSummary:
    """A ``MatchSummary`` from (guild_id, creator_id, version, status), reading loosely."""
    return MatchSummary(
        id=match_id,
        guild_id=row[0] if type(row[0]) is int else None,
        creator_id=row[1] if type(row[1]) is int else None,
        version=row[2] if type(row[2]) is int else -1,
        status=str(row[3]),
        user_ids=frozenset(u for u in user_ids if type(u) is int),
    )


def logged_action(
    match_id: int, version: Any, seat: Any, notation: Any, stand_in: Any = False
) -> LoggedAction:
    what = f"the action at version {version} of match {match_id}"
    if type(stand_in) is int and stand_in in (0, 1):
        stand_in = bool(stand_in)  # SQLite stores a flag as 0 or 1
    fields = {"seat": seat, "notation": notation, "stand_in": stand_in}
    return dbmod.validated_row(LoggedAction, fields, what)


def committed_record(
    known: MatchRecord,
    *,
    version: int,
    status: MatchStatus,
    state_json: str,
    result_json: str | None,
    now: str,
    thread_id: int | None,
) -> MatchRecord:
    """The match after a commit, from ``known``: its guard proved the row was still at the version
    ``known`` was read at, and every change but the thread id bumps the version, so only the columns a
    commit writes and the thread id can differ; re-reading the whole match and its players is not
    needed."""
    update = {
        "version": version,
        "status": status,
        "state_json": state_json,
        "result_json": result_json,
        "updated_at": now,
        "thread_id": thread_id,
    }
    return known.model_copy(update=update)


def latest_board(match_id: int, current: int, latest: Any) -> StoredBoard:
    """The board at the current version, from the match's latest state."""
    if not isinstance(latest, str):
        raise CorruptRecord(f"the state of match {match_id} is not text; nothing was changed")
    return StoredBoard(version=current, state_json=latest)


def no_board(match_id: int, version: int, first: int | None, current: int) -> MatchNotFound:
    return MatchNotFound(
        f"match {match_id} has no board at version {version}; "
        f"boards exist from version {first if first is not None else current} to {current}"
    )


def not_started(match_id: int) -> MatchNotFound:
    return MatchNotFound(f"match {match_id} has not started, so it has no board yet")


def checkpoint_board(match_id: int, since: int, packed: Any, action_rows: Iterable[dbmod.Row]) -> StoredBoard:
    """The checkpoint at ``since`` and the (version, seat, notation) actions after it."""
    state = unpack_state(packed, f"the checkpoint of match {match_id} at version {since}")
    then = tuple(logged_action(match_id, at, seat, notation) for at, seat, notation in action_rows)
    return StoredBoard(version=since, state_json=state, then=then)


def readable_deliveries(rows: Iterable[dbmod.Row]) -> tuple[list[Delivery], list[tuple[int, str]]]:
    """The deliveries of ``rows`` (``DELIVERY_COLUMNS`` first) that can be read, and the id and problem
    of each that cannot."""
    readable: list[Delivery] = []
    unreadable: list[tuple[int, str]] = []
    for row in rows:
        try:
            readable.append(
                dbmod.validated_row(
                    Delivery,
                    dict(zip(("id", "match_id", "version", "seat", "payload", "attempts"), row, strict=True)),
                    f"delivery {row[0]} of match {row[1]}",
                )
            )
        except CorruptRecord as exc:
            unreadable.append((int(row[0]), exc.message))
    return readable, unreadable


def to_ping(row: dbmod.Row) -> TurnPing:
    what = f"the turn reminder of seat {row[2]} in match {row[0]}"
    try:
        via = Via(row[6])
    except ValueError:
        raise CorruptRecord(
            f"{what} cannot be read: via: not a way to tell a player (stored {row[6]!r:.40}); "
            "nothing was changed"
        ) from None
    fields = {
        "match_id": row[0],
        "turn": row[1],
        "seat": row[2],
        "user_id": row[3],
        "started_at": clockrows.read_moment(row[4], "started_at", what),
        "due_at": clockrows.read_moment(row[5], "due_at", what),
        "via": via,
    }
    return dbmod.validated_row(TurnPing, fields, what)


def ping_params(match_id: int, turn: int, pings: Sequence[TurnPing]) -> list[tuple[Any, ...]]:
    """The ``turn_pings`` rows (match_id, turn, seat, user_id, started_at, due_at, via, sent) of ``pings``."""
    return [
        (
            match_id,
            turn,
            p.seat,
            p.user_id,
            clockrows.utc_text(p.started_at),
            clockrows.utc_text(p.due_at),
            p.via.value,
            int(p.sent),
        )
        for p in pings
    ]


def settle_params(ping: TurnPing, via: Via, due_at: datetime | None) -> tuple[Any, ...]:
    """(via, sent, due_at, match_id, turn, seat) of a ping being settled."""
    return (
        via.value,
        int(via is not Via.HELD),
        clockrows.utc_text(due_at or ping.due_at),
        ping.match_id,
        ping.turn,
        ping.seat,
    )


def live_post_of(match_id: int, row: dbmod.Row) -> LivePost | None:
    """The live post from its (``LIVE_POST_COLUMNS``) row; None when it cannot be read."""
    try:
        return LivePost(
            match_id=match_id,
            channel_id=row[0],
            message_id=row[1],
            to_act=tuple(json.loads(row[2])),
            lines=tuple(json.loads(row[3])),
            version=row[4],
            history=tuple(TurnLines.model_validate(turn) for turn in json.loads(row[5])),
        )
    except (ValueError, TypeError, ValidationError):
        return None


def live_post_params(post: LivePost) -> tuple[Any, ...]:
    """(match_id, ``LIVE_POST_COLUMNS``) of ``post`` as stored."""
    return (
        post.match_id,
        post.channel_id,
        post.message_id,
        json.dumps(list(post.to_act)),
        json.dumps(list(post.lines)),
        post.version,
        json.dumps([turn.model_dump(mode="json") for turn in post.history]),
    )


def _options(match_id: int, text: Any) -> frozenset[str]:
    try:
        options = json.loads(text)
    except (TypeError, ValueError):
        options = None
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise CorruptRecord(
            f"match {match_id} cannot be read: its options are not a JSON list of option ids "
            f"({str(text)[:60]!r}); nothing was changed"
        )
    return frozenset(options)


def _pace(match_id: int, value: Any) -> Pace:
    try:
        return Pace(value)
    except ValueError:
        raise CorruptRecord(
            f"match {match_id} cannot be read: unknown clock {value!r}; nothing was changed",
            [p.value for p in Pace],
        ) from None


def status_of(match_id: int, value: Any) -> MatchStatus:
    try:
        return MatchStatus(value)
    except ValueError:
        raise CorruptRecord(
            f"match {match_id} cannot be read: unknown status {value!r}; nothing was changed",
            [s.value for s in MatchStatus],
        ) from None
