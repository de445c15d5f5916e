"""The greedy computer player: deterministic, sensible, and clearly stronger than random play."""

from __future__ import annotations

from bench.engine import greedy_first_rate
from engine.core.rng import Rng
from engine.ny_henn import POLICIES, RULES
from engine.ny_henn.bots import GreedyPolicy

from .helpers import build


def test_greedy_beats_random_players() -> None:
    games = 15
    rate = greedy_first_rate(RULES, POLICIES["greedy"], POLICIES["random"], 3, games, first_seed=500)
    assert rate >= 0.7, f"greedy won {rate * games:.0f} of {games}"


def test_greedy_prefers_an_exact_buy_and_places_in_the_city() -> None:
    st = build(hands={0: ["B4", "Y8"]}, market={"B": "T09"})
    legal = RULES.legal_actions(st, 0)
    policy = GreedyPolicy()
    first = policy.choose(RULES, st, 0, legal, Rng(1))
    assert all(policy.choose(RULES, st, 0, legal, Rng(s)) == first for s in range(5))
    assert RULES.notation(first) == "buy slot=B pay=B4"
    placing = build(pending={0: ["T09"]}, phase="placement")
    choice = policy.choose(RULES, placing, 0, RULES.legal_actions(placing, 0), Rng(1))
    assert choice.to == "city"
