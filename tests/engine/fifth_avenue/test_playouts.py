"""Random and greedy playouts: every seat count and option finishes, replays, and keeps its invariants."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.contract import dump_state, load_state
from engine.core.replay import LoggedAction, replay
from engine.core.rng import bot_rng
from engine.fifth_avenue import POLICIES, RULES
from engine.fifth_avenue.cards import COLOURS, black_deck, coloured_deck
from engine.fifth_avenue.state import FifthState

SETUPS = [(n, o) for n in (2, 3, 4) for o in (frozenset(), frozenset({"six_lots"}))]


def _cards(st: FifthState) -> Counter[str]:
    """Every bidding card wherever it is: hands, decks, auction piles, Asso's drawn cards."""
    total: Counter[str] = Counter()
    for hand in st.hands:
        total.update(hand)
    for deck in st.decks:
        total.update(deck)
    total.update(st.black)
    if st.auction is not None:
        for pile in st.auction.piles:
            total.update(pile)
        total.update(st.auction.asso_cards)
    return total


FULL = Counter(black_deck()) + sum((Counter(coloured_deck(c)) for c in COLOURS), Counter())


def _play(
    seats: int, seed: int, options: frozenset[str], policy: str
) -> tuple[FifthState, list[LoggedAction]]:
    st = RULES.setup(seats, seed, options)
    log: list[LoggedAction] = []
    for ply in range(3000):
        if RULES.outcome(st) is not None:
            return st, log
        (seat,) = RULES.to_act(st)
        legal = RULES.legal_actions(st, seat)
        action = POLICIES[policy].choose(RULES, st, seat, legal, bot_rng(seed, ply))
        st = RULES.apply(st, seat, action).state
        log.append(LoggedAction(seat=seat, notation=RULES.notation(action)))
        assert _cards(st) == FULL
        assert len(st.black) == len(st.black_up)
        assert len(st.closed) <= 2
        assert all(lot.owner is None or not lot.shops for lot in st.lots.values())
        assert all(len(lot.shops) <= 2 for lot in st.lots.values())
    pytest.fail("no end")


@pytest.mark.parametrize(("seats", "options"), SETUPS)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playouts_finish_and_replay(seats: int, options: frozenset[str], policy: str) -> None:
    for seed in range(3):
        final, log = _play(seats, seed, options, policy)
        outcome = RULES.outcome(final)
        assert outcome is not None and min(outcome.places) == 1
        replayed, _ = replay(RULES, seats, seed, options, log)
        assert replayed == final
        assert load_state(RULES, dump_state(final)) == final


def test_six_lots_setup_puts_the_first_shops_on_x() -> None:
    st = RULES.setup(4, 3, frozenset({"six_lots"}))
    assert len(st.lots) == 42
    assert [k for k, lot in st.lots.items() if lot.shops] == [
        f"{d}.X" for d in ("34W", "34E", "42W", "TS", "42E", "52W", "52E")
    ]
    assert all(not a.lot.endswith(".X") for a in RULES.legal_actions(st, 0) if a.lot)
