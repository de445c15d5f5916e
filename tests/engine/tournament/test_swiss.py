"""Swiss pairing properties over many seeded random fields."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from engine.core.errors import MatchClosed
from engine.core.rng import Rng
from engine.tournament import (
    PlayedRound,
    Round,
    TournamentConfig,
    pair_round,
    standings,
    total_rounds,
)

from .helpers import assert_legal, bye_counts, field, play_round, repeats, simulate

RANGES = [(2, 2, 2), (3, 4, 4), (2, 5, 4), (4, 6, 5), (4, 6, 4), (3, 3, 3)]


def _checker(
    config: TournamentConfig, players: Sequence[str]
) -> Callable[[Round, list[PlayedRound], set[str]], None]:
    def check(rnd: Round, history: list[PlayedRound], dropped: set[str]) -> None:
        assert_legal(config, rnd, players, history, dropped)
        active = [p for p in players if p not in dropped]
        placed = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
        assert sorted(placed) == sorted(active), "every active player sits once or has a bye"
        # Byes are fair: nobody gets a second while an active player who plays this round has none.
        before = bye_counts(history)
        if rnd.byes:
            seated = [p for t in rnd.tables for p in t.players]
            assert max(before[p] for p in rnd.byes) <= min(before[p] for p in seated)

    return check


@pytest.mark.parametrize(("lo", "hi", "preferred"), RANGES)
def test_pairings_are_legal_and_fair(lo: int, hi: int, preferred: int) -> None:
    config = TournamentConfig(format="swiss", min_size=lo, max_size=hi, preferred_size=preferred, rounds=4)
    rng = Rng.from_seed(lo * 100 + hi, 1)
    for trial in range(12):
        n = lo + rng.below(64 - lo + 1)
        players = field(n)
        history, _ = simulate(config, players, seed=trial, check=_checker(config, players))
        assert len(history) == 4


def test_many_byes_rotate() -> None:
    # 6 players at tables of exactly 4: two byes every round, so everyone sits out once in three rounds.
    config = TournamentConfig(format="swiss", min_size=4, max_size=4, rounds=6)
    players = field(6)
    history, _ = simulate(config, players, seed=3, check=_checker(config, players))
    assert all(len(p.round.byes) == 2 for p in history)
    assert sorted(bye_counts(history).values()) == [2] * 6
    assert bye_counts(history[:3]) == dict.fromkeys(players, 1)


def test_the_byes_go_to_the_lowest_ranked() -> None:
    config = TournamentConfig(format="swiss", min_size=2, max_size=2, rounds=3)
    players = field(5)
    history, _ = simulate(config, players, seed=8, stop_after=1)
    rows = standings(config, players, history[:1], seed=8)
    without_bye = [r.player for r in rows if r.byes == 0]
    nxt = pair_round(config, players, history[:1], seed=8)
    assert nxt.byes == (without_bye[-1],)


def test_round_two_of_sixteen_at_four_tables_has_no_rematch() -> None:
    # After round 1 (four tables of 4) a rematch-free round 2 always exists: each new table takes one
    # player from each old table. Results with many shared places scramble the score groups.
    config = TournamentConfig(format="swiss", min_size=4, max_size=4, rounds=2)
    players = field(16)
    for seed in range(60):
        rng = Rng.from_seed(seed, 9)
        first = play_round(pair_round(config, players, [], seed=seed), rng, spread=seed % 4 + 1)
        second = pair_round(config, players, [first], seed=seed)
        assert repeats([first, play_round(second, rng)]) == 0, seed


@pytest.mark.parametrize(("n", "size"), [(16, 4), (25, 5), (36, 6), (32, 2), (64, 4)])
def test_rematch_free_fields_stay_rematch_free(n: int, size: int) -> None:
    # Fields of size**2 players (or pairs) leave room for rematch-free early rounds.
    config = TournamentConfig(format="swiss", min_size=size, max_size=size, rounds=2)
    for seed in range(5):
        history, _ = simulate(config, field(n), seed=seed)
        assert repeats(history) == 0


@pytest.mark.parametrize(
    ("n", "lo", "hi", "limit"), [(12, 3, 4, 20), (20, 3, 4, 2), (24, 3, 4, 2), (33, 2, 5, 0)]
)
def test_rematches_stay_few(n: int, lo: int, hi: int, limit: int) -> None:
    # 12 players at three tables of 4 cannot avoid rematches after round 1 (four players from three old
    # tables must share one); the bound is what the search reaches, well below chance (about 40).
    config = TournamentConfig(format="swiss", min_size=lo, max_size=hi, rounds=4)
    for seed in range(6):
        history, _ = simulate(config, field(n), seed=seed)
        assert repeats(history) <= limit, seed


def test_similar_points_sit_together() -> None:
    # Round 2 of 16 players at tables of 2 without ties: the 8 winners play each other.
    config = TournamentConfig(format="swiss", min_size=2, max_size=2)
    players = field(16)
    history, _ = simulate(config, players, seed=4, spread=1000, stop_after=1)
    first = history[0]
    winners = {r.players[r.places.index(1)] for r in first.results}
    second = pair_round(config, players, [first], seed=4)
    for table in second.tables:
        assert len(set(table.players) & winners) in (0, 2), table


def test_a_dropped_player_is_no_longer_paired() -> None:
    config = TournamentConfig(format="swiss", min_size=3, max_size=4, rounds=4)
    players = field(13)

    def drops(number: int, history: list[PlayedRound]) -> set[str]:
        return {"p03", "p07"} if number == 2 else ({"p11"} if number == 4 else set())

    history, dropped = simulate(config, players, seed=2, drops=drops, check=_checker(config, players))
    assert dropped == {"p03", "p07", "p11"}
    assert len(history) == 4
    assert [sum(len(t.players) for t in p.round.tables) + len(p.round.byes) for p in history] == [
        13,
        11,
        11,
        10,
    ]
    rows = standings(config, players, history, dropped, seed=2)
    assert {r.player for r in rows if r.dropped} == dropped
    assert next(r for r in rows if r.player == "p03").played == 1  # the round-1 result stays


def test_same_seed_same_pairing_and_the_end() -> None:
    config = TournamentConfig(format="swiss", min_size=3, max_size=4)
    players = field(20)
    first, _ = simulate(config, players, seed=11)
    again, _ = simulate(config, players, seed=11)
    other, _ = simulate(config, players, seed=12)
    assert first == again
    assert [p.round for p in first] != [p.round for p in other]
    assert len(first) == total_rounds(config, 20) == 4
    with pytest.raises(MatchClosed):
        pair_round(config, players, first, seed=11)


def test_an_unfinished_round_blocks_the_next() -> None:
    config = TournamentConfig(format="swiss", min_size=2, max_size=2)
    players = field(6)
    rnd = pair_round(config, players, [], seed=0)
    with pytest.raises(MatchClosed) as info:
        pair_round(config, players, [PlayedRound(round=rnd)], seed=0)
    assert info.value.allowed == ("table 1", "table 2", "table 3")
