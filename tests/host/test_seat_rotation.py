"""Tournaments rotate the first seat: each table seats its players so that their summed seat advantage
over the rounds stays even, and the lobby's shuffle puts them where they were meant to sit."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import pytest

from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.core.rng import SEAT_STREAM, Rng
from engine.host.seat_rotation import (
    carried_advantage,
    first_seats,
    joining_order,
    measured_edges,
    seat_edges,
    seating,
)
from engine.host.service import GameHost
from engine.host.tournament_records import RoundRecord, TableRecord
from engine.host.tournaments import TournamentHost, TournamentStatus, seat_keys
from engine.tournament.models import Round, TableResult


def played_round(number: int, *tables: tuple[str, ...], decided_by: str = "play") -> RoundRecord:
    """A round whose tables (players in seat order) were played to their end."""
    records = tuple(
        TableRecord(
            number=i + 1,
            players=players,
            result=TableResult(
                table=i + 1,
                players=players,
                places=tuple(range(1, len(players) + 1)),
                scores=(0,) * len(players),
            ),
            decided_by=decided_by,
        )
        for i, players in enumerate(tables)
    )
    return RoundRecord(round=Round(number=number, tables=()), tables=records)


def test_a_seats_edge_is_its_first_rate_above_the_tables_average() -> None:
    assert seat_edges((0.5, 0.3, 0.2)) == pytest.approx((1 / 6, -1 / 30, -4 / 30))
    # A shared first place makes the rates add up to more than 1; the edges still balance.
    assert sum(seat_edges((0.6, 0.4, 0.2))) == pytest.approx(0.0)


def test_the_best_seat_goes_to_whoever_carries_the_least() -> None:
    edges = (0.1, -0.1, 0.0)
    assert seating(("ann", "bob", "cy"), edges, {"ann": 0.2, "bob": -0.1, "cy": 0.0}) == ("bob", "ann", "cy")
    # With nothing carried yet, the pairing's order takes the seats from the best down.
    assert seating(("ann", "bob", "cy"), edges, {}) == ("ann", "cy", "bob")
    # Carrying as much, whoever played first fewer times plays first.
    assert seating(("ann", "bob", "cy"), edges, {}, {"ann": 1}) == ("bob", "ann", "cy")
    with pytest.raises(ValueError):
        seating(("ann", "bob"), edges, {})


def spread(totals: Mapping[str, float]) -> float:
    """How far apart the players' summed advantages are: the sum of their squares (they add up to 0)."""
    return sum(value * value for value in totals.values())


def test_each_round_seats_the_table_as_evenly_as_any_seating_could() -> None:
    edges = (0.12, 0.03, -0.05, -0.1)
    players = ("ann", "bob", "cy", "dee")
    rounds: list[RoundRecord] = []
    for number in range(1, 7):
        carried = carried_advantage(rounds, lambda seats: edges)
        chosen = seating(players, edges, carried, first_seats(rounds))
        after = [*rounds, played_round(number, chosen)]
        best = min(
            spread(carried_advantage([*rounds, played_round(number, order)], lambda seats: edges))
            for order in itertools.permutations(players)
        )
        assert spread(carried_advantage(after, lambda seats: edges)) == pytest.approx(best)
        rounds = after
    # Over four rounds or more, everyone has played first.
    assert set(first_seats(rounds)) == set(players)


def test_three_players_meeting_three_times_each_play_first_once() -> None:
    edges = (0.12, 0.0, -0.12)
    rounds: list[RoundRecord] = []
    for number in (1, 2, 3):
        carried = carried_advantage(rounds, lambda seats: edges)
        rounds.append(
            played_round(number, seating(("ann", "bob", "cy"), edges, carried, first_seats(rounds)))
        )
    assert first_seats(rounds) == {"ann": 1, "bob": 1, "cy": 1}
    # After two rounds the first and the last seat have balanced out exactly.
    assert carried_advantage(rounds[:2], lambda seats: edges) == pytest.approx({"ann": 0, "bob": 0, "cy": 0})


def test_only_played_tables_with_measured_seats_carry_an_advantage() -> None:
    edges = {2: (0.1, -0.1)}
    rounds = [
        played_round(1, ("ann", "bob"), ("cy", "dee", "eve")),
        played_round(2, ("bob", "ann"), decided_by="award"),
        played_round(3, ("dee", "cy")),
    ]
    carried = carried_advantage(rounds, edges.get)
    assert carried == pytest.approx({"ann": 0.1, "bob": -0.1, "dee": 0.1, "cy": -0.1})


@pytest.mark.parametrize("seed", [1, 7, 123_456_789, 2**62 + 3])
@pytest.mark.parametrize("size", [2, 3, 5, 6])
def test_the_lobbys_shuffle_of_the_joining_order_gives_the_seating(seed: int, size: int) -> None:
    wanted = [f"p{i}" for i in range(size)]
    assert Rng.from_seed(seed, SEAT_STREAM).shuffled(joining_order(wanted, seed)) == wanted


@pytest.fixture
async def tournaments(tmp_path: Path) -> AsyncIterator[TournamentHost]:
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    try:
        yield TournamentHost(GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 7)
    finally:
        await store.close()


async def test_a_tournaments_tables_seat_the_least_advantaged_player_first(
    tournaments: TournamentHost,
) -> None:
    # Three computers at one 3-seat table for three Swiss rounds: they meet every round, and the measured
    # seats of Skyline decide who sits where.
    record = await tournaments.create("Seats cup", "skyline", "swiss", table_size=3, rounds=3)
    record = await tournaments.open_registration(record.id)
    for _ in range(3):
        record = await tournaments.add_computer(record.id, "greedy")
    await tournaments.start(record.id)
    await tournaments.play_tables()
    record = await tournaments.get(record.id)
    assert record.status is TournamentStatus.FINISHED and len(record.rounds) == 3
    edges = measured_edges("skyline")
    for index, rnd in enumerate(record.rounds):
        (table,) = rnd.tables
        assert table.match_id is not None
        seated = seat_keys(record, await tournaments.host.match(table.match_id))
        earlier = record.rounds[:index]
        expected = seating(
            table.players, edges(3) or (), carried_advantage(earlier, edges), first_seats(earlier)
        )
        assert seated == expected
    assert len({rnd.tables[0].result.players[0] for rnd in record.rounds if rnd.tables[0].result}) > 1
