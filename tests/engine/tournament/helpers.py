"""Shared helpers: fields of players, random table results and whole simulated tournaments."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from engine.core.rng import Rng
from engine.tournament import (
    PlayedRound,
    Round,
    TableResult,
    TournamentConfig,
    is_finished,
    pair_round,
)


def field(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def random_result(table: int, players: Sequence[str], rng: Rng, spread: int = 4) -> TableResult:
    """A result with game scores drawn from ``range(spread)``: small spreads give many shared places."""
    scores = tuple(rng.below(spread) for _ in players)
    places = tuple(1 + sum(other > mine for other in scores) for mine in scores)
    return TableResult(table=table, players=tuple(players), places=places, scores=scores)


def play_round(rnd: Round, rng: Rng, spread: int = 4) -> PlayedRound:
    results = tuple(random_result(t.number, t.players, rng, spread) for t in rnd.tables)
    return PlayedRound(round=rnd, results=results)


def met_counts(history: Sequence[PlayedRound]) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for played in history:
        for table in played.round.tables:
            for i, a in enumerate(table.players):
                for b in table.players[i + 1 :]:
                    met[frozenset((a, b))] += 1
    return met


def repeats(history: Sequence[PlayedRound]) -> int:
    """Meetings beyond the first, over all pairs."""
    return sum(n - 1 for n in met_counts(history).values())


def simulate(
    config: TournamentConfig,
    players: Sequence[str],
    seed: int,
    *,
    drops: Callable[[int, list[PlayedRound]], set[str]] | None = None,
    check: Callable[[Round, list[PlayedRound], set[str]], None] | None = None,
    spread: int = 4,
    max_rounds: int = 100,
    stop_after: int | None = None,
) -> tuple[list[PlayedRound], set[str]]:
    """Pair and play rounds until the tournament ends; ``drops(round_number, history)`` names players
    withdrawing before that round, ``check(round, history_before, dropped)`` inspects each pairing;
    ``stop_after`` ends early after that many rounds.
    """
    rng = Rng.from_seed(seed, 77)
    history: list[PlayedRound] = []
    dropped: set[str] = set()
    while not is_finished(config, players, history, dropped):
        if drops is not None:
            dropped |= drops(len(history) + 1, history)
            if is_finished(config, players, history, dropped):
                break
        rnd = pair_round(config, players, history, dropped, seed=seed)
        if check is not None:
            check(rnd, history, dropped)
        history.append(play_round(rnd, rng, spread))
        assert len(history) <= max_rounds, "the tournament does not end"
        if len(history) == stop_after:
            break
    return history, dropped


def assert_legal(
    config: TournamentConfig,
    rnd: Round,
    players: Sequence[str],
    history: Sequence[PlayedRound],
    dropped: set[str],
) -> None:
    """Every active player sits exactly once or has a bye, tables are legal, numbers run 1.."""
    seated = [p for t in rnd.tables for p in t.players]
    everyone = seated + list(rnd.byes)
    assert len(everyone) == len(set(everyone)), "a player is placed twice"
    assert not set(everyone) & dropped, "a dropped player is paired"
    assert rnd.number == len(history) + 1
    assert [t.number for t in rnd.tables] == list(range(1, len(rnd.tables) + 1))
    for table in rnd.tables:
        assert config.min_size <= len(table.players) <= config.max_size, table


def bye_counts(history: Sequence[PlayedRound]) -> Counter[str]:
    return Counter(p for played in history for p in played.round.byes)
