"""The turn-notification policy: channels, waiting, quiet hours across midnight, time zones and DST."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from engine.host.notify import (
    Act,
    Channel,
    Decision,
    NotifyPrefs,
    QuietHours,
    canonical_zone,
    decide,
    known_zones,
    loud_dm,
    zone_of,
)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


NOON = utc(2026, 1, 14, 12)
ROME_NIGHT = QuietHours(start=22, end=7, zone="Europe/Rome")  # UTC+1 in winter, UTC+2 in summer


def test_by_default_a_turn_is_a_mention_at_once() -> None:
    assert decide(NotifyPrefs(), NOON, NOON) == Decision(act=Act.MENTION)
    # Long after the turn began it is still a mention (a held one comes due).
    assert decide(NotifyPrefs(), NOON + timedelta(days=3), NOON).act is Act.MENTION


def test_dm_is_a_message_at_once() -> None:
    assert decide(NotifyPrefs(channel=Channel.DM), NOON, NOON) == Decision(act=Act.DM)


def test_once_told_there_is_nothing_more_to_do() -> None:
    for channel in Channel:
        assert decide(NotifyPrefs(channel=channel), NOON, NOON, told=True).act is Act.NOTHING
    assert decide(NotifyPrefs(quiet=ROME_NIGHT), utc(2026, 1, 14, 23), NOON, told=True).act is Act.NOTHING


def test_waited_holds_until_the_hours_have_passed_then_sends_a_message() -> None:
    prefs = NotifyPrefs(channel=Channel.WAITED, after_hours=5)
    assert decide(prefs, NOON, NOON) == Decision(act=Act.HOLD, until=NOON + timedelta(hours=5))
    almost = NOON + timedelta(hours=4, minutes=59)
    assert decide(prefs, almost, NOON) == Decision(act=Act.HOLD, until=NOON + timedelta(hours=5))
    assert decide(prefs, NOON + timedelta(hours=5), NOON) == Decision(act=Act.DM)
    assert decide(prefs, NOON + timedelta(hours=50), NOON) == Decision(act=Act.DM)


def test_waited_defaults_to_twelve_hours_and_is_bounded() -> None:
    assert NotifyPrefs(channel=Channel.WAITED).after_hours == 12
    for hours in (0, 169, -1):
        with pytest.raises(ValidationError):
            NotifyPrefs(channel=Channel.WAITED, after_hours=hours)


def test_quiet_hours_hold_a_mention_until_they_end() -> None:
    prefs = NotifyPrefs(quiet=ROME_NIGHT)
    evening = utc(2026, 1, 14, 22, 30)  # 23:30 in Rome
    assert decide(prefs, evening, evening) == Decision(act=Act.HOLD, until=utc(2026, 1, 15, 6))
    after_midnight = utc(2026, 1, 15, 2)  # 03:00 in Rome: the same quiet night, after midnight
    assert decide(prefs, after_midnight, evening) == Decision(act=Act.HOLD, until=utc(2026, 1, 15, 6))
    assert decide(prefs, utc(2026, 1, 15, 6), evening) == Decision(act=Act.MENTION)
    # Just outside on either side.
    before, start = utc(2026, 1, 14, 20, 59), utc(2026, 1, 14, 21)  # 21:59 and 22:00 in Rome
    assert decide(prefs, before, before).act is Act.MENTION
    assert decide(prefs, start, start).act is Act.HOLD


def test_quiet_hours_within_one_day() -> None:
    lunch = QuietHours(start=13, end=15, zone="UTC")
    prefs = NotifyPrefs(channel=Channel.DM, quiet=lunch)
    assert decide(prefs, utc(2026, 1, 14, 12, 59), NOON).act is Act.DM
    assert decide(prefs, utc(2026, 1, 14, 13), NOON) == Decision(act=Act.HOLD, until=utc(2026, 1, 14, 15))
    assert decide(prefs, utc(2026, 1, 14, 14, 59), NOON).act is Act.HOLD
    assert decide(prefs, utc(2026, 1, 14, 15), NOON).act is Act.DM
    # Before the start of the day's quiet hours the next end is today's, after it tomorrow's.
    assert lunch.end_after(utc(2026, 1, 14, 14)) == utc(2026, 1, 14, 15)
    assert lunch.end_after(utc(2026, 1, 14, 16)) == utc(2026, 1, 15, 15)


def test_quiet_hours_are_read_in_the_persons_time_zone() -> None:
    tokyo = NotifyPrefs(quiet=QuietHours(start=0, end=8, zone="Asia/Tokyo"))  # UTC+9
    new_york = NotifyPrefs(quiet=QuietHours(start=0, end=8, zone="America/New_York"))  # UTC-5 in January
    moment = utc(2026, 1, 14, 2)  # 11:00 in Tokyo, 21:00 the day before in New York
    assert decide(tokyo, moment, moment).act is Act.MENTION
    assert decide(new_york, moment, moment).act is Act.MENTION
    moment = utc(2026, 1, 14, 16)  # 01:00 in Tokyo, 11:00 in New York
    assert decide(tokyo, moment, moment) == Decision(act=Act.HOLD, until=utc(2026, 1, 14, 23))
    assert decide(new_york, moment, moment).act is Act.MENTION


def test_a_waited_message_due_in_quiet_hours_waits_for_their_end() -> None:
    prefs = NotifyPrefs(channel=Channel.WAITED, after_hours=12, quiet=ROME_NIGHT)
    started = utc(2026, 1, 14, 12)  # 13:00 in Rome; due at 01:00 in Rome, inside the night
    assert decide(prefs, started, started) == Decision(act=Act.HOLD, until=utc(2026, 1, 15, 6))
    assert decide(prefs, utc(2026, 1, 15, 0), started) == Decision(act=Act.HOLD, until=utc(2026, 1, 15, 6))
    assert decide(prefs, utc(2026, 1, 15, 6), started).act is Act.DM


def test_summer_time_moves_the_quiet_hours_in_utc() -> None:
    prefs = NotifyPrefs(quiet=ROME_NIGHT)
    summer = utc(2026, 7, 14, 21, 30)  # 23:30 in Rome (UTC+2)
    assert decide(prefs, summer, summer) == Decision(act=Act.HOLD, until=utc(2026, 7, 15, 5))
    before = utc(2026, 7, 14, 19, 59)  # 21:59 in Rome
    assert decide(prefs, before, before).act is Act.MENTION
    assert decide(prefs, utc(2026, 7, 15, 5), summer).act is Act.MENTION  # 07:00 in Rome


def test_a_night_that_crosses_a_clock_change_ends_at_the_local_hour() -> None:
    prefs = NotifyPrefs(quiet=ROME_NIGHT)
    # The clocks go forward on 29 March 2026 at 02:00 in Rome: the night starts at UTC+1, ends at UTC+2.
    spring = utc(2026, 3, 28, 22)  # 23:00 in Rome
    assert decide(prefs, spring, spring) == Decision(act=Act.HOLD, until=utc(2026, 3, 29, 5))
    # They go back on 25 October 2026 at 03:00: the night starts at UTC+2 and ends at UTC+1.
    autumn = utc(2026, 10, 24, 21)  # 23:00 in Rome
    assert decide(prefs, autumn, autumn) == Decision(act=Act.HOLD, until=utc(2026, 10, 25, 6))


def test_an_end_hour_the_clock_skips_ends_when_the_clock_jumps() -> None:
    # 02:00 does not exist in Rome on 29 March 2026 (01:59 CET is followed by 03:00 CEST).
    night = QuietHours(start=23, end=2, zone="Europe/Rome")
    end = night.end_after(utc(2026, 3, 28, 23))  # 00:00 CET
    assert end == utc(2026, 3, 29, 1)  # the instant 02:00 CET would have been: the clock jumps to 03:00
    assert not night.covers(end)
    # 02:00 happens twice on 25 October 2026: the first one ends the night.
    end = night.end_after(utc(2026, 10, 24, 22))  # 00:00 CEST
    assert end == utc(2026, 10, 25, 0)
    assert not night.covers(end)


def test_quiet_hours_are_validated() -> None:
    with pytest.raises(ValidationError):
        QuietHours(start=22, end=7, zone="Europe/Nowhere")
    with pytest.raises(ValidationError):
        QuietHours(start=7, end=7, zone="UTC")
    with pytest.raises(ValidationError):
        QuietHours(start=24, end=7, zone="UTC")
    with pytest.raises(ValueError):
        zone_of("../etc/passwd")
    assert QuietHours(start=0, end=23, zone="UTC").covers(utc(2026, 1, 1, 22, 59))


# What zoneinfo opens, or fails on with something other than ``ValueError``, yet is no place's time zone:
# folders of the database, a name longer than a file name may be, the machine's zone, a placeholder, a
# file of defaults, and the leap-second and POSIX copies.
NOT_ZONES = ["Europe", "America", "Etc", "Europe/" + "x" * 300, "localtime", "Factory", "posixrules"]
NOT_ZONES += ["right/UTC", "posix/Europe/Rome", "", " ", "Europe/Rome\x00", "europe/rome"]


@pytest.mark.parametrize("name", NOT_ZONES)
def test_only_a_time_zone_of_the_iana_list_is_accepted(name: str) -> None:
    with pytest.raises(ValueError):
        zone_of(name)
    with pytest.raises(ValidationError):
        QuietHours(start=22, end=7, zone=name)


def test_a_time_zone_is_found_whatever_its_case_and_spelled_as_the_list_spells_it() -> None:
    assert canonical_zone(" europe/ROME ") == "Europe/Rome"
    assert canonical_zone("utc") == "UTC"
    for name in NOT_ZONES[:-1]:
        assert canonical_zone(name) is None, name
    zones = known_zones()
    assert {"Europe/Rome", "America/New_York", "Asia/Kolkata", "Etc/GMT+5", "UTC"} <= zones
    assert not {z for z in zones if z in ("localtime", "Factory") or z.startswith(("right/", "posix/"))}
    for zone in zones:  # every zone offered opens
        assert zone_of(zone).key == zone


def test_preferences_round_trip_as_json() -> None:
    prefs = NotifyPrefs(channel=Channel.WAITED, after_hours=3, quiet=ROME_NIGHT)
    assert NotifyPrefs.model_validate_json(prefs.model_dump_json()) == prefs


def test_a_hand_notifies_only_when_it_is_the_way_they_hear_of_the_turn() -> None:
    night = utc(2026, 1, 14, 23)  # in Rome's quiet night
    dm, thread = NotifyPrefs(channel=Channel.DM), NotifyPrefs()
    assert loud_dm(dm, NOON, NOON, turn=True)
    assert not loud_dm(thread, NOON, NOON, turn=True)  # the mention is their one ping
    assert not loud_dm(NotifyPrefs(channel=Channel.WAITED), NOON, NOON, turn=True)
    assert not loud_dm(dm.model_copy(update={"quiet": ROME_NIGHT}), night, night, turn=True)
    assert not loud_dm(thread, NOON, NOON, turn=False)  # a hand that changed is no call
    assert not loud_dm(dm, NOON, NOON, turn=False)
