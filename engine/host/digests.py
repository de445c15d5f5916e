"""The daily digest (``/settings digest``), as lichess sends one: once a day, at the hour a person chose
in their time zone, one direct message listing every match waiting for them on every server, each
leading to its thread. Nothing is sent on a day nothing waits; a digest that falls in the person's quiet
hours waits for their end.

When each person's digest is next due is a row of the store (``DigestStore``); ``Digests.sweep`` sends
what is due on the host's clock, so one that fell while the bot was down goes once at the next start.
A sweep moves a digest on to its next day before sending it, and only if nobody moved it meanwhile, so
no digest is ever sent twice, whichever process sweeps.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from pydantic import Field

from engine.core.errors import LobbyError
from engine.core.model import Frozen
from engine.host.languages import recipient_locale
from engine.host.lobby_words import my_game_line
from engine.host.notify import ZoneName, next_hour_after
from engine.host.outgoing import Outgoing, Refused, TryLater
from engine.host.pings import TurnPings
from engine.host.service import GameHost
from engine.host.settings_words import known_zone
from engine.host.text import HOST
from lang import t, tn

log = logging.getLogger(__name__)

# How long a digest the front end failed to send waits before it is tried again.
RETRY_AFTER = timedelta(minutes=5)
# The digests one pass sends at most; the next pass sends the rest.
BATCH = 100
# The matches a digest lists at most (a direct message holds 2,000 characters).
LISTED = 12
# No digest is due before this far ahead when none is stored, so the sweep looks at the store again.
LOOK_AGAIN = timedelta(minutes=10)


class DigestTime(Frozen):
    """When a person's digest comes: at ``hour`` o'clock in time zone ``zone``."""

    hour: int = Field(ge=0, le=23)
    zone: ZoneName

    def next_after(self, moment: datetime) -> datetime:
        """The first time after ``moment`` that the digest comes, in UTC (see ``next_hour_after``)."""
        return next_hour_after(moment, self.hour, self.zone)


class Digest(Frozen):
    """A person's digest as stored: when it comes, and when it is next due."""

    user_id: int
    time: DigestTime
    next_at: datetime


class DigestStore(Protocol):
    """Where each person's digest is kept."""

    async def digest_of(self, user_id: int) -> Digest | None: ...

    async def save_digest(self, user_id: int, digest: Digest | None) -> None:
        """Keep ``digest`` as ``user_id``'s (None: they want none)."""
        ...

    async def due_digests(self, now: datetime, limit: int = 100) -> list[Digest]:
        """The digests due by ``now``, the earliest first."""
        ...

    async def next_digest_due(self) -> datetime | None: ...

    async def move_digest(self, digest: Digest, to: datetime) -> bool:
        """Make ``digest`` next due at ``to`` if it is still as read; whether it was."""
        ...


def digest_time(hour: int, typed_zone: str | None, fallback_zone: str | None) -> DigestTime:
    """The digest a person asked for at ``hour`` in the time zone they typed (none typed: that of their
    quiet hours, ``fallback_zone``, else UTC); refused for a zone nobody knows."""
    if typed_zone is None:
        return DigestTime(hour=hour, zone=fallback_zone or "UTC")
    return DigestTime(hour=hour, zone=known_zone(typed_zone))


def describe_digest(locale: str, digest: Digest | None) -> str:
    """What a person's digest setting does, in words."""
    if digest is None:
        return t(locale, "No daily digest: choose an hour with /settings digest to get one.")
    return t(
        locale,
        "Every day at {hour}:00 ({zone}) I will send you one direct message listing the matches waiting "
        "for you, unless none is; in your quiet hours it waits for their end.",
        hour=f"{digest.time.hour:02d}",
        zone=digest.time.zone,
    )


