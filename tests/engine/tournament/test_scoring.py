"""Placement points and standings on hand-made results, every expected value worked out by hand."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.core.contract import Outcome
from engine.tournament import (
    PlayedRound,
    Round,
    Standing,
    Table,
    TableResult,
    TournamentConfig,
    pair_round,
    placement_points,
    standings,
    table_points,
)
from engine.tournament.scoring import coin_order

SWISS = TournamentConfig(format="swiss", min_size=3, max_size=4)


def played(
    number: int,
    tables: Sequence[tuple[Sequence[str], Sequence[int], Sequence[int]]],
    byes: Sequence[str] = (),
) -> PlayedRound:
    """A round from (players, places, scores) per table."""
    rnd = Round(
        number=number,
        tables=tuple(Table(number=i + 1, players=tuple(p)) for i, (p, _, _) in enumerate(tables)),
        byes=tuple(byes),
    )
    results = tuple(
        TableResult(table=i + 1, players=tuple(p), places=tuple(pl), scores=tuple(sc))
        for i, (p, pl, sc) in enumerate(tables)
    )
    return PlayedRound(round=rnd, results=results)


def line(rows: list[Standing], player: str) -> Standing:
    return next(s for s in rows if s.player == player)


def test_default_points_make_a_win_worth_one_at_every_size() -> None:
    assert table_points(SWISS, 2) == (1.0, 0.0)
    assert table_points(SWISS, 3) == (1.0, 0.5, 0.0)
    assert table_points(SWISS, 4) == pytest.approx((1, 2 / 3, 1 / 3, 0))
    assert table_points(SWISS, 6) == pytest.approx((1, 0.8, 0.6, 0.4, 0.2, 0))
    for size in range(2, 7):
        # Every table hands out half a point per player on average, whatever its size.
        assert sum(table_points(SWISS, size)) == pytest.approx(size / 2)


def test_shared_places_share_points() -> None:
    assert placement_points(SWISS, (1, 2, 2, 4)) == pytest.approx((1, 0.5, 0.5, 0))
    assert placement_points(SWISS, (1, 1, 3, 4)) == pytest.approx((5 / 6, 5 / 6, 1 / 3, 0))
    assert placement_points(SWISS, (2, 1, 1)) == pytest.approx((0, 0.75, 0.75))
    assert placement_points(SWISS, (1, 1)) == (0.5, 0.5)  # a 2-player draw, as in chess
    assert placement_points(SWISS, (1, 1, 1, 1)) == pytest.approx((0.5,) * 4)
    # Dense ranks (1, 1, 2) mean the same as competition ranks (1, 1, 3).
    assert placement_points(SWISS, (1, 1, 2)) == placement_points(SWISS, (1, 1, 3))


def test_configured_points_and_byes() -> None:
    football = TournamentConfig(format="swiss", min_size=2, max_size=3, points={2: (3, 0), 3: (4, 2, 1)})
    assert placement_points(football, (1, 1)) == (1.5, 1.5)
    assert placement_points(football, (2, 1, 2)) == (1.5, 4.0, 1.5)
    assert placement_points(football, (1, 2)) == (3.0, 0.0)
    rows = standings(football, ["a", "b"], [played(1, [], byes=["a"])], seed=0)
    assert line(rows, "a").points == 2.0  # no bye_points: the middle place of the preferred size (3)
    even = TournamentConfig(format="swiss", min_size=2, max_size=2, points={2: (3, 0)})
    assert standings(even, ["a", "b"], [played(1, [], byes=["a"])], seed=0)[0].points == 1.5
    fixed = TournamentConfig(format="swiss", min_size=2, max_size=2, bye_points=1)
    assert standings(fixed, ["a", "b"], [played(1, [], byes=["a"])], seed=0)[0].points == 1.0


def test_result_from_outcome() -> None:
    outcome = Outcome(scores=(12, 30, 30), places=(3, 1, 1), reason="end")
    result = TableResult.from_outcome(2, ["x", "y", "z"], outcome)
    assert result == TableResult(table=2, players=("x", "y", "z"), places=(3, 1, 1), scores=(12, 30, 30))


def test_tie_breaks_game_score_then_opponents() -> None:
    # Six players at tables of three: points 1, 1/2, 0.
    history = [
        played(1, [("ABC", (1, 2, 3), (10, 5, 1)), ("DEF", (1, 2, 3), (10, 6, 1))]),
        played(2, [("AEC", (1, 2, 3), (8, 6, 2)), ("DFB", (1, 2, 3), (8, 5, 4))]),
    ]
    threes = TournamentConfig(format="swiss", min_size=3, max_size=3)
    rows = standings(threes, list("ABCDEF"), history, seed=5)
    # A and D: 2 points and 18 each. Opponents per game (mean points): A met B 1/2, C 0 then E 1, C 0:
    # (1/4 + 1/2) / 2 = 3/8; D met E 1, F 1/2 then F 1/2, B 1/2: (3/4 + 1/2) / 2 = 5/8, so D is ahead.
    # B and F: 1/2 point each; game scores 9 against 6, so B is ahead.
    expected = [
        # player, points, game score, opponents, played
        ("D", 2, 18, 5 / 8, 2),
        ("A", 2, 18, 3 / 8, 2),
        ("E", 1, 12, (5 / 4 + 1) / 2, 2),
        ("B", 1 / 2, 9, (1 + 5 / 4) / 2, 2),
        ("F", 1 / 2, 6, (3 / 2 + 5 / 4) / 2, 2),
        ("C", 0, 3, (5 / 4 + 3 / 2) / 2, 2),
    ]
    assert [r.player for r in rows] == [e[0] for e in expected]
    for rank, (row, (player, points, score, opponents, games)) in enumerate(
        zip(rows, expected, strict=True), 1
    ):
        assert row.rank == rank
        assert row.points == pytest.approx(points)
        assert row.game_score == score
        assert row.opponents_strength == pytest.approx(opponents), player
        assert row.played == games and row.byes == 0 and not row.dropped


def test_byes_shared_places_and_a_dropped_player() -> None:
    history = [
        played(1, [("ABCD", (1, 2, 2, 4), (10, 8, 8, 3))], byes=["E"]),
        played(2, [("EABD", (3, 4, 1, 2), (7, 5, 12, 9))], byes=["C"]),
    ]
    # Round 1: A 1, B and C share 2nd and 3rd: (2/3 + 1/3) / 2 = 1/2 each, D 0, E bye 1/2.
    # Round 2 (seat order E, A, B, D): B 1, D 2/3, E 1/3, A 0; C bye 1/2. Then B withdraws.
    # Totals: B 3/2; A 1 and C 1 (game scores 15 against 8 put A ahead); E 5/6; D 2/3.
    rows = standings(SWISS, list("ABCDE"), history, {"B"}, seed=3)
    totals = {r.player: (r.rank, r.points, r.game_score, r.played, r.byes, r.dropped) for r in rows}
    assert totals == {
        "B": (1, 1.5, 20, 2, 0, True),
        "A": (2, 1.0, 15, 2, 0, False),
        "C": (3, 1.0, 8, 1, 1, False),
        "E": (4, pytest.approx(5 / 6), 7, 1, 1, False),
        "D": (5, pytest.approx(2 / 3), 12, 2, 0, False),
    }
    # Opponents, per game the mean of their points: A met B, C, D: (3/2 + 1 + 2/3) / 3 = 19/18, then
    # E, B, D: (5/6 + 3/2 + 2/3) / 3 = 1.
    assert line(rows, "A").opponents_strength == pytest.approx((19 / 18 + 1) / 2)
    # C and E played once each (against A, B, D); their byes count for nothing here.
    assert line(rows, "C").opponents_strength == pytest.approx(19 / 18)
    assert line(rows, "E").opponents_strength == pytest.approx(19 / 18)
    # B withdrew but keeps the lead: past results stay.
    assert line(rows, "B").opponents_strength == pytest.approx(
        ((1 + 1 + 2 / 3) / 3 + (1 + 5 / 6 + 2 / 3) / 3) / 2
    )
    # The next round leaves B out and seats the other four at one table.
    nxt = pair_round(SWISS, list("ABCDE"), history, {"B"}, seed=3)
    assert nxt.byes == () and sorted(nxt.tables[0].players) == ["A", "C", "D", "E"]


def test_the_coin_settles_a_perfect_tie() -> None:
    # Two identical games: the pair X/Y and the pair Z/W are indistinguishable on every count.
    history = [played(1, [("XZ", (1, 1), (5, 5)), ("YW", (1, 1), (5, 5))])]
    pairs = TournamentConfig(format="swiss", min_size=2, max_size=2)
    orders = set()
    for seed in range(20):
        rows = standings(pairs, list("XYZW"), history, seed=seed)
        coin = coin_order("XYZW", seed)
        assert [r.player for r in rows] == sorted("XYZW", key=coin.__getitem__)
        assert [r.rank for r in rows] == [1, 2, 3, 4]
        orders.add(tuple(r.player for r in rows))
    assert len(orders) > 1, "the coin must depend on the seed"
    # It does not depend on the order the players are listed in.
    assert standings(pairs, list("WZYX"), history, seed=4) == standings(pairs, list("XYZW"), history, seed=4)


def test_tables_still_playing_count_nothing() -> None:
    rnd = Round(number=1, tables=(Table(number=1, players=("a", "b")), Table(number=2, players=("c", "d"))))
    partial = PlayedRound(
        round=rnd, results=(TableResult(table=2, players=("d", "c"), places=(1, 2), scores=(3, 1)),)
    )
    pairs = TournamentConfig(format="swiss", min_size=2, max_size=2, rounds=2)
    rows = standings(pairs, list("abcd"), [partial], seed=0)
    assert rows[0].player == "d" and rows[0].points == 1.0
    assert line(rows, "a").played == 0
    assert partial.pending == (1,)


def test_results_must_match_their_table() -> None:
    rnd = Round(number=1, tables=(Table(number=1, players=("a", "b")),))
    with pytest.raises(ValueError, match="other players"):
        PlayedRound(
            round=rnd, results=(TableResult(table=1, players=("a", "c"), places=(1, 2), scores=(0, 0)),)
        )
    with pytest.raises(ValueError, match="no table 2"):
        PlayedRound(
            round=rnd, results=(TableResult(table=2, players=("a", "b"), places=(1, 2), scores=(0, 0)),)
        )
    with pytest.raises(ValueError, match="same length"):
        TableResult(table=1, players=("a", "b"), places=(1,), scores=(0, 0))


def test_models_survive_a_json_round_trip() -> None:
    # The host stores configs and rounds as JSON; integer keys of the points table come back as integers.
    config = TournamentConfig(
        format="swiss", min_size=2, max_size=3, points={2: (3, 0), 3: (4, 2, 1)}, rounds=5
    )
    assert TournamentConfig.model_validate_json(config.model_dump_json()) == config
    history = [played(1, [("ABC", (1, 2, 2), (5, 3, 3))], byes=["D"])]
    assert PlayedRound.model_validate_json(history[0].model_dump_json()) == history[0]
