"""A match's clock: how long each seat has to move, its time bank, its reminders and its deadline.

Pure: no I/O and no clock of its own. The host passes the current UTC time and stores the ``SeatClock``
rows this module computes together with the move that changes them.

A seat's turn runs from the moment the rules first ask it to act until they stop asking (the steps of one
turn are one move; in a simultaneous decision each seat that must decide has its own turn). It has the
pace's time per move plus its bank; whatever it leaves unused becomes its new bank, up to the pace's cap.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import Field

from engine.core.errors import AbsencesChanged
from engine.core.model import Frozen


class Pace(StrEnum):
    """The clock a match is played on, chosen when it is created."""

    NONE = "none"  # no clock: the match waits for its players
    RELAXED = "relaxed"
    DAILY = "daily"
    FAST = "fast"


class Allowance(Frozen):
    """The time a pace gives: ``per_move`` for each turn, plus a bank of unused time up to ``bank_cap``."""

    per_move: timedelta
    bank_cap: timedelta


ALLOWANCES: Mapping[Pace, Allowance] = {
    Pace.RELAXED: Allowance(per_move=timedelta(days=3), bank_cap=timedelta(days=1)),
    Pace.DAILY: Allowance(per_move=timedelta(hours=24), bank_cap=timedelta(hours=12)),
    Pace.FAST: Allowance(per_move=timedelta(hours=1), bank_cap=timedelta(minutes=30)),
}
# What a match gets unless its creator chooses: nobody blocks a table for ever, and nobody is hurried.
DEFAULT_PACE = Pace.RELAXED
# Timeouts in a row after which the computer keeps the seat until its player comes back.
TIMEOUTS_TO_KEEP = 2
# The reminders of a turn: when half its time is gone, when 80% of it is gone, and when a tenth of it is
# left.
REMINDERS = 3
# The 80% reminder is left out of a turn so short that it would fall within this long of another one:
# two messages saying the same minutes apart are noise (an hour's turn keeps its two reminders of old).
REMINDER_GAP = timedelta(hours=1)
# The share of a turn's time gone when its second reminder falls.
MOST_GONE = 0.8
# What ``/game extend`` adds to a player's turn, once per match.
EXTENSION = timedelta(hours=24)


class Reminder(StrEnum):
    HALF = "half"
    MOST = "most"  # 80% of the turn's time is gone
    LAST = "last"


# The reminders in the order they fall; a clock's ``reminded`` counts how many of them are dealt with.
REMINDER_ORDER = (Reminder.HALF, Reminder.MOST, Reminder.LAST)


class SeatClock(Frozen):
    """One seat's clock in one match (a row of the store). ``started_at``/``deadline`` are set while the
    seat is to act; ``due_at`` is when the next reminder or the timeout falls (None: nothing due)."""

    match_id: int
    seat: int
    user_id: int
    bank: timedelta = timedelta(0)
    started_at: datetime | None = None
    deadline: datetime | None = None
    reminded: int = Field(default=0, ge=0, le=REMINDERS)
    due_at: datetime | None = None
    timeouts: int = Field(default=0, ge=0)  # timeouts in a row
    # The seat's last turn as it stood before it ended, so a move taken back resumes it (see ``resume``).
    last_started: datetime | None = None
    last_deadline: datetime | None = None
    last_bank: timedelta | None = None
    # Time the seat's player took over their turns so far, and before their last turn ended.
    used: timedelta = timedelta(0)
    last_used: timedelta | None = None
    # What ``/game extend`` added to the seat's running (or, once it ended, its last) turn; and whether
    # the seat's player has used their one extension of the match.
    extended: timedelta = timedelta(0)
    extension_used: bool = False

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def left(self, now: datetime) -> timedelta:
        """The time left before the deadline (zero once passed); the bank when the seat is not to act."""
        if self.deadline is None:
            return self.bank
        return max(self.deadline - now, timedelta(0))

    def reminder_due(self) -> Reminder | None:
        """The reminder that falls at ``due_at``; None when it is the deadline."""
        if self.started_at is None or self.deadline is None:
            return None
        times = turn_reminders(self.started_at, self.deadline)
        for index in range(self.reminded, REMINDERS):
            if times[index] is not None:
                return REMINDER_ORDER[index]
        return None


def reminder_times(started: datetime, deadline: datetime) -> tuple[datetime, datetime]:
    """When half the time from ``started`` to ``deadline`` is gone, and when a tenth of it is left."""
    span = deadline - started
    return started + span / 2, deadline - span / 10


def turn_reminders(started: datetime, deadline: datetime) -> tuple[datetime | None, ...]:
    """When each reminder of ``REMINDER_ORDER`` falls in a turn from ``started`` to ``deadline``: half its
    time gone, 80% gone (None in a turn too short for it, see ``REMINDER_GAP``), a tenth left."""
    half, last = reminder_times(started, deadline)
    most = started + (deadline - started) * MOST_GONE
    if most - half < REMINDER_GAP or last - most < REMINDER_GAP:
        return half, None, last
    return half, most, last


def next_due(clock: SeatClock) -> datetime | None:
    if clock.started_at is None or clock.deadline is None:
        return None
    times = turn_reminders(clock.started_at, clock.deadline)
    for moment in times[clock.reminded :]:
        if moment is not None:
            return moment
    return clock.deadline


def begin_turn(
    clock: SeatClock, allowance: Allowance, now: datetime, away_until: datetime | None = None
) -> SeatClock:
    """The seat is asked to act at ``now``: its time per move and its bank start running (from the end
    of its player's absence, if they are away)."""
    start = max(now, away_until) if away_until is not None else now
    deadline = start + allowance.per_move + clock.bank
    begun = clock.model_copy(
        update={"started_at": start, "deadline": deadline, "reminded": 0, "extended": timedelta(0)}
    )
    return begun.model_copy(update={"due_at": next_due(begun)})


def end_turn(clock: SeatClock, allowance: Allowance, now: datetime, timed_out: bool = False) -> SeatClock:
    """The seat's turn is over at ``now``: what it left unused is its bank (up to the cap). A turn its
    player played resets the count of timeouts in a row; one a computer played for them adds to it. An
    extension lasts its own turn only: what is left of it never goes to the bank."""
    left = max(clock.left(now) - clock.extended, timedelta(0)) if clock.deadline is not None else clock.bank
    took = max(now - clock.started_at, timedelta(0)) if clock.started_at is not None else timedelta(0)
    return clock.model_copy(
        update={
            "last_started": clock.started_at,
            "last_deadline": clock.deadline,
            "last_bank": clock.bank,
            "last_used": clock.used,
            "used": clock.used + took,
            "bank": timedelta(0) if timed_out else min(left, allowance.bank_cap),
            "started_at": None,
            "deadline": None,
            "reminded": 0,
            "due_at": None,
            "timeouts": clock.timeouts + 1 if timed_out else 0,
        }
    )


def cancel_turn(clock: SeatClock) -> SeatClock:
    """The seat's turn never happened (the move that began it was taken back): its bank is as it was,
    and so is its extension, if that turn used it."""
    update: dict[str, object] = {"started_at": None, "deadline": None, "reminded": 0, "due_at": None}
    if clock.running and clock.extended > timedelta(0):
        update |= {"extended": timedelta(0), "extension_used": False}
    return clock.model_copy(update=update)


def resume_turn(clock: SeatClock, allowance: Allowance, now: datetime) -> SeatClock:
    """The seat's last turn goes on (the move that ended it was taken back) with the bank it began with
    and the time it had left when that move ended it: its clock stood still while the move stood, so
    taking a move back neither buys time nor brings back a deadline already past."""
    if clock.last_started is None or clock.last_deadline is None or clock.last_bank is None:
        return begin_turn(clock, allowance, now)
    # The turn's own time until the move ended it (``end_turn`` added it to ``used``); a row from before
    # that time was kept says nothing, and the turn then goes on as from its start.
    took = clock.used - clock.last_used if clock.last_used is not None else timedelta(0)
    stood = max(now - (clock.last_started + took), timedelta(0))
    started, deadline = clock.last_started + stood, clock.last_deadline + stood
    resumed = clock.model_copy(
        update={
            "started_at": started,
            "deadline": deadline,
            "bank": clock.last_bank,
            "used": clock.used if clock.last_used is None else clock.last_used,
            "reminded": 0,
        }
    )
    # The reminders already past are not sent again.
    times = turn_reminders(started, deadline)
    passed = max((i + 1 for i, moment in enumerate(times) if moment is not None and moment <= now), default=0)
    resumed = resumed.model_copy(update={"reminded": passed})
    return resumed.model_copy(update={"due_at": next_due(resumed)})


def reminded(clock: SeatClock) -> SeatClock:
    """The clock once its due reminder was dealt with (sent, or skipped)."""
    due = clock.reminder_due()
    count = REMINDERS if due is None else REMINDER_ORDER.index(due) + 1
    after = clock.model_copy(update={"reminded": max(count, clock.reminded)})
    return after.model_copy(update={"due_at": next_due(after)})


def postponed(clock: SeatClock, until: datetime) -> SeatClock:
    """The clock with its due reminder held until ``until`` (the end of quiet hours); a reminder that
    would then fall at or after the deadline is dropped instead."""
    if clock.deadline is None or until >= clock.deadline:
        return reminded(clock)
    return clock.model_copy(update={"due_at": until})


def with_extension(clock: SeatClock, by: timedelta = EXTENSION) -> SeatClock:
    """The clock with its running turn's deadline ``by`` later, its player's extension used; its next
    reminder falls where the longer turn puts it."""
    if clock.deadline is None:
        return clock
    longer = clock.model_copy(
        update={"deadline": clock.deadline + by, "extended": clock.extended + by, "extension_used": True}
    )
    return longer.model_copy(update={"due_at": next_due(longer)})


def paused(clock: SeatClock, by: timedelta) -> SeatClock:
    """The clock with its running turn moved ``by`` later (a player's absence begins, or, negative, ends
    early); a turn never ends before ``started_at``."""
    if clock.started_at is None or clock.deadline is None:
        return clock
    start = clock.started_at + by
    moved = clock.model_copy(update={"started_at": start, "deadline": max(clock.deadline + by, start)})
    due = clock.due_at + by if clock.due_at is not None else None
    return moved.model_copy(update={"due_at": due})


def clocks_after(
    match_id: int,
    clocks: Mapping[int, SeatClock],
    people: Mapping[int, int],
    before: Collection[int],
    after: Collection[int],
    allowance: Allowance,
    now: datetime,
    away: Mapping[int, datetime] | None = None,
    timed_out: Collection[int] = (),
    undone: bool = False,
) -> list[SeatClock]:
    """The seat clocks a change of who is to act (``before`` to ``after``) changes, for the seats held by
    people (``people``: seat to user id). A seat that stays to act keeps its turn running; ``timed_out``
    seats ended their turn because a computer played it for them; ``away`` maps a user id to the end of
    their absence. ``undone``: the change comes from moves taken back, so turns it ends never happened and
    turns it starts again resume as they were."""
    changed: list[SeatClock] = []
    for seat, user_id in sorted(people.items()):
        clock = clocks.get(seat) or SeatClock(match_id=match_id, seat=seat, user_id=user_id)
        if clock.user_id != user_id:
            # A newcomer in the seat has their own extension to use.
            clock = clock.model_copy(update={"user_id": user_id, "extension_used": False})
        now_acting = seat in after
        if now_acting and (seat not in before or not clock.running):
            if undone:
                changed.append(resume_turn(clock, allowance, now))
            else:
                changed.append(begin_turn(clock, allowance, now, (away or {}).get(user_id)))
        elif not now_acting and clock.running:
            if undone:
                changed.append(cancel_turn(clock))
            else:
                changed.append(end_turn(clock, allowance, now, timed_out=seat in timed_out))
    return changed


Absences = dict[int, list[tuple[datetime, datetime]]]


class AbsencesSeen(Frozen):
    """The absences a change's new turns were timed by: those of ``users`` ending after ``as_of``, as
    read then (by user id). A store writes the change only if they are still what it reads."""

    users: tuple[int, ...]
    as_of: datetime
    found: Absences

    def check(self, now_found: Absences) -> None:
        """Raise ``AbsencesChanged`` unless ``now_found`` (read again, in the commit) is what was seen."""
        if now_found != self.found:
            raise AbsencesChanged(f"the absences of {list(self.users)} changed while a turn began")


class ClockChange(Frozen):
    """What a commit changes in a match's clocks: the seat clocks to write, and the turns a computer
    played for a person whose time ran out (one timeout each in their profile). ``absences_seen``: what
    the new turns' deadlines allowed for, which the store checks in the commit's own transaction, so an
    absence begun meanwhile (``/away on``) is never overwritten by a turn that runs through it."""

    clocks: tuple[SeatClock, ...] = ()
    timeouts: tuple[SeatClock, ...] = ()
    absences_seen: AbsencesSeen | None = None

    def __bool__(self) -> bool:
        return bool(self.clocks or self.timeouts)
