"""The strong player: legal, blind to what its seat cannot see, deterministic; its fast simulator is exact."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from engine.core.rng import Rng, bot_rng
from engine.fifth_avenue import POLICIES, RULES
from engine.fifth_avenue.cards import BLACK, COLOURS, card_colour, sort_cards
from engine.fifth_avenue.rules import bid_error
from engine.fifth_avenue.state import FifthState
from engine.fifth_avenue.strong import StrongPolicy, determinize, rollout_action, step

STRONG = POLICIES["strong"]


def _greedy_positions(seats: int, seed: int) -> Iterator[tuple[FifthState, int]]:
    """Every position of a greedy match with the seat to act."""
    st = RULES.setup(seats, seed, frozenset())
    for ply in range(3000):
        if RULES.outcome(st) is not None:
            return
        (seat,) = RULES.to_act(st)
        yield st, seat
        legal = RULES.legal_actions(st, seat)
        st = RULES.apply(
            st, seat, POLICIES["greedy"].choose(RULES, st, seat, legal, bot_rng(seed, ply))
        ).state


def _decisions(seats: int, seed: int, every: int) -> list[tuple[FifthState, int]]:
    """Every ``every``-th real decision (more than one legal action) of a greedy match, and each phase's
    first decision."""
    out: list[tuple[FifthState, int]] = []
    phases: set[str] = set()
    real = 0
    for st, seat in _greedy_positions(seats, seed):
        if len(RULES.legal_actions(st, seat)) < 2:
            continue
        if real % every == 0 or st.phase not in phases:
            out.append((st, seat))
            phases.add(st.phase)
        real += 1
    return out


def test_the_strong_player_is_registered() -> None:
    assert isinstance(STRONG, StrongPolicy) and STRONG.name == "strong"


def test_only_legal_actions_in_every_phase() -> None:
    assert isinstance(STRONG, StrongPolicy)
    quick = StrongPolicy(dataclasses.replace(STRONG.budget, worlds=1, candidates=3, depth=6))
    phases: set[str] = set()
    positions = _decisions(3, 41, 6) + _decisions(2, 42, 12) + _decisions(4, 43, 12)
    for st, seat in positions:
        legal = RULES.legal_actions(st, seat)
        assert quick.choose(RULES, st, seat, legal, Rng.from_seed(7)) in legal
        phases.add(st.phase)
    assert len(positions) >= 30
    assert phases == {"setup", "action", "draw", "move", "auction", "build"}


def test_the_fast_simulator_plays_legal_moves_exactly_as_the_rules_do() -> None:
    for seats, seed in ((2, 51), (3, 52), (4, 53)):
        for st, seat in _greedy_positions(seats, seed):
            action = rollout_action(st, seat)
            if action.kind == "bid":
                assert bid_error(st, seat, action.cards) is None
            else:
                assert action in RULES.legal_actions(st, seat)
            assert step(st, seat, action) == RULES.apply(st, seat, action).state


def _scrambled(st: FifthState, seat: int, rng: Rng) -> FifthState:
    """``st`` with everything ``seat`` cannot see redrawn: other seats' black cards (the contract's own
    resampling), the values of their coloured cards, the coloured decks below the top, the face-down
    black deck and the generator."""
    for other in range(st.seats):
        if seat not in RULES.observers(st, other):
            st = RULES.resample_secrets(st, other, rng)
    hands = [list(h) for h in st.hands]
    decks = [list(d) for d in st.decks]
    others = [s for s in range(st.seats) if s != seat]
    for index, colour in enumerate(COLOURS):
        pool = rng.shuffled(
            [c for s in others for c in hands[s] if card_colour(c) == colour] + decks[index][1:]
        )
        for s in others:
            hands[s] = [pool.pop() if card_colour(c) == colour else c for c in hands[s]]
        decks[index] = decks[index][:1] + pool
    down = [i for i, up in enumerate(st.black_up) if not up]
    black = list(st.black)
    for i, card in zip(down, rng.shuffled([black[i] for i in down]), strict=True):
        black[i] = card
    return st.model_copy(
        update={
            "hands": tuple(sort_cards(h) for h in hands),
            "decks": tuple(tuple(d) for d in decks),
            "black": tuple(black),
            "rng": rng.next_u64(),
        }
    )


def test_no_peeking_at_other_hands_the_decks_or_the_generator() -> None:
    checked = 0
    for st, seat in _decisions(3, 61, 9)[1:]:
        if not any(card_colour(c) == BLACK for s in range(3) if s != seat for c in st.hands[s]):
            continue
        other = _scrambled(st, seat, Rng.from_seed(checked + 1))
        assert other.hands != st.hands and other.black != st.black and other.rng != st.rng
        assert other.hands[seat] == st.hands[seat]
        assert RULES.view(other, seat) == RULES.view(st, seat)
        assert determinize(st, seat, Rng.from_seed(5)) == determinize(other, seat, Rng.from_seed(5))
        legal = RULES.legal_actions(st, seat)
        assert RULES.legal_actions(other, seat) == legal
        assert STRONG.choose(RULES, st, seat, legal, Rng.from_seed(9)) == STRONG.choose(
            RULES, other, seat, legal, Rng.from_seed(9)
        )
        checked += 1
        if checked == 6:
            return
    raise AssertionError("too few positions with hidden cards")


def test_the_same_state_and_seed_give_the_same_action() -> None:
    for st, seat in _decisions(3, 71, 25)[1:4]:
        legal = RULES.legal_actions(st, seat)
        first = STRONG.choose(RULES, st, seat, legal, Rng.from_seed(11))
        assert STRONG.choose(RULES, st, seat, legal, Rng.from_seed(11)) == first
