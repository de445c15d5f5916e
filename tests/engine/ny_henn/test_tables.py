"""Static tables against the spec's counts and totals (§2.2-§2.5)."""

from __future__ import annotations

import re
from collections import Counter

from engine.ny_henn.cards import (
    BANKS,
    BUILDING_TILES,
    START_TILES,
    TYPES,
    card_value,
    money_deck,
    paid_places,
)

from .spec import spec_text


def test_money_cards() -> None:
    deck = money_deck(3)
    assert len(deck) == 108 and len(money_deck(6)) == 108 and len(money_deck(2)) == 72
    for bank in BANKS:
        cards = [c for c in deck if c[0] == bank]
        assert len(cards) == 27 and sum(card_value(c) for c in cards) == 135


def test_tiles_per_type_prices_and_streets() -> None:
    assert len(BUILDING_TILES) == 54
    per_type = Counter(t.type for t in BUILDING_TILES.values())
    assert [per_type[t.code] for t in TYPES] == [7, 7, 9, 9, 11, 11]
    ranges = {"MU": (2, 8), "TH": (3, 9), "ST": (4, 10), "CH": (5, 11), "PK": (6, 12), "SK": (7, 13)}
    sums = {"MU": 35, "TH": 42, "ST": 63, "CH": 72, "PK": 99, "SK": 110}
    for code, (lo, hi) in ranges.items():
        prices = [t.price for t in BUILDING_TILES.values() if t.type == code]
        assert (min(prices), max(prices), sum(prices)) == (lo, hi, sums[code])
    edges = Counter(sum(t.streets) for t in BUILDING_TILES.values())
    assert edges == {0: 10, 1: 16, 2: 20, 3: 8}
    assert sum(sum(t.streets) for t in BUILDING_TILES.values()) == 80
    assert all(not any(t.streets) and t.type is None for t in START_TILES.values())


def test_tiles_match_the_spec_table() -> None:
    rows = re.findall(
        r"^\| (T\d\d) \| (\w+) \| (\d+) \| ([X-]) \| ([X-]) \| ([X-]) \| ([X-]) \|", spec_text(), re.M
    )
    assert len(rows) == 54
    names = {t.name: t.code for t in TYPES}
    for tid, name, price, *edges in rows:
        tile = BUILDING_TILES[tid]
        assert (tile.type, tile.price) == (names[name], int(price)), tid
        assert tile.streets == tuple(e == "X" for e in edges), tid


def test_scoring_table() -> None:
    table = {
        "MU": ((1,), (8, 1), (16, 8, 1)),
        "TH": ((2,), (9, 2), (17, 9, 2)),
        "ST": ((3,), (10, 3), (18, 10, 3)),
        "CH": ((4,), (11, 4), (19, 11, 4)),
        "PK": ((5,), (12, 5), (20, 12, 5)),
        "SK": ((6,), (13, 6), (21, 13, 6)),
    }
    for code, (a, b, c) in table.items():
        assert (paid_places("A", code), paid_places("B", code), paid_places("C", code)) == (a, b, c)
