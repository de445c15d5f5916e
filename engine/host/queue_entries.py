"""What a person waiting in a server's queue asked for (``/game find``), and where such entries are kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from engine.host.clock import Pace


@dataclass(frozen=True)
class QueueEntry:
    """One person waiting for one game on one server: the table sizes and pace they accept, the computer
    level that may fill their table (None: people only) once they have waited ``patience``, where the
    table's thread opens, and how reliable they want the others to be."""

    guild_id: int
    user_id: int
    game: str
    name: str
    channel_id: int | None
    pace: Pace
    seat_counts: frozenset[int]
    computers: str | None
    patience: timedelta
    since: datetime
    least_reliability: float = 0.0  # the share of turns played in time they ask of the others


class QueueStore(Protocol):
    """The queues of every server."""

    async def put(self, entry: QueueEntry) -> None:
        """Keep ``entry``, in place of the person's entry for the same game on the same server."""
        ...

    async def remove(self, guild_id: int, user_id: int, game: str | None = None) -> int:
        """Take the person out of the server's queue for ``game`` (None: for every game); how many
        entries left."""
        ...

    async def entries(self, guild_id: int | None = None) -> list[QueueEntry]:
        """The entries of a server (None: of every server), the longest-waiting first."""
        ...

    async def take(self, guild_id: int, game: str, user_ids: Sequence[int]) -> bool:
        """Take the entries of ``user_ids`` for ``game`` out of the server's queue, all of them or, when
        one is no longer there (another process seated them, or they left), none."""
        ...

    async def move_moments(self, user_id: int, limit: int) -> list[datetime]:
        """When the person made their latest ``limit`` moves (their own, not a computer's for them)."""
        ...
