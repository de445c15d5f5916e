"""The three reminders of a turn on a virtual clock: half its time gone, 80% gone, a tenth left; the 80%
one left out of a turn too short for it to stand apart, only the latest due one sent when several fell
together (the bot was down); and an extended turn: its reminders follow its new deadline, the extension
lasts that turn only, and the clock says until when the turn runs."""

from __future__ import annotations

from datetime import timedelta

from data.store import SqliteMatchStore
from engine.host.clock import (
    ALLOWANCES,
    REMINDER_GAP,
    Pace,
    Reminder,
    SeatClock,
    begin_turn,
    cancel_turn,
    clocks_after,
    end_turn,
    turn_reminders,
    with_extension,
)
from engine.host.clock_words import time_left
from engine.host.marks import PlainMarks
from engine.host.timekeeper import Timekeeper
from tests.host.test_clock import START, Clock, Heard, seat_to_act, started_match


def test_a_day_long_turn_has_three_reminders_and_an_hour_long_one_two() -> None:
    day = START + timedelta(hours=24)
    assert turn_reminders(START, day) == (
        START + timedelta(hours=12),
        START + timedelta(hours=19, minutes=12),
        START + timedelta(hours=21, minutes=36),
    )
    hour = START + timedelta(hours=1)
    assert turn_reminders(START, hour) == (START + timedelta(minutes=30), None, START + timedelta(minutes=54))
    # Ten hours is the shortest turn whose 80% reminder stands an hour from the last one.
    assert turn_reminders(START, START + REMINDER_GAP * 10)[1] is not None
    assert turn_reminders(START, START + REMINDER_GAP * 10 - timedelta(minutes=1))[1] is None


def test_an_extension_moves_the_deadline_and_the_next_reminder_once() -> None:
    clock = begin_turn(SeatClock(match_id=1, seat=0, user_id=5), ALLOWANCES[Pace.FAST], START)
    assert clock.due_at == START + timedelta(minutes=30)
    longer = with_extension(clock)
    assert longer.deadline == START + timedelta(hours=25) and longer.extension_used
    assert longer.extended == timedelta(hours=24)
    # A turn of 25 hours: its half-time reminder falls at 12.5 hours, and it has the 80% one too.
    assert longer.due_at == START + timedelta(hours=12, minutes=30)
    assert turn_reminders(START, START + timedelta(hours=25))[1] == START + timedelta(hours=20)


async def test_each_reminder_once_in_order(store: SqliteMatchStore) -> None:
    clock = Clock()
    host, match = await started_match(store, clock)
    heard = Heard()
    keeper = Timekeeper(host, heard)
    seat = seat_to_act(host, match)
    told = []
    for hours, minutes in ((12, 0), (19, 12), (21, 36)):
        clock.now = START + timedelta(hours=hours, minutes=minutes)
        told += [f.reminder for f in await keeper.sweep()]
        assert await keeper.sweep() == []  # once
    assert told == [Reminder.HALF, Reminder.MOST, Reminder.LAST]
    assert [(s, r, left) for _, s, r, left in heard.reminders][1] == (
        seat,
        Reminder.MOST,
        timedelta(hours=4, minutes=48),
    )


async def test_after_a_stop_only_the_latest_reminder_due_is_sent(store: SqliteMatchStore) -> None:
    clock = Clock()
    host, _ = await started_match(store, clock)
    heard = Heard()
    keeper = Timekeeper(host, heard)
    # Down from the start until 20 hours in: the half-time and the 80% reminders are both due; one goes.
    clock.now = START + timedelta(hours=20)
    assert [f.reminder for f in await keeper.sweep()] == [Reminder.MOST]
    assert await keeper.sweep() == []
    # Down again past the last one: it alone is sent, and nothing more until the timeout.
    clock.now = START + timedelta(hours=23)
    assert [f.reminder for f in await keeper.sweep()] == [Reminder.LAST]
    clock.now = START + timedelta(hours=23, minutes=59)
    assert await keeper.sweep() == []
    assert [r for _, _, r, _ in heard.reminders] == [Reminder.MOST, Reminder.LAST]


async def test_an_hour_long_turn_reminds_twice_never_minutes_apart(store: SqliteMatchStore) -> None:
    clock = Clock()
    host, _ = await started_match(store, clock, Pace.FAST)
    heard = Heard()
    keeper = Timekeeper(host, heard)
    for minute in range(1, 60):
        clock.now = START + timedelta(minutes=minute)
        await keeper.sweep()
    assert [r for _, _, r, _ in heard.reminders] == [Reminder.HALF, Reminder.LAST]


def test_an_extension_lasts_its_own_turn_and_a_turn_taken_back_gives_it_back() -> None:
    daily = ALLOWANCES[Pace.DAILY]
    begun = begin_turn(SeatClock(match_id=1, seat=0, user_id=5), daily, START)
    longer = with_extension(begun)
    # Played an hour later: the bank keeps what the turn's own time left (capped), never the extension.
    ended = end_turn(longer, daily, START + timedelta(hours=1))
    assert ended.bank == daily.bank_cap and ended.extension_used
    assert end_turn(longer, daily, START + timedelta(hours=30)).bank == timedelta(0)
    # The move that began the extended turn is taken back: the turn never happened, nor its extension.
    cancelled = cancel_turn(longer)
    assert not cancelled.extension_used and cancelled.extended == timedelta(0)
    # A newcomer in the seat has an extension of their own.
    newcomer = clocks_after(1, {0: ended}, {0: 6}, set(), {0}, daily, START + timedelta(hours=2))
    assert [(c.user_id, c.extension_used, c.extended) for c in newcomer] == [(6, False, timedelta(0))]


def test_an_extended_turn_says_until_when_it_runs() -> None:
    longer = with_extension(
        begin_turn(SeatClock(match_id=1, seat=0, user_id=5), ALLOWANCES[Pace.FAST], START)
    )
    until = (START + timedelta(hours=25)).isoformat(" ", "minutes")
    assert time_left("en", longer, START, PlainMarks()) == f"until {until} (extended by 24 h)"
    assert time_left("it", longer, START, PlainMarks()) == f"fino a {until} (prorogato di 24 h)"
