"""Measurements for New York (Piatnik): greedy-vs-random win rates and self-play timings.

Run from the repository root::

    .venv/bin/python -m tests.engine.ny_piatnik.measure winrate --players 3 --games 100
    .venv/bin/python -m tests.engine.ny_piatnik.measure timing --players 4 --games 100

Not collected by pytest (the quick, asserted versions live in test_bots.py and test_playouts.py).
"""

from __future__ import annotations

import argparse
import statistics
import time

from engine.core.rng import bot_rng
from engine.ny_piatnik import POLICIES, RULES


def greedy_match(seats: int, seed: int, greedy_seat: int, options: frozenset[str]) -> tuple[int, ...]:
    """Places of one match: greedy in ``greedy_seat`` (and its V4 partner), random elsewhere."""
    state = RULES.setup(seats, seed, options)
    ply = 0
    while RULES.outcome(state) is None:
        (seat,) = RULES.to_act(state)
        greedy = seat == greedy_seat or (state.team and seat % 2 == greedy_seat % 2)
        policy = POLICIES["greedy" if greedy else "random"]
        action = policy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(seed, ply))
        state = RULES.apply(state, seat, action).state
        ply += 1
    outcome = RULES.outcome(state)
    assert outcome is not None
    return outcome.places


def winrate(seats: int, games: int, options: frozenset[str], seed: int) -> str:
    """Share of matches in which the greedy seat (rotating) takes first place (alone or shared)."""
    first = alone = 0
    for i in range(games):
        places = greedy_match(seats, seed + i, i % seats, options)
        me = i % seats
        first += places[me] == 1
        alone += places[me] == 1 and places.count(1) == (2 if options & {"team"} else 1)
    share = 100 * first / games
    head = f"players={seats} options={sorted(options)} games={games}"
    return f"{head}: greedy first {first}/{games} ({share:.0f}%), alone {alone}"


def timing(seats: int, games: int, options: frozenset[str], seed: int) -> str:
    """Per-call legal_actions/apply times and whole-match times of random self-play (setup included)."""
    legal_ms: list[float] = []
    apply_ms: list[float] = []
    match_ms: list[float] = []
    moves: list[int] = []
    for i in range(games):
        start = time.perf_counter()
        state = RULES.setup(seats, seed + i, options)
        ply = 0
        while RULES.outcome(state) is None:
            (seat,) = RULES.to_act(state)
            t = time.perf_counter()
            legal = RULES.legal_actions(state, seat)
            legal_ms.append((time.perf_counter() - t) * 1000)
            action = POLICIES["random"].choose(RULES, state, seat, legal, bot_rng(seed + i, ply))
            t = time.perf_counter()
            state = RULES.apply(state, seat, action).state
            apply_ms.append((time.perf_counter() - t) * 1000)
            ply += 1
        match_ms.append((time.perf_counter() - start) * 1000)
        moves.append(ply)

    def q(xs: list[float], p: float) -> float:
        return sorted(xs)[int(p * (len(xs) - 1))]

    return (
        f"players={seats} options={sorted(options)} games={games} mean moves={statistics.mean(moves):.0f}\n"
        f"  legal_ms p50={q(legal_ms, 0.5):.3f} p99={q(legal_ms, 0.99):.3f}; "
        f"apply_ms p50={q(apply_ms, 0.5):.3f} p99={q(apply_ms, 0.99):.3f}\n"
        f"  match_ms mean={statistics.mean(match_ms):.1f} median={statistics.median(match_ms):.1f} "
        f"max={max(match_ms):.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["winrate", "timing"])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--options", default="")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    options = frozenset(o for o in args.options.split(",") if o)
    run = winrate if args.what == "winrate" else timing
    print(run(args.players, args.games, options, args.seed))


if __name__ == "__main__":
    main()
