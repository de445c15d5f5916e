"""Computer players for Dirk Henn's New York: a one-step greedy heuristic (the random one is generic)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.ny_henn.actions import Action
from engine.ny_henn.cards import BANKS, BUILDING_TILES, TYPE_BY_CODE, card_bank, card_value
from engine.ny_henn.city import street_value
from engine.ny_henn.rules import bank_total, placements
from engine.ny_henn.scoring import type_counts
from engine.ny_henn.state import HennState, city_map


def type_value(state: HennState, seat: int, type_code: str) -> float:
    """How much one more tile of ``type_code`` is worth: its C points, more when it wins or keeps a lead."""
    t = TYPE_BY_CODE[type_code]
    mine = type_counts([tile for _x, _y, tile in state.cities[seat]])[type_code]
    others = [
        type_counts([tile for _x, _y, tile in state.cities[s]])[type_code]
        for s in range(state.seats)
        if s != seat
    ]
    if state.two_player:
        others.append(type_counts(state.dirk)[type_code])
    best_other = max(others, default=0)
    value = t.score_c[0] / 4
    if mine + 1 >= best_other:
        value += t.score_c[0] / 3  # taking or holding first place is what scores
    elif mine + 3 < best_other:
        value -= 2  # hopeless majority
    return value


def _take_value(state: HennState, seat: int, cards: Sequence[str]) -> float:
    """Money value plus a bonus when the cards make a market tile exactly payable."""
    value = sum(card_value(c) for c in cards) + 1.5 * len(cards)
    hand = state.hands[seat]
    for bank, tile in zip(BANKS, state.market, strict=True):
        if tile is None:
            continue
        gain = sum(card_value(c) for c in cards if card_bank(c) == bank)
        if gain and bank_total(hand, bank) < BUILDING_TILES[tile].price <= bank_total(hand, bank) + gain:
            value += 3
    return value


def _buy_value(state: HennState, seat: int, a: Action) -> float:
    tile = state.market[BANKS.index(str(a.slot))]
    assert tile is not None
    info = BUILDING_TILES[tile]
    paid = sum(card_value(c) for c in a.cards)
    value = 8.0 + type_value(state, seat, str(info.type))
    if not placements(state, seat, tile):
        value -= 7  # it would only sit in the reserve
    if paid == info.price:
        value += 4  # another action follows (§4.2)
    return value - 1.5 * (paid - info.price)


def _place_value(state: HennState, seat: int, a: Action) -> float:
    if a.to == "reserve":
        return 0.0
    if a.to == "dirk":
        return -1.0
    assert a.tile is not None and a.x is not None and a.y is not None
    city = city_map(state, seat)
    city[(a.x, a.y)] = a.tile
    neighbours = sum((a.x + dx, a.y + dy) in city for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    # Prefer long outer streets and compact shapes (compact cities keep many cells open later).
    return 100.0 + 2.0 * street_value(city) + neighbours - 0.1 * (abs(a.x) + abs(a.y))


class GreedyPolicy:
    """Scores every legal action with a one-step heuristic and plays the best (first on ties)."""

    name = "greedy"

    def choose(
        self, rules: GameRules[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: Rng
    ) -> Any:
        """The legal action with the highest heuristic value; deterministic (``rng`` unused)."""
        st: HennState = state
        best, best_value = legal[0], float("-inf")
        for a in legal:
            value = self.value(st, seat, a)
            if value > best_value:
                best, best_value = a, value
        return best

    def value(self, st: HennState, seat: int, a: Action) -> float:
        """Heuristic value of one action."""
        if a.kind == "place":
            return _place_value(st, seat, a)
        if a.kind == "take":
            return _take_value(st, seat, a.cards)
        if a.kind == "buy":
            return _buy_value(st, seat, a)
        if a.kind == "add":
            return 9.0
        if a.kind == "pass":
            return 0.0
        return -5.0  # remove / swap: rarely worth a whole action for this simple player
