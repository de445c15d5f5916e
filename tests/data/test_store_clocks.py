"""Seat clocks, timeouts and absences in the store, on every backend: written with the change that moves
them, read back as written, and a reminder settled once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.core.replay import LoggedAction
from engine.host.clock import ClockChange, SeatClock
from engine.host.ports import DeliveryDraft, MatchRecord
from tests.data.backends import AnyStore
from tests.data.test_store import ANN, BOB, draft, state

NOON = datetime(2026, 1, 14, 12, tzinfo=UTC)
DAY = timedelta(days=1)


def running(match_id: int, seat: int = 0, user_id: int = 101) -> SeatClock:
    return SeatClock(
        match_id=match_id,
        seat=seat,
        user_id=user_id,
        bank=timedelta(hours=1, milliseconds=250),
        started_at=NOON,
        deadline=NOON + DAY,
        due_at=NOON + DAY / 2,
    )


def idle(match_id: int, seat: int = 1, user_id: int = 202) -> SeatClock:
    return SeatClock(
        match_id=match_id,
        seat=seat,
        user_id=user_id,
        bank=timedelta(minutes=30),
        timeouts=1,
        last_started=NOON - DAY,
        last_deadline=NOON,
        last_bank=timedelta(minutes=45),
        used=timedelta(hours=3, minutes=7, milliseconds=500),
        last_used=timedelta(hours=2),
    )


async def timed(store: AnyStore, guild_id: int | None = 9) -> MatchRecord:
    """A started match of ann and bob whose clocks start with it: ann's turn runs, bob's waits."""
    match = await store.create_match(draft(2, guild_id=guild_id), ANN)
    match = await store.add_player(match.id, match.version, BOB)
    seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(match.players)]
    clocks = ClockChange(clocks=(running(match.id), idle(match.id)))
    return await store.start_match(match.id, match.version, seated, state(0), clocks=clocks)


async def test_clocks_are_written_with_the_change_and_read_back(store: AnyStore) -> None:
    match = await timed(store)
    assert await store.seat_clocks(match.id) == [running(match.id), idle(match.id)]
    assert await store.seat_clocks(match.id + 1) == []
    assert await store.due_clocks(NOON + DAY / 2 - timedelta(milliseconds=1)) == []
    assert await store.due_clocks(NOON + DAY) == [running(match.id)]
    assert await store.next_clock_due() == NOON + DAY / 2
    # A move ends ann's turn (a computer played it: her time ran out) and begins bob's.
    ended = running(match.id).model_copy(update={"started_at": None, "deadline": None, "due_at": None})
    begun = idle(match.id).model_copy(
        update={"started_at": NOON, "deadline": NOON + DAY, "due_at": NOON + DAY}
    )
    await store.commit_action(
        match.id,
        match.version,
        LoggedAction(seat=0, notation="m"),
        state(1),
        deliveries=[DeliveryDraft(payload="{}")],
        clocks=ClockChange(clocks=(ended, begun), timeouts=(running(match.id),)),
    )
    assert await store.seat_clocks(match.id) == [ended, begun]
    assert await store.next_clock_due() == NOON + DAY
    assert await store.timeouts_of(101) == 1 and await store.timeouts_of(202) == 0
    assert await store.timeouts_of(101, guild_id=9) == 1 and await store.timeouts_of(101, guild_id=8) == 0


async def test_a_reminder_is_settled_once(store: AnyStore) -> None:
    match = await timed(store)
    (due,) = await store.due_clocks(NOON + DAY)
    reminded = due.model_copy(update={"reminded": 1, "due_at": NOON + DAY - timedelta(hours=2)})
    assert await store.settle_clock(due, reminded)
    assert not await store.settle_clock(due, reminded)  # a second timekeeper finds it moved on
    assert (await store.seat_clocks(match.id))[0] == reminded


async def test_an_absence_moves_running_turns_on_and_its_early_end_moves_them_back(store: AnyStore) -> None:
    match = await timed(store)
    assert await store.absences([101, 202], NOON - DAY) == {} and await store.absences([], NOON) == {}
    moved = await store.begin_absence(101, NOON, NOON + 2 * DAY)
    assert [(c.seat, c.deadline) for c in moved] == [(0, NOON + 3 * DAY)]
    assert (await store.seat_clocks(match.id))[0].due_at == NOON + DAY / 2 + 2 * DAY
    assert await store.absences([101, 202], NOON - DAY) == {101: [(NOON, NOON + 2 * DAY)]}
    assert await store.absences([101], NOON + 2 * DAY) == {}  # it ends by then
    back = await store.end_absence(101, NOON + DAY)  # a day early: the turn moves back a day
    assert back is not None and [c.deadline for c in back] == [NOON + 2 * DAY]
    assert await store.absences([101], NOON) == {101: [(NOON, NOON + DAY)]}
    assert await store.end_absence(101, NOON + DAY) is None  # not away any more
    assert await store.end_absence(202, NOON) is None


async def test_an_extended_turn_and_a_third_reminder_are_kept(store: AnyStore) -> None:
    match = await timed(store)
    extended = running(match.id).model_copy(
        update={"deadline": NOON + 2 * DAY, "extended": DAY, "extension_used": True, "reminded": 3}
    )
    player = match.player_at(0)
    assert player is not None
    moved = await store.replace_player(
        match.id, match.version, 0, player, clocks=ClockChange(clocks=(extended,))
    )
    assert moved.version == match.version + 1
    assert (await store.seat_clocks(match.id))[0] == extended
