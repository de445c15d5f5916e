"""The strong computer player: legal, blind to what its seat cannot see, and deterministic for a seed."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from engine.core.rng import Rng
from engine.core.search import Budget
from engine.host.selfplay import play_match
from engine.ny_henn import POLICIES, RULES
from engine.ny_henn.actions import Action
from engine.ny_henn.scoring import majority_points
from engine.ny_henn.state import HennState
from engine.ny_henn.strong import (
    BUDGET,
    OFFERED,
    REDESIGNS,
    StrongPolicy,
    determinize,
    evaluate,
    expected_majority,
    rollout_actions,
    rollout_choice,
    round_share,
)
from tests.engine.positions import greedy_positions as greedy_positions_of

STRONG = POLICIES["strong"]


def greedy_positions(seats: int, seed: int, options: frozenset[str] = frozenset()) -> list[HennState]:
    """Every position of a seeded match of greedy players where someone must decide."""
    return greedy_positions_of(RULES, "ny_henn", seats, seed, options)


def helps(state: HennState, action: Action) -> bool:
    """Whether ``action`` makes its seat's standing better, as the strong player's evaluation reads it."""
    return evaluate(RULES.advance(state, state.active, action), state.active) > evaluate(state, state.active)


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


def test_expected_majority_is_the_rule_when_nothing_is_to_come() -> None:
    c_places = (21, 13, 6)
    for counts in ((3, 1, 0), (2, 2, 1), (1, 1, 1), (0, 0, 0), (4, 2, 2)):
        exact = majority_points(counts, c_places)
        expected = expected_majority(counts, 3, 0.0, c_places)
        # Ties are shared as chances (a three-way tie: 13.25 against 13), close to the rule's share.
        assert all(abs(e - x) <= 0.5 for e, x in zip(expected, exact, strict=True)), counts


def test_expected_majority_doubts_a_lead_that_can_still_change() -> None:
    c_places = (21, 13, 6)
    sure = expected_majority((2, 1, 1), 3, 0.0, c_places)
    open_ = expected_majority((2, 1, 1), 3, 4.0, c_places)
    assert open_[0] < sure[0] and open_[1] > sure[1]
    assert open_[1] == open_[2]  # equal counts, equal chances
    assert expected_majority((0, 0, 0), 3, 3.0, c_places)[0] > 0  # a seat may still join
    # Dirk (the last count of a 2-player row) is a rival but scores nothing here.
    assert len(expected_majority((1, 0, 2), 2, 0.0, c_places)) == 2
    assert expected_majority((1, 0, 2), 2, 0.0, c_places)[0] == 13


def test_round_share_grows_as_the_scoring_card_is_further_off() -> None:
    state = RULES.setup(3, 31, frozenset())
    left = len(state.bag) + 4
    share_a = round_share(state, "A", left)
    share_b = round_share(state, "B", left)
    assert 0 < share_a < share_b <= 1


def test_candidates_weigh_a_take_against_the_buys() -> None:
    positions = [
        p
        for p in greedy_positions(3, 24)
        if p.phase == "action" and any(a.kind == "buy" for a in RULES.legal_actions(p, p.active))
    ]
    assert positions
    for state in positions[:10]:
        legal = RULES.legal_actions(state, state.active)
        picked = cast(StrongPolicy, STRONG).candidates(state, state.active, legal)
        usable = [a for a in legal if a.kind not in REDESIGNS or helps(state, a)]
        assert len(picked) == min(len(usable), OFFERED) and len(set(picked)) == len(picked)
        assert {"take", "buy"} <= {a.kind for a in picked} or not any(a.kind == "take" for a in legal)


def test_a_redesign_that_does_not_help_is_never_offered() -> None:
    """Two strong players once rebuilt one cell back and forth for ever (seed 5, two seats): each
    redesign offered makes its seat's standing better."""
    seen = 0
    for state in greedy_positions(2, 5) + greedy_positions(3, 7):
        if state.phase != "action":
            continue
        legal = RULES.legal_actions(state, state.active)
        picked = cast(StrongPolicy, STRONG).candidates(state, state.active, legal)
        redesigns = [a for a in picked if a.kind in REDESIGNS]
        seen += len(redesigns)
        assert all(helps(state, a) for a in redesigns) or all(a.kind in REDESIGNS for a in picked)
        if any(a.kind in REDESIGNS and not helps(state, a) for a in legal):
            assert any(a.kind not in REDESIGNS for a in picked)
    assert seen > 0  # some redesigns help, and are offered


def test_two_strong_players_finish_the_match_they_once_never_ended() -> None:
    played = play_match(RULES, 2, 5, frozenset(), [STRONG])
    assert played.error is None and played.outcome is not None
