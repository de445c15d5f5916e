"""The strong computer player: legal, blind to what its seat cannot see, and deterministic for a seed."""

from __future__ import annotations

from dataclasses import replace

from engine.core.rng import Rng, bot_rng
from engine.core.search import Budget
from engine.ny_henn import POLICIES, RULES
from engine.ny_henn.state import HennState
from engine.ny_henn.strong import BUDGET, StrongPolicy, determinize, rollout_actions, rollout_choice

STRONG = POLICIES["strong"]


def greedy_positions(seats: int, seed: int) -> list[HennState]:
    """Every position of a greedy match, from the opening to the last decision."""
    greedy = POLICIES["greedy"]
    state = RULES.setup(seats, seed, frozenset())
    positions = []
    for ply in range(5000):
        if RULES.outcome(state) is not None:
            return positions
        positions.append(state)
        seat = min(RULES.to_act(state))
        action = greedy.choose(RULES, state, seat, RULES.legal_actions(state, seat), bot_rng(seed, ply))
        state = RULES.apply(state, seat, action).state
    raise AssertionError("the greedy match did not end")


def choices(state: HennState) -> int:
    return len(RULES.legal_actions(state, min(RULES.to_act(state))))


def test_registered_as_strong() -> None:
    assert isinstance(STRONG, StrongPolicy) and STRONG.name == "strong"


def test_only_legal_actions_in_every_kind_of_decision() -> None:
    # A smaller budget keeps the test fast; the search and its rollouts are the same.
    quick = StrongPolicy(replace(BUDGET, worlds=2, candidates=3, depth=4))
    positions = greedy_positions(3, 11)
    picked = positions[::6] + [p for p in positions if p.phase == "final" or p.chain_open][:6]
    picked += [p for p in positions if p.reserves[p.active] and p.phase == "action"][:3]
    picked += greedy_positions(2, 12)[1::9]  # the Dirk variant: gifts to Dirk are legal there
    phases = {p.phase for p in picked}
    assert {"action", "placement", "final"} <= phases
    assert any(p.chain_open for p in picked) and len(picked) >= 30
    for n, state in enumerate(picked):
        seat = min(RULES.to_act(state))
        legal = RULES.legal_actions(state, seat)
        assert quick.choose(RULES, state, seat, legal, Rng.from_seed(n)) in legal


def test_rollout_actions_are_legal_and_keep_the_greedy_choice() -> None:
    greedy = POLICIES["greedy"]
    for state in greedy_positions(3, 13)[::3] + greedy_positions(2, 14)[::5]:
        seat = min(RULES.to_act(state))
        legal = RULES.legal_actions(state, seat)
        fast = rollout_actions(state, seat)
        assert [a for a in legal if a in set(fast)] == fast  # a subset, in the same order
        best = greedy.choose(RULES, state, seat, legal, Rng(0))
        assert greedy.choose(RULES, state, seat, fast, Rng(0)) == rollout_choice(state, seat, fast) == best


def _blind_twins(state: HennState, seat: int, n: int) -> list[HennState]:
    """States ``seat`` cannot tell from ``state``: other hands redrawn, another future, decks reshuffled."""
    rng = Rng.from_seed(100 + n)
    twins = [RULES.resample_secrets(state, other, rng) for other in range(state.seats) if other != seat]
    twins.append(state.model_copy(update={"rng": state.rng ^ 0x5DEECE66D}))
    twins.append(
        state.model_copy(
            update={"deck": tuple(rng.shuffled(state.deck)), "bag": tuple(rng.shuffled(state.bag))}
        )
    )
    return twins


def test_no_peeking_at_other_hands_the_deck_the_bag_or_the_future() -> None:
    positions = [
        p
        for p in greedy_positions(3, 21)
        if p.phase in ("action", "placement") and all(p.hands) and choices(p) > 1
    ]
    picked = positions[5::15][:4]
    assert len(picked) == 4
    changed = 0
    for n, state in enumerate(picked):
        seat = min(RULES.to_act(state))
        legal = RULES.legal_actions(state, seat)
        chosen = STRONG.choose(RULES, state, seat, legal, Rng.from_seed(n))
        for twin in _blind_twins(state, seat, n):
            assert twin != state
            assert RULES.legal_actions(twin, seat) == legal
            changed += twin.hands != state.hands
            assert STRONG.choose(RULES, twin, seat, legal, Rng.from_seed(n)) == chosen
    assert changed >= len(picked), "no other hand was ever redrawn, so this test proved nothing"


def test_worlds_depend_only_on_what_the_seat_sees() -> None:
    state = [p for p in greedy_positions(3, 22) if p.phase == "action" and all(p.hands)][20]
    seat = state.active
    for twin in _blind_twins(state, seat, 1):
        assert determinize(twin, seat, Rng(7)) == determinize(state, seat, Rng(7))
    world = determinize(state, seat, Rng(7))
    assert world.hands[seat] == state.hands[seat] and world.hands != state.hands
    unseen = [c for s in range(state.seats) if s != seat for c in state.hands[s]] + list(state.deck)
    redrawn = [c for s in range(state.seats) if s != seat for c in world.hands[s]] + list(world.deck)
    assert sorted(redrawn) == sorted(unseen) and sorted(world.bag) == sorted(state.bag)
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]


def test_same_state_and_seed_same_action() -> None:
    positions = [p for p in greedy_positions(3, 23) if choices(p) > 1][10::40][:2]
    quick = StrongPolicy(Budget(worlds=3, candidates=4, depth=6, steps=200))
    for n, state in enumerate(positions):
        seat = min(RULES.to_act(state))
        legal = RULES.legal_actions(state, seat)
        first = STRONG.choose(RULES, state, seat, legal, Rng.from_seed(n))
        assert STRONG.choose(RULES, state, seat, legal, Rng.from_seed(n)) == first
        assert quick.choose(RULES, state, seat, legal, Rng.from_seed(n)) == quick.choose(
            RULES, state, seat, legal, Rng.from_seed(n)
        )
