"""The match stores: lobby rules, commits, version guards, concurrency, outbox and corrupt rows, on every
backend (``store``: SQLite inline and on the worker, PostgreSQL). Tests that reach into the SQLite file
itself take ``sqlite_store`` and run on SQLite only."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import zlib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from data.store import SqliteMatchStore
from engine.core.errors import CorruptRecord, LobbyError, MatchClosed, MatchNotFound, StaleVersion
from engine.core.replay import LoggedAction
from engine.host.ports import (
    DeliveryDraft,
    LivePost,
    MatchRecord,
    MatchStatus,
    NewMatch,
    Player,
    StoredBoard,
    TurnLines,
)
from tests.data.backends import AnyStore, Backdoor, SqliteBackdoor

ANN = Player(user_id=101, name="ann")
BOB = Player(user_id=202, name="bob")
CY = Player(user_id=303, name="cy")


def draft(seat_count: int = 2, **fields: object) -> NewMatch:
    return NewMatch.model_validate(
        {"game": "toy", "seat_count": seat_count, "seed": 7, "creator_id": ANN.user_id, **fields}
    )


def state(n: int) -> str:
    return json.dumps({"turn": n, "board": [n] * 5})


async def started(store: AnyStore, *joiners: Player) -> MatchRecord:
    """A started match of ann plus ``joiners`` (bob by default), seated in join order."""
    joiners = joiners or (BOB,)
    match = await store.create_match(draft(1 + len(joiners)), ANN)
    for player in joiners:
        match = await store.add_player(match.id, match.version, player)
    seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(match.players)]
    hello = [DeliveryDraft(payload='{"headline": "begins"}')]
    return await store.start_match(match.id, match.version, seated, state(0), hello)


async def play(store: AnyStore, match: MatchRecord, moves: int) -> MatchRecord:
    for _ in range(moves):
        n = match.version + 1
        match = await store.commit_action(
            match.id, match.version, LoggedAction(seat=n % 2, notation=f"m{n}"), state(n)
        )
    return match


def raw_write(path: Path, sql: str, *params: object) -> None:
    """Write straight to the file behind the store's back, as a broken tool or disk would."""
    raw = sqlite3.connect(path)
    try:
        with raw:
            raw.execute("PRAGMA ignore_check_constraints = ON")
            raw.execute(sql, params)
    finally:
        raw.close()


# ---------------------------------------------------------------------------------------------- lobby


async def test_create_match_opens_a_lobby(store: AnyStore) -> None:
    match = await store.create_match(draft(3, options=frozenset({"b", "a"}), guild_id=9, channel_id=8), ANN)
    assert match.status is MatchStatus.LOBBY and match.version == 0
    assert match.options == {"a", "b"} and match.seat_count == 3 and match.seed == 7
    assert (match.creator_id, match.guild_id, match.channel_id, match.thread_id) == (101, 9, 8, None)
    assert match.players == (ANN,)
    assert match.state_json is None and match.result_json is None
    assert await store.get_match(match.id) == match
    lonely = await store.create_match(draft(2))
    assert lonely.players == () and lonely.id != match.id


async def test_a_lobby_keeps_the_reliability_it_asks_for(store: AnyStore) -> None:
    strict = await store.create_match(draft(2, least_reliability=0.8), ANN)
    assert strict.least_reliability == 0.8
    strict = await store.add_player(strict.id, strict.version, BOB)
    assert (await store.get_match(strict.id)).least_reliability == 0.8
    assert [m.least_reliability for m in await store.list_matches()] == [0.8]
    assert (await store.create_match(draft(2))).least_reliability == 0  # anyone may join


