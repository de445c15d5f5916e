"""The records a chat front end keeps of what it sent (posts, images, refused direct messages, turn
pings), as ports: the front end reads and writes them through these and never through a store."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from engine.host.notify import TurnPing, Via
from engine.host.ports import LivePost, LivePrivate

# The seat number under which the public board's last image is remembered.
BOARD_IMAGE_SEAT = -1


class PostLedger(Protocol):
    """Where each match is shown and what each reader was last sent."""

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        """Remember the match's thread. Raises ``MatchNotFound``."""
        ...

    async def live_post(self, match_id: int) -> LivePost | None:
        """The post showing ``match_id``'s current turn, if one was made."""
        ...

    async def save_live_post(
        self, post: LivePost, pings: Sequence[TurnPing] | None = None, board_image: str | None = None
    ) -> None:
        """Remember ``post`` as the one showing its match's current turn (with the pings it made and the
        digest of its board)."""
        ...

    async def sent_image(self, match_id: int, seat: int) -> str | None:
        """The digest of the last image of ``match_id`` sent to ``seat`` (``BOARD_IMAGE_SEAT``: the
        board)."""
        ...

    async def remember_sent_image(self, match_id: int, seat: int, digest: str) -> None:
        """Record ``digest`` as the last image of ``match_id`` that ``seat`` received."""
        ...

    async def live_private(self, match_id: int, seat: int) -> LivePrivate | None:
        """``seat``'s living private message about ``match_id``, if one was sent."""
        ...

    async def save_live_private(self, message: LivePrivate) -> None:
        """Remember ``message`` as its seat's living private message (replacing the previous one)."""
        ...

    async def dm_refused(self, match_id: int, user_id: int) -> bool:
        """Whether ``user_id`` was already told that their direct messages refuse ``match_id``'s notices."""
        ...

    async def remember_dm_refused(self, match_id: int, user_id: int) -> bool:
        """Record that ``user_id``'s direct messages refused ``match_id``'s notices; True the first time."""
        ...

    async def has_private_notice(self, match_id: int, version: int, seat: int) -> bool:
        """Whether a private message to ``seat`` was recorded at ``version``."""
        ...

    async def forget_sent(self, before: datetime, limit: int = 5000) -> int:
        """Delete up to ``limit`` notices settled before ``before``; how many."""
        ...


class PingLedger(Protocol):
    """The turn pings held back for people's quiet hours, and who was told of which turn."""

    async def turn_pings(self, match_id: int, turn: int | None = None) -> list[TurnPing]:
        """The pings of ``match_id``'s latest turn that has any (or of ``turn``), by seat."""
        ...

    async def due_pings(self, now: datetime, limit: int = 100) -> list[TurnPing]:
        """Held pings due by ``now``, the longest due first."""
        ...

    async def next_ping_due(self) -> datetime | None:
        """When the first held ping comes due (None: none is held)."""
        ...

    async def ping_user_now(self, user_id: int, now: datetime) -> None:
        """Make ``user_id``'s held pings due at ``now``."""
        ...

    async def settle_ping(self, ping: TurnPing, via: Via, due_at: datetime | None = None) -> bool:
        """Mark a held ping told ``via`` (or hold it until ``due_at``); True when it was still held."""
        ...

    async def release_ping(self, ping: TurnPing, due_at: datetime) -> None:
        """Hold again a ping whose sending failed, to retry at ``due_at``."""
        ...

    async def drop_pings(self, match_id: int, before: int | None = None) -> None:
        """Forget the pings of a match's turns (those before turn ``before`` only, when given)."""
        ...
