"""The light playout plays exactly the rules, and the greedy player's exact choices, of the base game."""

from __future__ import annotations

from engine.core.rng import Rng, bot_rng
from engine.ny_piatnik import POLICIES, RULES
from engine.ny_piatnik.cards import COLOUR_INDEX, NEIGHBOURS
from engine.ny_piatnik.playout import (
    Playout,
    groups,
    house_value,
    largest_part,
    largest_size,
    price_in,
    value_without,
)
from engine.ny_piatnik.scoring import colour_mask, largest_group
from engine.ny_piatnik.state import NyState
from engine.ny_piatnik.strong import QuickGreedy, evaluate, evaluate_playout

from .helpers import build


def starts(seats: int, seed: int, every: int) -> list[NyState]:
    """Every ``every``-th position of a seeded greedy match that a playout covers."""
    state = RULES.setup(seats, seed, frozenset())
    found = []
    ply = 0
    while RULES.outcome(state) is None:
        seat = min(RULES.to_act(state))
        if Playout.covers(state):
            found.append(state)
        legal = RULES.legal_actions(state, seat)
        state = RULES.apply(
            state, seat, POLICIES["greedy"].choose(RULES, state, seat, legal, bot_rng(seed, ply))
        ).state
        ply += 1
    return found[::every]


def assert_same(playout: Playout, state: NyState) -> None:
    """The playout holds exactly the facts of ``state``, and scores it the same way."""
    assert playout.board == list(state.board)
    assert playout.money == list(state.money)
    assert [tuple(h) for h in playout.hands] == list(state.hands)
    assert playout.deck == list(state.deck) and playout.discard == list(state.discard)
    assert playout.rng.state == state.rng
    assert playout.final_phase == state.final_phase and playout.over == (state.phase == "over")
    assert playout.over or playout.active == state.active
    assert all(playout.supply[h] == state.supply[COLOUR_INDEX[h]] for h in state.houses)
    assert all(evaluate_playout(playout, s) == evaluate(state, s) for s in range(state.seats))


def test_playout_follows_the_rules_to_the_end() -> None:
    # Random plays reach removals, purchases, resets, reshuffles and the Stop card; greedy ones must
    # also draw the same ties from the same generator.
    ends = 0
    for seats, seed in ((3, 81), (4, 82), (5, 83)):
        for k, start in enumerate(starts(seats, seed, 25)):
            greedy = k % 2 == 0
            rules_rng, light_rng = Rng(seed + k), Rng(seed + k)
            state, playout = start, Playout.of(start)
            assert_same(playout, state)
            while state.phase != "over":
                (actor,) = RULES.to_act(state)
                legal = RULES.legal_actions(state, actor)
                if greedy:
                    move = QuickGreedy().choose(RULES, state, actor, legal, rules_rng)
                    playout.play(*playout.greedy_move(light_rng))
                else:
                    move = legal[rules_rng.below(len(legal))]
                    light_rng.below(len(legal))
                    playout.play_action(move)
                state = RULES.apply(state, actor, move).state
                assert_same(playout, state)
                assert rules_rng.state == light_rng.state
            ends += 1
    assert ends >= 6


def test_playout_covers_only_the_base_main_phase() -> None:
    assert Playout.covers(build(3))
    assert not Playout.covers(build(3, options={"events"}))
    assert not Playout.covers(build(2))
    assert not Playout.covers(RULES.setup(3, 1, frozenset()))  # the preliminary round


def test_copies_are_independent() -> None:
    playout = Playout.of(starts(3, 84, 10)[1])
    copy = playout.copy()
    copy.play(*copy.greedy_move(Rng(1)))
    assert copy.hands != playout.hands or copy.board != playout.board
    assert Playout.of(starts(3, 84, 10)[1]).board == playout.board


def test_group_helpers() -> None:
    mask = colour_mask(build(3, owners={"PARK-38": "red", "PARK-42": "red", "LEX-57": "red"}).board, "red")
    assert house_value(mask) == largest_group(mask) + 3 == 5
    assert largest_part(mask).bit_count() == 2 and largest_part(mask) & mask == largest_part(mask)
    # PARK-38 (index 36): two red buildings on Park Avenue, one on 38th Street; the smaller count.
    assert price_in(mask, 36) == 1
    assert price_in(mask, 37) == 1 and price_in(mask | 1 << 44, 37) == 2  # PARK-42, then LEX-42 too


def test_values_after_one_change_match_a_recount() -> None:
    rng = Rng(7)
    for _ in range(300):
        mask = rng.next_u64() & rng.next_u64() & ((1 << 49) - 1)  # about a quarter of the board
        idx = rng.below(49)
        bit = 1 << idx
        if mask & bit:
            assert value_without(mask, bit) == house_value(mask & ~bit)
        else:
            joined = bit
            for j in NEIGHBOURS[idx]:
                joined |= groups(mask)[j]
            assert max(largest_size(mask), joined.bit_count()) == largest_group(mask | bit)
        group = groups(mask)[idx]
        assert (group == 0) == (not mask & bit) and group & mask == group
