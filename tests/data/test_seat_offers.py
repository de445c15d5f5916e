"""Seats offered to new people in the match stores, on every backend: an offer, the one take it allows,
and what the take keeps of the seat's former person."""

from __future__ import annotations

import pytest

from engine.core.errors import LobbyError, StaleVersion
from engine.host.ports import DeliveryDraft, LivePrivate, Player
from tests.data.backends import AnyStore
from tests.data.test_store import ANN, BOB, CY, started


async def test_a_newcomer_takes_an_offered_seat_once(store: AnyStore) -> None:
    match = await started(store)
    bob = match.player_at(1)
    assert bob is not None
    kept = bob.model_copy(update={"bot": "greedy", "name": "bob (computer)", "resigned": True})
    match = await store.replace_player(match.id, match.version, 1, kept)
    bobs = LivePrivate(
        match_id=match.id,
        seat=1,
        channel_id=9,
        message_id=99,
        version=1,
        turn=True,
        text="bob's hand",
        user_id=BOB.user_id,
    )
    await store.save_live_private(bobs)
    assert await store.live_private(match.id, 1) == bobs  # whom it went to, kept with it
    first = await store.offer_seat(match.id, 1, ANN.user_id or 0, match.version)
    second = await store.offer_seat(match.id, 1, ANN.user_id or 0, match.version)
    assert (first.seat, first.taken_by, second.id > first.id) == (1, None, True)
    assert await store.seat_offer(first.id) == first
    assert await store.seat_offer(second.id + 100) is None
    assert not await store.in_tournament(match.id)
    welcome = [DeliveryDraft(seat=1, payload='{"headline": "welcome"}')]
    taken = await store.take_seat(first, match.version, CY.model_copy(update={"seat": 1}), kept, welcome)
    assert taken.version == match.version + 1
    assert taken.player_at(1) == Player(user_id=CY.user_id, name="cy", seat=1)
    # The leaver's private message about the seat stays theirs, for the newcomer's first message to take
    # its controls off.
    assert await store.live_private(match.id, 1) == bobs
    [done, other] = await store.seat_offers(match.id)
    assert (done.taken_by, done.taken_version, done.leaver_id, done.leaver_resigned) == (
        CY.user_id,
        taken.version,
        BOB.user_id,
        True,
    )
    assert other == second
    with pytest.raises(StaleVersion):
        await store.take_seat(first, taken.version, Player(user_id=404, name="di", seat=1), kept)
    with pytest.raises(LobbyError, match="another seat"):
        await store.take_seat(second, taken.version, ANN.model_copy(update={"seat": 1}), kept)
    assert (await store.get_match(match.id)).player_at(1) == taken.player_at(1)
    [pending] = [d for d in await store.pending_deliveries() if d.version == taken.version]
    assert pending.seat == 1
