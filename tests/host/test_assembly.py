"""Opening a database builds the hosts on the given clock, and its rows are stamped by that clock in UTC."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from data.backend import open_stores
from engine.host.assembly import open_hosts
from engine.host.shards import Shards
from engine.host.storage import StoreSet
from engine.host.thinking import ThinkPool


async def test_the_hosts_share_the_clock_and_the_stores_stamp_rows_by_it(tmp_path: Path) -> None:
    rome = timezone(timedelta(hours=1))
    now = datetime(2026, 11, 29, 13, 0, tzinfo=rome)
    stamps: list[str] = []

    async def opening(
        database: str | os.PathLike[str], *, clock: Callable[[], str], shards: Shards | None = None
    ) -> StoreSet:
        stamps.append(clock())
        return await open_stores(database, clock=clock, shards=shards)

    thinker = ThinkPool(0)
    try:
        hosts = await open_hosts(
            tmp_path / "big.db",
            opening,
            clock=lambda: now,
            thinker=thinker,
            retry_seconds=2.0,  # type: ignore[arg-type]
        )
        try:
            assert stamps == [datetime(2026, 11, 29, 12, tzinfo=UTC).isoformat(timespec="milliseconds")]
            assert hosts.host.clock() == now and hosts.tournaments.host is hosts.host
            assert hosts.host.store is hosts.stores.matches
        finally:
            await hosts.stores.close()
    finally:
        await thinker.close()
