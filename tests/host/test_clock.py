"""Match clocks on a virtual clock: the time bank, reminders at half time and a tenth left, a computer
playing a turn whose time ran out, keeping the seat after two, ``back``, absences, and a restart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from data.store import SqliteMatchStore
from engine.core.errors import CannotUndo, NotSeated
from engine.host import undo as undoing
from engine.host.clock import (
    ALLOWANCES,
    REMINDERS,
    Allowance,
    Pace,
    Reminder,
    SeatClock,
    begin_turn,
    cancel_turn,
    clocks_after,
    end_turn,
    resume_turn,
)
from engine.host.notify import QuietHours
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.service import GameHost
from engine.host.timekeeper import Happened, Timekeeper

ANN, BOB = Player(user_id=101, name="ann"), Player(user_id=102, name="bob")
START = datetime(2026, 3, 2, 9, tzinfo=UTC)
DAILY = ALLOWANCES[Pace.DAILY]


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


class Heard:
    """The herald of these tests: remembers every reminder."""

    def __init__(self) -> None:
        self.reminders: list[tuple[int, int, Reminder, timedelta]] = []

    async def remind(self, match: MatchRecord, clock: SeatClock, reminder: Reminder, left: timedelta) -> None:
        self.reminders.append((match.id, clock.seat, reminder, left))


def test_unused_time_goes_to_the_bank_up_to_its_cap() -> None:
    clock = SeatClock(match_id=1, seat=0, user_id=5)
    begun = begin_turn(clock, DAILY, START)
    assert begun.deadline == START + timedelta(hours=24)
    assert begun.due_at == START + timedelta(hours=12)
    quick = end_turn(begun, DAILY, START + timedelta(hours=20))
    assert quick.bank == timedelta(hours=4) and quick.timeouts == 0
    again = begin_turn(quick, DAILY, START + timedelta(days=1))
    assert again.deadline == START + timedelta(days=2, hours=4)
    capped = end_turn(again, DAILY, START + timedelta(days=1, minutes=1))
    assert capped.bank == DAILY.bank_cap
    timed = end_turn(again, DAILY, again.deadline or START, timed_out=True)
    assert timed.bank == timedelta(0) and timed.timeouts == 1


def test_the_time_a_player_takes_adds_up_and_a_move_taken_back_does_not_count_twice() -> None:
    clock = SeatClock(match_id=1, seat=0, user_id=5)
    first = end_turn(begin_turn(clock, DAILY, START), DAILY, START + timedelta(hours=2))
    assert first.used == timedelta(hours=2)
    second = begin_turn(first, DAILY, START + timedelta(hours=5))
    assert second.used == timedelta(hours=2)  # a running turn counts once it ends
    ended = end_turn(second, DAILY, START + timedelta(hours=6, minutes=30))
    assert ended.used == timedelta(hours=3, minutes=30)
    # The move that ended the second turn is taken back half an hour later: the turn goes on, its time
    # not yet counted, and its clock stood still while the move stood.
    resumed = resume_turn(ended, DAILY, START + timedelta(hours=7))
    assert resumed.used == timedelta(hours=2) and resumed.started_at == START + timedelta(hours=5, minutes=30)
    assert end_turn(resumed, DAILY, START + timedelta(hours=8)).used == timedelta(hours=4, minutes=30)
    # A turn that never happened (the move that began it taken back) adds nothing.
    assert cancel_turn(begin_turn(ended, DAILY, START + timedelta(days=1))).used == ended.used


def test_a_resumed_turn_gets_the_time_it_had_left_and_never_a_deadline_already_past() -> None:
    clock = SeatClock(match_id=1, seat=0, user_id=5)
    begun = begin_turn(clock, DAILY, START)
    assert begun.deadline == START + timedelta(hours=24)
    # Moved with three hours left; the move is taken back two days later, long after that deadline.
    ended = end_turn(begun, DAILY, START + timedelta(hours=21))
    later = START + timedelta(days=2)
    resumed = resume_turn(ended, DAILY, later)
    assert resumed.deadline == later + timedelta(hours=3) and resumed.left(later) == timedelta(hours=3)
    assert resumed.bank == clock.bank and resumed.running
    # Its half-time reminder had fallen when it was ended and is not sent again; the last one still
    # falls when a tenth of the turn is left.
    assert resumed.reminded == REMINDERS - 1
    assert resumed.due_at == later + timedelta(hours=3) - DAILY.per_move / 10
    # Taken back at once, the turn goes on as it was.
    at_once = resume_turn(ended, DAILY, START + timedelta(hours=21))
    assert (at_once.started_at, at_once.deadline) == (begun.started_at, begun.deadline)
    # A turn that begins after its player's absence and ends before it began resumes from its start.
    away = begin_turn(clock, DAILY, START, away_until=START + timedelta(days=1))
    early = end_turn(away, DAILY, START + timedelta(hours=1))
    assert resume_turn(early, DAILY, START + timedelta(hours=2)).deadline == away.deadline
    at_end = START + timedelta(days=3)
    assert resume_turn(early, DAILY, at_end).left(at_end) == DAILY.per_move
    # A row kept before the time of each turn was stored: the turn goes on as from its start.
    legacy = ended.model_copy(update={"last_used": None})
    assert resume_turn(legacy, DAILY, later).left(later) == DAILY.per_move


def test_each_seat_deciding_at_once_has_its_own_turn() -> None:
    people = {0: 10, 1: 11, 2: 12}
    allowance = Allowance(per_move=timedelta(hours=1), bank_cap=timedelta(0))
    started = {c.seat: c for c in clocks_after(7, {}, people, {0}, {0, 1, 2}, allowance, START)}
    # Seat 0 was already on the move and has no clock yet: its turn begins too.
    assert set(started) == {0, 1, 2}
    later = START + timedelta(minutes=10)
    ended = clocks_after(7, started, people, {0, 1, 2}, {1, 2}, allowance, later)
    assert [(c.seat, c.running) for c in ended] == [(0, False)]


async def started_match(
    store: SqliteMatchStore, clock: Clock, pace: Pace = Pace.DAILY
) -> tuple[GameHost, MatchRecord]:
    host = GameHost(store, clock=clock, seed_source=lambda: 11)
    match = await host.create_match("ny1901", 2, creator=ANN, pace=pace)
    await host.join(match.id, BOB)
    match = (await host.start(match.id)).match
    return host, match


def seat_to_act(host: GameHost, match: MatchRecord) -> int:
    return min(host.rules(match.game).to_act(host.state_of(match)))


async def play_turn(host: GameHost, match: MatchRecord) -> MatchRecord:
    """The player to act plays moves until the turn passes (the first legal move each time)."""
    seat = seat_to_act(host, match)
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    while match.status is MatchStatus.ACTIVE and seat in host.rules(match.game).to_act(host.state_of(match)):
        match = (await host.act(match.id, player.user_id, 0)).match
    return match


async def test_reminders_then_a_computer_plays_the_turn_then_keeps_the_seat(store: SqliteMatchStore) -> None:
    clock = Clock()
    host, match = await started_match(store, clock)
    heard = Heard()
    keeper = Timekeeper(host, heard)
    seat = seat_to_act(host, match)
    player = match.player_at(seat)
    assert player is not None
    assert await keeper.sweep() == []
    clock.advance(hours=11, minutes=59)
    assert await keeper.sweep() == []
    clock.advance(minutes=1)
    assert [f.reminder for f in await keeper.sweep()] == [Reminder.HALF]
    assert await keeper.sweep() == []  # only once
    clock.advance(hours=9, minutes=36)  # a tenth of the day left
    assert [f.reminder for f in await keeper.sweep()] == [Reminder.LAST]
    assert heard.reminders[-1][2:] == (Reminder.LAST, timedelta(hours=2, minutes=24))
    clock.advance(hours=2, minutes=23)
    assert await keeper.sweep() == []
    clock.advance(minutes=1)
    fired = await keeper.sweep()
    assert [(f.event, f.seat) for f in fired] == [(Happened.TIMEOUT, seat)]
    match = await host.match(match.id)
    assert seat not in host.rules(match.game).to_act(host.state_of(match))
    assert (await store.action_log(match.id))[-1].seat == seat or match.status is not MatchStatus.ACTIVE
    assert await store.timeouts_of(player.user_id or 0) == 1
    assert await keeper.sweep() == []  # fired once
    # The other player moves; the first one's next turn runs out again: the computer keeps the seat.
    match = await play_turn(host, match)
    assert seat_to_act(host, match) == seat
    clock.advance(hours=25)
    fired = await keeper.sweep()
    assert [f.event for f in fired if f.seat == seat][-1] is Happened.TAKEOVER
    match = await host.match(match.id)
    kept = match.player_at(seat)
    assert kept is not None and kept.absent and kept.bot is not None
    # Back: the seat is theirs again, and a turn they play resets the count.
    match = await host.back(match.id, player.user_id or 0)
    returned = match.player_at(seat)
    assert returned == player.model_copy(update={"seat": seat})
    assert await store.timeouts_of(player.user_id or 0) == 2


async def test_a_turn_played_for_a_player_whose_time_ran_out_is_not_theirs_to_take_back(
    store: SqliteMatchStore,
) -> None:
    clock = Clock()
    host, match = await started_match(store, clock, Pace.FAST)
    keeper = Timekeeper(host, Heard())
    seat = seat_to_act(host, match)
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    clock.advance(minutes=61)
    assert [(f.event, f.seat) for f in await keeper.sweep()] == [(Happened.TIMEOUT, seat)]
    match = await host.match(match.id)
    played = [entry for _, entry in await store.kept_actions(match.id) if entry.seat == seat]
    assert played and played[-1].stand_in
    # No Undo is offered, and pressing an old one changes nothing.
    assert not await host.can_undo(match, seat)
    assert await undoing.who_may_undo(host, match) is None
    with pytest.raises(CannotUndo, match="a computer played your last move for you"):
        await host.undo(match.id, player.user_id)
    assert (await host.match(match.id)).version == match.version
    # The turn counted one timeout, and the next sweeps time nobody out for it again.
    clock.advance(minutes=59)
    assert [f for f in await keeper.sweep() if f.seat == seat] == []
    assert await store.timeouts_of(player.user_id) == 1
    assert [c.timeouts for c in await store.seat_clocks(match.id) if c.seat == seat] == [1]


async def test_after_coming_back_a_player_cannot_take_back_what_the_computer_played_for_them(
    store: SqliteMatchStore,
) -> None:
    clock = Clock()
    host, match = await started_match(store, clock, Pace.FAST)
    keeper = Timekeeper(host, Heard())
    seat = seat_to_act(host, match)
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    clock.advance(minutes=61)
    await keeper.sweep()
    match = await play_turn(host, await host.match(match.id))
    assert seat_to_act(host, match) == seat
    clock.advance(minutes=61)
    assert [f.event for f in await keeper.sweep() if f.seat == seat] == [Happened.TAKEOVER]
    match = await host.back(match.id, player.user_id)
    assert (await store.kept_actions(match.id))[-1][1].seat == seat  # the computer's move is the latest
    assert not await host.can_undo(match, seat)
    with pytest.raises(CannotUndo, match="a computer played your last move for you"):
        await host.undo(match.id, player.user_id)
    assert (await host.match(match.id)).version == match.version
    assert await store.timeouts_of(player.user_id) == 2


async def test_the_moves_a_computer_plays_for_a_player_who_resigned_are_never_theirs(
    store: SqliteMatchStore,
) -> None:
    clock = Clock()
    host, match = await started_match(store, clock, Pace.FAST)
    seat = seat_to_act(host, match)
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    match = await host.resign(match.id, player.user_id, resigned=True)
    assert [e.stand_in for _, e in await store.kept_actions(match.id) if e.seat == seat][-1:] == [True]
    with pytest.raises(NotSeated):
        await host.undo(match.id, player.user_id)
    assert (await host.match(match.id)).version == match.version


async def test_a_player_who_moves_in_time_is_never_timed_out(store: SqliteMatchStore) -> None:
    clock = Clock()
    host, match = await started_match(store, clock, Pace.FAST)
    keeper = Timekeeper(host, Heard())
    for _ in range(6):
        clock.advance(minutes=40)
        match = await play_turn(host, match)
        assert all(f.event is Happened.REMINDER for f in await keeper.sweep())
    assert all(c.timeouts == 0 for c in await store.seat_clocks(match.id))


async def test_no_reminder_in_quiet_hours(store: SqliteMatchStore) -> None:
    clock = Clock()
    host, match = await started_match(store, clock)
    seat = seat_to_act(host, match)
    # 21:00 to 08:00 UTC: the half-time reminder (21:00) waits for the morning.
    quiet = QuietHours(start=21, end=8, zone="UTC")
    heard = Heard()
    keeper = Timekeeper(host, heard, quiet_of=lambda user: _quiet(quiet))
    clock.advance(hours=12)
    assert await keeper.sweep() == []
    clock.advance(hours=10, minutes=59)  # 07:59
    assert await keeper.sweep() == []
    clock.advance(minutes=1)  # 08:00: the last reminder is due by then, and only it is sent
    assert [(s, r) for _, s, r, _ in heard.reminders] == []
    assert [f.reminder for f in await keeper.sweep()] == [Reminder.LAST]
    assert heard.reminders[0][1] == seat


async def _quiet(hours: QuietHours) -> QuietHours:
    return hours


async def test_an_absence_moves_the_deadline_and_off_moves_it_back(store: SqliteMatchStore) -> None:
    clock = Clock()
    host, match = await started_match(store, clock)
    seat = seat_to_act(host, match)
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    (before,) = [c for c in await store.seat_clocks(match.id) if c.seat == seat]
    moved = await store.begin_absence(player.user_id, clock.now, clock.now + timedelta(days=3))
    assert [c.deadline for c in moved] == [(before.deadline or START) + timedelta(days=3)]
    clock.advance(days=1)
    back = await store.end_absence(player.user_id, clock.now)
    assert back is not None and [c.deadline for c in back] == [(before.deadline or START) + timedelta(days=1)]
    assert await store.end_absence(player.user_id, clock.now) is None


async def test_a_deadline_passed_while_down_fires_once_at_start(tmp_path: Path) -> None:
    clock = Clock()
    db = tmp_path / "clock.sqlite"
    async with await SqliteMatchStore.open(db) as store:
        host, match = await started_match(store, clock)
        seat = seat_to_act(host, match)
    clock.advance(days=3)
    for _ in range(2):
        async with await SqliteMatchStore.open(db) as store:
            host = GameHost(store, clock=clock)
            fired = await Timekeeper(host, Heard()).sweep()
            timeouts = [f for f in fired if f.event is not Happened.REMINDER]
            if _ == 0:
                assert [(f.event, f.seat) for f in timeouts][:1] == [(Happened.TIMEOUT, seat)]
            else:
                assert [f for f in timeouts if f.seat == seat] == []


def test_the_away_command_states_the_monthly_bound_it_enforces() -> None:
    from cogs.away import Away
    from engine.host.absence import AWAY_DAYS_PER_MONTH

    (days,) = Away.on.parameters
    assert f"at most {AWAY_DAYS_PER_MONTH} a month" in days.description
    assert days.max_value == AWAY_DAYS_PER_MONTH
