"""The stores a front end's composition root opens, as ports: what it holds once a database is open,
and the function that opens one. The front end types its wiring against these and is handed the real
opener by whoever starts it, so it never imports the stores themselves."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Protocol

from engine.host.digests import DigestStore
from engine.host.ledgers import PingLedger, PostLedger
from engine.host.ports import ListedSettings, MatchStore
from engine.host.queue_entries import QueueStore
from engine.host.ratings import RatingStore
from engine.host.shards import Shards
from engine.host.tournament_records import TournamentStore


class MatchLedgers(MatchStore, PostLedger, PingLedger, Protocol):
    """The match store, which also keeps what the front end sent."""


class StoreSet(Protocol):
    """The stores of one open database."""

    @property
    def matches(self) -> MatchLedgers: ...

    @property
    def ratings(self) -> RatingStore: ...

    @property
    def tournaments(self) -> TournamentStore: ...

    @property
    def settings(self) -> ListedSettings: ...

    @property
    def queue(self) -> QueueStore: ...

    @property
    def digests(self) -> DigestStore: ...

    async def close(self) -> None:
        """Let go of the database (and of this process's claim on it)."""
        ...


class OpenStores(Protocol):
    """Opens the stores of ``database`` (a SQLite file or a PostgreSQL URL) for the shards ``shards``, with
    ``clock`` telling the time rows are stamped with."""

    async def __call__(
        self, database: str | os.PathLike[str], *, clock: Callable[[], str], shards: Shards | None = None
    ) -> StoreSet: ...
