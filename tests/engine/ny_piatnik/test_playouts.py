"""Whole matches for every seat count and option combination: they end, replay, round-trip, keep secrets."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import combinations

import pytest

from engine.core.contract import Event, Step
from engine.core.errors import EngineError
from engine.core.replay import LoggedAction, replay
from engine.core.rng import Rng, bot_rng
from engine.ny_piatnik import POLICIES, RULES
from engine.ny_piatnik.actions import Action
from engine.ny_piatnik.cards import BUILDING_IDS, LINE_CELLS
from engine.ny_piatnik.rules import check_pair
from engine.ny_piatnik.state import NyState, back_counts


def setups() -> Iterator[tuple[int, frozenset[str]]]:
    names = sorted(RULES.options)
    for seats in RULES.seat_counts:
        for size in range(len(names) + 1):
            for combo in combinations(names, size):
                try:
                    RULES.validate_setup(seats, frozenset(combo))
                except EngineError:
                    continue
                yield seats, frozenset(combo)


SETUPS = list(setups())


def run(
    seats: int, seed: int, options: frozenset[str]
) -> Iterator[tuple[NyState, int, Action, Step[NyState]]]:
    """A match of random and greedy players (greedy in seat 0)."""
    state = RULES.setup(seats, seed, options)
    for ply in range(5000):
        if RULES.outcome(state) is not None:
            return
        (seat,) = RULES.to_act(state)
        legal = RULES.legal_actions(state, seat)
        policy = POLICIES["greedy" if seat == 0 else "random"]
        action = policy.choose(RULES, state, seat, legal, bot_rng(seed, ply))
        step = RULES.apply(state, seat, action)
        yield state, seat, action, step
        state = step.state
    pytest.fail("no end after 5000 actions")


# Public lines may show backs and counts, never the faces of drawn or exchanged cards (§6, §8).
PUBLIC_FORMS = [
    r"prelim S\d place at=\S+ \(\w+\)",
    r"S\d: colour \w+",
    r"colours( S\d=[\w,]+)+",
    r"draw \w+ n=\d+ backs=[RB,]*",
    r"\S+: play .* => (claim|remove|buy|take|statik) .*",
    r"\S+: event \S+( target=\w+)?( colour=\w+)?( => .*)?",
    r"\S+: (give|fill) at=\S+.*",
    r"\S+: draw n=\d+ backs=[RB,]*",
    r"\S+: reset reveal=[\w,-]* => draw n=\d+ backs=[RB,]*",
    r"S\d: (exchange|return) n=\d+ backs=[RB,]+",
    r"system: (reshuffle n=\d+|stop-cards -> discard \(unowned=\d\)|end stop drawn by \w+|score .*)",
]
PUBLIC_RE = re.compile("|".join(f"(?:{p})" for p in PUBLIC_FORMS))


def check_event_secrecy(state: NyState, events: tuple[Event, ...]) -> None:
    for event in events:
        if event.is_public:
            assert PUBLIC_RE.fullmatch(event.text), event.text
            assert "drew" not in event.text and "cards=" not in event.text and "give=" not in event.text
        else:
            assert event.audience and event.audience <= RULES.observers(state, min(event.audience))


@pytest.mark.parametrize(
    ("seats", "options"),
    SETUPS,
    ids=lambda v: str(v) if isinstance(v, int) else "+".join(sorted(v)) or "base",
)
def test_playout_replay_notation_and_secrets(seats: int, options: frozenset[str]) -> None:
    seed = 17 + seats
    log: list[LoggedAction] = []
    rng = Rng.from_seed(5)
    final = None
    for ply, (state, seat, action, step) in enumerate(run(seats, seed, options)):
        legal = RULES.legal_actions(state, seat)
        assert action in legal
        for a in legal:
            text = RULES.notation(a)
            assert RULES.parse(text) == a and RULES.parse(text.upper()) == a
        check_event_secrecy(state, step.events)
        log.append(LoggedAction(seat=seat, notation=RULES.notation(action)))
        # Money never enters or leaves play; pieces are conserved.
        assert sum(step.state.money) == sum(state.money)
        for colour in state.houses:
            i = ("red", "blue", "yellow", "green", "black").index(colour)
            assert step.state.supply[i] + step.state.board.count(colour) == state.supply[
                i
            ] + state.board.count(colour)
        if ply % 9 == 0:
            # What the public and each seat see of the real position, for every owner's redraw.
            seen = {viewer: RULES.view(state, viewer) for viewer in (None, *range(seats))}
            for owner in range(seats):
                other = RULES.resample_secrets(state, owner, rng)
                assert [back_counts(h) for h in other.hands] == [back_counts(h) for h in state.hands]
                assert RULES.view(other, None) == seen[None]
                for viewer in set(range(seats)) - RULES.observers(state, owner):
                    assert RULES.view(other, viewer) == seen[viewer]
        final = step.state
    assert final is not None
    outcome = RULES.outcome(final)
    assert outcome is not None and len(outcome.scores) == seats and min(outcome.places) == 1
    assert RULES.to_act(final) == frozenset()
    replayed, _ = replay(RULES, seats, seed, options, log)
    assert replayed == final
    assert RULES.state_model.model_validate_json(final.model_dump_json()) == final


def candidates(state: NyState, seat: int) -> Iterator[Action]:
    """Every pair play a player could write with the cards in hand (canonical or not)."""
    hand = sorted(set(state.hands[seat]))
    colours = (None, *state.houses)
    for red in hand:
        for blue in hand:
            if "STAT" in red + blue:
                for line in (None, *LINE_CELLS):
                    for victim in colours:
                        for colour in colours:
                            yield Action(
                                kind="play", red=red, blue=blue, line=line, victim=victim, colour=colour
                            )
            else:
                for at in (None, *BUILDING_IDS):
                    for colour in colours:
                        yield Action(kind="play", red=red, blue=blue, at=at, colour=colour)


@pytest.mark.parametrize(
    ("seats", "options"), [(3, frozenset()), (2, frozenset({"events"})), (4, frozenset({"events", "team"}))]
)
def test_every_listed_pair_is_accepted_and_nothing_else(seats: int, options: frozenset[str]) -> None:
    """Brute force: the plays ``check_pair`` accepts (in canonical form) are exactly the listed ones."""
    sampled = 0
    for ply, (state, seat, _action, _step) in enumerate(run(seats, 3, options)):
        if ply % 23 or state.phase != "main" or state.pending is not None or sampled >= 3:
            continue
        sampled += 1
        listed = {a for a in RULES.legal_actions(state, seat) if a.kind == "play"}
        accepted = set()
        for a in candidates(state, seat):
            try:
                accepted.add(check_pair(state, seat, a).canonical)
            except EngineError:
                continue
        assert accepted == listed
        for a in listed:
            RULES.apply(state, seat, a)
    assert sampled > 0
