"""What a match clock says, in the reader's language, for every front end: the time a seat has left (or
when its player is back, or until when a turn its player extended runs), the time left of the seats a
post calls, and the reminders a player gets when half and when 80% of their time is gone and before a
computer plays for them.

A front end passes how it writes a moment (its ``Marks``), such as a timestamp its readers see in their
own time zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from engine.host.clock import MOST_GONE, Pace, Reminder, SeatClock
from engine.host.marks import Marks
from engine.host.ports import MatchRecord
from engine.host.posts import duration
from engine.host.service import GameHost
from lang import N_, t

REMINDERS = {
    Reminder.HALF: N_("half of your time for match #{number} ({game}) is gone: {time} left to move."),
    # The share is an argument: a "%" in a message id reads to gettext's tools as a printf placeholder.
    Reminder.MOST: N_("{share} of your time for match #{number} ({game}) is gone: {time} left to move."),
    Reminder.LAST: N_(
        "match #{number} ({game}) is waiting for you: {time} left, then a computer plays your turn."
    ),
}


def time_left(locale: str, clock: SeatClock, now: datetime, marks: Marks) -> str:
    """How long the seat has left, or when its player is back from an absence; a turn its player
    extended says until when it runs, and by how much it was extended."""
    if clock.started_at is not None and clock.started_at > now:
        return t(locale, "away until {when}", when=marks.moment(clock.started_at, "full"))
    if clock.running and clock.deadline is not None and clock.extended:
        return t(
            locale,
            "until {when} (extended by {time})",
            when=marks.moment(clock.deadline, "full"),
            time=duration(locale, clock.extended),
        )
    return t(locale, "{time} left", time=duration(locale, clock.left(now)))


async def clock_notes(
    host: GameHost, match: MatchRecord, seats: Sequence[int], locale: str, marks: Marks
) -> dict[int, str]:
    """The time left of each of ``seats`` whose clock runs, by seat (none without a clock)."""
    if match.pace is Pace.NONE:
        return {}
    now = host.clock()
    clocks = await host.seat_clocks(match)
    return {
        seat: time_left(locale, clocks[seat], now, marks)
        for seat in seats
        if seat in clocks and clocks[seat].running
    }


def clock_reminder(locale: str, reminder: Reminder, number: int, title: str, left: timedelta) -> str:
    """The reminder of match ``number`` (its game's ``title`` as the rules give it) with ``left`` to go,
    starting in lower case: a front end puts it after the player's name, or begins it with a capital."""
    return t(
        locale,
        REMINDERS[reminder],
        number=number,
        game=t(locale, title),
        time=duration(locale, left),
        share=f"{MOST_GONE:.0%}",
    )


def reminder_of(host: GameHost, match: MatchRecord, reminder: Reminder, left: timedelta, locale: str) -> str:
    """``clock_reminder`` of ``match``."""
    return clock_reminder(locale, reminder, match.id, host.rules(match.game).title, left)


async def deadline_lines(host: GameHost, match: MatchRecord, locale: str, marks: Marks) -> tuple[str, ...]:
    """Until when each seat to act has to move (or when its player is back), one line a seat whose clock
    runs: what a page shows, which stays true until the next move."""
    if match.pace is Pace.NONE:
        return ()
    now = host.clock()
    clocks = await host.seat_clocks(match)
    name = host.namer(match)
    lines = []
    for seat in host.to_act(match):
        clock = clocks.get(seat)
        if clock is None or not clock.running or clock.deadline is None:
            continue
        player = name(seat)
        if clock.started_at is not None and clock.started_at > now:
            when = marks.moment(clock.started_at, "full")
            lines.append(t(locale, "{player} is away until {when}", player=player, when=when))
        elif clock.extended:
            when = marks.moment(clock.deadline, "full")
            lines.append(
                t(
                    locale,
                    "{player} has until {when} to move (extended by {time})",
                    player=player,
                    when=when,
                    time=duration(locale, clock.extended),
                )
            )
        else:
            when = marks.moment(clock.deadline, "full")
            lines.append(t(locale, "{player} has until {when} to move", player=player, when=when))
    return tuple(lines)
