"""Whole matches for every seat count and option set, mirroring tests/engine/test_contract.py for skyline:
they end, replay, round-trip, keep secrets, accept every multi-select, refuse out-of-turn play.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

from engine.core.contract import Step, dump_state, load_state
from engine.core.errors import NotYourTurn
from engine.core.replay import LoggedAction, replay
from engine.core.rng import Rng, bot_rng
from engine.skyline import POLICIES, PRESENTATION, RULES
from engine.skyline.actions import Action
from engine.skyline.cards import BONUS_IDS, COLOURED, MISSION_IDS, NEUTRAL_COUNT, SUPPLY_PER_COLOUR
from engine.skyline.state import SkylineState

OPTION_SETS = [frozenset(c) for n in range(3) for c in combinations(sorted(RULES.options), n)]
SETUPS = [(s, o) for s in RULES.seat_counts for o in OPTION_SETS]
IDS = [f"{s}p-{'+'.join(sorted(o)) or 'base'}" for s, o in SETUPS]


def playout(
    seats: int, seed: int, options: frozenset[str] = frozenset(), greedy: int | None = None
) -> Iterator[tuple[SkylineState, int, Action, Step[Any]]]:
    """Random legal actions to the end (``greedy`` seat plays greedily); yields every move."""
    state = RULES.setup(seats, seed, options)
    for ply in range(5000):
        if RULES.outcome(state) is not None:
            return
        (seat,) = RULES.to_act(state)
        legal = RULES.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        policy = POLICIES["greedy" if seat == greedy else "random"]
        action = policy.choose(RULES, state, seat, legal, bot_rng(seed, ply))
        step = RULES.apply(state, seat, action)
        yield state, seat, action, step
        state = step.state
    pytest.fail("no end after 5000 actions")


def _conserved(st: SkylineState) -> None:
    """Every piece, card and mission is somewhere exactly once; cash stays within 0..30 (§2)."""
    for s in range(st.seats):
        on_board = [p[1:] for stack in st.board for p in stack if p[0] == str(s)]
        for i, c in enumerate(COLOURED):
            assert on_board.count(c) + st.stock[s].count(c) + st.supply[s][i] == SUPPLY_PER_COLOUR[c]
        assert on_board.count("S") + st.stock[s].count("S") == st.skyline_received[s] <= 2
        assert 0 <= st.cash[s] <= 30
    neutrals = sum(p == "N" for stack in st.board for p in stack) + sum(s.count("N") for s in st.stock)
    assert neutrals + st.neutral_supply == NEUTRAL_COUNT
    cards = [c for h in st.hands for c in h] + list(st.deck) + [c for h in st.claimed for c in h]
    assert len(cards) == len(set(cards)) and set(cards) <= set(BONUS_IDS)
    assert len(cards) + 3 * sum(st.exchanged) == len(BONUS_IDS)
    assert sorted(st.missions + st.spare_missions) == sorted(MISSION_IDS)
    assert all(len(stack) <= 5 for stack in st.board)


@pytest.mark.parametrize(("seats", "options"), SETUPS, ids=IDS)
def test_random_playouts_end_and_replay(seats: int, options: frozenset[str]) -> None:
    for seed in (1, 2):
        log: list[LoggedAction] = []
        final = RULES.setup(seats, seed, options)
        for state, seat, action, step in playout(seats, seed, options, greedy=0 if seed == 2 else None):
            log.append(LoggedAction(seat=seat, notation=RULES.notation(action)))
            final = step.state
            if len(log) % 5 == 0:
                _conserved(state)
        _conserved(final)
        outcome = RULES.outcome(final)
        assert outcome is not None
        assert len(outcome.scores) == len(outcome.places) == seats
        assert min(outcome.places) == 1 and max(outcome.places) <= seats
        if "tournament" in options:
            assert sorted(outcome.places) == list(range(1, seats + 1))  # always one winner
        assert RULES.to_act(final) == frozenset()
        replayed, _ = replay(RULES, seats, seed, options, log)
        assert replayed == final
        assert load_state(RULES, dump_state(final)) == final


@pytest.mark.parametrize(("seats", "options"), SETUPS, ids=IDS)
def test_notation_round_trips_and_every_legal_action_is_accepted(seats: int, options: frozenset[str]) -> None:
    checked = 0
    for ply, (state, seat, _action, _step) in enumerate(playout(seats, 3, options)):
        for action in RULES.legal_actions(state, seat):
            text = RULES.notation(action)
            assert RULES.parse(text) == action, text
            assert RULES.parse(text.upper()) == action and RULES.parse(text.lower()) == action, text
            if ply % 4 == 0:
                RULES.apply(state, seat, action)
            checked += 1
        assert load_state(RULES, dump_state(state)) == state
    assert checked > 0


@pytest.mark.parametrize(("seats", "options"), SETUPS, ids=IDS)
def test_out_of_turn_is_refused(seats: int, options: frozenset[str]) -> None:
    for state, _seat, action, _step in playout(seats, 4, options):
        waiting = [s for s in range(seats) if s not in RULES.to_act(state)]
        assert waiting
        assert list(RULES.legal_actions(state, waiting[0])) == []
        assert list(PRESENTATION.multi_selects(state, waiting[0])) == []
        with pytest.raises(NotYourTurn):
            RULES.apply(state, waiting[0], action)
        return


@pytest.mark.parametrize(("seats", "options"), SETUPS, ids=IDS)
def test_secrets_stay_with_their_owner(seats: int, options: frozenset[str]) -> None:
    rng = Rng.from_seed(99)
    resampled = 0
    states = [s for s, *_ in playout(seats, 5, options)]
    for ply, state in enumerate(states):
        if ply % 7 and ply != len(states) - 1:
            continue
        # What the public and each seat see of the real position, for every owner's redraw.
        seen = {viewer: RULES.view(state, viewer) for viewer in (None, *range(seats))}
        for owner in range(seats):
            other = RULES.resample_secrets(state, owner, rng)
            resampled += other != state
            assert RULES.view(other, None) == seen[None]
            for viewer in set(range(seats)) - RULES.observers(state, owner):
                assert RULES.view(other, viewer) == seen[viewer]
    assert resampled > 0


@pytest.mark.parametrize(("seats", "options"), SETUPS, ids=IDS)
def test_multi_selects_make_legal_actions(seats: int, options: frozenset[str]) -> None:
    offered = 0
    for state, seat, _action, _step in playout(seats, 6, options):
        for choice in PRESENTATION.multi_selects(state, seat):
            assert 1 <= choice.min_items <= choice.max_items <= len(choice.items)
            for size in {choice.min_items, choice.max_items}:
                RULES.apply(state, seat, RULES.parse(choice.notation(range(size))))
                offered += 1
    assert offered > 0


@pytest.mark.parametrize(("seats", "options"), SETUPS, ids=IDS)
def test_setup_events_are_reproducible_and_private_lines_stay_private(
    seats: int, options: frozenset[str]
) -> None:
    first = list(RULES.setup_events(seats, 11, options))
    assert first == list(RULES.setup_events(seats, 11, options))
    state = RULES.setup(seats, 11, options)
    for event in first:
        if event.text.startswith(("mission", "hand")):
            assert event.audience is not None and len(event.audience) == 1
    for s in range(seats):
        assert any(e.text == f"mission {state.missions[s]}" and e.audience == {s} for e in first)


def test_hidden_variant_keeps_money_out_of_the_public_log() -> None:
    seen = 0
    for _state, _seat, _action, step in playout(3, 7, frozenset({"hidden"})):
        for event in step.events:
            if event.text.startswith(("pay ", "income ")) and len(event.text.split()) > 2:
                assert event.audience is not None and len(event.audience) <= 2
                seen += 1
            if event.is_public:
                assert not event.text.startswith(("pay ", f"{event.text.split()[0]} buy"))
                assert " buy " not in event.text and " sell " not in event.text
    assert seen > 0