class Digests:
    """The digests of ``host``'s players, kept in ``store``, sent by direct message through the front
    end's sender and marks (those of ``pings``' reminders), with the quiet hours of ``pings``."""

    def __init__(
        self, host: GameHost, store: DigestStore, pings: TurnPings, clock: Callable[[], datetime]
    ) -> None:
        self.host = host
        self.store = store
        self.pings = pings
        self.clock = clock
        # No digest is due before this (None: look in the store), so most passes skip the store.
        self._next_due: datetime | None = None

    async def choose(self, user_id: int, locale: str, hour: int | None, zone: str | None, off: bool) -> str:
        """``/settings digest``: a digest at ``hour`` from now on (in ``zone`` if typed), none with
        ``off``, and with neither what the person has now; the answer in ``locale``."""
        if off:
            await self.store.save_digest(user_id, None)
            return t(locale, "Daily digest off.")
        current = await self.store.digest_of(user_id)
        if hour is None:
            if zone is None:
                return describe_digest(locale, current)
            if current is None:
                raise LobbyError(HOST.say("choose the hour of your digest too, from 0 to 23"))
            hour = current.time.hour
        if current is not None:
            fallback: str | None = current.time.zone
        else:
            quiet = (await self.pings.prefs(user_id)).quiet
            fallback = quiet.zone if quiet is not None else None
        chosen = digest_time(hour, zone, fallback)
        digest = Digest(user_id=user_id, time=chosen, next_at=chosen.next_after(self.clock()))
        await self.store.save_digest(user_id, digest)
        if self._next_due is not None and digest.next_at < self._next_due:
            self._next_due = digest.next_at
        return describe_digest(locale, digest)

    async def sweep(self) -> int:
        """Send the digests that are due; how many were sent. Each on its own: one that fails never
        holds back the others."""
        now = self.clock()
        if self._next_due is not None and now < self._next_due:
            return 0
        self._next_due = None
        sent = 0
        due = await self.store.due_digests(now, BATCH)
        for digest in due:
            try:
                sent += await self._fire(digest, now)
            except Exception:
                log.exception("the daily digest of user %s failed; the others go on", digest.user_id)
        if len(due) == BATCH:
            return sent  # more are due: the next pass sends them
        following = await self.store.next_digest_due()
        # One still due now failed or cannot be read: it is tried again later, not on every pass.
        self._next_due = now + RETRY_AFTER if following is not None and following <= now else following
        if self._next_due is None:
            self._next_due = now + LOOK_AGAIN
        return sent

    async def _fire(self, digest: Digest, now: datetime) -> bool:
        quiet = (await self.pings.prefs(digest.user_id)).quiet
        if quiet is not None and quiet.covers(now):
            await self.store.move_digest(digest, quiet.end_after(now))
            return False
        if not await self.store.move_digest(digest, digest.time.next_after(now)):
            return False  # another sweep has it
        waiting, _ = await self.host.waiting_for(digest.user_id)
        if not waiting:
            return False
        reminders = self.pings.reminders
        locale = await recipient_locale(self.pings.settings, digest.user_id, None)
        marks = reminders.marks
        lines = [
            await my_game_line(self.host, match, locale, marks, match.seat_of(digest.user_id))
            for match in waiting[:LISTED]
        ]
        heading = tn(
            locale,
            "**Your daily digest**: {count} match is waiting for you.",
            "**Your daily digest**: {count} matches are waiting for you.",
            len(waiting),
        )
        if len(waiting) > LISTED:
            more = len(waiting) - LISTED
            lines.append(
                tn(
                    locale,
                    "… and {count} more: /mygames lists them all.",
                    "… and {count} more: /mygames lists them all.",
                    more,
                )
            )
        try:
            await reminders.sender.to_person(digest.user_id, Outgoing("\n".join([heading, *lines])))
        except Refused as exc:
            log.info("the daily digest of user %s was refused: %s", digest.user_id, exc)
            return False
        except TryLater:
            moved = digest.model_copy(update={"next_at": digest.time.next_after(now)})
            await self.store.move_digest(moved, now + RETRY_AFTER)
            raise
        return True
