"""The servers' queues on each backend: an entry per person and game, replaced when asked again, listed
longest-waiting first, taken all together or not at all, and when a person made their own moves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from data.postgres.queue import PostgresQueue
from data.postgres.store import PostgresMatchStore
from data.queue import SqliteQueue
from data.store import SqliteMatchStore
from engine.host.clock import Pace
from engine.host.ports import Player
from engine.host.queue_entries import QueueEntry
from engine.host.service import GameHost
from tests.data.backends import AnyStore

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def queue_of(store: AnyStore) -> SqliteQueue | PostgresQueue:
    if isinstance(store, PostgresMatchStore):
        return PostgresQueue(store.database)
    assert isinstance(store, SqliteMatchStore)
    return SqliteQueue.beside(store)


def entry(user_id: int, game: str = "ny_piatnik", guild_id: int = 7, minutes: int = 0) -> QueueEntry:
    return QueueEntry(
        guild_id=guild_id,
        user_id=user_id,
        game=game,
        name=f"p{user_id}",
        channel_id=70,
        pace=Pace.DAILY,
        seat_counts=frozenset({3, 4}),
        computers="greedy" if user_id % 2 else None,
        patience=timedelta(hours=6),
        since=T0 + timedelta(minutes=minutes),
    )


async def test_entries_are_kept_replaced_and_listed_longest_waiting_first(store: AnyStore) -> None:
    queue = queue_of(store)
    for number, minutes in ((1, 5), (2, 0), (3, 9)):
        await queue.put(entry(number, minutes=minutes))
    await queue.put(entry(1, guild_id=8))
    await queue.put(entry(2, game="skyline", minutes=20))
    assert [(e.user_id, e.game) for e in await queue.entries(7)] == [
        (2, "ny_piatnik"),
        (1, "ny_piatnik"),
        (3, "ny_piatnik"),
        (2, "skyline"),
    ]
    assert (await queue.entries(7))[1] == entry(1, minutes=5)  # read back whole
    # Asked again for the same game: the entry is replaced, not doubled.
    changed = entry(3, minutes=9)
    changed = QueueEntry(**{**changed.__dict__, "seat_counts": frozenset({2}), "computers": None})
    await queue.put(changed)
    assert [e for e in await queue.entries(7) if e.user_id == 3] == [changed]
    assert len(await queue.entries()) == 5
    assert await queue.remove(7, 2) == 2  # every game of that server
    assert await queue.remove(7, 2) == 0
    assert [e.user_id for e in await queue.entries(7)] == [1, 3]
    assert [e.guild_id for e in await queue.entries(8)] == [8]


async def test_entries_are_taken_all_together_or_not_at_all(store: AnyStore) -> None:
    queue = queue_of(store)
    for number in (1, 2, 3):
        await queue.put(entry(number))
    assert not await queue.take(7, "ny_piatnik", [1, 2, 4])  # the fourth is not waiting
    assert len(await queue.entries(7)) == 3
    assert not await queue.take(8, "ny_piatnik", [1])  # another server's queue
    assert await queue.take(7, "ny_piatnik", [1, 3])
    assert [e.user_id for e in await queue.entries(7)] == [2]


async def test_the_moments_of_a_persons_own_moves_newest_first(store: AnyStore) -> None:
    queue = queue_of(store)
    host = GameHost(store)
    people = [Player(user_id=501, name="ann"), Player(user_id=502, name="bob")]
    match = await host.create_match("ny_piatnik", 2, creator=people[0], seed=1, guild_id=7)
    await host.join(match.id, people[1])
    match = (await host.start(match.id, by_user=501)).match
    assert await queue.move_moments(501, 10) == []
    made: dict[int, int] = {501: 0, 502: 0}
    for _ in range(6):
        (seat,) = host.to_act(match)
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        match = (await host.act(match.id, player.user_id, host.legal_notations(match, seat)[0])).match
        made[player.user_id] += 1
    for user_id, count in made.items():
        moments = await queue.move_moments(user_id, 100)
        assert len(moments) == count
        assert moments == sorted(moments, reverse=True)
        assert all(m.tzinfo is not None for m in moments)
    assert len(await queue.move_moments(501, 1)) == 1
