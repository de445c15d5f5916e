"""The greedy computer player: deterministic, and clearly stronger than random play."""

from __future__ import annotations

from bench.engine import greedy_first_rate
from engine.core.rng import Rng
from engine.ny_piatnik import POLICIES, RULES
from engine.ny_piatnik.bots import GreedyPolicy

from .helpers import build


def test_greedy_beats_random_players() -> None:
    games = 30
    rate = greedy_first_rate(RULES, POLICIES["greedy"], POLICIES["random"], 3, games, first_seed=500)
    assert rate >= 0.6, f"greedy won {rate * games:.0f} of {games}"


def test_greedy_is_deterministic_and_prefers_growing_its_group() -> None:
    owners = {"PARK-38": "red", "PARK-42": "red"}
    st = build(3, owners=owners, hands={0: ["PARK", "LEX", "45", "57"]})
    legal = RULES.legal_actions(st, 0)
    policy = GreedyPolicy()
    first = policy.choose(RULES, st, 0, legal, Rng(1))
    assert all(policy.choose(RULES, st, 0, legal, Rng(s)) == first for s in range(5))
    assert RULES.notation(first) == "play red=PARK blue=45"  # joins the PARK-38/42 group


def test_greedy_cedes_its_least_valuable_building() -> None:
    owners = {"PARK-53": "blue", "LEX-53": "blue", "LEX-49": "blue", "LEX-45": "blue"}
    st = build(3, options={"events"}, owners=owners, hands={0: ["STAT-R", "53", "LEX", "34"]})
    pending = RULES.apply(st, 0, RULES.parse("play red=STAT-R blue=53")).state
    choice = GreedyPolicy().choose(RULES, pending, 1, RULES.legal_actions(pending, 1), Rng(3))
    assert RULES.notation(choice) == "give at=PARK-53"  # keeps the LEX group together
