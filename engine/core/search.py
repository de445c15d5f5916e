"""A strong computer player for any game: determinised Monte Carlo search under a fixed budget.

The player only reads what its seat may know. Each "world" it imagines is drawn by the game's
``determinize``, which keeps everything the seat can see and redraws everything it cannot (other
seats' hands, the order of decks, the future of the state's own generator) from the bot's generator.
In every world the most promising actions (ranked by the game's ``prior``) are each played, followed by
a short rollout in which every seat plays the game's rollout policy, and the position reached is scored
by the game's ``evaluate``. The action with the best mean over the worlds is chosen.

All worlds of a decision share one rollout seed per world, so candidates are compared on the same luck
(common random numbers). The work is bounded in simulated actions, not in time, so a decision is the
same for a given seed on any machine; the bench measures what the bound costs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel

from engine.core.contract import GameRules, Policy
from engine.core.rng import Rng

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A", bound=BaseModel)

# A state that ``seat`` cannot tell apart from the given one, its hidden part redrawn from ``rng``; it must
# depend only on what ``seat`` may see, so that two states differing in a secret give the same worlds.
Determinize = Callable[[S, int, Rng], S]
# How good a position is for ``seat`` (finished or not), on one scale across the game; higher is better.
Evaluate = Callable[[S, int], float]
# A quick guess at how good ``action`` is for ``seat``; ranks the actions worth searching.
Prior = Callable[[S, int, A], float]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much one decision may think."""

    worlds: int = 8  # determinisations
    candidates: int = 6  # actions searched, best by prior
    depth: int = 12  # simulated actions after the candidate before the position is evaluated
    steps: int = 2_000  # most simulated actions in all (bounds the time of a decision)


def reseeded(state: S, rng: Rng) -> S:
    """``state`` with its own generator replaced, so a simulation cannot foresee the real draws."""
    return state.model_copy(update={"rng": rng.next_u64()})


def margin(scores: Sequence[float], seat: int) -> float:
    """``seat``'s score minus the best other score: positive when ``seat`` leads."""
    others = [s for i, s in enumerate(scores) if i != seat]
    return scores[seat] - max(others, default=0)


class SearchPolicy(Generic[S, A]):
    """Determinised flat Monte Carlo search over the most promising actions (see the module)."""

    name = "strong"

    def __init__(
        self,
        *,
        determinize: Determinize[S],
        evaluate: Evaluate[S],
        prior: Prior[S, A],
        rollout: Policy[S, A],
        budget: Budget = Budget(),
    ) -> None:
        self.determinize = determinize
        self.evaluate = evaluate
        self.prior = prior
        self.rollout = rollout
        self.budget = budget

    def choose(self, rules: GameRules[S, A], state: S, seat: int, legal: Sequence[A], rng: Rng) -> A:
        if len(legal) == 1:
            return legal[0]
        budget = self.budget
        worlds = [self.determinize(state, seat, rng) for _ in range(budget.worlds)]
        # Ranked in the first world rather than the real state, so that a prior cannot read a secret.
        first = worlds[0]
        order = sorted(range(len(legal)), key=lambda i: (-self.prior(first, seat, legal[i]), i))
        candidates = [legal[i] for i in order[: budget.candidates]]
        if len(candidates) == 1:
            return candidates[0]
        totals = [0.0] * len(candidates)
        visits = [0] * len(candidates)
        steps = 0
        for world in worlds:
            luck = rng.next_u64()
            for index, action in enumerate(candidates):
                value, used = self._simulate(rules, world, seat, action, Rng(luck))
                totals[index] += value
                visits[index] += 1
                steps += used
            if steps >= budget.steps:
                break
        means = [total / count for total, count in zip(totals, visits, strict=True)]
        return candidates[max(range(len(candidates)), key=lambda i: (means[i], -i))]

    def _simulate(
        self, rules: GameRules[S, A], world: S, seat: int, action: A, rng: Rng
    ) -> tuple[float, int]:
        """The value for ``seat`` of ``action`` in ``world`` after a rollout, and the actions it took."""
        state = rules.apply(world, seat, action).state
        used = 1
        while used <= self.budget.depth and rules.outcome(state) is None:
            to_act = rules.to_act(state)
            if not to_act:
                break
            actor = min(to_act)
            legal = rules.legal_actions(state, actor)
            if not legal:
                break
            move = legal[0] if len(legal) == 1 else self.rollout.choose(rules, state, actor, legal, rng)
            state = rules.apply(state, actor, move).state
            used += 1
        return self.evaluate(state, seat), used
