"""The strong players' shared search: what it chooses, how much it may think, and what it may read."""

from __future__ import annotations

import zlib
from typing import Any

from pydantic import BaseModel

from engine.core.rng import Rng
from engine.core.search import Budget, SearchPolicy, margin, reseeded
from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES


def positions(slug: str, seed: int = 3) -> list[BaseModel]:
    states: list[BaseModel] = []
    play_match(GAMES[slug], 3, seed, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append)
    return states


def fingerprint(state: BaseModel, seat: int) -> float:
    """An arbitrary but fixed value of a position, so the best action is known in advance."""
    return zlib.crc32(f"{seat}:{state.model_dump_json()}".encode()) / 2**32


def test_margin_is_the_lead_over_the_best_other_seat() -> None:
    assert margin((10, 7, 12), 2) == 2
    assert margin((10, 7, 12), 0) == -2
    assert margin((5,), 0) == 5


def test_without_rollouts_it_plays_the_action_whose_position_evaluates_best() -> None:
    rules = GAMES["ny_henn"]
    for state in positions("ny_henn")[5:60:11]:
        seat = min(rules.to_act(state))
        legal = rules.legal_actions(state, seat)
        search: SearchPolicy[Any, Any] = SearchPolicy(
            determinize=lambda st, _seat, _rng: st,
            evaluate=fingerprint,
            prior=lambda _st, _seat, _action: 0.0,
            rollout=POLICIES["ny_henn"]["random"],
            budget=Budget(worlds=2, candidates=len(legal), depth=0, steps=10_000),
        )
        values = [fingerprint(rules.apply(state, seat, a).state, seat) for a in legal]
        best = legal[max(range(len(legal)), key=lambda i: (values[i], -i))]
        assert search.choose(rules, state, seat, legal, Rng(1)) == best


def test_the_step_budget_stops_the_search_after_the_world_that_reaches_it() -> None:
    rules = GAMES["ny_piatnik"]
    state = next(s for s in positions("ny_piatnik") if len(rules.legal_actions(s, min(rules.to_act(s)))) > 3)
    seat = min(rules.to_act(state))
    evaluated: list[BaseModel] = []

    def evaluate(st: BaseModel, who: int) -> float:
        evaluated.append(st)
        return 0.0

    search: SearchPolicy[Any, Any] = SearchPolicy(
        determinize=lambda st, _seat, rng: reseeded(st, rng),
        evaluate=evaluate,
        prior=lambda _st, _seat, _action: 0.0,
        rollout=POLICIES["ny_piatnik"]["greedy"],
        budget=Budget(worlds=10, candidates=3, depth=5, steps=20),
    )
    search.choose(rules, state, seat, rules.legal_actions(state, seat), Rng(2))
    # Each world costs at most 3 × (1 + 5) = 18 actions: the second reaches 20, so two worlds run.
    assert len(evaluated) == 6


def test_the_prior_reads_an_imagined_world_never_the_real_state() -> None:
    rules = GAMES["ny_henn"]
    state = positions("ny_henn")[20]
    seat = min(rules.to_act(state))
    seen: list[BaseModel] = []

    def prior(st: BaseModel, _seat: int, _action: Any) -> float:
        seen.append(st)
        return 0.0

    search: SearchPolicy[Any, Any] = SearchPolicy(
        determinize=lambda st, _seat, rng: reseeded(st, rng),
        evaluate=fingerprint,
        prior=prior,
        rollout=POLICIES["ny_henn"]["greedy"],
        budget=Budget(worlds=2, candidates=2, depth=2),
    )
    search.choose(rules, state, seat, rules.legal_actions(state, seat), Rng(3))
    assert seen and all(st is not state and st != state for st in seen)
