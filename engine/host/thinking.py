"""Computer players think off the event loop: in a thread, or in worker processes for the players whose
search takes long enough to be worth sending them the state (a thread would hold the GIL meanwhile, and
two searches would never run at once)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.core.contract import GameRules, Policy, Step
from engine.core.rng import Rng
from engine.host.workers import WorkerPool

# Computer players that think in a process; the others choose in well under a millisecond.
IN_PROCESSES = frozenset({"strong"})


def think(
    rules: GameRules[Any, Any], policy: Policy[Any, Any], state: BaseModel, seat: int, rng: Rng
) -> tuple[BaseModel, Step[Any]]:
    """A computer seat's move in ``state`` and the step it leads to."""
    action = policy.choose(rules, state, seat, rules.legal_actions(state, seat), rng)
    return action, rules.apply(state, seat, action)


def think_registered(
    game: str, policy: str, state: BaseModel, seat: int, rng: Rng
) -> tuple[BaseModel, Step[Any]]:
    """``think`` with the registry's rules and computer player, named so that a worker process can find
    them."""
    from engine.registry import get_game, get_policy

    return think(get_game(game), get_policy(game, policy), state, seat, rng)


def warm() -> None:
    """Run in each new worker before its first job: loads every game and its computer players."""
    import engine.registry  # noqa: F401


class ThinkPool(WorkerPool):
    """Where the slow computer players think: ``workers`` processes (None: ``BIGAPPLE_THINK_WORKERS``, else
    one per core), or a thread when that is 0 or processes cannot run."""

    variable = "BIGAPPLE_THINK_WORKERS"
    what = "thinking"

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers, initializer=warm)
