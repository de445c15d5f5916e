"""``tournaments`` of ``bench --full``: moves timed while many tournaments run, in a small field."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.tournaments import create_field, measure_tournament_moves, percentile
from data.ratings import SqliteRatings
from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost
from engine.host.tournaments import RoundReport, TournamentHost, TournamentStatus


@pytest.fixture
async def crowd(tmp_path: Path) -> AsyncIterator[tuple[SqliteMatchStore, GameHost, TournamentHost]]:
    store = await SqliteMatchStore.open(tmp_path / "crowd.db")
    try:
        host = GameHost(store, seed_source=lambda: 3)
        yield store, host, TournamentHost(host, SqliteTournamentStore.beside(store), seed_source=lambda: 3)
    finally:
        await store.close()


async def test_the_field_is_running_tournaments_of_every_game_with_two_tables_in_play(
    crowd: tuple[SqliteMatchStore, GameHost, TournamentHost],
) -> None:
    store, _, tournaments = crowd
    ids = await create_field(tournaments, 7, at_once=3)
    assert len(ids) == len(set(ids)) == 7
    records = [await tournaments.get(tid) for tid in ids]
    assert {r.game for r in records} == {"fifth_avenue", "ny1901", "ny_henn", "ny_piatnik", "skyline"}
    for record in records:
        assert record.status is TournamentStatus.RUNNING and record.deadline_hours
        assert sum(e.bot is not None for e in record.entrants) == 1 and len(record.entrants) == 4
        tables = record.rounds[-1].tables
        assert len(tables) == 2 and all(t.match_id is not None for t in tables)
        for table in tables:
            assert table.match_id is not None
            assert (await store.get_match(table.match_id)).status is MatchStatus.ACTIVE


async def test_moves_are_timed_while_every_tournament_is_in_the_store(
    crowd: tuple[SqliteMatchStore, GameHost, TournamentHost],
) -> None:
    store, host, tournaments = crowd
    seen_running: list[int] = []
    ticks = tournaments.tick

    async def counting_tick() -> list[RoundReport]:
        # Every timed move ends with the tournament pass: count what the store holds at that moment.
        seen_running.append(len(await tournaments.store.tournament_ids([TournamentStatus.RUNNING])))
        return await ticks()

    tournaments.tick = counting_tick  # type: ignore[method-assign]
    rated: list[MatchRecord] = []
    ratings = SqliteRatings.from_store(store)

    async def rate(match: MatchRecord) -> bool:
        rated.append(match)
        return await ratings.record(match)

    figures = await measure_tournament_moves(
        host, tournaments, count=12, moves=30, playing=4, finishing=1, rate=rate
    )
    checks = figures.pop("checks")
    assert set(figures) == {
        "move_p95_ms",
        "move_p50_ms",
        "finish_ms",
        "tournaments",
        "moves",
        "first_tick_ms",
        "setup_s",
    }
    assert figures["tournaments"] == checks["running_before"] == 12
    assert checks["running_after"] == 12  # the round played out paired the next one: still running
    samples = checks["samples_ms"]
    assert figures["moves"] == len(samples) == 30 and all(s > 0 for s in samples)
    assert figures["move_p95_ms"] == round(percentile(samples, 0.95), 2) >= figures["move_p50_ms"] > 0
    # The first pass, then one per timed move, each seeing the twelve tournaments running.
    assert len(seen_running) > 30 and set(seen_running) == {12}
    # One tournament played its first round out: both tables ended, were rated and the next round began.
    assert checks["finished_matches"] >= 2 and checks["rounds_started"] >= 1
    assert len(rated) >= 2 and figures["finish_ms"]["max"] >= figures["finish_ms"]["p50"] > 0
