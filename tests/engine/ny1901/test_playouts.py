"""New York 1901 over random playouts: what the shared contract test (tests/engine/test_contract.py) does
not already check for every game."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

from engine.core.errors import EngineError
from engine.ny1901 import PRESENTATION, RULES
from tests.engine.test_contract import random_playout as shared_playout

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
    """Random legal actions to the end (the shared contract test's playout, for this game)."""
    return shared_playout(RULES, seats, seed, options)


def test_every_option_combination_is_valid() -> None:
    assert len(SETUPS) == 3 * 4


@pytest.mark.parametrize(("seats", "options"), SETUPS)
def test_no_multi_selects(seats: int, options: frozenset[str]) -> None:
    for state, seat, _action, _step in random_playout(seats, 6, options):
        assert list(PRESENTATION.multi_selects(state, seat)) == []


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
