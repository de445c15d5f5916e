"""What only PostgresMatchStore does: several bot processes on one database. Each store here stands for
one process (its own pool and name): notices one claims are not sent by another, the duties of a
process are those of its shards, and racing writers from two processes store one change.

The rest of the store's behaviour is the shared suite (test_store.py and its neighbours) on both backends.
"""

from __future__ import annotations

import asyncio
import inspect
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from data.clocks import utc_text
from data.postgres.store import LEASE, PostgresMatchStore
from data.store import SqliteMatchStore
from engine.core.errors import StaleVersion
from engine.core.replay import LoggedAction
from engine.host.clock import ClockChange, SeatClock
from engine.host.notify import TurnPing
from engine.host.ports import Delivery, DeliveryDraft, LivePost, MatchRecord, MatchStatus
from engine.host.shards import Shards
from tests.data.test_store import ANN, BOB, draft, started, state

NOON = datetime(2026, 1, 14, 12, tzinfo=UTC)

Open = Callable[..., Awaitable[PostgresMatchStore]]


class Clock:
    """The stores' clock, moved by hand (every process here reads the same one)."""

    def __init__(self) -> None:
        self.now = NOON

    def __call__(self) -> str:
        return utc_text(self.now)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def processes(postgres_dsn: str, clock: Clock) -> AsyncIterator[Open]:
    """Opens a store on the test's database, as one bot process would (closed after the test)."""
    opened: list[PostgresMatchStore] = []

    async def open_process(**options: Any) -> PostgresMatchStore:
        store = await PostgresMatchStore.open(postgres_dsn, **{"clock": clock, **options})
        opened.append(store)
        return store

    yield open_process
    for store in opened:
        await store.close()


async def fetch(dsn: str, sql: str, *params: object) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(dsn)
    try:
        return [tuple(row) for row in await conn.fetch(sql, *params)]
    finally:
        await conn.close()


def ids(batches: list[list[Delivery]]) -> list[list[int]]:
    return [[d.id for d in batch] for batch in batches]


async def with_notices(
    store: PostgresMatchStore, *seats: int | None, guild_id: int | None = None
) -> MatchRecord:
    """A started match (its opening notice to the thread) and one move queuing a notice per seat given."""
    match = await store.create_match(draft(2, guild_id=guild_id), ANN)
    match = await store.add_player(match.id, match.version, BOB)
    seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(match.players)]
    match = await store.start_match(
        match.id, match.version, seated, state(0), [DeliveryDraft(payload='{"headline": "begins"}')]
    )
    if seats:
        notices = [DeliveryDraft(seat=seat, payload=f'{{"n": {i}}}') for i, seat in enumerate(seats)]
        match = await store.commit_action(
            match.id, match.version, LoggedAction(seat=0, notation="m"), state(1), deliveries=notices
        )
    return match


def test_the_same_methods_as_the_sqlite_store() -> None:
    public = {
        name
        for name, _ in inspect.getmembers(SqliteMatchStore)
        if not name.startswith("_") or name in ("__aenter__", "__aexit__")
    }
    assert public <= {name for name, _ in inspect.getmembers(PostgresMatchStore)}
    for name in public - {"open", "database"}:
        sqlite, postgres = getattr(SqliteMatchStore, name), getattr(PostgresMatchStore, name)
        if callable(sqlite):
            assert inspect.signature(postgres) == inspect.signature(sqlite), name


# ----------------------------------------------------------------------------------- claimed notices


async def test_notices_one_process_claimed_are_not_offered_to_another(
    processes: Open, postgres_dsn: str
) -> None:
    a, b = await processes(process="a"), await processes(process="b")
    first = await with_notices(a, None, 1)  # thread: begins, n0; seat 1: n1
    second = await with_notices(a)  # thread: begins
    taken = await a.pending_by_destination()
    assert [[(d.match_id, d.seat, d.version) for d in batch] for batch in taken] == [
        [(first.id, None, 2), (first.id, None, 3)],
        [(first.id, 1, 3)],
        [(second.id, None, 2)],
    ]
    (thread, n0), (private,), (opening,) = (batch for batch in taken)
    assert await b.pending_by_destination() == []
    claims = await fetch(postgres_dsn, "SELECT DISTINCT claimed_by, claimed_until FROM deliveries")
    assert claims == [("a", utc_text(NOON + LEASE))]
    assert ids(await a.pending_by_destination()) == ids(taken)  # its own claims are offered again
    assert len(await b.pending_deliveries()) == 4  # a plain listing still shows them all

    await a.mark_delivered(thread.id)
    await a.mark_failed(private.id, "discord is down")  # released: its destination waits for anyone
    await a.mark_undeliverable(opening.id, "gone: the thread was deleted")
    assert ids(await b.pending_by_destination()) == [[private.id]]  # n0 is still a's
    held = await fetch(postgres_dsn, "SELECT id, claimed_by FROM deliveries ORDER BY id")
    assert held == [(thread.id, None), (n0.id, "a"), (private.id, "b"), (opening.id, None)]