async def test_join_and_leave_follow_the_lobby_rules(store: AnyStore) -> None:
    match = await store.create_match(draft(2), ANN)
    with pytest.raises(LobbyError, match="already joined"):
        await store.add_player(match.id, match.version, ANN)
    match = await store.add_player(match.id, match.version, BOB)
    assert match.version == 1 and [p.name for p in match.players] == ["ann", "bob"]
    with pytest.raises(LobbyError, match="full"):
        await store.add_player(match.id, match.version, CY)
    with pytest.raises(LobbyError, match="not in match"):
        await store.remove_player(match.id, match.version, CY.user_id or 0)
    match = await store.remove_player(match.id, match.version, ANN.user_id or 0)
    assert match.version == 2 and match.players == (BOB,)
    match = await store.add_player(match.id, match.version, Player(name="Computer 1", bot="greedy"))
    assert [(p.name, p.bot) for p in match.players] == [("bob", None), ("Computer 1", "greedy")]
    assert (await store.get_match(match.id)).version == 3


async def test_lobby_changes_need_the_current_version(store: AnyStore) -> None:
    match = await store.create_match(draft(3), ANN)
    await store.add_player(match.id, match.version, BOB)
    with pytest.raises(StaleVersion) as caught:
        await store.add_player(match.id, match.version, CY)
    assert "now at version 1, you acted on 0" in caught.value.message
    assert caught.value.allowed == ("1",)
    assert [p.name for p in (await store.get_match(match.id)).players] == ["ann", "bob"]


async def test_no_joining_or_leaving_once_started(store: AnyStore) -> None:
    match = await started(store)
    with pytest.raises(LobbyError, match="lobby is closed"):
        await store.add_player(match.id, match.version, CY)
    with pytest.raises(LobbyError, match="lobby is closed"):
        await store.remove_player(match.id, match.version, BOB.user_id or 0)
    with pytest.raises(LobbyError, match="lobby is closed"):
        await store.start_match(match.id, match.version, match.players, state(0))


async def test_start_checks_the_seats(store: AnyStore) -> None:
    match = await store.create_match(draft(2), ANN)
    match = await store.add_player(match.id, match.version, BOB)
    with pytest.raises(LobbyError, match="different seat"):
        await store.start_match(match.id, match.version, [ANN.model_copy(update={"seat": 0}), BOB], state(0))
    with pytest.raises(LobbyError, match="needs 2 players"):
        await store.start_match(match.id, match.version, [ANN.model_copy(update={"seat": 0})], state(0))
    assert (await store.get_match(match.id)).status is MatchStatus.LOBBY


# ----------------------------------------------------------------------------------------------- play


async def test_start_commits_log_and_snapshots(store: AnyStore) -> None:
    match = await started(store, BOB, CY)
    assert match.status is MatchStatus.ACTIVE and match.version == 3
    assert [(p.name, p.seat) for p in match.players] == [("ann", 0), ("bob", 1), ("cy", 2)]
    assert match.seat_of(202) == 1 and match.state_json == state(0)
    assert await store.board_at(match.id, 3) == StoredBoard(version=3, state_json=state(0))
    assert await store.action_log(match.id) == []

    match = await play(store, match, 4)
    assert match.version == 7 and match.state_json == state(7)
    log = await store.action_log(match.id)
    assert [(a.seat, a.notation) for a in log] == [(0, "m4"), (1, "m5"), (0, "m6"), (1, "m7")]
    # Between checkpoints a board is the opening plus the actions after it.
    for version in range(4, 7):
        assert await store.board_at(match.id, version) == StoredBoard(
            version=3, state_json=state(0), then=tuple(log[: version - 3])
        )
    assert await store.board_at(match.id, 7) == StoredBoard(version=7, state_json=state(7))
    assert await store.get_match(match.id) == match

    finished = await store.commit_action(
        match.id,
        match.version,
        LoggedAction(seat=2, notation="last"),
        state(8),
        status=MatchStatus.FINISHED,
        result_json='{"scores": [1, 2, 3]}',
    )
    assert finished.status is MatchStatus.FINISHED and finished.result_json == '{"scores": [1, 2, 3]}'
    with pytest.raises(MatchClosed, match="finished"):
        await store.commit_action(finished.id, finished.version, LoggedAction(seat=0, notation="x"), state(9))


