"""The greedy computer player: deterministic, sensible, and clearly stronger than random play."""

from __future__ import annotations

from engine.core.rng import Rng, bot_rng
from engine.skyline import POLICIES, RULES
from engine.skyline.bots import GreedyPolicy

from .helpers import build


def greedy_match(seats: int, seed: int, greedy_seat: int) -> tuple[int, ...]:
    state = RULES.setup(seats, seed, frozenset())
    ply = 0
    while (outcome := RULES.outcome(state)) is None:
        seat = min(RULES.to_act(state))
        policy = POLICIES["greedy" if seat == greedy_seat else "random"]
        action = policy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(seed, ply))
        state = RULES.apply(state, seat, action).state
        ply += 1
    return outcome.places


def test_greedy_beats_random_players() -> None:
    games = 12
    wins = sum(greedy_match(3, 500 + i, i % 3)[i % 3] == 1 for i in range(games))
    assert wins >= 0.75 * games, f"greedy won {wins} of {games}"


def test_greedy_builds_a_penthouse_and_claims() -> None:
    st = build(board={"C2": ["red1", "blue2", "red4", "blue6"]}, stock={0: ["N", "PH"]}, cash={0: 20})
    legal = RULES.legal_actions(st, 0)
    policy = GreedyPolicy()
    choice = policy.choose(RULES, st, 0, legal, Rng(1))
    assert RULES.notation(choice) == "build PH C2"
    assert all(policy.choose(RULES, st, 0, legal, Rng(s)) == choice for s in range(3))
    st = build(board={s: ["red1"] for s in ("A1", "B1", "C1")}, hands={0: ["B01"]})
    assert RULES.notation(policy.choose(RULES, st, 0, RULES.legal_actions(st, 0), Rng(1))) == "claim B01"
