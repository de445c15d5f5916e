"""How many bytes a finished match costs the store, for ``python bot.py bench``.

Whole matches of every game are played by computer seats through the host on a fresh file; their
notices are sent (to a notifier that accepts everything) and, as the retention period would, forgotten.
The figure is the vacuumed file's growth over an empty database's, per match: everything a finished
match keeps (its row, players, action log, checkpoints and final state, indexes and page slack).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

from data.store import SqliteMatchStore
from engine.host.ports import Delivery, MatchRecord, Notice
from engine.host.service import GameHost, utc_now

SEATS = 3


class _Accepting:
    """A notifier that takes every notice, as a healthy Discord would."""

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        return None


def _file_bytes(path: Path) -> int:
    """The size of the database once vacuumed, its write-ahead log folded in."""
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        raw.execute("VACUUM")
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        raw.close()
    return path.stat().st_size


async def _play(path: Path, slugs: Sequence[str], per_game: int, seed: int) -> int:
    """Play ``per_game`` computer matches of each game into ``path`` and send their notices; returns
    how many were sent."""
    async with await SqliteMatchStore.open(path) as store:
        host = GameHost(store)
        for slug in slugs:
            for n in range(per_game):
                match = await host.create_match(slug, SEATS, seed=seed + n)
                for _ in range(SEATS):
                    await host.add_computer(match.id, "greedy")
                await host.start(match.id)
        sent = 0
        while flushed := await host.flush(_Accepting(), destinations=500):
            sent += flushed
    return sent


async def _forget_notices(path: Path) -> int:
    """Forget every sent notice, as the retention period does once it has passed."""
    async with await SqliteMatchStore.open(path) as store:
        return await store.forget_sent(utc_now() + timedelta(days=366), limit=10**9)


async def measure_store_size(
    folder: Path, slugs: Sequence[str], per_game: int = 2, seed: int = 1
) -> dict[str, int]:
    """``bytes_per_finished_match`` over ``per_game`` matches of each game in ``slugs`` once their
    notices are forgotten, and ``bytes_per_finished_match_with_notices`` before."""
    empty = folder / "size-empty.db"
    async with await SqliteMatchStore.open(empty):
        pass
    baseline = _file_bytes(empty)
    played = folder / "size-played.db"
    sent = await _play(played, slugs, per_game, seed)
    with_notices = _file_bytes(played) - baseline
    forgotten = await _forget_notices(played)
    kept = _file_bytes(played) - baseline
    matches = per_game * len(slugs)
    return {
        "bytes_per_finished_match": round(kept / matches),
        "bytes_per_finished_match_with_notices": round(with_notices / matches),
        "notices_per_finished_match": round(sent / matches),
        "notices_forgotten": forgotten,
    }