async def test_board_at_is_the_board_as_of_a_version(store: AnyStore) -> None:
    lobby = await store.create_match(draft(2), ANN)
    with pytest.raises(MatchNotFound, match="not started"):
        await store.board_at(lobby.id, 0)
    match = await play(store, await started(store), 2)  # start at 2, moves at 3 and 4
    closed = await store.close_match(match.id, match.version, MatchStatus.ABANDONED)
    assert closed.version == match.version + 1
    assert await store.board_at(closed.id, closed.version) == StoredBoard(version=5, state_json=state(4))
    m3, m4 = await store.action_log(closed.id)
    assert await store.board_at(closed.id, 4) == StoredBoard(version=2, state_json=state(0), then=(m3, m4))
    with pytest.raises(MatchNotFound, match="from version 2 to 5"):
        await store.board_at(closed.id, 1)
    with pytest.raises(MatchNotFound, match="no board at version 6"):
        await store.board_at(closed.id, 6)


async def test_a_checkpoint_every_32_versions_compressed(store: AnyStore, backdoor: Backdoor) -> None:
    match = await play(store, await started(store), 68)  # start at 2, moves at 3 .. 70
    log = await store.action_log(match.id)
    assert await store.board_at(match.id, 40) == StoredBoard(
        version=32, state_json=state(32), then=tuple(log[30:38])
    )
    assert await store.board_at(match.id, 64) == StoredBoard(version=64, state_json=state(64))
    assert (await store.board_at(match.id, 31)).version == 2
    kept = await backdoor.fetch(
        "SELECT version, state FROM checkpoints WHERE match_id = ? ORDER BY version", match.id
    )
    assert [v for v, _ in kept] == [2, 32, 64]
    assert all(zlib.decompress(packed).decode() == state(v) for v, packed in kept if v > 2)


async def test_stale_commit_is_refused_and_changes_nothing(store: AnyStore) -> None:
    match = await play(store, await started(store), 1)
    pending = await store.pending_deliveries()
    with pytest.raises(StaleVersion) as caught:
        await store.commit_action(
            match.id,
            match.version - 1,
            LoggedAction(seat=0, notation="late"),
            state(99),
            deliveries=[DeliveryDraft(payload="{}")],
        )
    assert caught.value.message == f"this board has moved on (now at version {match.version}, you acted on 2)"
    assert await store.get_match(match.id) == match
    assert [a.notation for a in await store.action_log(match.id)] == ["m3"]
    assert await store.pending_deliveries() == pending
    with pytest.raises(MatchNotFound):
        await store.board_at(match.id, match.version + 1)


async def test_close_match_finishes_or_abandons_once(store: AnyStore) -> None:
    lobby = await store.create_match(draft(2), ANN)
    abandoned = await store.close_match(lobby.id, lobby.version, MatchStatus.ABANDONED)
    assert abandoned.status is MatchStatus.ABANDONED and abandoned.version == 1
    match = await started(store)
    notice = [DeliveryDraft(payload='{"finished": true}')]
    done = await store.close_match(
        match.id, match.version, MatchStatus.FINISHED, '{"reason": "resign"}', notice
    )
    assert done.status is MatchStatus.FINISHED and done.result_json == '{"reason": "resign"}'
    assert (await store.pending_deliveries())[-1].version == done.version
    with pytest.raises(MatchClosed, match="already finished"):
        await store.close_match(done.id, done.version, MatchStatus.ABANDONED)
    with pytest.raises(ValueError):
        await store.close_match(done.id, done.version, MatchStatus.ACTIVE)


async def test_replace_player_hands_a_seat_over(store: AnyStore) -> None:
    match = await started(store)
    bob = match.player_at(1)
    assert bob is not None
    taken = await store.replace_player(match.id, match.version, 1, bob.model_copy(update={"bot": "greedy"}))
    assert taken.version == match.version + 1
    assert taken.player_at(1) == Player(user_id=202, name="bob", bot="greedy", seat=1)
    with pytest.raises(LobbyError, match="no seat 5") as caught:
        await store.replace_player(match.id, taken.version, 5, CY)
    assert caught.value.allowed == ("0", "1")
    with pytest.raises(LobbyError, match="another seat"):
        await store.replace_player(match.id, taken.version, 1, ANN)
    lobby = await store.create_match(draft(2), ANN)
    with pytest.raises(MatchClosed):
        await store.replace_player(lobby.id, lobby.version, 0, CY)


