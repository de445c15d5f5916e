"""Opening the bot's stores on the database ``BIGAPPLE_DB`` names."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.backend import open_stores
from data.postgres.store import PostgresMatchStore
from data.store import SqliteMatchStore
from engine.host.shards import Shards


def now() -> str:
    return "2026-01-01T00:00:00.000+00:00"


async def test_a_file_is_sqlite_for_one_process_running_every_shard(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    with pytest.raises(RuntimeError, match="one process, which runs every shard"):
        await open_stores(path, clock=now, shards=Shards.of([0], 2))
    stores = await open_stores(path, clock=now, shards=Shards.of([0, 1], 2))
    try:
        assert isinstance(stores.matches, SqliteMatchStore)
        with pytest.raises(RuntimeError, match="another Big Apple process is already using"):
            await open_stores(path, clock=now)
    finally:
        await stores.close()
    again = await open_stores(path, clock=now)  # closing let the file go
    await again.close()


async def test_a_postgresql_url_opens_the_stores_there(postgres_dsn: str) -> None:
    stores = await open_stores(postgres_dsn, clock=now, shards=Shards.of([1], 2))
    try:
        assert isinstance(stores.matches, PostgresMatchStore)
        assert stores.matches.shards == Shards.of([1], 2)
        await stores.settings.set("user", 1, "locale", "it")
        assert await stores.tournaments.setting(5, "x") is None
        assert await stores.settings.get("user", 1, "locale") == "it"
    finally:
        await stores.close()
