"""The static tables of cards.py against the counts and totals of spec §2."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from engine.fifth_avenue.cards import (
    COLOURS,
    DISTRICTS,
    FORWARD,
    GROUPS,
    RINGS,
    SPECIAL,
    VALUE,
    black_deck,
    coloured_deck,
    lot_ids,
    neighbours,
    shop_tiles,
)

from .spec import spec_text


def test_cards() -> None:
    for c in COLOURS:
        assert Counter(coloured_deck(c)) == {f"{c}4": 5, f"{c}5": 4, f"{c}6": 3}
    assert Counter(black_deck()) == {"BK4": 20, "BK5": 16, "BK6": 14}
    assert sum(len(coloured_deck(c)) for c in COLOURS) == 60 and len(black_deck()) == 50


def test_shops_and_supply_groups() -> None:
    assert Counter(shop_tiles()) == {"F": 9, "J": 9, "A": 9, "P": 9}
    assert [len(g) for g in GROUPS] == [3, 2, 3, 2, 3, 2, 3, 2]
    assert [i for g in GROUPS for i in g] == list(range(20))
    placed = 0
    ends = []
    for g in GROUPS:
        placed += len(g) - 1  # the last tile of each group goes to the CP pile
        ends.append(placed)
    assert ends == [2, 3, 5, 6, 8, 9, 11, 12]
    assert SPECIAL == {3: (3, 4), 6: (4, 6), 9: (5, 8)} and VALUE == (1, 2, 3, 5, 8)


def test_rings_are_balanced_and_match_the_spec_table() -> None:
    text = spec_text()
    pairs: Counter[frozenset[str]] = Counter()
    for d, ring in RINGS.items():
        assert sorted(ring) == sorted(COLOURS)
        assert f"| `{d}` | {', '.join(ring)} |" in text or f"| `{d}`  | {', '.join(ring)} |" in text
        for i, c in enumerate(ring):
            pairs[frozenset((c, ring[(i + 1) % 5]))] += 1
    assert len(set(RINGS.values())) == 7
    assert all(pairs[frozenset(p)] in (3, 4) for p in combinations(COLOURS, 2))
    assert neighbours("TS.GY", False) == ("TS.OR", "TS.GN")
    assert neighbours("TS.X", True) == ("TS.VI", "TS.BR") and neighbours("TS.VI", True) == ("TS.GN", "TS.X")
    assert len(lot_ids(False)) == 35 and len(lot_ids(True)) == 42


def test_every_trip_passes_three_districts() -> None:
    def paths(pos: str) -> list[list[str]]:
        if pos == "CP":
            return [[]]
        return [([pos] if pos in DISTRICTS else []) + rest for q in FORWARD[pos] for rest in paths(q)]

    trips = paths("START")
    assert len(trips) == 6 and all(len(t) == 3 for t in trips)
    assert {d for t in trips for d in t} == set(DISTRICTS)