async def test_set_thread_does_not_move_the_version(store: AnyStore, backdoor: Backdoor) -> None:
    match = await started(store)
    other = await backdoor.open()
    try:
        await other.set_thread(match.id, 2**62 + 5)  # another store (or process) sets it
    finally:
        await other.close()
    moved = await play(store, match, 1)
    assert moved.thread_id == 2**62 + 5
    assert (await store.get_match(match.id)).thread_id == 2**62 + 5


async def test_list_matches_filters_newest_first(store: AnyStore) -> None:
    here = await store.create_match(draft(2, guild_id=1), ANN)
    active = await started(store)
    there = await store.create_match(draft(2, guild_id=2))
    everything = await store.list_matches()
    assert [m.id for m in everything] == [there.id, active.id, here.id]
    assert [m.id for m in await store.list_matches([MatchStatus.LOBBY])] == [there.id, here.id]
    assert [m.id for m in await store.list_matches([MatchStatus.LOBBY], guild_id=1)] == [here.id]
    listed = await store.list_matches([MatchStatus.ACTIVE, MatchStatus.FINISHED])
    assert listed == [await store.get_match(active.id)]
    assert len(await store.list_matches(limit=2)) == 2


async def test_list_matches_by_player_and_by_thread(store: AnyStore) -> None:
    mine = await store.create_match(draft(2), ANN)
    await store.create_match(draft(2))
    await store.set_thread(mine.id, 777)
    assert [m.id for m in await store.list_matches(user_id=ANN.user_id)] == [mine.id]
    assert [m.id for m in await store.list_matches(thread_id=777)] == [mine.id]
    assert await store.list_matches(thread_id=778) == []
    assert await store.list_matches([MatchStatus.ACTIVE], user_id=ANN.user_id) == []


async def test_unknown_match_is_not_found(store: AnyStore) -> None:
    calls = [
        store.get_match(404),
        store.add_player(404, 0, ANN),
        store.remove_player(404, 0, 1),
        store.replace_player(404, 0, 0, ANN),
        store.set_thread(404, 1),
        store.start_match(404, 0, [ANN.model_copy(update={"seat": 0})], state(0)),
        store.commit_action(404, 0, LoggedAction(seat=0, notation="x"), state(1)),
        store.close_match(404, 0, MatchStatus.ABANDONED),
        store.action_log(404),
        store.board_at(404, 0),
    ]
    for call in calls:
        with pytest.raises(MatchNotFound, match="no match 404"):
            await call


async def test_data_survives_close_and_reopen(backdoor: Backdoor) -> None:
    async with await backdoor.open() as store:
        match = await play(store, await started(store), 3)
        await store.set_thread(match.id, 77)
        pending = await store.pending_deliveries()
    async with await backdoor.open() as reopened:
        again = await reopened.get_match(match.id)
        assert again == match.model_copy(update={"thread_id": 77, "updated_at": again.updated_at})
        assert [a.notation for a in await reopened.action_log(match.id)] == ["m3", "m4", "m5"]
        assert await reopened.pending_deliveries() == pending
        assert (await reopened.board_at(match.id, 4)).then == tuple((await reopened.action_log(match.id))[:2])


async def test_the_action_log_is_append_only(store: AnyStore, backdoor: Backdoor) -> None:
    match = await play(store, await started(store), 1)
    with pytest.raises(backdoor.integrity_error, match="append-only"):
        await backdoor.execute("UPDATE actions SET notation = 'cheat' WHERE match_id = ?", match.id)
    with pytest.raises(backdoor.integrity_error, match="append-only"):
        await backdoor.execute("DELETE FROM actions WHERE match_id = ?", match.id)


