"""The store benchmarks run and report their figures (speed itself is not asserted here)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bench.store import ROUNDS, fake_state, measure_store
from bench.store_size import measure_store_size


async def test_measure_store_reports_rates_over_alternating_rounds(tmp_path: Path) -> None:
    figures = await measure_store(actions=30, snapshot_bytes=500, tmp_dir=tmp_path)
    assert set(figures) == {
        "moves_per_s",
        "raw_sqlite_per_s",
        "store_vs_raw_sqlite",
        "store_vs_raw_sqlite_rounds",
        "raw_sqlite_normal_sync_per_s",
        "full_sync_cost_ratio",
    }
    assert figures["raw_sqlite_normal_sync_per_s"] > 0 and figures["full_sync_cost_ratio"] > 0
    assert figures["moves_per_s"] > 0 and figures["raw_sqlite_per_s"] > 0
    assert len(figures["store_vs_raw_sqlite_rounds"]) == ROUNDS
    # Both sides did the same work: 30 actions with their notices, every notice sent.
    for name in ("bench-store.db", "bench-raw.db"):
        with sqlite3.connect(tmp_path / name) as raw:
            actions = raw.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
            notices = raw.execute("SELECT status, COUNT(*) FROM deliveries GROUP BY status").fetchall()
            checkpoints = raw.execute("SELECT COUNT(*) FROM checkpoints WHERE version > 2").fetchone()[0]
        raw.close()
        assert actions == 30 and notices == [("sent", 60)], name
        assert checkpoints == 1, name  # versions 3 .. 32 after an opening at version 2


async def test_a_finished_match_is_measured_with_and_without_its_notices(tmp_path: Path) -> None:
    figures = await measure_store_size(tmp_path, ["ny_piatnik"], per_game=1)
    assert figures["notices_forgotten"] == figures["notices_per_finished_match"] > 0
    assert 0 < figures["bytes_per_finished_match"] < figures["bytes_per_finished_match_with_notices"]
    with sqlite3.connect(tmp_path / "size-played.db") as raw:
        kept = raw.execute("SELECT status, COUNT(*) FROM matches GROUP BY status").fetchall()
        notices = raw.execute("SELECT COUNT(*) FROM deliveries").fetchone()[0]
    raw.close()
    assert kept == [("finished", 1)] and notices == 0


def test_fake_state_is_json_of_about_the_asked_size() -> None:
    text = fake_state(3000)
    assert 3000 <= len(text) < 3100
    json.loads(text)
