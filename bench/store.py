"""Store speed for ``python bot.py bench``: moves per second through ``SqliteMatchStore``, against plain
``sqlite3`` doing the same work with the same PRAGMAs in the same run.

A move here is what a real one costs the store: read the match, commit the action with its state (a
checkpoint when due) and its notices (one public, one private), then the outbox's read of the pending
notices and one write per notice sent. Store and raw runs alternate in rounds, so a machine busy at one
moment slows both alike.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from data import db as dbmod
from data.checkpoints import is_checkpoint, pack_state
from data.store import (
    GUARD_COMMIT,
    INSERT_ACTION,
    INSERT_CHECKPOINT,
    INSERT_DELIVERY,
    SELECT_MATCH,
    SELECT_PLAYERS,
    SqliteMatchStore,
)
from engine.core.replay import LoggedAction
from engine.host.ports import DeliveryDraft, MatchRecord, MatchStatus, NewMatch, Player


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


ROUNDS = 5
# A notice as the host queues it: a few sentences with their arguments (about this many characters).
NOTICE_BYTES = 900
# The outbox's reads, as ``SqliteMatchStore.pending_by_destination`` makes them.
_HEADS = (
    "SELECT match_id, seat FROM deliveries WHERE status = 'pending' GROUP BY match_id, seat ORDER BY MIN(id)"
)
_PENDING = (
    "SELECT id, match_id, version, seat, payload, attempts FROM deliveries WHERE status = 'pending' "
    "AND match_id IS ? AND seat IS ? ORDER BY id LIMIT 20"
)
_SENT = "UPDATE deliveries SET status = 'sent', sent_at = ? WHERE id = ? AND status != 'sent'"


async def measure_store(
    actions: int = 2000, snapshot_bytes: int = 3000, tmp_dir: Path | None = None, *, inline: bool = True
) -> dict[str, Any]:
    """Time ``actions`` moves through the store and as many with plain sqlite3 (and plain sqlite3 with
    ``synchronous=NORMAL``), in ``ROUNDS`` alternating rounds, each kind on its own fresh file in
    ``tmp_dir``.

    ``inline=False`` measures the store with every transaction on aiosqlite's worker thread.
    Returns ``{"moves_per_s", "raw_sqlite_per_s", "store_vs_raw_sqlite", "store_vs_raw_sqlite_rounds",
    "raw_sqlite_normal_sync_per_s", "full_sync_cost_ratio"}``: the ratio over all rounds and per round
    (how steady it is), and the price of the store's durable commits (``synchronous=FULL``) against
    SQLite's default for WAL (NORMAL, which may lose the last commits in a power cut). Without
    ``tmp_dir`` a temporary folder is used and removed; files left in a given ``tmp_dir`` are the
    caller's.
    """
    if tmp_dir is None:
        with tempfile.TemporaryDirectory(prefix="bigapple-bench-") as folder:
            return await measure_store(actions, snapshot_bytes, Path(folder), inline=inline)
    tmp_dir.mkdir(parents=True, exist_ok=True)
    state = fake_state(snapshot_bytes)
    notices = [
        DeliveryDraft(payload=fake_state(NOTICE_BYTES)),
        DeliveryDraft(seat=0, payload=fake_state(NOTICE_BYTES)),
    ]
    per_round = max(1, actions // ROUNDS)
    times = {"store": 0.0, "raw": 0.0, "normal": 0.0}
    ratios = []
    async with await SqliteMatchStore.open(_fresh(tmp_dir / "bench-store.db"), inline=inline) as store:
        match = await _started(store, state)
        with (
            _RawMoves(tmp_dir / "bench-raw.db", state) as raw,
            _RawMoves(tmp_dir / "bench-raw-normal.db", state, synchronous="NORMAL") as normal,
        ):
            for _ in range(ROUNDS):
                began = time.perf_counter()
                for _ in range(per_round):
                    match = await _store_move(store, match, state, notices)
                store_time = time.perf_counter() - began
                raw_time = raw.moves(per_round)
                times["store"] += store_time
                times["raw"] += raw_time
                times["normal"] += normal.moves(per_round)
                ratios.append(round(raw_time / store_time, 3) if store_time else 0.0)
    moves = per_round * ROUNDS
    rates = {kind: moves / spent if spent > 0 else 0.0 for kind, spent in times.items()}
    return {
        "moves_per_s": round(rates["store"], 1),
        "raw_sqlite_per_s": round(rates["raw"], 1),
        "store_vs_raw_sqlite": round(rates["store"] / rates["raw"], 3) if rates["raw"] else 0.0,
        "store_vs_raw_sqlite_rounds": ratios,
        "raw_sqlite_normal_sync_per_s": round(rates["normal"], 1),
        "full_sync_cost_ratio": round(rates["normal"] / rates["raw"], 3) if rates["raw"] else 0.0,
    }


def _fresh(path: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


async def _started(store: SqliteMatchStore, state: str) -> MatchRecord:
    match = await store.create_match(
        NewMatch(game="bench", seat_count=2, seed=1), Player(user_id=1, name="a")
    )
    match = await store.add_player(match.id, match.version, Player(user_id=2, name="b"))
    seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(match.players)]
    return await store.start_match(match.id, match.version, seated, state)


async def _store_move(
    store: SqliteMatchStore, match: MatchRecord, state: str, notices: list[DeliveryDraft]
) -> MatchRecord:
    match = await store.get_match(match.id)
    version = match.version
    match = await store.commit_action(
        match.id,
        version,
        LoggedAction(seat=version % 2, notation=f"build {version % 40}"),
        state,
        deliveries=notices,
    )
    for batch in await store.pending_by_destination():
        for delivery in batch:
            await store.mark_delivered(delivery.id)
    return match


class _RawMoves:
    """The store's work for a move with plain sqlite3 and the store's SQL and PRAGMAs (``synchronous``
    may be set otherwise, to price it), one transaction per store transaction."""

    def __init__(self, path: Path, state: str, synchronous: str = dbmod.SYNCHRONOUS) -> None:
        self.raw = sqlite3.connect(_fresh(path), isolation_level=None)
        dbmod.configure(self.raw)
        self.raw.execute(f"PRAGMA synchronous = {synchronous}")
        dbmod.migrate(self.raw)
        now = dbmod.utc_now()
        self.raw.execute(
            "INSERT INTO matches (game, seat_count, seed, status, version, state_json, created_at, "
            "updated_at) VALUES ('bench', 2, 1, 'active', 2, ?, ?, ?)",
            (state, now, now),
        )
        (self.match_id,) = self.raw.execute("SELECT last_insert_rowid()").fetchone()
        self.state = state
        self.notices = [fake_state(NOTICE_BYTES), fake_state(NOTICE_BYTES)]
        self.version = 2  # where the store's match starts: both reach the same checkpoints

    def __enter__(self) -> _RawMoves:
        return self

    def __exit__(self, *exc: object) -> None:
        self.raw.close()

    def moves(self, count: int) -> float:
        """Seconds taken by ``count`` moves."""
        raw, match_id, active = self.raw, self.match_id, MatchStatus.ACTIVE.value
        began = time.perf_counter()
        for _ in range(count):
            raw.execute("BEGIN")
            raw.execute(SELECT_MATCH, (match_id,)).fetchone()
            raw.execute(SELECT_PLAYERS, (match_id,)).fetchall()
            raw.execute("COMMIT")
            now = dbmod.utc_now()
            version = self.version + 1
            raw.execute("BEGIN IMMEDIATE")
            raw.execute(GUARD_COMMIT, (now, active, self.state, None, match_id, self.version))
            raw.execute(INSERT_ACTION, (match_id, version, version % 2, f"build {version % 40}", now, 0))
            if is_checkpoint(version):
                raw.execute(INSERT_CHECKPOINT, (match_id, version, pack_state(self.state)))
            for seat, payload in zip((None, 0), self.notices, strict=True):
                raw.execute(INSERT_DELIVERY, (match_id, version, seat, payload, now))
            raw.execute("COMMIT")
            self.version = version
            raw.execute("BEGIN")
            pending = [
                row[0] for head in raw.execute(_HEADS).fetchall() for row in raw.execute(_PENDING, head)
            ]
            raw.execute("COMMIT")
            for delivery_id in pending:
                raw.execute("BEGIN IMMEDIATE")
                raw.execute(_SENT, (dbmod.utc_now(), delivery_id))
                raw.execute("COMMIT")
        return time.perf_counter() - began
