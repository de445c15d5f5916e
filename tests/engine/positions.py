"""Positions of seeded matches between greedy players, for tests that look at many real decisions."""

from __future__ import annotations

from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import bot_rng
from engine.registry import POLICIES


def greedy_positions(
    rules: GameRules[Any, Any], slug: str, seats: int, seed: int, options: frozenset[str] = frozenset()
) -> list[Any]:
    """Every position of a seeded match of ``slug``'s greedy players where someone must decide, from the
    opening to the last decision (the finished position is left out)."""
    greedy = POLICIES[slug]["greedy"]
    state = rules.setup(seats, seed, options)
    positions: list[Any] = []
    for ply in range(5000):
        if rules.outcome(state) is not None:
            return positions
        positions.append(state)
        seat = min(rules.to_act(state))
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), bot_rng(seed, ply))
        state = rules.apply(state, seat, action).state
    raise AssertionError("the greedy match did not end")
