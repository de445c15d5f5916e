"""What a move revealed, by the rules of each game (``GameRules.revealed``): the undo policy's half that
belongs to the engine. A plain move may be taken back; a card or tile drawn, a random outcome or a
secret shown may not, and a move said to reveal nothing really shows nobody anything they could not
know before."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from engine.core.contract import GameRules, HiddenPile
from engine.core.errors import EngineError
from engine.core.rng import Rng, bot_rng
from engine.registry import GAMES, POLICIES
from tests.engine.test_contract import SETUPS, random_playout

# Every kind of reveal each game's moves make in the playouts below (None: a move that may be undone).
KINDS = {
    "fifth_avenue": {None, "card", "chance"},
    "ny1901": {None, "card", "chance"},
    "ny_henn": {None, "card", "tile", "secret"},
    "ny_piatnik": {None, "card", "chance"},
    "skyline": {None, "card", "secret"},
}


# The moves said to reveal nothing that are checked in each playout: every third, at most this many.
CHECK_EVERY = 3
MAX_CHECKS = 40


def test_a_pile_is_drawn_from_its_top_and_not_by_adding_under_it() -> None:
    top_first, top_last = HiddenPile(), HiddenPile(top="last", holds="tile")
    assert not top_first.drawn(("a", "b"), ("a", "b"))
    assert not top_first.drawn(("a", "b"), ("a", "b", "c"))  # a card put under the deck
    assert top_first.drawn(("a", "b"), ("b",))
    assert top_first.drawn(("a", "b"), ("b", "a"))  # reshuffled
    assert top_first.drawn(("a", "b"), ("b", "c"))  # drawn, then one put under
    assert not top_last.drawn(("a", "b"), ("c", "a", "b"))
    assert top_last.drawn(("a", "b"), ("a",))


def secretly_different(
    rules: GameRules[Any, Any], before: Any, seat: int, action: Any, after: Any, rng: Rng, tries: int = 3
) -> set[int | None]:
    """The viewers (None: the public) whose view after the move changes when what neither they nor the
    mover can see before it is redrawn (``resample_secrets``): they learned something hidden from
    the mover."""
    learned: set[int | None] = set()
    seats = before.seats
    for viewer in (None, *range(seats)):
        hidden = [
            j
            for j in range(seats)
            if seat not in rules.observers(before, j)
            and (viewer is None or viewer not in rules.observers(before, j))
        ]
        if not hidden:
            continue
        expected = rules.view(after, viewer)
        for _ in range(tries):
            other = before
            for owner in hidden:
                other = rules.resample_secrets(other, owner, rng)
            try:
                alternative = rules.apply(other, seat, action)
            except EngineError:
                learned.add(viewer)  # the move itself depended on the secret
                break
            if rules.revealed(other, seat, action, alternative.state, alternative.events) is not None:
                # Another course (a hand that cannot play is shown and replaced, say) that the rules
                # would not let anyone take back: not the course the match took.
                continue
            if rules.view(alternative.state, viewer) != expected:
                learned.add(viewer)
                break
    return learned


@pytest.mark.parametrize(("slug", "seats", "options"), SETUPS)
def test_a_move_said_to_reveal_nothing_shows_nobody_a_secret(
    slug: str, seats: int, options: frozenset[str]
) -> None:
    rules = GAMES[slug]
    rng = Rng.from_seed(7)
    undoable = 0
    for state, seat, action, step in random_playout(rules, seats, 1, options):
        if rules.revealed(state, seat, action, step.state, step.events) is not None:
            continue
        undoable += 1
        assert state.rng == step.state.rng
        if undoable % CHECK_EVERY or undoable > CHECK_EVERY * MAX_CHECKS:
            continue  # a sample keeps the test quick; the playouts vary by seat count and option
        learned = secretly_different(rules, state, seat, action, step.state, rng)
        assert not learned, f"{rules.notation(action)} showed {learned} a secret"
    assert undoable, "no move could be taken back, so this test proved nothing"


@pytest.mark.parametrize("slug", sorted(KINDS))
def test_each_game_has_moves_to_take_back_and_moves_that_reveal(slug: str) -> None:
    rules = GAMES[slug]
    seen: Counter[str | None] = Counter()
    examples: dict[str | None, str] = {}
    for seats in rules.seat_counts:
        for name in ("greedy", "random"):
            policy = POLICIES[slug][name]
            for seed in (1, 2):
                state = rules.setup(seats, seed, frozenset())
                ply = 0
                while rules.outcome(state) is None:
                    seat = min(rules.to_act(state))
                    legal = rules.legal_actions(state, seat)
                    action = policy.choose(rules, state, seat, legal, bot_rng(seed, ply))
                    step = rules.apply(state, seat, action)
                    kind = rules.revealed(state, seat, action, step.state, step.events)
                    seen[kind] += 1
                    examples.setdefault(kind, rules.notation(action))
                    state, ply = step.state, ply + 1
        if set(seen) >= KINDS[slug]:
            break
    assert set(seen) >= KINDS[slug], f"{slug}: only {dict(seen)}"


def test_the_default_counts_any_private_event_when_a_game_names_no_hidden_piles() -> None:
    from engine.core.contract import RulesDefaults, private, public
    from engine.core.model import Frozen

    class State(Frozen):
        rng: int = 0

    class Bare(RulesDefaults):
        def outcome(self, state: State) -> None:
            return None

    class Known(Bare):
        hidden_piles: ClassVar[Mapping[str, HiddenPile] | None] = {}

    plain, told = [public("x")], [private("you see x", 0)]
    assert Bare().revealed(State(), 0, None, State(), plain) is None
    assert Bare().revealed(State(), 0, None, State(), told) == "secret"
    assert Known().revealed(State(), 0, None, State(), told) is None  # only the mover was told
    assert Known().revealed(State(), 0, None, State(), [private("x", 1)]) == "secret"
    assert Known().revealed(State(), 0, None, State(rng=1), plain) == "chance"
