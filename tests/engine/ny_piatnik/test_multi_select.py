"""The team game's card exchange offered as multi-selects (§7.4)."""

from __future__ import annotations

from engine.ny_piatnik import PRESENTATION, RULES
from tests.engine.ny_piatnik.helpers import build, play


def test_exchange_and_return_are_offered_as_multi_selects() -> None:
    state = build(4, options=["team"], hands={0: ["PARK", "RJ", "45", "49"], 2: ["MAD", "38", "BJ", "57"]})
    (exchange,) = PRESENTATION.multi_selects(state, 0)
    assert exchange.template == "exchange give={}" and exchange.items == state.hands[0]
    assert (exchange.min_items, exchange.max_items) == (1, 4)
    assert PRESENTATION.multi_selects(state, 2) == []  # the partner waits until cards arrive

    text = exchange.notation([exchange.items.index("RJ"), exchange.items.index("45")])
    state = play(state, 0, text).state
    assert PRESENTATION.multi_selects(state, 0) == []  # one exchange per turn
    (give_back,) = PRESENTATION.multi_selects(state, 2)
    assert (give_back.min_items, give_back.max_items) == (2, 2)
    assert "RJ" in give_back.items and "45" in give_back.items  # received cards may go back

    state = play(state, 2, give_back.notation([0, 1])).state
    assert len(state.hands[0]) == 4 and len(state.hands[2]) == 4
    assert RULES.to_act(state) == {0}