async def test_seed_must_fit_64_bits(store: AnyStore) -> None:
    await store.create_match(draft(2, seed=2**63 - 1))
    with pytest.raises(ValueError, match="64-bit"):
        await store.create_match(draft(2, seed=2**63))


# ---------------------------------------------------------------------------------------- concurrency


async def test_two_stores_commit_the_same_version_once(store: AnyStore, backdoor: Backdoor) -> None:
    match = await started(store)
    other = await backdoor.open()
    try:
        await other.get_match(match.id)
        results = await asyncio.gather(
            store.commit_action(match.id, match.version, LoggedAction(seat=0, notation="mine"), state(1)),
            other.commit_action(match.id, match.version, LoggedAction(seat=0, notation="yours"), state(2)),
            return_exceptions=True,
        )
    finally:
        await other.close()
    committed = [r for r in results if isinstance(r, MatchRecord)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(committed) == 1 and len(refused) == 1 and isinstance(refused[0], StaleVersion)
    assert committed[0].version == match.version + 1
    assert len(await store.action_log(match.id)) == 1
    assert (await store.get_match(match.id)).version == match.version + 1


async def test_two_tasks_on_one_store_commit_the_same_version_once(store: AnyStore) -> None:
    match = await started(store)
    results = await asyncio.gather(
        *(
            store.commit_action(match.id, match.version, LoggedAction(seat=0, notation=f"try{i}"), state(i))
            for i in range(4)
        ),
        return_exceptions=True,
    )
    assert sum(isinstance(r, MatchRecord) for r in results) == 1
    assert sum(isinstance(r, StaleVersion) for r in results) == 3
    assert len(await store.action_log(match.id)) == 1


async def test_a_locked_database_is_waited_for_off_the_loop(store: AnyStore, backdoor: Backdoor) -> None:
    match = await started(store)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.005)

    ticking = asyncio.create_task(ticker())
    async with backdoor.holding_write_lock(match.id):  # another process is writing
        commit = asyncio.create_task(
            store.commit_action(match.id, match.version, LoggedAction(seat=0, notation="waits"), state(1))
        )
        # The loop keeps running while the commit waits: a commit waiting on the loop would stall the
        # ticker until SQLite gave up, and be done (failed) by then.
        begun = ticks
        while ticks < begun + 5:
            await asyncio.sleep(0.005)
        assert not commit.done()
    committed = await commit
    ticking.cancel()
    assert committed.version == match.version + 1
    assert [a.notation for a in await store.action_log(match.id)] == ["waits"]


# ----------------------------------------------------------------------------------------- deliveries


async def test_deliveries_go_from_pending_to_sent(store: AnyStore) -> None:
    match = await started(store)
    notices = [DeliveryDraft(payload="public"), DeliveryDraft(seat=1, payload="private")]
    match = await store.commit_action(
        match.id, match.version, LoggedAction(seat=0, notation="m"), state(1), deliveries=notices
    )
    pending = await store.pending_deliveries()
    assert [(d.seat, d.payload, d.version) for d in pending] == [
        (None, '{"headline": "begins"}', 2),
        (None, "public", 3),
        (1, "private", 3),
    ]
    assert all(d.match_id == match.id and d.attempts == 0 for d in pending)
    assert [d.id for d in await store.pending_deliveries(limit=2)] == [pending[0].id, pending[1].id]
    await store.mark_delivered(pending[0].id)
    await store.mark_delivered(pending[0].id)  # again: harmless
    assert [d.id for d in await store.pending_deliveries()] == [pending[1].id, pending[2].id]
    with pytest.raises(LookupError):
        await store.mark_delivered(10_000)