async def test_a_destination_is_taken_from_its_first_notice_on_or_not_at_all(
    processes: Open, postgres_dsn: str
) -> None:
    a, b = await processes(process="a"), await processes(process="b")
    match = await with_notices(a, None, None)  # thread: begins, n0, n1
    begins, n0, n1 = (d.id for d in await a.pending_deliveries())
    assert ids(await a.pending_by_destination(per_destination=2)) == [[begins, n0]]
    assert await b.pending_by_destination() == []  # n1 is free, but must not overtake the others
    conn = await asyncpg.connect(postgres_dsn)
    try:  # the first is free again while a holds the second: b takes the first alone
        await conn.execute(
            "UPDATE deliveries SET claimed_by = NULL, claimed_until = NULL WHERE id = $1", begins
        )
    finally:
        await conn.close()
    assert ids(await b.pending_by_destination()) == [[begins]]
    await b.mark_delivered(begins)
    assert await b.pending_by_destination() == []
    assert ids(await a.pending_by_destination()) == [[n0, n1]]
    assert match.id == (await a.pending_deliveries())[0].match_id


async def test_a_lease_that_ran_out_lets_another_process_take_the_notices(
    processes: Open, clock: Clock
) -> None:
    a, b = await processes(process="a"), await processes(process="b")
    await with_notices(a, None, None)
    taken = ids(await a.pending_by_destination())
    clock.now = NOON + LEASE - timedelta(seconds=1)
    assert await b.pending_by_destination() == []
    clock.now = NOON + LEASE  # a was killed while sending: its lease is over
    assert ids(await b.pending_by_destination()) == taken
    assert await a.pending_by_destination() == []  # now b holds them
    # b is killed and restarted under its own name: it takes its claims back at once.
    await b.close()
    again = await processes(process="b")
    assert ids(await again.pending_by_destination()) == taken


async def test_sending_a_notice_renews_the_lease_on_the_rest_of_its_destination(
    processes: Open, clock: Clock
) -> None:
    a, b = await processes(process="a"), await processes(process="b")
    await with_notices(a, None, None)
    [[first, *rest]] = await a.pending_by_destination()
    clock.now = NOON + LEASE - timedelta(seconds=10)
    await a.mark_delivered(first.id)  # a is still sending this destination
    clock.now = NOON + LEASE + timedelta(seconds=10)
    assert await b.pending_by_destination() == []
    clock.now = NOON + 2 * LEASE
    assert ids(await b.pending_by_destination()) == [[d.id for d in rest]]


async def test_processes_claiming_at_once_share_the_notices_out(processes: Open) -> None:
    a, b = await processes(process="a"), await processes(process="b")
    for _ in range(12):
        await with_notices(a)  # twelve destinations of one notice each
    everything = {d.id for d in await a.pending_deliveries()}
    for _ in range(3):
        mine, yours = await asyncio.gather(a.pending_by_destination(), b.pending_by_destination())
        taken_a = {d.id for batch in mine for d in batch}
        taken_b = {d.id for batch in yours for d in batch}
        assert not taken_a & taken_b
        assert taken_a | taken_b == everything
        for delivery in [d for batch in mine for d in batch]:
            await a.mark_failed(delivery.id, "again")  # released for the next round
        for delivery in [d for batch in yours for d in batch]:
            await b.mark_failed(delivery.id, "again")


# ------------------------------------------------------------------------------------------- shards


def guild_on(shard: int, count: int, rng: random.Random) -> int:
    """A server id (a snowflake, up to 63 bits) that Discord puts on ``shard`` of ``count``."""
    while True:
        guild = rng.randrange(1 << 40, 1 << 63)
        if Shards.of([shard], count).owns(guild):
            return guild


def seat_clock(match_id: int, due: datetime) -> SeatClock:
    return SeatClock(
        match_id=match_id, seat=0, user_id=ANN.user_id or 0, started_at=NOON, deadline=due, due_at=due
    )


def held_ping(match_id: int, due: datetime) -> TurnPing:
    return TurnPing(match_id=match_id, turn=2, seat=1, user_id=BOB.user_id or 0, started_at=NOON, due_at=due)


