"""The engine contract, checked for every registered game, seat count and option combination."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

from engine.core.contract import GameRules, dump_state, load_state
from engine.core.errors import EngineError, NotYourTurn
from engine.core.replay import LoggedAction, replay
from engine.core.rng import Rng, bot_rng
from engine.registry import GAMES, POLICIES, PRESENTATIONS

MAX_ACTIONS = 5_000


def setups() -> Iterator[Any]:
    for slug, rules in sorted(GAMES.items()):
        names = sorted(rules.options)
        for seats in rules.seat_counts:
            for size in range(len(names) + 1):
                for combo in combinations(names, size):
                    options = frozenset(combo)
                    try:
                        rules.validate_setup(seats, options)
                    except EngineError:
                        continue
                    label = f"{slug}-{seats}p-{'+'.join(combo) or 'base'}"
                    yield pytest.param(slug, seats, options, id=label)


SETUPS = list(setups())


def random_playout(rules: GameRules[Any, Any], seats: int, seed: int, options: frozenset[str]):
    """Play random legal actions to the end; yields (state, seat, action, step) for every move."""
    policy = POLICIES[rules.name]["random"]
    state = rules.setup(seats, seed, options)
    for ply in range(MAX_ACTIONS):
        if rules.outcome(state) is not None:
            return
        to_act = rules.to_act(state)
        assert to_act, "a match that is not over must have someone to act"
        seat = min(to_act)
        legal = rules.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        action = policy.choose(rules, state, seat, legal, bot_rng(seed, ply))
        step = rules.apply(state, seat, action)
        yield state, seat, action, step
        state = step.state
    pytest.fail(f"no end after {MAX_ACTIONS} actions")


@functools.lru_cache(maxsize=1)
def shared_playout(slug: str, seats: int, seed: int, options: frozenset[str]) -> tuple[Any, ...]:
    """``random_playout`` played once for the tests that walk the same one (the last one is kept: the
    setups are module-scoped parameters, so pytest runs every test of a setup before the next setup)."""
    return tuple(random_playout(GAMES[slug], seats, seed, options))


@pytest.mark.parametrize(("slug", "seats", "options"), SETUPS, scope="module")
def test_random_playouts_end_and_replay(slug: str, seats: int, options: frozenset[str]) -> None:
    rules = GAMES[slug]
    for seed in (1, 2):
        log: list[LoggedAction] = []
        final = rules.setup(seats, seed, options)
        for _state, seat, action, step in random_playout(rules, seats, seed, options):
            log.append(LoggedAction(seat=seat, notation=rules.notation(action)))
            final = step.state
        outcome = rules.outcome(final)
        assert outcome is not None
        assert len(outcome.scores) == len(outcome.places) == seats
        assert min(outcome.places) == 1 and max(outcome.places) <= seats
        assert rules.to_act(final) == frozenset()
        replayed, _ = replay(rules, seats, seed, options, log)
        assert replayed == final
        assert load_state(rules, dump_state(final)) == final


@pytest.mark.parametrize(("slug", "seats", "options"), SETUPS, scope="module")
def test_notation_round_trips_and_json_survives(slug: str, seats: int, options: frozenset[str]) -> None:
    rules = GAMES[slug]
    checked = 0
    for state, seat, _action, _step in shared_playout(slug, seats, 3, options):
        for action in rules.legal_actions(state, seat):
            text = rules.notation(action)
            assert rules.parse(text) == action, text
            assert rules.parse(text.upper()) == action, text
            checked += 1
        assert load_state(rules, dump_state(state)) == state
    assert checked > 0


@pytest.mark.parametrize(("slug", "seats", "options"), SETUPS, scope="module")
def test_out_of_turn_is_refused(slug: str, seats: int, options: frozenset[str]) -> None:
    rules = GAMES[slug]
    for state, _seat, action, _step in random_playout(rules, seats, 4, options):
        waiting = [s for s in range(seats) if s not in rules.to_act(state)]
        if waiting:
            assert list(rules.legal_actions(state, waiting[0])) == []
            with pytest.raises(NotYourTurn):
                rules.apply(state, waiting[0], action)
            return
    pytest.skip("every seat acted at every position")


@pytest.mark.parametrize(("slug", "seats", "options"), SETUPS, scope="module")
def test_secrets_stay_with_their_owner(slug: str, seats: int, options: frozenset[str]) -> None:
    """Redrawing one seat's secrets changes nothing that the public or the other seats can see."""
    rules = GAMES[slug]
    rng = Rng.from_seed(99)
    resampled = 0
    for ply, (state, _seat, _action, _step) in enumerate(random_playout(rules, seats, 5, options)):
        if ply % 7:
            continue
        # What the public and each seat see of the real position: the same for every owner's redraw.
        seen = {viewer: rules.view(state, viewer) for viewer in (None, *range(seats))}
        for owner in range(seats):
            other = rules.resample_secrets(state, owner, rng)
            resampled += other != state
            assert rules.view(other, None) == seen[None]
            for viewer in set(range(seats)) - rules.observers(state, owner):
                assert rules.view(other, viewer) == seen[viewer]
    assert resampled > 0, "resample_secrets never changed anything, so this test proved nothing"


