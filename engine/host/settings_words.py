"""A person's settings as they choose and read them: the language they are spoken to in (and a server's),
how and when they are told of their turn, their quiet hours, their absences (``/away``), and their links
to the web table (and whether a server shows such links).

Each choice is checked here and answered here, in words every front end shows as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from engine.core.errors import LobbyError
from engine.core.say import Say
from engine.host.clock import SeatClock
from engine.host.languages import LANGUAGE
from engine.host.marks import Marks
from engine.host.notify import Channel, NotifyPrefs, QuietHours, canonical_zone, known_zones
from engine.host.pings import TurnPings
from engine.host.ports import SettingsStore
from engine.host.text import HOST
from engine.host.web_links import WebLinks, revoke_links, switch_server_links
from lang import N_, t, tn

# How a person may choose to be told of their turn: what they read, and the channel.
NOTIFY_CHOICES = (
    (N_("A mention in the match thread"), Channel.THREAD),
    (N_("A direct message on every turn"), Channel.DM),
    (N_("A direct message only if my turn waits a while"), Channel.WAITED),
)

# Offered first when nothing is typed yet: the zones of the people most likely to play.
COMMON_ZONES = (
    "Europe/Rome",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Tokyo",
    "Australia/Sydney",
    "UTC",
)

# How many time zones a suggestion lists at most.
ZONES_SUGGESTED = 25
# How much of an unknown time zone a refusal repeats: the longest real one has 32 characters.
ZONE_ECHO = 40


async def choose_language(settings: SettingsStore, user_id: int, language: str) -> Say:
    """Speak to ``user_id`` in ``language`` from now on ("auto": in whatever their own program speaks);
    the answer, to read in the language that now applies."""
    value = None if language == "auto" else language
    await settings.set("user", user_id, LANGUAGE, value)
    if value is None:
        return HOST.say("I will follow your Discord language.")
    return HOST.say("From now on I speak to you in English.")


async def choose_server_language(
    settings: SettingsStore, guild_id: int | None, language: str, is_admin: bool
) -> Say:
    """Write server ``guild_id``'s posts in ``language`` (its admins only: ``is_admin``); the answer, to
    read in ``language``."""
    if not is_admin or guild_id is None:
        raise LobbyError(HOST.say("only server admins can choose the server's language"))
    await settings.set("guild", guild_id, LANGUAGE, language)
    return HOST.say("This server's posts are now in English.")


def zone_suggestions(typed: str) -> list[str]:
    """Time zones whose name holds what was typed (spaces match underscores), the common ones first."""
    wanted = typed.strip().lower().replace(" ", "_")
    if not wanted:
        return list(COMMON_ZONES)
    zones = sorted(known_zones(), key=lambda zone: (zone not in COMMON_ZONES, zone))
    return [zone for zone in zones if wanted in zone.lower()][:ZONES_SUGGESTED]


def known_zone(typed_zone: str) -> str:
    """The time zone a person typed, as the zone database names it; refused for a zone nobody knows,
    repeating what they typed (cut short)."""
    zone = canonical_zone(typed_zone)
    if zone is None:
        typed = typed_zone.strip()
        raise LobbyError(
            HOST.say(
                "I do not know the time zone {zone}: write it like Europe/Rome or America/New_York",
                zone=typed if len(typed) <= ZONE_ECHO else typed[: ZONE_ECHO - 1] + "…",
            )
        )
    return zone


def quiet_hours(start: int, end: int, typed_zone: str) -> QuietHours:
    """The quiet hours a person asked for, from ``start`` to ``end`` in the time zone they typed; refused
    for a zone nobody knows (repeating what they typed, cut short) and for hours that end where they
    start."""
    zone = known_zone(typed_zone)
    if start == end:
        raise LobbyError(HOST.say("quiet hours must start and end at different hours"))
    return QuietHours(start=start, end=end, zone=zone)


def notify_by(prefs: NotifyPrefs, how: str, after_hours: int | None = None) -> NotifyPrefs:
    """``prefs`` told the ``how`` way (a ``Channel``'s value) from now on, after ``after_hours`` when
    given."""
    update: dict[str, object] = {"channel": Channel(how)}
    if after_hours is not None:
        update["after_hours"] = after_hours
    return NotifyPrefs.model_validate({**prefs.model_dump(), **update})


def describe_prefs(locale: str, prefs: NotifyPrefs) -> str:
    """What a person's notification settings do, in words."""
    if prefs.channel is Channel.DM:
        text = t(
            locale, "On your turn I will send you a direct message, without mentioning you in the thread."
        )
    elif prefs.channel is Channel.WAITED:
        text = tn(
            locale,
            "If your turn waits for you for {count} hour, I will send you one direct message; "
            "I will not mention you in the thread.",
            "If your turn waits for you for {count} hours, I will send you one direct message; "
            "I will not mention you in the thread.",
            prefs.after_hours,
        )
    else:
        text = t(locale, "On your turn I will mention you in the match thread.")
    quiet = prefs.quiet
    if quiet is not None:
        text += "\n" + t(
            locale,
            "Quiet hours from {start}:00 to {end}:00 ({zone}): meanwhile I will neither mention you nor "
            "send you messages about your turn, and what I held back comes when they end.",
            start=f"{quiet.start:02d}",
            end=f"{quiet.end:02d}",
            zone=quiet.zone,
        )
    return text


def quiet_off_text(locale: str, prefs: NotifyPrefs) -> str:
    """The answer to someone who turned their quiet hours off: so, and how they are told now."""
    return t(locale, "Quiet hours are off.") + "\n" + describe_prefs(locale, prefs)


def away_text(locale: str, ends: datetime, moved: Sequence[SeatClock], marks: Marks) -> str:
    """The answer to someone going away until ``ends``, whose clocks stand still in ``moved``."""
    until = t(locale, "You are away until {when}.", when=marks.moment(ends, "full"))
    stands = tn(
        locale,
        "Your clock stands still in {count} match meanwhile, and in any turn that comes to you.",
        "Your clock stands still in {count} matches meanwhile, and in any turn that comes to you.",
        len(moved),
    )
    return f"{until} {stands}"


def back_text(locale: str, moved: Sequence[SeatClock]) -> str:
    """The answer to someone back from an absence, whose clocks run again in ``moved``."""
    return tn(
        locale,
        "Welcome back: your clock runs again in {count} match.",
        "Welcome back: your clock runs again in {count} matches.",
        len(moved),
    )


async def _changed(
    pings: TurnPings, user_id: int, change: Callable[[NotifyPrefs], NotifyPrefs]
) -> NotifyPrefs:
    prefs = change(await pings.prefs(user_id))
    await pings.save_prefs(user_id, prefs)
    return prefs


async def set_notify(pings: TurnPings, user_id: int, locale: str, how: str, after_hours: int | None) -> str:
    """/settings notify: how the person is told of their turn from now on, and what that means."""
    prefs = await _changed(pings, user_id, lambda prefs: notify_by(prefs, how, after_hours))
    return describe_prefs(locale, prefs)


async def set_quiet(pings: TurnPings, user_id: int, locale: str, start: int, end: int, zone: str) -> str:
    """/settings quiet: the person's quiet hours from now on."""
    quiet = quiet_hours(start, end, zone)
    prefs = await _changed(pings, user_id, lambda prefs: prefs.model_copy(update={"quiet": quiet}))
    return describe_prefs(locale, prefs)


async def quiet_off(pings: TurnPings, user_id: int, locale: str) -> str:
    """/settings quiet-off: no more quiet hours."""
    prefs = await _changed(pings, user_id, lambda prefs: prefs.model_copy(update={"quiet": None}))
    return quiet_off_text(locale, prefs)


async def revoke_web_links(web: WebLinks, user_id: int, now: datetime) -> Say:
    """/settings web revoke: every link to a private page of the web table that ``user_id`` was given
    until ``now`` opens nothing any more."""
    await revoke_links(web.settings, user_id, now)
    if web.base is None:
        return HOST.say("Every private link to the web table I gave you before now opens nothing any more.")
    return HOST.say(
        "Every private link to the web table I gave you before now opens nothing any more. Press Web "
        "beside My hand for a new one."
    )


async def switch_web_links(web: WebLinks, guild_id: int | None, on: bool, is_admin: bool) -> Say:
    """/settings web server-links: whether server ``guild_id``'s posts link to the web table (its admins only:
    ``is_admin``)."""
    if not is_admin or guild_id is None:
        raise LobbyError(HOST.say("only server admins can switch this server's links to the web table"))
    await switch_server_links(web.settings, guild_id, on)
    if not on:
        return HOST.say(
            "This server's posts no longer link to the web table, and My hand no longer offers a page there."
        )
    if web.base is None:
        return HOST.say(
            "This server's posts will link to the web table once the bot's operator gives its address."
        )
    return HOST.say(
        "This server's posts link to the web table: a page to watch each match, and Web beside My hand."
    )