async def test_each_process_does_the_duties_of_its_own_shards(processes: Open) -> None:
    rng = random.Random(7)
    first, second = await processes(shards=Shards.of([0], 2)), await processes(shards=Shards.of([1], 2))
    everyone = await processes(shards=Shards.every())
    here = await with_notices(everyone, 1, guild_id=guild_on(0, 2, rng))
    there = await with_notices(everyone, 1, guild_id=guild_on(1, 2, rng))
    direct = await with_notices(everyone, 1)  # no server: shard 0
    for hours, match in enumerate((here, there, direct), start=1):
        due = NOON + timedelta(hours=hours)
        await everyone.replace_player(
            match.id,
            match.version,
            0,
            ANN.model_copy(update={"seat": 0}),
            clocks=ClockChange(clocks=(seat_clock(match.id, due),)),
        )
        post = LivePost(match_id=match.id, channel_id=1, message_id=1, to_act=(1,), lines=(), version=2)
        await everyone.save_live_post(post, [held_ping(match.id, due)])
    later = NOON + timedelta(days=1)
    mine, theirs, every = [here.id, direct.id], [there.id], [here.id, there.id, direct.id]

    assert await first.match_ids([MatchStatus.ACTIVE]) == mine
    assert await second.match_ids([MatchStatus.ACTIVE]) == theirs
    assert await everyone.match_ids([MatchStatus.ACTIVE]) == every
    assert sorted({d.match_id for d in await first.pending_deliveries()}) == mine
    assert sorted({d.match_id for d in await second.pending_deliveries()}) == theirs
    assert sorted(b[0].match_id for b in await first.pending_by_destination()) == [
        here.id,
        here.id,
        direct.id,
        direct.id,
    ]
    assert sorted(b[0].match_id for b in await second.pending_by_destination()) == [there.id, there.id]
    assert [c.match_id for c in await first.due_clocks(later)] == [here.id, direct.id]
    assert [c.match_id for c in await second.due_clocks(later)] == theirs
    assert await first.next_clock_due() == NOON + timedelta(hours=1)
    assert await second.next_clock_due() == NOON + timedelta(hours=2)
    assert [p.match_id for p in await first.due_pings(later)] == [here.id, direct.id]
    assert [p.match_id for p in await second.due_pings(later)] == theirs
    assert await second.next_ping_due() == NOON + timedelta(hours=2)
    assert await everyone.next_ping_due() == NOON + timedelta(hours=1)
    # Reading and acting are not duties: any process reads and changes any match.
    assert (await first.get_match(there.id)).guild_id == there.guild_id
    assert {m.id for m in await second.list_matches()} == set(every)


async def test_the_shard_filter_is_discords_formula(processes: Open) -> None:
    rng = random.Random(11)
    count = 3
    everyone = await processes()
    guilds = [None, 0, (1 << 63) - 1, *(rng.randrange(1 << 63) for _ in range(15))]
    made = {(await everyone.create_match(draft(2, guild_id=guild))).id: guild for guild in guilds}
    for shard in range(count):
        shards = Shards.of([shard], count)
        store = await processes(shards=shards)
        expected = sorted(match_id for match_id, guild in made.items() if shards.owns(guild))
        assert await store.match_ids([MatchStatus.LOBBY]) == expected


# --------------------------------------------------------------------------------------------- races


async def test_two_processes_racing_to_commit_one_version_store_one_move(
    processes: Open, postgres_dsn: str
) -> None:
    a, b = await processes(), await processes()
    match = await started(a)
    await b.get_match(match.id)
    blocker = await asyncpg.connect(postgres_dsn)
    try:
        # Another writer holds the match while both commits arrive: both must wait for it, then race.
        transaction = blocker.transaction()
        await transaction.start()
        await blocker.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", match.id)
        commits = [
            asyncio.create_task(
                store.commit_action(match.id, match.version, LoggedAction(seat=0, notation=name), state(1))
            )
            for store, name in ((a, "mine"), (b, "yours"))
        ]
        for _ in range(500):
            waiting = await blocker.fetchval(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'"
            )
            if waiting == 2:
                break
            await asyncio.sleep(0.01)
        assert waiting == 2 and not any(c.done() for c in commits)
        await transaction.commit()
        results = await asyncio.gather(*commits, return_exceptions=True)
    finally:
        await blocker.close()
    committed = [r for r in results if isinstance(r, MatchRecord)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(committed) == 1 and len(refused) == 1 and isinstance(refused[0], StaleVersion)
    assert f"now at version {match.version + 1}, you acted on {match.version}" in refused[0].message
    winner = "mine" if isinstance(results[0], MatchRecord) else "yours"
    assert [action.notation for action in await a.action_log(match.id)] == [winner]
    assert (await b.get_match(match.id)).version == match.version + 1


async def test_two_processes_making_one_origins_match_make_it_once(processes: Open) -> None:
    a, b = await processes(), await processes()
    for n in range(5):
        made = await asyncio.gather(
            a.create_match(draft(2, origin=f"table {n}"), ANN),
            b.create_match(draft(2, origin=f"table {n}"), ANN),
        )
        assert made[0].id == made[1].id
    assert len(await a.list_matches()) == 5
