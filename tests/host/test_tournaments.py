"""Tournaments through the real host and SQLite store, with Piatnik's New York at most tables.

The computers entered here play at the normal (greedy) level: these tests are about tournaments, and
strong players finishing every table would make them slow; test_levels covers the strong default."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.core.errors import LobbyError, SetupError, StaleVersion
from engine.host.ports import MatchStatus
from engine.host.service import GameHost
from engine.host.tournaments import TournamentHost, TournamentRecord, TournamentStatus, parse_points


@pytest.fixture
async def tournaments(tmp_path: Path) -> AsyncIterator[TournamentHost]:
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    try:
        yield TournamentHost(GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 7)
    finally:
        await store.close()


async def registered(
    tournaments: TournamentHost, humans: int, computers: int, **kw: object
) -> TournamentRecord:
    game = str(kw.pop("game", "ny_piatnik"))
    record = await tournaments.create("Spring cup", game, kw.pop("format", "swiss"), **kw)  # type: ignore[arg-type]
    record = await tournaments.open_registration(record.id)
    for n in range(humans):
        record = await tournaments.join(record.id, 1000 + n, f"human{n}")
    for _ in range(computers):
        record = await tournaments.add_computer(record.id, "greedy")
    return record


async def test_bad_set_ups_are_refused_with_the_valid_choices(tournaments: TournamentHost) -> None:
    with pytest.raises(SetupError) as unknown:
        await tournaments.create("x", "ny_piatnik", "ladder")
    assert "swiss" in unknown.value.allowed
    with pytest.raises(SetupError) as size:
        await tournaments.create("x", "ny_piatnik", "swiss", table_size=7)
    assert "5" in size.value.allowed
    with pytest.raises(SetupError):
        await tournaments.create("x", "chess", "swiss")
    with pytest.raises(SetupError):
        await tournaments.create("x", "ny_piatnik", "swiss", frozenset({"turbo"}))


async def test_registration_opens_closes_and_refuses_late_changes(tournaments: TournamentHost) -> None:
    record = await tournaments.create("Cup", "ny_piatnik", "swiss", rounds=2)
    with pytest.raises(LobbyError):
        await tournaments.join(record.id, 1, "ann")  # not open yet
    await tournaments.open_registration(record.id)
    await tournaments.join(record.id, 1, "ann")
    with pytest.raises(LobbyError):
        await tournaments.join(record.id, 1, "ann")
    await tournaments.leave(record.id, 1)
    with pytest.raises(LobbyError):
        await tournaments.leave(record.id, 1)
    record = await tournaments.close_registration(record.id)
    assert record.status is TournamentStatus.CLOSED
    with pytest.raises(LobbyError):
        await tournaments.join(record.id, 2, "bob")
    with pytest.raises(SetupError):
        await tournaments.start(record.id)  # nobody registered


async def test_a_computer_swiss_plays_to_the_end_after_the_start_answers(tournaments: TournamentHost) -> None:
    record = await registered(tournaments, 0, 13, rounds=3)
    report = await tournaments.start(record.id)
    # Starting pairs round 1 and makes its tables' matches; nobody's move is made inside it.
    assert report.started_rounds == [1] and not report.finished_rounds
    tables = report.tournament.rounds[0].tables
    assert len(tables) >= 3 and all(t.match_id is not None and t.result is None for t in tables)
    for table in tables:
        match = await tournaments.host.match(table.match_id or 0)
        assert match.status is MatchStatus.LOBBY and await tournaments.host.store.action_log(match.id) == []
    assert await tournaments.process(record.id) == []  # the sweep leaves them to the background
    reports = await tournaments.play_tables()
    record = await tournaments.get(record.id)
    assert record.status is TournamentStatus.FINISHED and reports[-1].completed
    assert [n for r in reports for n in r.finished_rounds] == [1, 2, 3] and len(record.rounds) == 3
    assert [n for r in reports for n in r.started_rounds] == [2, 3]
    for rnd in record.rounds:
        seated = [k for t in rnd.tables for k in t.players] + list(rnd.round.byes)
        assert sorted(seated) == sorted(record.keys)
        assert all(3 <= len(t.players) <= 5 and t.result is not None for t in rnd.tables)
    ranking = tournaments.standings(record)
    assert [s.rank for s in ranking] == sorted(s.rank for s in ranking) and ranking[0].rank == 1
    assert {s.player for s in ranking} == set(record.keys)


async def test_people_play_their_tables_and_admins_unstick_them(tournaments: TournamentHost) -> None:
    record = await registered(tournaments, 2, 6, rounds=2, table_size=4)
    report = await tournaments.start(record.id)
    record = report.tournament
    assert record.status is TournamentStatus.RUNNING and report.started_rounds == [1]
    human_tables = [t for t in record.rounds[0].tables if any(k.startswith("u") for k in t.players)]
    assert human_tables and all(t.result is None for t in human_tables)
    assert await tournaments.process(record.id) == []  # nothing changes while people have to move

    # One table is decided by an admin, the other human is dropped and a computer finishes for them.
    first, *rest = human_tables
    order = sorted(first.players)
    report = await tournaments.award(record.id, first.number, order)
    assert report.tournament.rounds[0].tables[first.number - 1].decided_by == "award"
    for table in rest:
        human = next(k for k in table.players if k.startswith("u"))
        await tournaments.drop(record.id, human)
        match = await tournaments.host.match(table.match_id or 0)
        assert match.status is MatchStatus.ACTIVE  # the command does not wait for the computer's moves
    await tournaments.play_tables()
    record = await tournaments.get(record.id)
    if rest:
        assert record.rounds[0].tables[rest[0].number - 1].result is not None
    assert len(record.rounds) == 2
    dropped = record.dropped
    assert all(k not in dropped for t in record.rounds[1].tables for k in t.players)
    match = await tournaments.host.match(first.match_id or 0)
    assert match.status is MatchStatus.ABANDONED


async def test_a_restart_mid_round_loses_nothing(tmp_path: Path) -> None:
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    tournaments = TournamentHost(GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 3)
    record = await registered(tournaments, 1, 7, rounds=2, table_size=4)
    record = (await tournaments.start(record.id)).tournament
    table = next(t for t in record.rounds[0].tables if "u1000" in t.players)
    await store.close()

    store = await SqliteMatchStore.open(tmp_path / "t.db")
    try:
        host = GameHost(store)
        tournaments = TournamentHost(host, SqliteTournamentStore.beside(store))
        again = await tournaments.get(record.id)
        assert again.rounds == record.rounds and again.entrants == record.entrants
        # The person plays on after the restart: their seat is handed to a computer to finish quickly.
        await host.resign(table.match_id or 0, 1000)
        reports = await tournaments.play_tables()  # and the computers' table, not started before the stop
        assert reports and reports[-1].tournament.rounds[0].tables[table.number - 1].result is not None
        assert len(reports[-1].tournament.rounds) == 2
    finally:
        await store.close()


async def test_advance_waits_for_the_deadline_unless_forced(tmp_path: Path) -> None:
    now = [datetime(2026, 11, 1, 12, 0, tzinfo=UTC)]
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    try:
        tournaments = TournamentHost(
            GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 5, clock=lambda: now[0]
        )
        # New York 1901: the strong computers that take the late seats finish its tables quickly.
        record = await registered(tournaments, 2, 2, rounds=2, table_size=4, deadline_hours=24, game="ny1901")
        record = (await tournaments.start(record.id)).tournament
        assert record.rounds[0].started_at == now[0]
        with pytest.raises(LobbyError) as early:
            await tournaments.advance(record.id)
        assert "2026-11-02 12:00" in early.value.message
        now[0] += timedelta(hours=25)
        report = await tournaments.advance(record.id)
        # The command only hands the seats over: the computers play in the background pass.
        assert report.finished_rounds == [] and report.started_rounds == []
        (open_table,) = [t for t in report.tournament.rounds[0].tables if t.result is None]
        computers = await tournaments.host.match(open_table.match_id or 0)
        assert computers.status is MatchStatus.ACTIVE and all(p.bot for p in computers.players)
        reports = await tournaments.play_tables()
        assert [r.finished_rounds for r in reports if r.finished_rounds] == [[1]]
        await tournaments.advance(record.id, force=True)  # round 2 at once
        await tournaments.play_tables()
        assert (await tournaments.get(record.id)).status is TournamentStatus.FINISHED
    finally:
        await store.close()


async def test_custom_placement_points_are_used(tournaments: TournamentHost) -> None:
    with pytest.raises(SetupError) as unreadable:
        parse_points("four=1,0")
    assert unreadable.value.allowed == ("4=3,2,1,0; 3=2,1,0",)
    points = parse_points("4=10,5,2,0; 3=10,4,0")
    record = await registered(tournaments, 0, 4, rounds=1, table_size=4, points=points)
    await tournaments.start(record.id)
    await tournaments.play_tables()
    record = await tournaments.get(record.id)
    assert sorted(s.points for s in tournaments.standings(record)) == [0, 2, 5, 10]


async def test_an_unreadable_tournament_never_stops_another(tmp_path: Path) -> None:
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    try:
        host = GameHost(store)
        tournaments = TournamentHost(host, SqliteTournamentStore.beside(store), seed_source=lambda: 3)
        broken = await registered(tournaments, 1, 3, rounds=1, table_size=4)
        await tournaments.start(broken.id)
        healthy = await registered(tournaments, 1, 3, rounds=1, table_size=4)
        record = (await tournaments.start(healthy.id)).tournament
        with sqlite3.connect(tmp_path / "t.db") as raw:
            raw.execute("UPDATE tournaments SET record = '{\"broken\": true' WHERE id = ?", (broken.id,))
        raw.close()
        assert [t.id for t in await tournaments.store.list_tournaments()] == [healthy.id]
        assert [r.tournament.id for r in await tournaments.play_tables()] == []  # people must move
        table = next(t for t in record.rounds[0].tables if "u1000" in t.players)
        await host.resign(table.match_id or 0, 1000)  # the person's seat finishes quickly
        reports = await tournaments.process()
        assert [r.tournament.id for r in reports] == [healthy.id]
        assert reports[0].tournament.status is TournamentStatus.FINISHED
    finally:
        await store.close()


async def test_the_advance_plan_names_who_loses_a_seat_and_a_stale_confirmation_changes_nothing(
    tmp_path: Path,
) -> None:
    now = [datetime(2026, 11, 1, 12, 0, tzinfo=UTC)]
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    try:
        tournaments = TournamentHost(
            GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 5, clock=lambda: now[0]
        )
        record = await registered(tournaments, 4, 0, rounds=2, table_size=2, deadline_hours=24, game="ny1901")
        record = (await tournaments.start(record.id)).tournament
        plan = await tournaments.advance_plan(record.id)
        assert plan.round == 1 and plan.deadline == now[0] + timedelta(hours=24)
        assert not plan.deadline_passed and plan.takes_seats
        assert [t.number for t in plan.open_tables] == [1, 2]
        assert sorted(k for t in plan.open_tables for k in t.people) == sorted(record.keys)

        # One player's seat goes to a computer meanwhile: a confirmation of the old plan is refused.
        first = plan.open_tables[0]
        await tournaments.seat_computer(record.id, first.people[0], "greedy")
        changed = await tournaments.advance_plan(record.id)
        assert changed.fingerprint != plan.fingerprint
        with pytest.raises(StaleVersion, match="changed since you asked"):
            await tournaments.advance(record.id, force=True, confirmed=(plan.round, plan.fingerprint))
        assert len((await tournaments.get(record.id)).rounds) == 1

        await tournaments.advance(record.id, force=True, confirmed=(1, changed.fingerprint))
        await tournaments.play_tables()
        assert len((await tournaments.get(record.id)).rounds) == 2
        with pytest.raises(StaleVersion, match="already over"):
            await tournaments.advance(record.id, force=True, confirmed=(1, changed.fingerprint))
        assert not (await tournaments.advance_plan(record.id)).deadline_passed
        now[0] += timedelta(hours=24)
        assert (await tournaments.advance_plan(record.id)).deadline_passed
    finally:
        await store.close()


async def test_a_table_is_found_from_its_match(tournaments: TournamentHost) -> None:
    record = await registered(tournaments, 2, 2, rounds=1, table_size=2)
    record = (await tournaments.start(record.id)).tournament
    table = record.rounds[0].tables[1]
    found = await tournaments.table_of_match(table.match_id or 0)
    assert found is not None and found[0].id == record.id and found[1:] == (1, table)
    assert await tournaments.table_of_match(10_000) is None


class CountingStore(SqliteTournamentStore):
    """The tournament store, counting the records read."""

    reads = 0

    async def get_tournament(self, tournament_id: int) -> TournamentRecord:
        CountingStore.reads += 1
        return await super().get_tournament(tournament_id)


async def test_tick_reads_no_tournament_until_its_clock_has_something_due(tmp_path: Path) -> None:
    now = [datetime(2026, 11, 1, 12, 0, tzinfo=UTC)]
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    try:
        tournaments = TournamentHost(
            GameHost(store), CountingStore(store.database), seed_source=lambda: 5, clock=lambda: now[0]
        )
        # New York 1901: the strong computers that take the late seats finish its tables quickly.
        record = await registered(tournaments, 2, 2, rounds=2, table_size=4, deadline_hours=24, game="ny1901")
        record = (await tournaments.start(record.id)).tournament
        await tournaments.tick()  # the first look at every running tournament
        CountingStore.reads = 0
        for _ in range(20):  # moves elsewhere: nothing is due, nothing is read
            assert await tournaments.tick() == []
        assert CountingStore.reads == 0
        now[0] += timedelta(hours=12)  # half the round's day: its reminder falls due
        await tournaments.tick()
        assert tournaments.reminders_due == {record.id}
        assert "r1-half" in tournaments.due_announcements(
            await tournaments.store.get_tournament(record.id), now[0]
        )
        tournaments.reminders_due.clear()
        await tournaments.mark_announced(record.id, "r1-half")
        CountingStore.reads = 0
        await tournaments.tick()  # the half-time reminder went out: the clock looks again only later
        reads_after_reminder = CountingStore.reads
        await tournaments.tick()
        assert CountingStore.reads == reads_after_reminder
        now[0] += timedelta(hours=13)  # past the deadline: computers take the seats left ...
        reports = await tournaments.tick()
        assert [r.finished_rounds for r in reports] == [[]]
        CountingStore.reads = 0
        await tournaments.tick()  # ... and while they play, the deadline does not take them again
        assert CountingStore.reads <= 3
        reports = await tournaments.play_tables()  # ... and finish round 1 in the background: round 2
        assert [r.finished_rounds for r in reports if r.finished_rounds] == [[1]]
    finally:
        await store.close()


async def test_a_pass_over_every_tournament_lets_the_event_loop_serve_others(
    tournaments: TournamentHost,
) -> None:
    started = []
    for _ in range(3):
        record = await registered(tournaments, 2, 2, rounds=2, table_size=4)
        started.append((await tournaments.start(record.id)).tournament.id)
    others: list[str] = []
    seen: dict[int, bool] = {}  # per tournament: whether the click had been served when it was read
    reading = tournaments.store.get_tournament

    async def get_tournament(tournament_id: int) -> TournamentRecord:
        if not seen:  # a player clicks while the pass begins
            asyncio.get_running_loop().call_soon(others.append, "a player's click")
        seen.setdefault(tournament_id, bool(others))
        return await reading(tournament_id)

    tournaments.store.get_tournament = get_tournament  # type: ignore[method-assign]
    assert await tournaments.process() == []  # people must move: nothing to report
    # The click was served before the pass reached the last tournament, not after all of them.
    assert list(seen) == started and seen[started[-1]]


async def computer_cup(path: Path) -> tuple[SqliteMatchStore, TournamentHost, int]:
    """A started two-round cup of eight computers at tables of four, on the file at ``path``."""
    store = await SqliteMatchStore.open(path)
    tournaments = TournamentHost(GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 9)
    record = await registered(tournaments, 0, 8, rounds=2, table_size=4)
    await tournaments.start(record.id)
    return store, tournaments, record.id


async def test_a_stop_while_computers_play_leaves_their_tables_to_the_next_start(tmp_path: Path) -> None:
    store, tournaments, tid = await computer_cup(tmp_path / "whole.db")
    try:
        await tournaments.play_tables()
        whole = await tournaments.get(tid)
        assert whole.status is TournamentStatus.FINISHED
    finally:
        await store.close()

    store, tournaments, tid = await computer_cup(tmp_path / "stopped.db")
    try:
        playing = asyncio.create_task(tournaments.play_tables())

        async def stop(_: object) -> None:  # the bot stops as the first table ends
            playing.cancel()

        tournaments.host.finish_listeners.append(stop)
        with pytest.raises(asyncio.CancelledError):
            await playing
        stopped = await tournaments.get(tid)
        assert stopped.status is TournamentStatus.RUNNING and len(stopped.rounds) == 1
        assert any(t.result is None for t in stopped.rounds[0].tables)
    finally:
        await store.close()

    # After the restart, a new host on the same file carries on from what the store holds.
    store = await SqliteMatchStore.open(tmp_path / "stopped.db")
    try:
        tournaments = TournamentHost(GameHost(store), SqliteTournamentStore.beside(store))
        await tournaments.play_tables()
        again = await tournaments.get(tid)
        assert again.status is TournamentStatus.FINISHED
        assert [(r.round, r.tables) for r in again.rounds] == [(r.round, r.tables) for r in whole.rounds]
        assert tournaments.standings(again) == tournaments.standings(whole)
        assert await store.list_matches([MatchStatus.LOBBY, MatchStatus.ACTIVE]) == []
    finally:
        await store.close()
