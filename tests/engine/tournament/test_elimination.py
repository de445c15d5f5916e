"""Single elimination: every field narrows down to one final table and a single winner."""

from __future__ import annotations

import pytest

from engine.core.errors import MatchClosed
from engine.core.rng import Rng
from engine.tournament import (
    PlayedRound,
    Round,
    Table,
    TableResult,
    TournamentConfig,
    is_finished,
    pair_round,
    standings,
    total_rounds,
)
from engine.tournament.elimination import advancing, round_plan, table_order
from engine.tournament.scoring import coin_order

from .helpers import assert_legal, bye_counts, field, simulate

SETUPS = [
    (2, 2, 2, None),
    (3, 4, 4, None),
    (3, 4, 4, 1),
    (4, 4, 4, None),
    (4, 4, 4, 1),
    (2, 5, 4, None),
    (4, 6, 5, None),
]


def _finish(config: TournamentConfig, players: list[str], history: list[PlayedRound], seed: int) -> None:
    """The last round is a single final table; the standings put its winner first, alone."""
    final = history[-1]
    assert len(final.round.tables) == 1 and final.round.byes == ()
    assert config.min_size <= len(final.round.tables[0].players) <= config.max_size
    rows = standings(config, players, history, seed=seed)
    champion = rows[0]
    assert champion.eliminated_round is None
    assert champion.player in final.round.tables[0].players
    assert all(r.eliminated_round is not None for r in rows[1:])
    assert [r.rank for r in rows] == list(range(1, len(players) + 1))
    # The champion placed best at the final (ties at the top go to the game score, then the coin).
    result = final.results[0]
    assert result.places[result.players.index(champion.player)] == min(result.places)


@pytest.mark.parametrize(("lo", "hi", "preferred", "advance"), SETUPS)
def test_every_field_reaches_one_final_table(lo: int, hi: int, preferred: int, advance: int | None) -> None:
    config = TournamentConfig(
        format="elimination", min_size=lo, max_size=hi, preferred_size=preferred, advance=advance
    )
    rng = Rng.from_seed(lo * 10 + hi, 3)
    sizes = sorted({lo, hi, hi + 1, 2 * hi - 1, 13, 64} | {lo + rng.below(64 - lo + 1) for _ in range(6)})
    for n in sizes:
        players = field(n)

        def check(
            rnd: Round,
            history: list[PlayedRound],
            dropped: set[str],
            players: list[str] = players,
            n: int = n,
        ) -> None:
            assert_legal(config, rnd, players, history, dropped)
            seated = [p for t in rnd.tables for p in t.players]
            # Only players still in are placed, and all of them.
            rows = standings(config, players, history, seed=n)  # the tournament's own coin
            assert sorted(seated + list(rnd.byes)) == sorted(
                r.player for r in rows if r.eliminated_round is None
            )
            before = bye_counts(history)
            if rnd.byes:
                assert max(before[p] for p in rnd.byes) <= min(before[p] for p in seated)

        history, _ = simulate(config, players, seed=n, check=check)
        assert len(history) == total_rounds(config, n), n
        _finish(config, players, history, n)


def test_classic_knockout_of_eight() -> None:
    config = TournamentConfig(format="elimination", min_size=2, max_size=2)
    players = field(8)
    history, _ = simulate(config, players, seed=1)
    assert [len(p.round.tables) for p in history] == [4, 2, 1]
    # Snake seeding over the round-1 order (the coin): 1 v 8, 2 v 7, 3 v 6, 4 v 5.
    seeds = [r.player for r in standings(config, players, [], seed=1)]
    assert [set(t.players) for t in history[0].round.tables] == [
        {seeds[0], seeds[7]},
        {seeds[1], seeds[6]},
        {seeds[2], seeds[5]},
        {seeds[3], seeds[4]},
    ]


