"""The strong player: legal, blind to the deck order and the state's generator, and reproducible."""

from __future__ import annotations

from collections import Counter
from functools import cache

from engine.core.rng import Rng, bot_rng
from engine.ny1901 import POLICIES, RULES
from engine.ny1901.actions import Action
from engine.ny1901.state import NyState

STRONG = POLICIES["strong"]
PER_KIND = 4  # positions kept per set of legal action kinds
RARE = {"grab", "boom", "giveback", "pass"}  # decisions kept whenever they come up


@cache
def positions() -> tuple[tuple[NyState, int, tuple[Action, ...]], ...]:
    """Decisions with a real choice from seeded greedy matches, a few of each kind of decision, the common
    ones spread over the match."""
    greedy = POLICIES["greedy"]
    kept: list[tuple[NyState, int, tuple[Action, ...]]] = []
    seen: Counter[frozenset[str]] = Counter()
    for seed in (1, 2, 3):
        state = RULES.setup(3, seed, frozenset())
        ply = 0
        while RULES.outcome(state) is None:
            seat = min(RULES.to_act(state))
            legal = tuple(RULES.legal_actions(state, seat))
            kinds = frozenset(a.kind for a in legal)
            spread = ply % 4 == seed % 4 or bool(kinds & RARE)
            if len(legal) > 1 and seen[kinds] < PER_KIND and spread:
                seen[kinds] += 1
                kept.append((state, seat, legal))
            action = greedy.choose(RULES, state, seat, legal, bot_rng(seed, ply))
            state = RULES.apply(state, seat, action).state
            ply += 1
    return tuple(kept)


def test_the_positions_cover_every_kind_of_decision() -> None:
    kinds = {a.kind for _, _, legal in positions() for a in legal}
    assert kinds >= {"shift", "take", "grab", "build", "boom", "rebuild", "giveback", "end", "pass"}
    assert len(positions()) >= 30


def test_strong_is_registered_under_its_name() -> None:
    assert STRONG.name == "strong"


def test_strong_only_chooses_legal_actions() -> None:
    for i, (state, seat, legal) in enumerate(positions()):
        assert STRONG.choose(RULES, state, seat, legal, Rng.from_seed(i)) in legal


def _blind_twin(state: NyState, seat: int, salt: int) -> NyState:
    """The same position with what ``seat`` cannot see redrawn: the deck order and the generator."""
    other = (seat + 1) % state.seats
    twin = RULES.resample_secrets(state, other, Rng.from_seed(salt))
    return twin.model_copy(update={"rng": Rng.from_seed(salt, 1).next_u64()})


def test_strong_does_not_peek_at_the_deck_or_the_generator() -> None:
    checked = 0
    for i, (state, seat, legal) in enumerate(positions()[::2]):
        if len(state.deck) < 2:
            continue
        twin = _blind_twin(state, seat, 100 + i)
        assert twin.deck != state.deck and sorted(twin.deck) == sorted(state.deck)
        assert twin.rng != state.rng
        assert RULES.view(twin, seat) == RULES.view(state, seat)
        mine = STRONG.choose(RULES, state, seat, legal, Rng.from_seed(7, i))
        assert STRONG.choose(RULES, twin, seat, legal, Rng.from_seed(7, i)) == mine
        checked += 1
    assert checked >= 15


def test_strong_is_deterministic_for_a_seed() -> None:
    for i, (state, seat, legal) in enumerate(positions()[::5]):
        first = STRONG.choose(RULES, state, seat, legal, Rng.from_seed(3, i))
        assert STRONG.choose(RULES, state, seat, legal, Rng.from_seed(3, i)) == first
