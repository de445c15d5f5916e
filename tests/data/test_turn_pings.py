"""Turn pings in the store: written with the live post, earlier turns dropped, a sent ping never unsent by
a retried post, and a held ping claimed by one sender only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.host.notify import TurnPing, Via
from engine.host.ports import LivePost
from tests.data.backends import AnyStore
from tests.data.test_store import ANN, draft

NOON = datetime(2026, 1, 14, 12, tzinfo=UTC)


def post(match_id: int, version: int) -> LivePost:
    return LivePost(
        match_id=match_id, channel_id=1, message_id=version, to_act=(0,), lines=(), version=version
    )


def ping(match_id: int, turn: int, seat: int = 0, due: datetime = NOON, via: Via = Via.HELD) -> TurnPing:
    return TurnPing(
        match_id=match_id, turn=turn, seat=seat, user_id=100 + seat, started_at=NOON, due_at=due, via=via
    )


async def test_pings_are_saved_with_the_post_that_begins_the_turn(store: AnyStore) -> None:
    match = await store.create_match(draft(2), ANN)
    later = NOON + timedelta(hours=3)
    await store.save_live_post(
        post(match.id, 4), [ping(match.id, 4, 0, via=Via.MENTION), ping(match.id, 4, 1, later)]
    )
    assert (await store.live_post(match.id)) == post(match.id, 4)
    assert [p.via for p in await store.turn_pings(match.id)] == [Via.MENTION, Via.HELD]
    assert await store.due_pings(NOON) == []
    assert [p.seat for p in await store.due_pings(later)] == [1]
    assert await store.next_ping_due() == later
    # An edit of the same turn's post (no pings given) keeps them.
    await store.save_live_post(post(match.id, 5))
    assert len(await store.turn_pings(match.id)) == 2
    # A new turn drops the earlier turn's pings, held or sent.
    await store.save_live_post(post(match.id, 6), [ping(match.id, 6, 0)])
    assert [(p.turn, p.seat) for p in await store.turn_pings(match.id)] == [(6, 0)]
    assert await store.turn_pings(match.id, 4) == []
    # A final post begins no turn: nothing is left to send.
    await store.save_live_post(post(match.id, 7), [])
    assert await store.turn_pings(match.id) == [] and await store.next_ping_due() is None


async def test_a_retried_post_never_unsends_a_ping(store: AnyStore) -> None:
    match = await store.create_match(draft(2), ANN)
    await store.save_live_post(post(match.id, 2), [ping(match.id, 2, via=Via.MENTION)])
    await store.save_live_post(post(match.id, 2), [ping(match.id, 2, due=NOON + timedelta(hours=1))])
    [kept] = await store.turn_pings(match.id)
    assert kept.via is Via.MENTION and kept.due_at == NOON


async def test_a_held_ping_is_claimed_once(store: AnyStore) -> None:
    match = await store.create_match(draft(2), ANN)
    held = ping(match.id, 3)
    await store.save_live_post(post(match.id, 3), [held])
    later = NOON + timedelta(hours=8)
    assert await store.settle_ping(held, Via.HELD, due_at=later)  # held on: due later
    assert await store.due_pings(NOON) == [] and await store.next_ping_due() == later
    assert await store.settle_ping(held, Via.DM)
    assert not await store.settle_ping(held, Via.DM)  # the second sender finds it told
    assert await store.due_pings(later) == []
    await store.release_ping(held, later)  # its sending failed: due again
    assert [p.via for p in await store.due_pings(later)] == [Via.HELD]
    await store.drop_pings(match.id)
    assert await store.turn_pings(match.id) == []


async def test_a_persons_held_pings_come_due_when_their_settings_change(store: AnyStore) -> None:
    match = await store.create_match(draft(2), ANN)
    later = NOON + timedelta(hours=8)
    await store.save_live_post(post(match.id, 3), [ping(match.id, 3, 0, later), ping(match.id, 3, 1, later)])
    await store.ping_user_now(100, NOON)
    assert [p.seat for p in await store.due_pings(NOON)] == [0]
