"""Static tables against the spec's counts and the §2.3 building table."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from engine.ny_piatnik.cards import (
    BACK,
    BUILDINGS,
    CORNERS,
    EVENT_CARDS,
    INNER,
    LANDMARKS,
    MONEY_IN_BOX,
    NEIGHBOURS,
    PARAMS,
    PIECES_IN_BOX,
    canonical_deck,
)

from .spec import spec_text


def test_deck_sizes_and_backs() -> None:
    base = canonical_deck(events=False)
    full = canonical_deck(events=True)
    assert len(base) == 66 and len(full) == 78
    assert Counter(BACK[c] for c in base) == {"R": 33, "B": 33}
    assert Counter(BACK[c] for c in EVENT_CARDS) == {"R": 6, "B": 6}
    assert len(full) + 2 == 80  # plus the two Stop cards aside


def test_copies_per_code() -> None:
    counts = Counter(canonical_deck(events=True))
    for code in ("8AV", "BWY", "6AV", "5AV", "MAD", "PARK", "LEX", "34", "38", "42", "45", "49", "53", "57"):
        assert counts[code] == 4
    assert counts["RJ"] == counts["BJ"] == 5
    for code in ("SAN-R", "SAN-B", "RUIN-R", "RUIN-B", "SPEC-R", "SPEC-B", "STAT-R", "STAT-B"):
        assert counts[code] == 1
    assert counts["BAU-R"] == counts["BAU-B"] == 2


def test_canonical_order_starts_and_ends_as_specified() -> None:
    deck = canonical_deck(events=True)
    assert deck[:5] == ("8AV",) * 4 + ("BWY",)
    assert deck[56:66] == ("RJ",) * 5 + ("BJ",) * 5
    assert deck[66:] == EVENT_CARDS


def test_pieces_and_money() -> None:
    assert sum(PIECES_IN_BOX.values()) == 110
    for seats, params in PARAMS.items():
        assert params.pieces <= min(PIECES_IN_BOX[c] for c in params.houses)
        total = params.money * seats
        assert total == (25 if seats == 5 else 24)
        assert total <= MONEY_IN_BOX
    placements = {s: p.prelim * len(p.houses) for s, p in PARAMS.items()}
    assert placements == {2: 24, 3: 24, 4: 24, 5: 25}
    supply_after = {s: p.pieces - p.prelim for s, p in PARAMS.items()}
    assert supply_after == {2: 14, 3: 17, 4: 14, 5: 10}


def test_buildings_neighbours_and_specials() -> None:
    assert len(BUILDINGS) == 49
    for b in BUILDINGS:
        for n in b.neighbours:
            assert b.idx in NEIGHBOURS[n]
            assert abs(BUILDINGS[n].row - b.row) + abs(BUILDINGS[n].col - b.col) == 1
    assert sorted(len(n) for n in NEIGHBOURS).count(2) == 4
    assert {BUILDINGS[i].id for i in INNER} == {"6AV-45", "5AV-42", "5AV-45", "5AV-49", "MAD-45"}
    assert {BUILDINGS[i].id for i in CORNERS} == {"8AV-34", "8AV-57", "LEX-34", "LEX-57"}
    assert set(LANDMARKS) <= {b.id for b in BUILDINGS}


ROW_RE = re.compile(r"^\| (\d+) \| (\S+) \| (\d) \| (\d) \| (\d+),(\d+) \| ([^|]*)\| ([^|]*)\|$")


@pytest.fixture(scope="module")
def spec_rows() -> list[re.Match[str]]:
    rows = [m for line in spec_text().splitlines() if (m := ROW_RE.match(line.strip()))]
    assert len(rows) == 49
    return rows


def test_building_table_matches_spec(spec_rows: list[re.Match[str]]) -> None:
    for m in spec_rows:
        b = BUILDINGS[int(m[1])]
        assert (b.id, b.row, b.col, b.x, b.y) == (m[2], int(m[3]), int(m[4]), int(m[5]), int(m[6]))
        assert sorted(BUILDINGS[n].id for n in b.neighbours) == sorted(m[7].split())
        special = m[8].strip()
        assert (b.special in ("inner", "centre")) == special.startswith("inner")
        assert (b.special == "corner") == (special == "corner")
