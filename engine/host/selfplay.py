"""Whole matches between computer players, engine only: no store, no rendering."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from engine.core.contract import GameRules, Outcome, Policy
from engine.core.rng import bot_rng

MAX_ACTIONS = 5_000


@dataclass(frozen=True, slots=True)
class SelfplayResult:
    """How one computer-only match went; ``error`` is set when it raised or did not end."""

    moves: int
    outcome: Outcome | None
    state: BaseModel
    error: str | None = None


def play_match(
    rules: GameRules[Any, Any],
    seats: int,
    seed: int,
    options: frozenset[str],
    policies: Sequence[Policy[Any, Any]],
    max_actions: int = MAX_ACTIONS,
    on_state: Callable[[BaseModel], None] | None = None,
) -> SelfplayResult:
    """Play from the opening to the end with ``policies[seat % len(policies)]`` in each seat.

    Never raises for a rules failure: it is reported in ``SelfplayResult.error``.
    """
    state = rules.setup(seats, seed, options)
    moves = 0
    try:
        while moves < max_actions:
            if on_state is not None:
                on_state(state)
            outcome = rules.outcome(state)
            if outcome is not None:
                return SelfplayResult(moves, outcome, state)
            to_act = sorted(rules.to_act(state))
            if not to_act:
                return SelfplayResult(moves, None, state, "no seat to act but no outcome")
            seat = to_act[0]
            legal = rules.legal_actions(state, seat)
            if not legal:
                return SelfplayResult(moves, None, state, f"seat {seat} must act but has no legal action")
            action = policies[seat % len(policies)].choose(rules, state, seat, legal, bot_rng(seed, moves))
            state = rules.apply(state, seat, action).state
            moves += 1
    except Exception as exc:
        return SelfplayResult(moves, None, state, f"{type(exc).__name__}: {exc}")
    return SelfplayResult(moves, None, state, f"no end after {max_actions} actions")