async def test_failed_deliveries_are_retried_then_given_up(backdoor: Backdoor) -> None:
    async with await backdoor.open(max_attempts=3) as store:
        await started(store)
        (delivery,) = await store.pending_deliveries()
        for attempt in (1, 2):
            await store.mark_failed(delivery.id, f"discord is down ({attempt})")
            (again,) = await store.pending_deliveries()
            assert again.id == delivery.id and again.attempts == attempt
        await store.mark_failed(delivery.id, "discord is down (3)")
        assert await store.pending_deliveries() == []
        await store.mark_failed(delivery.id, "too late")  # a given-up delivery stays as it is
        await store.mark_delivered(delivery.id)  # ... unless it does get through after all
        with pytest.raises(LookupError):
            await store.mark_failed(10_000, "nope")
    assert await backdoor.fetch("SELECT status, attempts, last_error FROM deliveries") == [
        ("sent", 3, "discord is down (3)")
    ]


# -------------------------------------------------------------------------------------------- corrupt


# Garbage both databases can hold (a CHECK constraint dropped on PostgreSQL), and garbage only SQLite's
# loose column types can (PostgreSQL's typed columns refuse it).
ANY_BACKEND_GARBAGE = [
    ("options", "{not json", "options are not a JSON list"),
    ("options", '{"a": 1}', "options are not a JSON list"),
    ("status", "paused", "unknown status 'paused'"),
    ("pace", "blitz", "unknown clock 'blitz'"),
]
SQLITE_GARBAGE = [
    ("seat_count", "two", "seat_count"),
    ("version", 1.5, "version"),
    ("created_at", b"\xff", "created_at"),
    ("least_reliability", "most", "least_reliability"),
]


async def check_corrupt_match_row(
    store: AnyStore, backdoor: Backdoor, column: str, garbage: object, complaint: str
) -> None:
    match = await started(store)
    (before,) = await backdoor.fetch("SELECT * FROM matches WHERE id = ?", match.id)
    await backdoor.drop_checks("matches")
    await backdoor.execute(f"UPDATE matches SET {column} = ? WHERE id = ?", garbage, match.id)
    with pytest.raises(CorruptRecord) as caught:
        await store.get_match(match.id)
    assert f"match {match.id}" in caught.value.message and complaint in caught.value.message
    # A listing leaves the bad row out and says why, so the other matches still show.
    healthy = await started(store)
    listing = await store.survey_matches()
    assert [m.id for m in listing.matches] == [healthy.id]
    assert complaint in listing.unreadable[match.id]
    assert [m.id for m in await store.list_matches()] == [healthy.id]
    assert match.id in await store.match_ids([MatchStatus.ACTIVE]) or column == "status"
    with pytest.raises(CorruptRecord):
        await store.commit_action(match.id, match.version, LoggedAction(seat=0, notation="x"), state(1))
    (after,) = await backdoor.fetch("SELECT * FROM matches WHERE id = ?", match.id)
    assert await backdoor.fetch("SELECT COUNT(*) FROM actions") == [(0,)]
    assert [a for a, b in zip(after, before, strict=True) if a != b] == [garbage]


@pytest.mark.parametrize(("column", "garbage", "complaint"), ANY_BACKEND_GARBAGE)
async def test_corrupt_match_rows_are_reported_and_nothing_changes(
    store: AnyStore, backdoor: Backdoor, column: str, garbage: object, complaint: str
) -> None:
    await check_corrupt_match_row(store, backdoor, column, garbage, complaint)


@pytest.mark.parametrize(("column", "garbage", "complaint"), SQLITE_GARBAGE)
async def test_values_only_sqlite_can_hold_are_reported_too(
    sqlite_store: SqliteMatchStore, db_path: Path, inline: bool, column: str, garbage: object, complaint: str
) -> None:
    await check_corrupt_match_row(sqlite_store, SqliteBackdoor(db_path, inline), column, garbage, complaint)


async def test_a_corrupt_checkpoint_is_reported(store: AnyStore, backdoor: Backdoor) -> None:
    match = await play(store, await started(store), 1)
    await backdoor.execute("UPDATE checkpoints SET state = ? WHERE match_id = ?", b"\x00\xff", match.id)
    with pytest.raises(CorruptRecord, match=f"checkpoint of match {match.id} at version 2 cannot be read"):
        await store.board_at(match.id, 2)
    assert (await store.board_at(match.id, 3)).state_json == state(3)  # the latest state is whole