def test_advancing_counts() -> None:
    default = TournamentConfig(format="elimination", min_size=2, max_size=6, preferred_size=4)
    assert [advancing(default, s) for s in range(2, 7)] == [1, 1, 2, 2, 3]
    two_of_four = TournamentConfig(format="elimination", min_size=2, max_size=6, preferred_size=4, advance=2)
    assert [advancing(two_of_four, s) for s in range(2, 7)] == [1, 1, 2, 2, 3]
    one_of_four = TournamentConfig(format="elimination", min_size=2, max_size=6, preferred_size=4, advance=1)
    assert [advancing(one_of_four, s) for s in range(2, 7)] == [1, 1, 1, 1, 1]
    three_of_four = TournamentConfig(
        format="elimination", min_size=2, max_size=6, preferred_size=4, advance=3
    )
    assert [advancing(three_of_four, s) for s in range(2, 7)] == [1, 2, 3, 3, 4]


def test_plans() -> None:
    fours = TournamentConfig(format="elimination", min_size=3, max_size=4)
    assert round_plan(fours, 4) == ((4,), 0)  # already a final
    assert round_plan(fours, 16) == ((4, 4, 4, 4), 0)  # 8 go on
    assert round_plan(fours, 13) == ((4, 3, 3, 3), 0)  # 5 go on, then 4 + bye: 3 in the final
    assert total_rounds(fours, 13) == 3
    # 6 at 3..4: two tables of 3 send only 2 winners on, so the better second place joins them.
    assert round_plan(fours, 6) == ((3, 3), 1)
    exact = TournamentConfig(format="elimination", min_size=4, max_size=4)
    # 5 at exactly 4: a table and a bye; 2 winners + the bye + the third place make the final of 4.
    assert round_plan(exact, 5) == ((4,), 1)


def _result(table: int, players: str, places: tuple[int, ...], scores: tuple[int, ...]) -> TableResult:
    return TableResult(table=table, players=tuple(players), places=places, scores=scores)


def test_lucky_loser_and_ties_at_the_cut_by_hand() -> None:
    config = TournamentConfig(format="elimination", min_size=3, max_size=4)
    players = list("ABCDEF")
    first = pair_round(config, players, [], seed=0)
    assert [len(t.players) for t in first.tables] == [3, 3] and first.byes == ()
    # Written by hand over the tables as paired (whoever sits where): table 1 ends 1st, 2nd, 3rd with
    # scores 9, 7, 1; table 2 ends 1st, then a shared 2nd with scores 8, 4, 4.
    (a, b, c), (d, e, f) = (t.players for t in first.tables)
    results = (
        TableResult(table=1, players=(a, b, c), places=(1, 2, 3), scores=(9, 7, 1)),
        TableResult(table=2, players=(d, e, f), places=(1, 2, 2), scores=(8, 4, 4)),
    )
    history = [PlayedRound(round=first, results=results)]
    # Winners a and d go on. The lucky loser is the best of the rest by the round's placement points:
    # b has 1/2 (a clear 2nd of 3); e and f share 2nd and 3rd: 1/4 each. So b.
    final = pair_round(config, players, history, seed=0)
    assert final.byes == () and len(final.tables) == 1
    assert set(final.tables[0].players) == {a, b, d}
    rows = standings(config, players, history, seed=0)
    assert {r.player for r in rows if r.eliminated_round == 1} == {c, e, f}
    # The final: a shared first place goes to the higher game score.
    history.append(
        PlayedRound(
            round=final,
            results=(
                TableResult(
                    table=1,
                    players=final.tables[0].players,
                    places=tuple(1 if p in (a, d) else 3 for p in final.tables[0].players),
                    scores=tuple({a: 5, d: 6, b: 1}[p] for p in final.tables[0].players),
                ),
            ),
        )
    )
    assert is_finished(config, players, history)
    rows = standings(config, players, history, seed=0)
    assert [r.player for r in rows[:3]] == [d, a, b]
    assert [r.eliminated_round for r in rows] == [None, 2, 2, 1, 1, 1]
    with pytest.raises(MatchClosed):
        pair_round(config, players, history, seed=0)


