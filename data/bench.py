"""Store speed for ``python bot.py bench``: committed moves per second through ``SqliteMatchStore``,
against plain ``sqlite3`` writing the same rows with the same PRAGMAs in the same run.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import time
from pathlib import Path

from data import db as dbmod
from data.checkpoints import is_checkpoint, pack_state
from data.store import _GUARD_COMMIT, _INSERT_ACTION, _INSERT_CHECKPOINT, SqliteMatchStore
from engine.core.replay import LoggedAction
from engine.host.ports import MatchStatus, NewMatch, Player


def fake_state(size: int) -> str:
    """A JSON document of about ``size`` characters, standing in for a game state snapshot."""
    cells = []
    total = 2
    i = 0
    while total < size:
        cell = json.dumps({"lot": i, "owner": i % 5, "height": (i * 7) % 11})
        cells.append(cell)
        total += len(cell) + 1
        i += 1
    return "[" + ",".join(cells) + "]"


async def measure_store(
    actions: int = 2000, snapshot_bytes: int = 3000, tmp_dir: Path | None = None, *, inline: bool = True
) -> dict[str, float]:
    """Commit ``actions`` moves one by one through the store (one action row + one snapshot per
    transaction) on a fresh file in ``tmp_dir``, then do the same rows with plain ``sqlite3`` on
    another fresh file with the same schema and PRAGMAs.

    ``inline=False`` measures the store with every transaction on aiosqlite's worker thread.
    Returns ``{"moves_per_s", "raw_sqlite_per_s", "store_vs_raw_sqlite", "raw_sqlite_normal_sync_per_s",
    "full_sync_cost_ratio"}``: the last two price the store's durable commits (``synchronous=FULL``)
    against SQLite's default for WAL (NORMAL, which may lose the last commits in a power cut), with
    plain sqlite3 in the same run. Without ``tmp_dir`` a temporary folder is used and removed; files
    left in a given ``tmp_dir`` are the caller's.
    """
    if tmp_dir is None:
        with tempfile.TemporaryDirectory(prefix="bigapple-bench-") as folder:
            return await measure_store(actions, snapshot_bytes, Path(folder), inline=inline)
    tmp_dir.mkdir(parents=True, exist_ok=True)
    state = fake_state(snapshot_bytes)
    store_rate = await _store_rate(tmp_dir / "bench-store.db", actions, state, inline)
    raw_rate = _raw_rate(tmp_dir / "bench-raw.db", actions, state)
    normal_rate = _raw_rate(tmp_dir / "bench-raw-normal.db", actions, state, synchronous="NORMAL")
    return {
        "moves_per_s": round(store_rate, 1),
        "raw_sqlite_per_s": round(raw_rate, 1),
        "store_vs_raw_sqlite": round(store_rate / raw_rate, 3) if raw_rate else 0.0,
        "raw_sqlite_normal_sync_per_s": round(normal_rate, 1),
        "full_sync_cost_ratio": round(normal_rate / raw_rate, 3) if raw_rate else 0.0,
    }


def _fresh(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


async def _store_rate(path: Path, actions: int, state: str, inline: bool) -> float:
    _fresh(path)
    async with await SqliteMatchStore.open(path, inline=inline) as store:
        match = await store.create_match(
            NewMatch(game="bench", seat_count=2, seed=1), Player(user_id=1, name="a")
        )
        match = await store.add_player(match.id, match.version, Player(user_id=2, name="b"))
        seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(match.players)]
        match = await store.start_match(match.id, match.version, seated, state)
        start = time.perf_counter()
        for i in range(actions):
            match = await store.commit_action(
                match.id, match.version, LoggedAction(seat=i % 2, notation=f"build {i % 40}"), state
            )
        elapsed = time.perf_counter() - start
    return actions / elapsed if elapsed > 0 else 0.0


def _raw_rate(path: Path, actions: int, state: str, synchronous: str = dbmod.SYNCHRONOUS) -> float:
    """The same work with plain sqlite3: guard UPDATE (with the latest state), action row, checkpoint
    row when due, with the store's PRAGMAs (``synchronous`` may be set otherwise to price it)."""
    _fresh(path)
    raw = sqlite3.connect(path, isolation_level=None)
    try:
        dbmod.configure(raw)
        raw.execute(f"PRAGMA synchronous = {synchronous}")
        dbmod.migrate(raw)
        now = dbmod.utc_now()
        raw.execute(
            "INSERT INTO matches (game, seat_count, seed, status, version, state_json, created_at, "
            "updated_at) "
            "VALUES ('bench', 2, 1, 'active', 0, ?, ?, ?)",
            (state, now, now),
        )
        (match_id,) = raw.execute("SELECT last_insert_rowid()").fetchone()
        active = MatchStatus.ACTIVE.value
        start = time.perf_counter()
        for i in range(actions):
            now = dbmod.utc_now()
            raw.execute("BEGIN IMMEDIATE")
            raw.execute(_GUARD_COMMIT, (now, active, state, None, match_id, i))
            raw.execute(_INSERT_ACTION, (match_id, i + 1, i % 2, f"build {i % 40}", now))
            if is_checkpoint(i + 1):
                raw.execute(_INSERT_CHECKPOINT, (match_id, i + 1, pack_state(state)))
            raw.execute("COMMIT")
        elapsed = time.perf_counter() - start
    finally:
        raw.close()
    return actions / elapsed if elapsed > 0 else 0.0
