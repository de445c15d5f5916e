"""A tiny game implementing the engine contract, so host tests do not depend on a real game's rules.

Seats take turns adding 1 or 2 to a shared total; whoever reaches the target wins. Each move also draws
a secret token for the mover, announced only to them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from pydantic import BaseModel

from engine.core.contract import Event, Frozen, Outcome, RulesDefaults, Step, private, public
from engine.core.errors import IllegalAction, NotationError, NotYourTurn
from engine.core.presentation import MultiSelect, PresentationDefaults
from engine.core.rng import Rng
from engine.core.say import Say, Speaker, who

SPEAK = Speaker("toy")  # no catalogue: the toy speaks English in every language


class ToyState(Frozen):
    seats: int
    total: int = 0
    target: int = 10
    turn: int = 0
    secrets: tuple[int, ...]
    rng: int


class Add(Frozen):
    amount: int


class ToyView(Frozen):
    total: int
    turn: int
    my_secret: int | None = None


class ToyRules(RulesDefaults):
    name: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy race"
    summary: ClassVar[str] = "Add 1 or 2 to the total; whoever reaches the target wins."
    seat_counts: ClassVar[range] = range(2, 4)
    options: ClassVar[Mapping[str, str]] = {"long": "race to 20 instead of 10"}
    state_model: ClassVar[type[BaseModel]] = ToyState

    def setup(self, seats: int, seed: int, options: frozenset[str]) -> ToyState:
        self.validate_setup(seats, options)
        rng = Rng.from_seed(seed)
        tokens = tuple(rng.below(100) for _ in range(seats))
        return ToyState(seats=seats, target=20 if "long" in options else 10, secrets=tokens, rng=rng.state)

    def setup_events(self, seats: int, seed: int, options: frozenset[str]) -> Sequence[Event]:
        target = 20 if "long" in options else 10
        tokens = self.setup(seats, seed, options).secrets
        return (
            public(f"a race to {target}", SPEAK.say("A race to {target}", target=target)),
            *(
                private(f"your token {token}", seat, say=SPEAK.say("Your token is {token}", token=token))
                for seat, token in enumerate(tokens)
            ),
        )

    def to_act(self, state: ToyState) -> frozenset[int]:
        return frozenset() if state.total >= state.target else frozenset({state.turn})

    def legal_actions(self, state: ToyState, seat: int) -> Sequence[Add]:
        if seat not in self.to_act(state):
            return []
        return [Add(amount=1), Add(amount=2)]

    def apply(self, state: ToyState, seat: int, action: Add) -> Step[ToyState]:
        if seat not in self.to_act(state):
            raise NotYourTurn("not your turn")
        if action.amount not in (1, 2):
            raise IllegalAction(f"you cannot add {action.amount}", ["add 1", "add 2"])
        rng = Rng(state.rng)
        token = rng.below(100)
        secrets = list(state.secrets)
        secrets[seat] = token
        new = state.model_copy(
            update={
                "total": state.total + action.amount,
                "turn": (seat + 1) % state.seats,
                "secrets": tuple(secrets),
                "rng": rng.state,
            }
        )
        added = SPEAK.say(
            "{player} adds {amount}: {total}", player=who(seat), amount=action.amount, total=new.total
        )
        events = (
            public(f"S{seat + 1} adds {action.amount} => {new.total}", added),
            private(f"you drew {token}", seat, say=SPEAK.say("You drew {token}", token=token)),
        )
        return Step(new, events)

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.total < state.target:
            return None
        winner = (state.turn - 1) % state.seats
        places = tuple(1 if s == winner else 2 for s in range(state.seats))
        scores = tuple(1 if s == winner else 0 for s in range(state.seats))
        return Outcome(
            scores=scores,
            places=places,
            reason=f"S{winner + 1} reached {state.target}",
            reason_say=SPEAK.say("{player} reached {target}", player=who(winner), target=state.target),
            breakdown=(SPEAK.say("The total is {total}", total=state.total),),
        )

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        secret = state.secrets[seat] if seat is not None else None
        return ToyView(total=state.total, turn=state.turn, my_secret=secret)

    def notation(self, action: Add) -> str:
        return f"add {action.amount}"

    def parse(self, text: str) -> Add:
        words = text.strip().lower().split()
        if len(words) != 2 or words[0] != "add" or not words[1].isdigit():
            raise NotationError(f"cannot read {text!r}", ["add 1", "add 2"])
        return Add(amount=int(words[1]))

    def resample_secrets(self, state: ToyState, seat: int, rng: Rng) -> ToyState:
        secrets = list(state.secrets)
        secrets[seat] = rng.below(100)
        return state.model_copy(update={"secrets": tuple(secrets)})


class ToyPresentation(PresentationDefaults):
    def describe(self, state: ToyState, seat: int, action: Add) -> Say:
        return SPEAK.say("Add {amount} to {total}", amount=action.amount, total=state.total)

    def multi_selects(self, state: ToyState, seat: int) -> Sequence[MultiSelect]:
        return []


class AlwaysTwo:
    name = "two"

    def choose(self, rules: object, state: object, seat: int, legal: Sequence[Add], rng: Rng) -> Add:
        return legal[-1]


TOY = ToyRules()
TOY_PRESENTATION = ToyPresentation()
