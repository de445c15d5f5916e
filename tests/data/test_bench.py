"""The store benchmark runs and reports its three figures (speed itself is not asserted here)."""

from __future__ import annotations

import json
from pathlib import Path

from data.bench import fake_state, measure_store


async def test_measure_store_reports_rates(tmp_path: Path) -> None:
    figures = await measure_store(actions=30, snapshot_bytes=500, tmp_dir=tmp_path)
    assert set(figures) == {
        "moves_per_s",
        "raw_sqlite_per_s",
        "store_vs_raw_sqlite",
        "raw_sqlite_normal_sync_per_s",
        "full_sync_cost_ratio",
    }
    assert figures["raw_sqlite_normal_sync_per_s"] > 0 and figures["full_sync_cost_ratio"] > 0
    assert figures["moves_per_s"] > 0 and figures["raw_sqlite_per_s"] > 0
    assert (tmp_path / "bench-store.db").exists() and (tmp_path / "bench-raw.db").exists()


def test_fake_state_is_json_of_about_the_asked_size() -> None:
    text = fake_state(3000)
    assert 3000 <= len(text) < 3100
    json.loads(text)
