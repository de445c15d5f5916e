"""Opening a database and building the hosts on it, the same for every front end: the stores, the game
host, the tournament host, the servers' queues and leagues, on one clock."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from engine.host.league_desk import LeagueDesk
from engine.host.outbox import Backoff
from engine.host.queue_desk import QueueDesk
from engine.host.service import GameHost
from engine.host.shards import Shards
from engine.host.storage import OpenStores, StoreSet
from engine.host.thinking import ThinkPool
from engine.host.tournaments import TournamentHost


@dataclass(frozen=True, slots=True)
class Hosts:
    """The open stores and the hosts over them."""

    stores: StoreSet
    host: GameHost
    tournaments: TournamentHost
    queue: QueueDesk
    league: LeagueDesk


async def open_hosts(
    database: str | os.PathLike[str],
    open_stores: OpenStores,
    *,
    clock: Callable[[], datetime],
    thinker: ThinkPool,
    retry_seconds: float,
    seed_source: Callable[[], int] | None = None,
    shards: Shards | None = None,
) -> Hosts:
    """Open ``database`` for ``shards`` (rows stamped by ``clock`` in UTC, to the millisecond) and build
    the hosts: the outbox retries a failed destination after ``retry_seconds`` at first, ``thinker``
    runs the strong computer players, ``seed_source`` fixes the seeds of new matches (tests)."""
    stores = await open_stores(
        database,
        clock=lambda: clock().astimezone(UTC).isoformat(timespec="milliseconds"),
        shards=shards,
    )
    host = GameHost(
        stores.matches,
        seed_source=seed_source,
        backoff=Backoff(base=retry_seconds),
        clock=clock,
        thinker=thinker,
    )
    tournaments = TournamentHost(host, stores.tournaments, seed_source=seed_source, clock=clock)

    async def in_tournament(match_id: int) -> bool:
        return await tournaments.of_match(match_id) is not None

    return Hosts(
        stores=stores,
        host=host,
        tournaments=tournaments,
        queue=QueueDesk(host, stores.queue, stores.ratings, stores.settings),
        league=LeagueDesk(host, stores.settings, in_tournament),
    )
