"""The greedy policy plays legal moves and clearly beats random players."""

from __future__ import annotations

from engine.core.rng import bot_rng
from engine.ny1901 import POLICIES, RULES


def _match(seed: int, greedy_seat: int, seats: int = 3) -> tuple[int, ...]:
    st = RULES.setup(seats, seed, frozenset())
    ply = 0
    while (outcome := RULES.outcome(st)) is None:
        seat = min(RULES.to_act(st))
        legal = RULES.legal_actions(st, seat)
        policy = POLICIES["greedy" if seat == greedy_seat else "random"]
        action = policy.choose(RULES, st, seat, legal, bot_rng(seed, ply))
        assert action in legal
        st = RULES.apply(st, seat, action).state
        ply += 1
    return outcome.places


def test_greedy_beats_random() -> None:
    games = 24
    wins = sum(_match(seed, seed % 3)[seed % 3] == 1 for seed in range(games))
    assert wins >= games * 0.6, f"greedy won only {wins} of {games}"
