"""How and when a person is told that it is their turn: their preferences and the decision they lead to.

Pure: no I/O and no clock of its own. The caller passes the current UTC time and when the turn began,
and acts on the ``Decision`` (a mention in the thread post, a direct message, or a reminder held in the
store until a given time).
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from enum import StrEnum
from functools import cache
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import AfterValidator, Field, model_validator

from engine.core.model import Frozen

# The hours a "waited" person may choose, from one hour to a week.
MIN_AFTER_HOURS = 1
MAX_AFTER_HOURS = 168
DEFAULT_AFTER_HOURS = 12


class Channel(StrEnum):
    """How a person wants to hear that it is their turn."""

    THREAD = "thread"  # a mention in the match thread's post
    DM = "dm"  # a direct message on every turn
    WAITED = "waited"  # a direct message only when the turn has waited ``after_hours``


# Names the time zone database holds that are no place's time zone: the machine's own zone, a placeholder,
# a file of defaults, and the copies of every zone with leap seconds or POSIX rules.
NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})
NOT_ZONE_FOLDERS = ("right/", "posix/")


@cache
def known_zones() -> frozenset[str]:
    """The IANA time zones a person may choose, such as ``Europe/Rome`` and ``UTC``."""
    return frozenset(
        zone
        for zone in available_timezones()
        if zone not in NOT_ZONES and not zone.startswith(NOT_ZONE_FOLDERS)
    )


@cache
def _spellings() -> dict[str, str]:
    return {zone.casefold(): zone for zone in known_zones()}


def canonical_zone(name: str) -> str | None:
    """The IANA time zone ``name`` names, as the list spells it (``europe/rome``: ``Europe/Rome``); None
    when it names none."""
    return _spellings().get(name.strip().casefold())


def next_hour_after(moment: datetime, hour: int, zone_name: str) -> datetime:
    """The first time after ``moment`` that the clocks of ``zone_name`` show ``hour`` o'clock, in UTC. An
    hour that a clock change skips is taken as the instant the clock jumps (zoneinfo's reading of a
    missing local time)."""
    zone = zone_of(zone_name)
    day = moment.astimezone(zone).date()
    for _ in range(3):
        candidate = datetime.combine(day, time(hour), tzinfo=zone).astimezone(UTC)
        if candidate > moment:
            return candidate
        day += timedelta(days=1)
    raise AssertionError("an hour comes round within three days")  # pragma: no cover


def zone_of(name: str) -> ZoneInfo:
    """The IANA time zone ``name`` (such as ``Europe/Rome``, spelled as the list spells it); raises
    ``ValueError`` for any other name."""
    if name not in known_zones():
        raise ValueError(f"unknown time zone {name[:60]!r}")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:  # listed, yet its file cannot be read
        raise ValueError(f"unreadable time zone {name!r}") from exc


def _listed_zone(name: str) -> str:
    zone_of(name)
    return name


# The name of an IANA time zone, checked as a model reads it (see ``zone_of``).
ZoneName = Annotated[str, AfterValidator(_listed_zone)]


class QuietHours(Frozen):
    """Whole local hours, from ``start`` up to ``end`` (exclusive), in time zone ``zone``; they may cross
    midnight (22 to 7)."""

    start: int = Field(ge=0, le=23)
    end: int = Field(ge=0, le=23)
    zone: ZoneName

    @model_validator(mode="after")
    def _not_empty(self) -> QuietHours:
        if self.start == self.end:
            raise ValueError("quiet hours must start and end at different hours")
        return self

    def covers(self, moment: datetime) -> bool:
        """Whether ``moment`` (aware) falls in these hours, in their own time zone."""
        hour = moment.astimezone(zone_of(self.zone)).hour
        if self.start < self.end:
            return self.start <= hour < self.end
        return hour >= self.start or hour < self.end

    def end_after(self, moment: datetime) -> datetime:
        """The first end of these hours after ``moment``, in UTC (see ``next_hour_after``)."""
        return next_hour_after(moment, self.end, self.zone)


class NotifyPrefs(Frozen):
    """A person's choice, the same for all their matches. The defaults are what everyone gets who never
    chose: a mention in the thread, at any hour."""

    channel: Channel = Channel.THREAD
    after_hours: int = Field(default=DEFAULT_AFTER_HOURS, ge=MIN_AFTER_HOURS, le=MAX_AFTER_HOURS)
    quiet: QuietHours | None = None


class Act(StrEnum):
    MENTION = "mention"  # mention them in the thread now
    DM = "dm"  # send them a direct message now
    HOLD = "hold"  # tell them nothing now; decide again at ``Decision.until``
    NOTHING = "nothing"  # tell them nothing at all for this turn


class Decision(Frozen):
    act: Act
    until: datetime | None = None  # when to decide again (HOLD only), in UTC


def decide(prefs: NotifyPrefs, now: datetime, turn_started: datetime, told: bool = False) -> Decision:
    """What to do, at ``now``, for a turn that began at ``turn_started`` (both aware); ``told`` when they
    already had their one mention or message for this turn, which leaves nothing to do.

    The person's channel says when they are due to hear of the turn (at once, or ``after_hours`` later
    for ``waited``) and how; quiet hours push that to their end. Before that time: hold until it. A
    reminder that was held is delivered by calling this again when it comes due.
    """
    if told:
        return Decision(act=Act.NOTHING)
    due = turn_started
    if prefs.channel is Channel.WAITED:
        due = turn_started + timedelta(hours=prefs.after_hours)
    at = max(now, due)
    if prefs.quiet is not None and prefs.quiet.covers(at):
        at = prefs.quiet.end_after(at)
    if at > now:
        return Decision(act=Act.HOLD, until=at.astimezone(UTC))
    return Decision(act=Act.MENTION if prefs.channel is Channel.THREAD else Act.DM)


def loud_dm(prefs: NotifyPrefs, now: datetime, turn_started: datetime, turn: bool) -> bool:
    """Whether a private message (a hand) sent at ``now`` may notify its reader: only one that says it
    is their turn, when a direct message is how they are told of this turn right now. A hand that
    merely changed never does (it is an edit of the message they already have, or a quiet one)."""
    return turn and decide(prefs, now, turn_started).act is Act.DM


class Via(StrEnum):
    """How a person was told of a turn."""

    HELD = ""  # not yet
    MENTION = "mention"  # a mention in the thread (the turn's post, or a reminder after quiet hours)
    DM = "dm"  # a direct message of its own
    HAND = "hand"  # the private message of that version (their hand), which says it is their turn


class TurnPing(Frozen):
    """How and when one seat is told of one turn (a row of the store)."""

    match_id: int
    turn: int  # the match version whose post began the turn
    seat: int
    user_id: int
    started_at: datetime
    due_at: datetime
    via: Via = Via.HELD

    @property
    def sent(self) -> bool:
        return self.via is not Via.HELD
