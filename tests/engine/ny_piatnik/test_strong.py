"""The strong computer player: legal, deterministic, and blind to what its seat cannot see."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import cast

import pytest

from engine.core.rng import Rng
from engine.ny_piatnik import POLICIES, RULES
from engine.ny_piatnik.actions import Action
from engine.ny_piatnik.cards import AVENUES, BUILDING_INDEX, RED_BACK, STREETS
from engine.ny_piatnik.playout import Playout, largest_part, largest_size
from engine.ny_piatnik.state import NyState
from engine.ny_piatnik.strong import (
    BUDGET,
    VARIANT_BUDGET,
    StrongPolicy,
    cut_loss,
    determinize,
    evaluate_playout,
    growth,
    reachable,
)
from tests.engine.positions import greedy_positions as greedy_positions_of

STRONG = POLICIES["strong"]
# The same player thinking less: the legality test visits many positions.
QUICK = StrongPolicy(
    dataclasses.replace(BUDGET, worlds=2, candidates=3),
    dataclasses.replace(VARIANT_BUDGET, worlds=2, candidates=3),
)


def greedy_positions(seats: int, seed: int, options: frozenset[str] = frozenset()) -> list[NyState]:
    """Every position of a seeded match of greedy players where someone must decide."""
    return greedy_positions_of(RULES, "ny_piatnik", seats, seed, options)


def kind_of(state: NyState) -> str:
    """The kind of decision due: the phase, or the pending decision's kind."""
    if state.pending is not None:
        return state.pending.kind
    return state.phase


def test_strong_is_registered_under_its_name() -> None:
    assert isinstance(STRONG, StrongPolicy) and STRONG.name == "strong"


