"""Whole matches for every seat count, mirroring tests/engine/test_contract.py for ny_henn:
they end, replay, round-trip, keep secrets, accept every multi-select, refuse out-of-turn play.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core.contract import Step, dump_state, load_state
from engine.core.errors import EngineError, NotYourTurn
from engine.core.replay import LoggedAction, replay
from engine.core.rng import Rng, bot_rng
from engine.ny_henn import POLICIES, PRESENTATION, RULES
from engine.ny_henn.actions import Action
from engine.ny_henn.cards import SCORING_CARDS, money_deck
from engine.ny_henn.city import city_error, fill_keeps_open, frontier, holes
from engine.ny_henn.state import HennState

from .helpers import city

SEATS = list(RULES.seat_counts)


def playout(
    seats: int, seed: int, greedy: int | None = None
) -> Iterator[tuple[HennState, int, Action, Step[Any]]]:
    """Random legal actions to the end (``greedy`` seat plays greedily); yields every move."""
    state = RULES.setup(seats, seed, frozenset())
    for ply in range(5000):
        if RULES.outcome(state) is not None:
            return
        to_act = RULES.to_act(state)
        assert to_act
        seat = min(to_act)
        legal = RULES.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        policy = POLICIES["greedy" if seat == greedy else "random"]
        action = policy.choose(RULES, state, seat, legal, bot_rng(seed, ply))
        step = RULES.apply(state, seat, action)
        yield state, seat, action, step
        state = step.state
    pytest.fail("no end after 5000 actions")


def _conserved(state: HennState) -> None:
    """Every card and tile is somewhere exactly once; every city stays valid (§4.7)."""
    money = [c for h in state.hands for c in h] + list(state.deck) + list(state.discard)
    money += [c for c in state.display if c is not None]
    assert sorted(c for c in money if c not in SCORING_CARDS) == sorted(money_deck(state.seats))
    tiles = [t for c in state.cities for _x, _y, t in c if not t.startswith("S")]
    tiles += [t for r in state.reserves for t in r] + [t for p in state.pending for t in p]
    tiles += list(state.bag) + list(state.dirk) + [t for t in state.market if t is not None]
    assert len(tiles) == len(set(tiles)) <= 54
    for s in range(state.seats):
        assert city_error(city(state, s)) is None


@pytest.mark.parametrize("seats", SEATS)
def test_random_playouts_end_and_replay(seats: int) -> None:
    for seed in (1, 2):
        log: list[LoggedAction] = []
        final = RULES.setup(seats, seed, frozenset())
        for state, seat, action, step in playout(seats, seed, greedy=0 if seed == 2 else None):
            log.append(LoggedAction(seat=seat, notation=RULES.notation(action)))
            final = step.state
            if len(log) % 5 == 0:
                _conserved(state)
        _conserved(final)
        outcome = RULES.outcome(final)
        assert outcome is not None and final.scored[-1] == "C"
        assert len(outcome.scores) == len(outcome.places) == seats
        assert min(outcome.places) == 1 and max(outcome.places) <= seats
        assert RULES.to_act(final) == frozenset()
        replayed, _ = replay(RULES, seats, seed, frozenset(), log)
        assert replayed == final
        assert load_state(RULES, dump_state(final)) == final


@pytest.mark.parametrize("seats", SEATS)
def test_notation_round_trips_and_json_survives(seats: int) -> None:
    checked = 0
    for state, seat, _action, _step in playout(seats, 3):
        for action in RULES.legal_actions(state, seat):
            text = RULES.notation(action)
            assert RULES.parse(text) == action, text
            assert RULES.parse(text.upper()) == action, text
            checked += 1
        assert load_state(RULES, dump_state(state)) == state
    assert checked > 0


@pytest.mark.parametrize("seats", SEATS)
def test_every_legal_action_is_accepted(seats: int) -> None:
    for ply, (state, seat, _action, _step) in enumerate(playout(seats, 8)):
        if ply % 3:
            continue
        for action in RULES.legal_actions(state, seat):
            RULES.apply(state, seat, action)


@pytest.mark.parametrize("seats", SEATS)
def test_out_of_turn_is_refused(seats: int) -> None:
    for state, _seat, action, _step in playout(seats, 4):
        waiting = [s for s in range(seats) if s not in RULES.to_act(state)]
        assert waiting
        assert list(RULES.legal_actions(state, waiting[0])) == []
        with pytest.raises(NotYourTurn):
            RULES.apply(state, waiting[0], action)
        return


@pytest.mark.parametrize("seats", SEATS)
def test_secrets_stay_with_their_owner(seats: int) -> None:
    rng = Rng.from_seed(99)
    resampled = 0
    for ply, (state, _seat, _action, _step) in enumerate(playout(seats, 5)):
        if ply % 7:
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


@pytest.mark.parametrize("seats", SEATS)
def test_multi_selects_make_legal_actions(seats: int) -> None:
    offered = 0
    for state, seat, _action, _step in playout(seats, 6):
        for choice in PRESENTATION.multi_selects(state, seat):
            assert 1 <= choice.min_items <= choice.max_items <= len(choice.items)
            for size in {choice.min_items, choice.max_items}:
                RULES.apply(state, seat, RULES.parse(choice.notation(range(size))))
                offered += 1
        for waiting in set(range(seats)) - RULES.to_act(state):
            assert list(PRESENTATION.multi_selects(state, waiting)) == []
    assert offered > 0


# Public lines may show display cards, payments and the face-up deals, never a hand as such (§6, §8).
PUBLIC_FORMS = [
    r"market( [BGYR]=T\d\d)+",
    r"dirk gets [T\d,-]*",
    r"deal P\d [BGYR\d,]+",
    r"first P\d",
    r"display [BGYR\d,]+",
    r"refill display\.\d=[BGYR]\d",
    r"refill market\.[BGYR]=T\d\d",
    r"reshuffle discard n=\d+",
    r"scoring [ABC]",
    r"score (P\d street=\d+|dirk)( [A-Z]{2}=\d+)* total=\d+",
    r"P\d: (take [BGYR\d,]+|buy slot=[BGYR] pay=[BGYR\d,]+ T\d\d( exact)?|pass)",
    r"P\d: redesign (add|swap|remove) .*",
    r"P\d: place tile=T\d\d (at=-?\d+,-?\d+|reserve|dirk)",
    r"gameend",
    r"reveal P\d( [BGYR]:\d+){4}",
    r"award slot=[BGYR] (P\d T\d\d|none)",
    r"winner P\d(,P\d)*",
]
PUBLIC_RE = re.compile("|".join(f"(?:{p})" for p in PUBLIC_FORMS))


@pytest.mark.parametrize("seats", [2, 4])
def test_event_lines_and_audiences(seats: int) -> None:
    for _state, seat, _action, step in playout(seats, 9):
        for event in step.events:
            if event.is_public:
                assert PUBLIC_RE.fullmatch(event.text), event.text
            else:
                assert event.audience == frozenset((seat,)) and event.text.startswith("hand ")
    for event in RULES.setup_events(seats, 9):
        assert PUBLIC_RE.fullmatch(event.text), event.text


def test_setup_errors_name_the_choices() -> None:
    with pytest.raises(EngineError) as info:
        RULES.setup(7, 1, frozenset())
    assert info.value.allowed == ("2", "3", "4", "5", "6")
    with pytest.raises(EngineError):
        RULES.setup(3, 1, frozenset({"expert"}))


def test_fast_hole_check_agrees_with_the_flood_fill() -> None:
    """§4.7 rule 4: the local 8-ring shortcut gives the same answer as a full flood fill."""
    compared = 0
    for seats, seed in ((3, 11), (4, 12), (2, 13)):
        for state, *_ in playout(seats, seed):
            for s in range(seats):
                c = city(state, s)
                for cell in frontier(c):
                    assert fill_keeps_open(c, cell) == (not holes([*c, cell])), (c, cell)
                    compared += 1
    assert compared > 1000