def test_byes_go_to_the_top_seeds_and_rotate() -> None:
    config = TournamentConfig(format="elimination", min_size=2, max_size=2)
    players = field(5)
    first = pair_round(config, players, [], seed=6)
    seeds = [r.player for r in standings(config, players, [], seed=6)]
    assert first.byes == (seeds[0],)
    history, _ = simulate(config, players, seed=6)
    assert [len(p.round.byes) for p in history] == [1, 1, 0]
    assert history[0].round.byes != history[1].round.byes


def test_a_withdrawal_shrinks_the_field() -> None:
    config = TournamentConfig(format="elimination", min_size=3, max_size=4)
    players = field(16)
    history, _ = simulate(config, players, seed=5, stop_after=1)
    survivors = [r.player for r in standings(config, players, history, seed=5) if r.eliminated_round is None]
    assert len(survivors) == 8
    gone = {survivors[0], survivors[1]}
    nxt = pair_round(config, players, history, gone, seed=5)
    assert not gone & {p for t in nxt.tables for p in t.players}
    assert sum(len(t.players) for t in nxt.tables) + len(nxt.byes) == 6


def test_too_few_left_ends_the_tournament() -> None:
    config = TournamentConfig(format="elimination", min_size=3, max_size=4)
    players = field(8)
    history, _ = simulate(config, players, seed=2, stop_after=1)
    survivors = [r.player for r in standings(config, players, history, seed=2) if r.eliminated_round is None]
    dropped = set(survivors[:2])  # 2 of the 4 finalists withdraw: no table of 3 is possible
    assert is_finished(config, players, history, dropped)
    rows = standings(config, players, history, dropped, seed=2)
    # The two still in come first, then those who withdrew while in, then the knocked out.
    assert {r.player for r in rows[:2]} == set(survivors[2:])
    assert {r.player for r in rows[2:4]} == dropped
    assert all(r.eliminated_round == 1 for r in rows[4:])


def test_standings_order_by_round_reached() -> None:
    config = TournamentConfig(format="elimination", min_size=2, max_size=2)
    players = list("ABCD")
    semi = Round(number=1, tables=(Table(number=1, players=("A", "B")), Table(number=2, players=("C", "D"))))
    history = [
        PlayedRound(
            round=semi,
            results=(_result(1, "AB", (2, 1), (0, 3)), _result(2, "CD", (1, 2), (9, 0))),
        )
    ]
    final = pair_round(config, players, history, seed=0)
    assert set(final.tables[0].players) == {"B", "C"}
    history.append(PlayedRound(round=final, results=(_result(1, "BC", (1, 2), (2, 1)),)))
    rows = standings(config, players, history, seed=0)
    # B won; C lost the final; A and D went out in round 1, both last at their table with 0 game points,
    # so the coin orders them.
    assert [r.player for r in rows[:2]] == ["B", "C"]
    assert {r.player for r in rows[2:]} == {"A", "D"}
    assert [r.eliminated_round for r in rows] == [None, 2, 1, 1]


def test_ties_at_the_cut_go_to_game_score_then_the_coin() -> None:
    result = TableResult(table=1, players=("w", "x", "y", "z"), places=(2, 1, 2, 4), scores=(6, 9, 7, 0))
    coin = coin_order("wxyz", 0)
    assert table_order(result, coin) == ["x", "y", "w", "z"]  # y and w share 2nd: y scored more
    level = TableResult(table=1, players=("w", "x", "y", "z"), places=(2, 1, 2, 4), scores=(7, 9, 7, 0))
    for seed in range(6):
        coin = coin_order("wxyz", seed)
        second, third = sorted("wy", key=coin.__getitem__)
        assert table_order(level, coin) == ["x", second, third, "z"]