def test_strong_only_returns_legal_actions() -> None:
    matches = [
        (3, 41, frozenset[str]()),
        (3, 42, frozenset({"events"})),
        (2, 43, frozenset({"events", "chosen_colours"})),
        (4, 44, frozenset({"team", "events"})),
        (5, 45, frozenset[str]()),
    ]
    kinds: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    checked = 0
    for seats, seed, options in matches:
        positions = greedy_positions(seats, seed, options)
        # Every decision kind of the match, and a spread of main-phase turns.
        picked = {kind_of(p): p for p in positions}
        chosen = [*picked.values(), *positions[len(positions) // 2 :: 9]]
        for ply, state in enumerate(chosen):
            seat = min(RULES.to_act(state))
            legal = RULES.legal_actions(state, seat)
            action = QUICK.choose(RULES, state, seat, legal, Rng(ply))
            assert action in legal, (RULES.notation(action), [RULES.notation(a) for a in legal])
            kinds[kind_of(state)] += 1
            actions[action.kind] += 1
            checked += 1
    assert checked >= 30
    assert {"colour_choice", "preliminary", "main", "give", "fill", "return"} <= set(kinds)
    assert {"colour", "place", "play"} <= set(actions)


def main_positions(seed: int, options: frozenset[str] = frozenset()) -> list[NyState]:
    """Main-phase turns of a greedy match where the player has a real choice, spread over the match."""
    positions = [
        p
        for p in greedy_positions(3, seed, options)
        if p.phase == "main" and p.pending is None and len(RULES.legal_actions(p, p.active)) > 1
    ]
    return positions[:: max(1, len(positions) // 4)][:4]


def variants(state: NyState, seat: int, salt: int) -> list[NyState]:
    """States ``seat`` cannot tell from ``state``: another seat's hand redrawn, a new future for the
    state's generator, the deck reshuffled."""
    out = []
    for other in range(state.seats):
        if other != seat:
            out.append(RULES.resample_secrets(state, other, Rng(salt + other)))
    out.append(state.model_copy(update={"rng": Rng(salt).next_u64()}))
    out.append(state.model_copy(update={"deck": tuple(Rng(salt + 7).shuffled(state.deck))}))
    return out


def test_strong_does_not_peek() -> None:
    compared = 0
    positions = [*main_positions(51)[2:], main_positions(52, frozenset({"events"}))[2]]
    for seed, state in enumerate(positions, 51):
        seat = state.active
        legal = RULES.legal_actions(state, seat)
        action = STRONG.choose(RULES, state, seat, legal, Rng(seed))
        for other in variants(state, seat, seed):
            assert other != state  # the test could fail: the secrets really differ
            assert other.hands[seat] == state.hands[seat]
            assert RULES.view(other, seat) == RULES.view(state, seat)
            assert STRONG.choose(RULES, other, seat, legal, Rng(seed)) == action
            compared += 1
    assert compared >= 12


def test_worlds_depend_only_on_the_view() -> None:
    state = main_positions(61)[1]
    seat = state.active
    for other in variants(state, seat, 61):
        assert determinize(other, seat, Rng(5)) == determinize(state, seat, Rng(5))


def test_worlds_keep_what_the_seat_sees() -> None:
    state = main_positions(62)[2]
    seat = state.active
    world = determinize(state, seat, Rng(9))
    assert world.hands[seat] == state.hands[seat] and world.board == state.board
    assert world.money == state.money and world.discard == state.discard
    assert world != state and world.rng != state.rng
    hidden = Counter(state.deck) + Counter(c for s, h in enumerate(state.hands) if s != seat for c in h)
    redrawn = Counter(world.deck) + Counter(c for s, h in enumerate(world.hands) if s != seat for c in h)
    assert redrawn == hidden
    for s in range(state.seats):
        backs = sum(1 for c in state.hands[s] if c in RED_BACK), len(state.hands[s])
        assert backs == (sum(1 for c in world.hands[s] if c in RED_BACK), len(world.hands[s]))


def test_strong_is_deterministic() -> None:
    for state in main_positions(71)[2:3]:
        seat = state.active
        legal = RULES.legal_actions(state, seat)
        first: Action = STRONG.choose(RULES, state, seat, legal, Rng(3))
        assert STRONG.choose(RULES, state, seat, legal, Rng(3)) == first


def test_light_playouts_decide_as_the_rules_would(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same budget both ways: the light playouts must change the speed, never the decision.
    budget = dataclasses.replace(BUDGET, worlds=6, candidates=4)
    policy = StrongPolicy(budget, budget)
    positions = main_positions(91)[1:]
    chosen = []
    for k, state in enumerate(positions):
        legal = RULES.legal_actions(state, state.active)
        chosen.append(policy.choose(RULES, state, state.active, legal, Rng(k)))
    monkeypatch.setattr(Playout, "covers", staticmethod(lambda state: False))
    for k, state in enumerate(positions):
        legal = RULES.legal_actions(state, state.active)
        assert policy.choose(RULES, state, state.active, legal, Rng(k)) == chosen[k]


def mask_of(*buildings: str) -> int:
    """The bit board of the named buildings."""
    return sum(1 << BUILDING_INDEX[b] for b in buildings)


def test_reachable_buildings_are_the_crossings_of_the_hand() -> None:
    assert reachable(("8AV", "34")) == mask_of("8AV-34")
    assert reachable(("8AV", "LEX", "34", "34")) == mask_of("8AV-34", "LEX-34")
    assert reachable(("8AV", "BJ")) == mask_of(*(f"8AV-{s}" for s in STREETS))
    assert reachable(("RJ", "57")) == mask_of(*(f"{a}-57" for a in AVENUES))
    assert reachable(("8AV", "RJ")) == 0  # no blue-back card: no pair


def test_growth_joins_groups_through_one_space() -> None:
    # A group of two on Park Avenue and a lone building two streets on: PARK-45 joins them into four.
    mask = mask_of("PARK-38", "PARK-42", "PARK-53")
    assert growth(mask, mask_of("PARK-45")) == 1  # PARK-53 is two streets from PARK-45
    assert growth(mask | mask_of("PARK-49"), mask_of("PARK-45")) == 3
    assert growth(mask, mask_of("PARK-34", "LEX-57")) == 1  # the best space counts, a lone one adds nothing
    assert growth(mask, mask_of("LEX-57")) == 0
    assert growth(mask, 0) == 0


def test_cut_is_the_worst_loss_of_one_building() -> None:
    row = mask_of("PARK-38", "PARK-42", "PARK-45", "PARK-49", "PARK-53")
    assert cut_loss(row, largest_part(row)) == 2  # losing PARK-45 leaves two groups of two
    square = mask_of("PARK-38", "PARK-42", "LEX-38", "LEX-42")
    assert cut_loss(square, largest_part(square)) == 0
    line = mask_of("PARK-38", "PARK-42", "PARK-45")
    assert cut_loss(line, largest_part(line)) == 1  # losing PARK-42 leaves single buildings
    # A separate group of two stays as large as what the cut leaves: only the building itself is lost.
    pair = mask_of("8AV-34", "8AV-38")
    assert cut_loss(line | pair, largest_part(line | pair)) == 0
    rng = Rng(11)
    for _ in range(200):
        mask = rng.next_u64() & ((1 << 49) - 1)
        part = largest_part(mask)
        losses = [part.bit_count() - 1 - largest_size(mask & ~(1 << i)) for i in range(49) if part >> i & 1]
        assert cut_loss(mask, part) == max(0, *losses)


def value_after(playout: Playout, seat: int, move: tuple[str, str, int]) -> float:
    """``seat``'s evaluation of the position after the active seat plays ``move``."""
    copy = playout.copy()
    copy.play(*move)
    return evaluate_playout(copy, seat)


def test_rollout_plays_of_the_seat_are_among_the_greedy_best_and_evaluated_no_worse() -> None:
    checked = 0
    for state in main_positions(73):
        playout = Playout.of(state)
        seat = playout.active
        moves, values = playout.greedy_values()
        if len(moves) < 2:
            continue
        top = sorted(range(len(moves)), key=lambda i: (-values[i], i))[:3]
        chosen = cast(StrongPolicy, STRONG)._own_move(playout, seat, 3)
        assert chosen in [moves[i] for i in top]
        best = max(value_after(playout, seat, moves[i]) for i in top)
        assert value_after(playout, seat, chosen) == best
        checked += 1
    assert checked >= 2
