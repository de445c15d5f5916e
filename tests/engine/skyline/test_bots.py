"""The greedy computer player: deterministic, sensible, and clearly stronger than random play."""

from __future__ import annotations

from bench.engine import greedy_first_rate
from engine.core.rng import Rng
from engine.skyline import POLICIES, RULES
from engine.skyline.bots import GreedyPolicy

from .helpers import build


def test_greedy_beats_random_players() -> None:
    games = 12
    rate = greedy_first_rate(RULES, POLICIES["greedy"], POLICIES["random"], 3, games, first_seed=500)
    assert rate >= 0.75, f"greedy won {rate * games:.0f} of {games}"


def test_greedy_builds_a_penthouse_and_claims() -> None:
    st = build(board={"C2": ["red1", "blue2", "red4", "blue6"]}, stock={0: ["N", "PH"]}, cash={0: 20})
    legal = RULES.legal_actions(st, 0)
    policy = GreedyPolicy()
    choice = policy.choose(RULES, st, 0, legal, Rng(1))
    assert RULES.notation(choice) == "build PH C2"
    assert all(policy.choose(RULES, st, 0, legal, Rng(s)) == choice for s in range(3))
    st = build(board={s: ["red1"] for s in ("A1", "B1", "C1")}, hands={0: ["B01"]})
    assert RULES.notation(policy.choose(RULES, st, 0, RULES.legal_actions(st, 0), Rng(1))) == "claim B01"