async def test_corrupt_players_actions_and_deliveries(sqlite_store: SqliteMatchStore, db_path: Path) -> None:
    """Values only SQLite's loose column types can hold."""
    store = sqlite_store
    match = await play(store, await started(store), 1)
    raw_write(db_path, "UPDATE players SET seat = 'front' WHERE match_id = ? AND seat = 1", match.id)
    with pytest.raises(CorruptRecord, match=f"a player of match {match.id} cannot be read: seat"):
        await store.get_match(match.id)

    other = await play(store, await started(store), 1)
    raw_write(
        db_path,
        "INSERT INTO actions (match_id, version, seat, notation, created_at) "
        "VALUES (?, 99, 'zero', 'x', 't')",
        other.id,
    )
    with pytest.raises(CorruptRecord, match=f"action at version 99 of match {other.id}"):
        await store.action_log(other.id)

    pending_before = {d.id for d in await store.pending_deliveries()}
    raw_write(db_path, "UPDATE deliveries SET attempts = 'many' WHERE match_id = ?", other.id)
    # Unreadable deliveries are left out; taking them by destination settles them as failed.
    readable = await store.pending_deliveries()
    assert readable and all(d.match_id != other.id for d in readable)
    batches = await store.pending_by_destination()
    assert {d.id for batch in batches for d in batch} == {d.id for d in readable} < pending_before
    with sqlite3.connect(db_path) as raw:
        settled = raw.execute(
            "SELECT DISTINCT status, last_error LIKE '%attempts%' FROM deliveries WHERE match_id = ?",
            (other.id,),
        ).fetchall()
    raw.close()
    assert settled == [("failed", 1)]


async def test_notices_sent_before_the_retention_period_are_forgotten(backdoor: Backdoor) -> None:
    now = ["2026-01-01T00:00:00.000+00:00"]
    store = await backdoor.open(clock=lambda: now[0])
    try:
        match = await started(store)  # its opening notice, queued in January
        (hello,) = await store.pending_deliveries()
        now[0] = "2026-01-02T00:00:00.000+00:00"
        await store.mark_delivered(hello.id)  # sent in January
        now[0] = "2026-03-01T00:00:00.000+00:00"
        match = await store.commit_action(
            match.id,
            match.version,
            LoggedAction(seat=0, notation="m1"),
            state(1),
            deliveries=[DeliveryDraft(payload='{"headline": "a move"}')],
        )
        cutoff = datetime(2026, 2, 1, tzinfo=UTC)
        assert await store.forget_sent(cutoff) == 1  # January's sent notice; March's is still pending
        assert await store.forget_sent(cutoff) == 0
        (pending,) = await store.pending_deliveries()
        assert pending.version == match.version
        assert [a.notation for a in await store.action_log(match.id)] == ["m1"]  # the log stays whole
    finally:
        await store.close()


# --------------------------------------------------------------------------------------- bookkeeping


async def test_a_refused_direct_message_is_told_once(store: AnyStore) -> None:
    match = await started(store)
    assert not await store.dm_refused(match.id, 202)
    assert await store.remember_dm_refused(match.id, 202)
    assert not await store.remember_dm_refused(match.id, 202)  # told already, restarts included
    assert await store.dm_refused(match.id, 202) and not await store.dm_refused(match.id, 101)


async def test_sent_images_and_private_notices_are_remembered(store: AnyStore) -> None:
    match = await started(store)
    assert await store.sent_image(match.id, -1) is None
    await store.remember_sent_image(match.id, -1, "board-1")
    await store.remember_sent_image(match.id, -1, "board-2")
    await store.remember_sent_image(match.id, 1, "hand-1")
    assert (await store.sent_image(match.id, -1), await store.sent_image(match.id, 1)) == (
        "board-2",
        "hand-1",
    )
    match = await store.commit_action(
        match.id,
        match.version,
        LoggedAction(seat=0, notation="m"),
        state(1),
        deliveries=[DeliveryDraft(seat=1, payload="{}")],
    )
    assert await store.has_private_notice(match.id, match.version, 1)
    assert not await store.has_private_notice(match.id, match.version, 0)
    (private,) = [d for d in await store.pending_deliveries() if d.seat == 1]
    await store.mark_undeliverable(private.id, "gone: they left the server")
    assert not await store.has_private_notice(match.id, match.version, 1)  # given up: not recorded


