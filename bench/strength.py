"""How strong the strong computer player is: one strong seat against greedy ones, seats rotating.

Run on its own while tuning a game's player: ``python -m bench.strength GAME MATCHES [SEED [WORKERS]]``.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bench.engine import percentile
from engine.core.rng import bot_rng
from engine.host.seat_advantage import wilson_interval
from engine.registry import get_game, get_policy

SEATS = 3
FIRST_SEED = 5_000
MAX_ACTIONS = 5_000


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One strong-against-greedy match: whether the strong seat took first place (ties count)."""

    first: bool
    decision_s: tuple[float, ...]
    match_s: float
    max_rss_mb: float


def play_strong_match(slug: str, seed: int, strong_seat: int, seats: int = SEATS) -> MatchRecord:
    """Plays seed ``seed`` with the strong player in ``strong_seat`` and greedy players elsewhere."""
    rules = get_game(slug)
    strong, greedy = get_policy(slug, "strong"), get_policy(slug, "greedy")
    state = rules.setup(seats, seed, frozenset())
    decisions: list[float] = []
    started = time.perf_counter()
    ply = 0
    while (outcome := rules.outcome(state)) is None and ply < MAX_ACTIONS:
        seat = min(rules.to_act(state))
        legal = rules.legal_actions(state, seat)
        if seat == strong_seat:
            thinking = time.perf_counter()
            action = strong.choose(rules, state, seat, legal, bot_rng(seed, ply))
            decisions.append(time.perf_counter() - thinking)
        else:
            action = greedy.choose(rules, state, seat, legal, bot_rng(seed, ply))
        state = rules.apply(state, seat, action).state
        ply += 1
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    first = outcome is not None and outcome.places[strong_seat] == 1
    return MatchRecord(first, tuple(decisions), time.perf_counter() - started, rss_mb)


def measure_strength(
    slug: str, matches: int, first_seed: int = FIRST_SEED, workers: int | None = None
) -> dict[str, object]:
    """``games.<slug>.strong`` of the bench: first-place rate with its interval, and decision times."""
    jobs = [(slug, first_seed + i, i % SEATS) for i in range(matches)]
    workers = max(1, min(workers or os.cpu_count() or 1, matches))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        records = list(pool.map(play_strong_match, *zip(*jobs, strict=True)))
    firsts = sum(r.first for r in records)
    lo, hi = wilson_interval(firsts, len(records))
    decisions = sorted(d * 1000 for r in records for d in r.decision_s)
    return {
        "first_rate": round(firsts / max(1, len(records)), 3),
        "ci95": [round(lo, 3), round(hi, 3)],
        "decision_ms": {
            "p50": round(percentile(decisions, 0.5), 1) if decisions else 0.0,
            "p95": round(percentile(decisions, 0.95), 1) if decisions else 0.0,
        },
        "match_s_max": round(max((r.match_s for r in records), default=0.0), 1),
        "max_rss_mb": round(max((r.max_rss_mb for r in records), default=0.0), 1),
    }


if __name__ == "__main__":
    import json

    game, count = sys.argv[1], int(sys.argv[2])
    workers = int(sys.argv[4]) if len(sys.argv) > 4 else None
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else FIRST_SEED
    print(json.dumps({game: measure_strength(game, count, seed, workers)}))
