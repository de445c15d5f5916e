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
    candidates: int = 6  # actions searched, best by prior (or kept after pruning)
    depth: int = 12  # simulated actions after the candidate before the position is evaluated
    steps: int = 2_000  # most simulated actions in all (bounds the time of a decision)
    # With more candidates than ``candidates`` (a game's ``candidates`` may offer more), the best
    # ``candidates`` of them go on alone after this many worlds; 0: never pruned.
    prune_after: int = 0


def reseeded(state: S, rng: Rng) -> S:
    """``state`` with its own generator replaced, so a simulation cannot foresee the real draws."""
    return state.model_copy(update={"rng": rng.next_u64()})


def margin(scores: Sequence[float], seat: int) -> float:
    """``seat``'s score minus the best other score: positive when ``seat`` leads."""
    others = [s for i, s in enumerate(scores) if i != seat]
    return scores[seat] - max(others, default=0)


class SearchPolicy(Generic[S, A]):
    """Determinised flat Monte Carlo search over the most promising actions (see the module).

    A game may subclass it to choose its own ``candidates`` (every kind of action, say) or ``simulate``
    with its own rollout (a faster copy of the greedy player, a rollout to the end of a round)."""

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
        # Chosen in the first world rather than the real state, so that a prior cannot read a secret.
        candidates = self.candidates(worlds[0], seat, legal)
        if len(candidates) == 1:
            return candidates[0]
        # Every candidate plays every world its turn comes to, so totals compare as means would.
        totals = [0.0] * len(candidates)
        steps = 0
        for played, world in enumerate(worlds):
            if played and played == budget.prune_after and len(candidates) > budget.candidates:
                # Successive halving: the worlds left go to the best few.
                keep = sorted(
                    sorted(range(len(candidates)), key=lambda i: (-totals[i], i))[: budget.candidates]
                )
                candidates = [candidates[i] for i in keep]
                totals = [totals[i] for i in keep]
            luck = rng.next_u64()
            for index, action in enumerate(candidates):
                value, used = self.simulate(rules, world, seat, action, Rng(luck))
                totals[index] += value
                steps += used
            if steps >= budget.steps:
                break
        return candidates[max(range(len(candidates)), key=lambda i: (totals[i], -i))]

    def candidates(self, world: S, seat: int, legal: Sequence[A]) -> list[A]:
        """The actions worth a search: the best ``budget.candidates`` by the prior, read in ``world``."""
        order = sorted(range(len(legal)), key=lambda i: (-self.prior(world, seat, legal[i]), i))
        return [legal[i] for i in order[: self.budget.candidates]]

    def simulate(self, rules: GameRules[S, A], world: S, seat: int, action: A, rng: Rng) -> tuple[float, int]:
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
