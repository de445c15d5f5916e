"""One unreadable row never silences a sweep, on every backend: a held turn ping or a seat clock written
badly behind the store's back is set aside (marked, named once in the log), and every other match's
reminders and timeouts still come."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from engine.host.clock import Pace, Reminder
from engine.host.notify import Via
from engine.host.timekeeper import Happened, Timekeeper
from tests.data.backends import AnyStore, Backdoor
from tests.data.test_store import ANN, draft
from tests.data.test_store_clocks import DAY, NOON, timed
from tests.data.test_turn_pings import ping, post
from tests.host.test_clock import Clock, Heard, seat_to_act, started_match

HOUR = timedelta(hours=1)


def set_aside(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "data.quarantine"]


async def held_ping(store: AnyStore) -> int:
    """A match whose seat 1 has a ping held until an hour after noon."""
    match = await store.create_match(draft(2), ANN)
    await store.save_live_post(post(match.id, 3), [ping(match.id, 3, 1, NOON + HOUR)])
    return match.id


@pytest.mark.parametrize(
    ("column", "value"),
    [("started_at", "yesterday"), ("started_at", "2026-01-14T11:00:00"), ("via", "pigeon")],
)
async def test_an_unreadable_held_ping_is_set_aside_once_and_the_others_come(
    store: AnyStore, backdoor: Backdoor, caplog: pytest.LogCaptureFixture, column: str, value: str
) -> None:
    caplog.set_level(logging.WARNING)
    good, bad, later = await held_ping(store), await held_ping(store), await held_ping(store)
    await backdoor.drop_checks("turn_pings")
    await backdoor.execute(f"UPDATE turn_pings SET {column} = ? WHERE match_id = ?", value, bad)
    for _ in range(3):
        assert [p.match_id for p in await store.due_pings(NOON + DAY)] == [good, later]
        assert await store.next_ping_due() == NOON + HOUR
    [named] = set_aside(caplog)
    assert f"match {bad}:" in named and "seat 1" in named and column in named
    [(reason,)] = await backdoor.fetch("SELECT quarantined FROM turn_pings WHERE match_id = ?", bad)
    assert column in reason
    assert await backdoor.fetch("SELECT match_id FROM turn_pings WHERE quarantined IS NOT NULL") == [(bad,)]
    # The rows set aside are kept as they were, for an admin to look at; the good ones are still sent.
    [held] = await store.due_pings(NOON + DAY, limit=1)
    assert held.match_id == good and await store.settle_ping(held, Via.DM)


async def test_a_ping_whose_due_time_is_unreadable_never_hides_when_the_next_is_due(
    store: AnyStore, backdoor: Backdoor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    good, bad = await held_ping(store), await held_ping(store)
    await backdoor.execute("UPDATE turn_pings SET due_at = ? WHERE match_id = ?", "0 o'clock", bad)
    assert await store.next_ping_due() == NOON + HOUR
    assert [p.match_id for p in await store.due_pings(NOON + DAY)] == [good]
    assert await store.next_ping_due() == NOON + HOUR
    assert len(set_aside(caplog)) == 1


async def test_an_unreadable_seat_clock_is_set_aside_once_and_the_others_fire(
    store: AnyStore, backdoor: Backdoor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    good, bad = await timed(store), await timed(store)
    await backdoor.drop_checks("seat_clocks")
    await backdoor.execute("UPDATE seat_clocks SET reminded = ? WHERE match_id = ? AND seat = 0", -1, bad.id)
    for _ in range(3):
        assert [c.match_id for c in await store.due_clocks(NOON + DAY)] == [good.id]
        assert await store.next_clock_due() == NOON + DAY / 2
    [named] = set_aside(caplog)
    assert f"match {bad.id}:" in named and "seat 0" in named and "reminded" in named
    rows = await backdoor.fetch("SELECT match_id, seat FROM seat_clocks WHERE quarantined IS NOT NULL")
    assert rows == [(bad.id, 0)]


async def test_a_clock_whose_due_time_is_unreadable_never_hides_when_the_next_is_due(
    store: AnyStore, backdoor: Backdoor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    good, bad = await timed(store), await timed(store)
    sql = "UPDATE seat_clocks SET due_at = ? WHERE match_id = ? AND seat = 0"
    await backdoor.execute(sql, "2026-01-01 noon", bad.id)
    assert await store.next_clock_due() == NOON + DAY / 2
    assert [c.match_id for c in await store.due_clocks(NOON + DAY)] == [good.id]
    assert len(set_aside(caplog)) == 1


async def test_the_timekeeper_reminds_and_times_out_everyone_but_the_unreadable_clock(
    store: AnyStore, backdoor: Backdoor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    clock = Clock()
    host, good = await started_match(store, clock)  # type: ignore[arg-type]
    bad = (await started_match(store, clock))[1]  # type: ignore[arg-type]
    await backdoor.drop_checks("seat_clocks")
    sql = "UPDATE seat_clocks SET reminded = ? WHERE match_id = ? AND seat = ?"
    await backdoor.execute(sql, 7, bad.id, seat_to_act(host, bad))
    heard = Heard()
    keeper = Timekeeper(host, heard)
    clock.advance(hours=12)
    assert [(f.match_id, f.reminder) for f in await keeper.sweep()] == [(good.id, Reminder.HALF)]
    clock.advance(hours=9, minutes=36)
    assert [(f.match_id, f.reminder) for f in await keeper.sweep()] == [(good.id, Reminder.LAST)]
    clock.advance(hours=3)
    assert [(f.match_id, f.event) for f in await keeper.sweep()] == [(good.id, Happened.TIMEOUT)]
    assert [m for m, *_ in heard.reminders] == [good.id, good.id]
    [named] = set_aside(caplog)
    assert f"match {bad.id}:" in named and "reminded" in named
    assert good.pace is Pace.DAILY