async def test_a_live_post_is_kept_replaced_and_dropped_when_unreadable(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await started(store)
    assert await store.live_post(match.id) is None
    post = LivePost(
        match_id=match.id,
        channel_id=5,
        message_id=2**62 + 1,
        to_act=(1,),
        lines=("ann played", "bob to move"),
        version=match.version,
        history=(TurnLines(seats=(0,), lines=("ann to move",)),),
    )
    await store.save_live_post(post)
    assert await store.live_post(match.id) == post
    newer = post.model_copy(update={"message_id": 7, "to_act": (), "history": ()})
    await store.save_live_post(newer, board_image="board-9")
    assert await store.live_post(match.id) == newer
    assert await store.sent_image(match.id, -1) == "board-9"  # remembered with the post
    await backdoor.execute("UPDATE live_posts SET to_act = 'not json' WHERE match_id = ?", match.id)
    assert await store.live_post(match.id) is None  # a new post will replace it


async def test_an_unreadable_match_is_summarised_and_abandoned(store: AnyStore, backdoor: Backdoor) -> None:
    match = await started(store)
    await backdoor.execute("UPDATE matches SET options = 'garbage' WHERE id = ?", match.id)
    with pytest.raises(CorruptRecord):
        await store.get_match(match.id)
    summary = await store.match_summary(match.id)
    assert (summary.guild_id, summary.creator_id, summary.version, summary.status) == (
        None,
        ANN.user_id,
        match.version,
        "active",
    )
    assert summary.user_ids == {101, 202}
    with pytest.raises(MatchNotFound):
        await store.match_summary(404)
    with pytest.raises(StaleVersion):
        await store.abandon_unreadable(match.id, match.version - 1)
    await store.abandon_unreadable(match.id, match.version)
    assert (await store.match_summary(match.id)).status == "abandoned"
    with pytest.raises(MatchClosed, match="already abandoned"):
        await store.abandon_unreadable(match.id, match.version + 1)
    assert match.id not in await store.match_ids([MatchStatus.ACTIVE])


class Ticking:
    """A store clock one second later at each reading, so every change has its own time."""

    def __init__(self) -> None:
        self.seconds = 0

    def __call__(self) -> str:
        self.seconds += 1
        return datetime.fromtimestamp(1_780_000_000 + self.seconds, UTC).isoformat(timespec="milliseconds")


async def test_finished_matches_are_listed_by_when_they_ended(backdoor: Backdoor) -> None:
    store = await backdoor.open(clock=Ticking())
    started = []
    for guild in (7, 7, 7, 8, 7):
        match = await store.create_match(draft(guild_id=guild), ANN)
        match = await store.add_player(match.id, match.version, BOB)
        seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(match.players)]
        started.append(await store.start_match(match.id, match.version, seated, state(0)))
    first, second, third, elsewhere, playing = started
    for match in (second, third, elsewhere, first):  # they end in this order; ``playing`` goes on
        await store.commit_action(
            match.id,
            match.version,
            LoggedAction(seat=0, notation="end"),
            state(1),
            status=MatchStatus.FINISHED,
            result_json='{"scores": [1, 0], "places": [1, 2], "reason": "over"}',
        )
    listed = await store.survey_matches(guild_id=7, finished_by_end=True)
    assert [m.id for m in listed.matches] == [first.id, third.id, second.id]
    latest = await store.survey_matches(guild_id=7, limit=2, finished_by_end=True)
    assert [m.id for m in latest.matches] == [first.id, third.id]
    mine = await store.survey_matches(user_id=BOB.user_id, finished_by_end=True)
    assert [m.id for m in mine.matches] == [first.id, elsewhere.id, third.id, second.id]
    assert playing.id not in [m.id for m in mine.matches]