@pytest.mark.parametrize(("slug", "seats", "options"), SETUPS, scope="module")
def test_multi_selects_make_legal_actions(slug: str, seats: int, options: frozenset[str]) -> None:
    """Every multi-select choice at its smallest and largest size is an action the rules accept."""
    rules = GAMES[slug]
    presentation = PRESENTATIONS[slug]
    for state, seat, _action, _step in random_playout(rules, seats, 6, options):
        for choice in presentation.multi_selects(state, seat):
            assert 1 <= choice.min_items <= choice.max_items <= len(choice.items)
            for size in {choice.min_items, choice.max_items}:
                text = choice.notation(range(size))
                rules.apply(state, seat, rules.parse(text))  # raises if the rules refuse it
        for waiting in set(range(seats)) - rules.to_act(state):
            assert list(presentation.multi_selects(state, waiting)) == []


@pytest.mark.parametrize(("slug", "seats", "options"), SETUPS, scope="module")
def test_setup_events_are_reproducible(slug: str, seats: int, options: frozenset[str]) -> None:
    rules = GAMES[slug]
    first = list(rules.setup_events(seats, 11, options))
    assert first == list(rules.setup_events(seats, 11, options))
    assert all(e.audience is None or e.audience <= set(range(seats)) for e in first)


@pytest.mark.parametrize(("slug", "seats", "options"), SETUPS, scope="module")
def test_a_move_judged_public_reveals_no_more_than_everyone_sees(
    slug: str, seats: int, options: frozenset[str]
) -> None:
    """Two different moves judged public, from one position, must leave different public traces (public
    events and public view): otherwise their notations tell apart what nobody else could see, and a
    log line naming them would leak it. Moves judged private may look alike."""
    rules = GAMES[slug]
    checked = 0
    for ply, (state, seat, _, _) in enumerate(shared_playout(slug, seats, 3, options)):
        if ply % 7:
            continue
        traces: dict[tuple[tuple[str, ...], str], str] = {}
        for action in list(rules.legal_actions(state, seat))[:80]:
            if not rules.is_public_action(state, seat, action):
                continue
            step = rules.apply(state, seat, action)
            trace = (
                tuple(e.text for e in step.events if e.is_public),
                dump_state(rules.view(step.state, None)),
            )
            notation = rules.notation(action)
            assert traces.setdefault(trace, notation) == notation, (
                f"{notation!r} and {traces[trace]!r} look the same to everyone, yet are judged public"
            )
            checked += 1
    assert checked


@pytest.mark.parametrize(
    ("slug", "options", "kinds"),
    [
        ("skyline", frozenset({"hidden"}), {"buy", "sell", "exchange"}),
        ("ny_piatnik", frozenset({"team"}), {"exchange", "return"}),
    ],
)
def test_hidden_moves_are_judged_private(slug: str, options: frozenset[str], kinds: set[str]) -> None:
    rules = GAMES[slug]
    seen: set[str] = set()
    for seed in range(1, 6):
        for state, seat, action, _ in random_playout(rules, 4, seed, options):
            if action.kind in kinds:  # type: ignore[attr-defined]
                assert not rules.is_public_action(state, seat, action), rules.notation(action)
                seen.add(action.kind)  # type: ignore[attr-defined]
    assert seen == kinds
