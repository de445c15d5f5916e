"""``throughput`` of ``bench --full``: the rate search, and one tiny run through the fake Discord."""

from __future__ import annotations

from tests.discord.throughput_bench import LIMIT_MS, measure_throughput, next_rate, percentile


def test_the_search_climbs_until_a_rate_fails_then_bisects() -> None:
    assert next_rate({}, 10.0) == 10.0
    assert next_rate({10.0: True}, 10.0) == 15.0
    assert next_rate({10.0: True, 15.0: True}, 10.0) == 22.5
    # 22.5 failed: halfway between the best that held and it, until they are close.
    assert next_rate({10.0: True, 15.0: True, 22.5: False}, 10.0) == 18.8
    assert next_rate({10.0: True, 15.0: True, 22.5: False, 18.8: False}, 10.0) == 16.9
    assert next_rate({15.0: True, 16.0: False}, 10.0) is None  # within 8%: done


def test_the_search_goes_down_when_nothing_holds() -> None:
    assert next_rate({10.0: False}, 10.0) == 5.0
    assert next_rate({10.0: False, 5.0: False}, 10.0) == 2.5
    assert next_rate({10.0: False, 5.0: True}, 10.0) == 7.5
    assert next_rate({0.8: False}, 0.8) is None  # below the lowest rate worth trying


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.95) == 96.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([], 0.95) == 0.0


async def test_a_tiny_run_plays_real_moves_and_reports_what_it_measured() -> None:
    figures = await measure_throughput(
        matches=2,
        games=["ny_piatnik", "skyline"],
        start_rate=4.0,
        window=0.5,
        warmup=0.2,
        budget_s=5.0,
        max_levels=2,
    )
    checks = figures.pop("checks")
    assert set(figures) == {"moves_per_s", "p95_ms", "matches", "offered"}
    assert figures["matches"] == 2
    levels = checks["levels"]
    assert 1 <= len(levels) <= 2 and levels[0]["rate"] == 4.0
    assert figures["offered"] == [[level["rate"], level["p95_ms"]] for level in levels]
    # A level with no latency is one whose every offer found both matches busy (a slow machine).
    assert any(level["samples_ms"] for level in levels)
    for level in levels:
        assert level["rate"] > 0 and (level["samples_ms"] or level["missed"]), level
        assert all(sample > 0 for sample in level["samples_ms"])
        # The reported p95 is the 95th percentile of the latencies the level reports.
        assert level["p95_ms"] == percentile(level["samples_ms"], 0.95)
        assert level["offered"] >= len(level["samples_ms"])
        assert level["held"] == (
            not level["aborted"]
            and level["p95_ms"] <= LIMIT_MS
            and level["missed"] <= 0.05 * level["offered"]
        )
    held = [level for level in levels if level["held"]]
    if held:
        best = max(held, key=lambda level: level["rate"])
        assert figures["moves_per_s"] == best["rate"] and figures["p95_ms"] == best["p95_ms"] <= LIMIT_MS
    else:
        assert figures["moves_per_s"] == 0.0 and figures["p95_ms"] is None
    # Every move timed was played by the bot: its posts came, and the store holds at least as many moves.
    timed = sum(len(level["samples_ms"]) for level in levels)
    assert checks["moves_played"] >= timed - sum(level["lost"] for level in levels)
    assert checks["versions_stored"] >= checks["moves_played"] > 0
