"""Round robin: every pair meets; the circle method for pairs, greedy covering rounds for larger tables."""

from __future__ import annotations

import pytest

from engine.core.errors import MatchClosed
from engine.tournament import PlayedRound, Round, TournamentConfig, pair_round, standings, total_rounds
from engine.tournament.roundrobin import MAX_FIELD

from .helpers import assert_legal, bye_counts, field, met_counts, simulate

RANGES = [(3, 4, 4), (3, 4, 3), (2, 5, 4), (4, 6, 5), (4, 6, 4), (3, 3, 3), (2, 3, 3), (5, 5, 5)]


def _all_pairs_met(players: list[str], history: list[PlayedRound]) -> bool:
    met = met_counts(history)
    return all(frozenset((a, b)) in met for i, a in enumerate(players) for b in players[i + 1 :])


@pytest.mark.parametrize("n", range(2, MAX_FIELD + 1))
def test_circle_method(n: int) -> None:
    config = TournamentConfig(format="roundrobin", min_size=2, max_size=2)
    players = field(n)
    history, _ = simulate(config, players, seed=n)
    assert len(history) == total_rounds(config, n) == (n - 1 if n % 2 == 0 else n)
    # Every pair exactly once; in an odd field everyone sits out exactly once.
    assert set(met_counts(history).values()) == {1}
    assert _all_pairs_met(players, history)
    assert bye_counts(history) == (dict.fromkeys(players, 1) if n % 2 else {})


@pytest.mark.parametrize(("lo", "hi", "preferred"), RANGES)
def test_covering_rounds(lo: int, hi: int, preferred: int) -> None:
    config = TournamentConfig(format="roundrobin", min_size=lo, max_size=hi, preferred_size=preferred)
    for n in range(lo, MAX_FIELD + 1):
        players = field(n)

        def check(
            rnd: Round, history: list[PlayedRound], dropped: set[str], players: list[str] = players
        ) -> None:
            assert_legal(config, rnd, players, history, dropped)
            placed = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
            assert sorted(placed) == players
            before = bye_counts(history)
            if rnd.byes:
                seated = [p for t in rnd.tables for p in t.players]
                assert max(before[p] for p in rnd.byes) <= min(before[p] for p in seated)

        history, _ = simulate(config, players, seed=n, check=check)
        assert _all_pairs_met(players, history), n
        # The count is known up front, the same for any seed, and no worse than a few rounds above the
        # bound (n - 1 partners, at most preferred - 1 new ones a round).
        assert len(history) == total_rounds(config, n)
        assert len(history) <= -(-(n - 1) // (hi - 1)) + 4 if n > hi else len(history) == 1
        assert len(simulate(config, players, seed=n + 100)[0]) == len(history)


def test_sixteen_at_tables_of_four_find_the_perfect_schedule() -> None:
    # 16 players in 5 rounds of 4 tables of 4 meet every other player exactly once (an affine plane).
    config = TournamentConfig(format="roundrobin", min_size=4, max_size=4)
    history, _ = simulate(config, field(16), seed=1)
    assert len(history) == 5
    assert set(met_counts(history).values()) == {1}


def test_withdrawals() -> None:
    pairs = TournamentConfig(format="roundrobin", min_size=2, max_size=2)
    players = field(6)

    def drops(number: int, history: list[PlayedRound]) -> set[str]:
        return {"p02"} if number == 3 else set()

    history, dropped = simulate(pairs, players, seed=1, drops=drops)
    assert len(history) == 5  # the schedule keeps its length; the withdrawn player's opponents get byes
    assert all(not {"p02"} & set(p.round.byes) for p in history)
    assert [len(p.round.byes) for p in history] == [0, 0, 1, 1, 1]
    rows = standings(pairs, players, history, dropped, seed=1)
    assert next(r for r in rows if r.player == "p02").played == 2

    fours = TournamentConfig(format="roundrobin", min_size=3, max_size=4)
    players = field(12)

    def more_drops(number: int, history: list[PlayedRound]) -> set[str]:
        return {"p00", "p05"} if number == 2 else set()

    history, dropped = simulate(fours, players, seed=2, drops=more_drops)
    active = [p for p in players if p not in dropped]
    assert _all_pairs_met(active, history)
    assert all(not dropped & {p for t in h.round.tables for p in t.players} for h in history[1:])
    with pytest.raises(MatchClosed):
        pair_round(fours, players, history, dropped, seed=2)


def test_a_single_table_field() -> None:
    config = TournamentConfig(format="roundrobin", min_size=3, max_size=5)
    history, _ = simulate(config, field(5), seed=0)
    assert len(history) == 1 and len(history[0].round.tables[0].players) == 5
