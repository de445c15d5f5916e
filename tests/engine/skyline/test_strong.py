"""The strong computer player: legal, deterministic, blind to what its seat may not see, and its fast
greedy rollouts play exactly like the greedy player."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import cache

from engine.core.rng import Rng, bot_rng
from engine.skyline import POLICIES, RULES
from engine.skyline.actions import Action
from engine.skyline.state import SkylineState, income_groups, topped_mask
from engine.skyline.strong import (
    BUDGET,
    StrongPolicy,
    best_income,
    determinize,
    greedy_choice,
    rollout_legal,
)


def greedy_match(seed: int, options: frozenset[str] = frozenset()) -> Iterator[tuple[SkylineState, int]]:
    """Every position of a seeded 3-player greedy match, with the seat to act."""
    greedy = POLICIES["greedy"]
    state = RULES.setup(3, seed, options)
    ply = 0
    while RULES.outcome(state) is None:
        (seat,) = RULES.to_act(state)
        yield state, seat
        legal = RULES.legal_actions(state, seat)
        state = RULES.apply(state, seat, greedy.choose(RULES, state, seat, legal, bot_rng(seed, ply))).state
        ply += 1


@cache
def choices(seed: int, options: frozenset[str] = frozenset()) -> list[tuple[SkylineState, int]]:
    """The positions of a greedy match where the seat has a real choice."""
    return [(st, seat) for st, seat in greedy_match(seed, options) if len(RULES.legal_actions(st, seat)) > 1]


def sample(seed: int, every: int, options: frozenset[str] = frozenset()) -> list[tuple[SkylineState, int]]:
    """Every ``every``-th position of a greedy match where the seat has a real choice."""
    return choices(seed, options)[::every]


def test_strong_is_registered() -> None:
    assert POLICIES["strong"].name == "strong"
    assert isinstance(POLICIES["strong"], StrongPolicy)


def test_strong_only_plays_legal_actions_in_every_phase() -> None:
    # A lighter budget searches the same way; the registered one is used by the tests below.
    strong = StrongPolicy(replace(BUDGET, worlds=1, candidates=3, depth=10))
    phases: set[str] = set()
    kinds: set[str] = set()
    positions = sample(7100, 6)
    assert len(positions) >= 30
    for ply, (state, seat) in enumerate(positions):
        legal = RULES.legal_actions(state, seat)
        action = strong.choose(RULES, state, seat, legal, bot_rng(7100, ply))
        assert action in legal
        phases.add(state.phase)
        kinds.update(a.kind for a in legal)
    assert phases == {"build", "invest"}
    assert kinds == {"build", "endbuild", "buy", "sell", "endturn", "claim", "exchange"}


def _decide(state: SkylineState, seat: int, seed: int) -> Action:
    legal = RULES.legal_actions(state, seat)
    action: Action = POLICIES["strong"].choose(RULES, state, seat, legal, Rng(seed))
    return action


def test_strong_does_not_peek_at_hidden_cards_missions_or_the_deck() -> None:
    checked = 0
    for i, (state, seat) in enumerate(sample(7200, 29)[:4]):
        other = (seat + 1 + i % 2) % state.seats
        assert seat not in RULES.observers(state, other)
        twin = RULES.resample_secrets(state, other, Rng(99 + i))
        twin = twin.model_copy(update={"rng": state.rng ^ 0xDEADBEEF, "deck": tuple(reversed(twin.deck))})
        assert twin != state
        assert twin.hands[seat] == state.hands[seat] and twin.missions[seat] == state.missions[seat]
        assert RULES.legal_actions(twin, seat) == RULES.legal_actions(state, seat)
        assert _decide(twin, seat, 5) == _decide(state, seat, 5)
        # The worlds it imagines are the same too, not only the action.
        assert determinize(twin, seat, Rng(3)) == determinize(state, seat, Rng(3))
        checked += 1
    assert checked == 4


def test_strong_does_not_peek_at_hidden_money_in_the_advanced_game() -> None:
    hidden = frozenset({"hidden"})
    for i, (state, seat) in enumerate(sample(7300, 41, hidden)[:2]):
        other = (seat + 1) % state.seats
        cash = list(state.cash)
        cash[other] = (cash[other] + 7) % 31
        stock = list(state.stock)
        stock[other] = (*stock[other], "1") if state.supply[other][0] else stock[other][1:]
        twin = state.model_copy(update={"cash": tuple(cash), "stock": tuple(stock)})
        assert twin != state
        assert _decide(twin, seat, 11 + i) == _decide(state, seat, 11 + i)


def test_strong_is_deterministic_for_a_seed() -> None:
    for i, (state, seat) in enumerate(sample(7200, 37)[:3]):
        assert _decide(state, seat, 21 + i) == _decide(state, seat, 21 + i)


def test_fast_greedy_plays_like_the_greedy_player() -> None:
    greedy = POLICIES["greedy"]
    for state, seat in sample(7100, 2):
        legal = RULES.legal_actions(state, seat)
        assert greedy_choice(state, seat, legal) == greedy.choose(RULES, state, seat, legal, Rng(0))
        for s in range(state.seats):
            assert best_income(state.board, topped_mask(state.board, s)) == income_groups(state.board, s)[0]


def test_rollout_legal_actions_are_the_rules_own() -> None:
    for state, seat in sample(7100, 3) + sample(7200, 3):
        assert rollout_legal(RULES, state, seat) == RULES.legal_actions(state, seat)
