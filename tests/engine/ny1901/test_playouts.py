"""Random playouts for every seat count and option combination, mirroring tests/engine/test_contract.py."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

from engine.core.contract import dump_state, load_state
from engine.core.errors import EngineError, NotYourTurn
from engine.core.replay import LoggedAction, replay
from engine.core.rng import Rng, bot_rng
from engine.ny1901 import POLICIES, RULES

MAX_ACTIONS = 5_000


def _setups() -> list[Any]:
    out = []
    names = sorted(RULES.options)
    for seats in RULES.seat_counts:
        for size in range(len(names) + 1):
            for combo in combinations(names, size):
                options = frozenset(combo)
                try:
                    RULES.validate_setup(seats, options)
                except EngineError:
                    continue
                out.append(pytest.param(seats, options, id=f"{seats}p-{'+'.join(combo) or 'base'}"))
    return out


SETUPS = _setups()


def random_playout(seats: int, seed: int, options: frozenset[str]) -> Iterator[tuple[Any, int, Any, Any]]:
    """Random legal actions to the end; yields (state, seat, action, step) for every move."""
    policy = POLICIES["random"]
    state = RULES.setup(seats, seed, options)
    for ply in range(MAX_ACTIONS):
        if RULES.outcome(state) is not None:
            return
        to_act = RULES.to_act(state)
        assert to_act, "a match that is not over must have someone to act"
        seat = min(to_act)
        legal = RULES.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        action = policy.choose(RULES, state, seat, legal, bot_rng(seed, ply))
        step = RULES.apply(state, seat, action)
        yield state, seat, action, step
        state = step.state
    pytest.fail(f"no end after {MAX_ACTIONS} actions")


def test_every_option_combination_is_valid() -> None:
    assert len(SETUPS) == 3 * 4


@pytest.mark.parametrize(("seats", "options"), SETUPS)
def test_random_playouts_end_and_replay(seats: int, options: frozenset[str]) -> None:
    for seed in (1, 2):
        log: list[LoggedAction] = []
        final = RULES.setup(seats, seed, options)
        for _state, seat, action, step in random_playout(seats, seed, options):
            log.append(LoggedAction(seat=seat, notation=RULES.notation(action)))
            final = step.state
        outcome = RULES.outcome(final)
        assert outcome is not None
        assert len(outcome.scores) == len(outcome.places) == seats
        assert min(outcome.places) == 1 and max(outcome.places) <= seats
        assert RULES.to_act(final) == frozenset()
        replayed, _ = replay(RULES, seats, seed, options, log)
        assert replayed == final
        assert load_state(RULES, dump_state(final)) == final


@pytest.mark.parametrize(("seats", "options"), SETUPS)
def test_notation_round_trips_and_json_survives(seats: int, options: frozenset[str]) -> None:
    checked = 0
    for state, seat, _action, _step in random_playout(seats, 3, options):
        for action in RULES.legal_actions(state, seat):
            text = RULES.notation(action)
            assert RULES.parse(text) == action, text
            assert RULES.parse(text.upper()) == action, text
            checked += 1
        assert load_state(RULES, dump_state(state)) == state
    assert checked > 0


@pytest.mark.parametrize(("seats", "options"), SETUPS)
def test_out_of_turn_is_refused(seats: int, options: frozenset[str]) -> None:
    for state, _seat, action, _step in random_playout(seats, 4, options):
        waiting = [s for s in range(seats) if s not in RULES.to_act(state)]
        assert waiting
        assert list(RULES.legal_actions(state, waiting[0])) == []
        with pytest.raises(NotYourTurn):
            RULES.apply(state, waiting[0], action)
        return


@pytest.mark.parametrize(("seats", "options"), SETUPS)
def test_secrets_stay_with_their_owner(seats: int, options: frozenset[str]) -> None:
    """Redrawing the deck order changes nothing that the public or any seat can see (§6)."""
    rng = Rng.from_seed(99)
    resampled = 0
    for ply, (state, _seat, _action, _step) in enumerate(random_playout(seats, 5, options)):
        if ply % 7:
            continue
        for owner in range(seats):
            other = RULES.resample_secrets(state, owner, rng)
            resampled += other != state
            assert RULES.view(other, None) == RULES.view(state, None)
            for viewer in set(range(seats)) - RULES.observers(state, owner):
                assert RULES.view(other, viewer) == RULES.view(state, viewer)
    assert resampled > 0


@pytest.mark.parametrize(("seats", "options"), SETUPS)
def test_no_multi_selects(seats: int, options: frozenset[str]) -> None:
    for state, seat, _action, _step in random_playout(seats, 6, options):
        assert list(RULES.multi_selects(state, seat)) == []


@pytest.mark.parametrize(("seats", "options"), SETUPS)
def test_setup_events_are_reproducible(seats: int, options: frozenset[str]) -> None:
    first = list(RULES.setup_events(seats, 11, options))
    assert first == list(RULES.setup_events(seats, 11, options))
    assert all(e.is_public for e in first)


def test_card_lot_invariant_holds_through_a_playout() -> None:
    """§2.4: per type, deck + market cards = unowned lots of that type (also after give-backs)."""
    from collections import Counter

    from engine.ny1901.cards import LOT_TYPE, card_type, lot_card_types

    for seats in (2, 4):
        for state, _seat, _action, _step in random_playout(seats, 8, frozenset()):
            cards = Counter(card_type(c) for c in (*state.deck, *state.market) if c is not None)
            free = Counter(LOT_TYPE[i] for i, o in enumerate(state.lot_owner) if o < 0)
            for typ in lot_card_types(state.two_player):
                assert cards[typ] == free[typ], typ
