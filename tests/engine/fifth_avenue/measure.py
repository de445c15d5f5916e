"""Measurements for the report: timings and the greedy player's first-place rate.

Run: ``.venv/bin/python -m tests.engine.fifth_avenue.measure``.
"""

from __future__ import annotations

import statistics
import time

from engine.core.rng import bot_rng
from engine.fifth_avenue import POLICIES, RULES


def greedy_rate(games: int = 100, seats: int = 3) -> float:
    """Share of first places (ties count) of one greedy player among random ones, seat rotating."""
    wins = 0
    for i in range(games):
        seed, greedy = 1000 + i, i % seats
        state = RULES.setup(seats, seed, frozenset())
        ply = 0
        while (out := RULES.outcome(state)) is None:
            seat = min(RULES.to_act(state))
            policy = POLICIES["greedy" if seat == greedy else "random"]
            legal = RULES.legal_actions(state, seat)
            action = policy.choose(RULES, state, seat, legal, bot_rng(seed, ply))
            state = RULES.apply(state, seat, action).state
            ply += 1
        wins += out.places[greedy] == 1
    return wins / games


def timings(seats: int = 4, games: int = 20, options: frozenset[str] = frozenset()) -> dict[str, float]:
    """p50/p99 of one legal_actions and one apply call (ms), and mean ms per random self-play match."""
    legal_ms: list[float] = []
    apply_ms: list[float] = []
    match_ms: list[float] = []
    for seed in range(games):
        start = time.perf_counter()
        state = RULES.setup(seats, seed, options)
        ply = 0
        while RULES.outcome(state) is None:
            seat = min(RULES.to_act(state))
            t0 = time.perf_counter()
            legal = RULES.legal_actions(state, seat)
            t1 = time.perf_counter()
            action = POLICIES["random"].choose(RULES, state, seat, legal, bot_rng(seed, ply))
            t2 = time.perf_counter()
            state = RULES.apply(state, seat, action).state
            t3 = time.perf_counter()
            legal_ms.append((t1 - t0) * 1000)
            apply_ms.append((t3 - t2) * 1000)
            ply += 1
        match_ms.append((time.perf_counter() - start) * 1000)
    q = statistics.quantiles
    return {
        "legal_p50": statistics.median(legal_ms),
        "legal_p99": q(legal_ms, n=100)[98],
        "apply_p50": statistics.median(apply_ms),
        "apply_p99": q(apply_ms, n=100)[98],
        "match_ms_mean": statistics.mean(match_ms),
    }


if __name__ == "__main__":
    for n in (2, 3, 4):
        print(n, {k: round(v, 3) for k, v in timings(n).items()})
        print(n, "six_lots", {k: round(v, 3) for k, v in timings(n, options=frozenset({"six_lots"})).items()})
    print("greedy first-place rate, 100 3-player matches:", greedy_rate())
