"""The static tables against the spec's own tables and counts (§2)."""

from __future__ import annotations

import re
from collections import Counter

from engine.ny1901.cards import (
    CELL_FACES,
    CELL_LOT,
    CELL_STREETS,
    CHARACTERS,
    LEGENDARY,
    LOT_CELLS,
    LOT_DISTRICT,
    LOT_IDS,
    LOT_INDEX,
    PARK_CELLS,
    SHAPES,
    SUPPLY_TILES,
    TILE_BY_ID,
    TILES,
    all_lot_cards,
    canonical_rots,
    card_type,
    cell,
    is_street,
)
from tests.engine.ny1901.spec import spec_text

_FACES = {
    "Broadway": "broadway",
    "Nassau-Broad": "nassau_broad",
    "Cedar": "cedar",
    "Pine-Thames": "pine_thames",
    "Wall": "wall",
    "N-border": "border_n",
    "S-border": "border_s",
    "W-border": "border_w",
    "E-border": "border_e",
}


def _lot_rows() -> list[list[str]]:
    rows = []
    for line in spec_text().splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) == 7 and re.fullmatch(r"[GBYRP]\d\d", parts[0]):
            rows.append(parts)
    return rows


def test_counts() -> None:
    assert len(LOT_IDS) == 65
    assert sum(len(c) for c in LOT_CELLS) == 150
    for d in "GBYRP":
        sizes = Counter(len(LOT_CELLS[i]) for i in range(65) if LOT_DISTRICT[i] == d)
        assert sizes == {2: 9, 3: 4}
    assert len(all_lot_cards(False)) == 65 and len(all_lot_cards(True)) == 52
    assert Counter(card_type(c) for c in all_lot_cards(False))["Y3"] == 4
    assert len(SUPPLY_TILES) == 18 and len(LEGENDARY) == 4 and len(TILES) == 23
    assert sum(TILE_BY_ID[t].value for t in SUPPLY_TILES) == 91
    assert sum(1 for t in SUPPLY_TILES if TILE_BY_ID[t].regular) == 9


def test_lot_table_matches_the_spec() -> None:
    rows = _lot_rows()
    assert len(rows) == 65
    for lot, _district, size, cells, _block, faces, start in rows:
        i = LOT_INDEX[lot]
        spec_cells = sorted(cell(int(a), int(b)) for a, b in (p.split(",") for p in cells.split()))
        assert list(LOT_CELLS[i]) == spec_cells, lot
        assert len(spec_cells) == int(size)
        streets = set().union(*(CELL_STREETS[c] for c in LOT_CELLS[i]))
        expected = {_FACES[f.strip()] for f in faces.replace("**", "").split(",") if f.strip() in _FACES}
        assert streets == expected, lot
        park = any(n in PARK_CELLS for c in LOT_CELLS[i] for n in ((c - 1), (c + 1), (c - 16), (c + 16)))
        assert park == ("park" in faces), lot
        assert any(c in CELL_FACES for c in LOT_CELLS[i]) == ("none" not in faces), lot
        if start:
            assert any(ch.id == start and ch.start_lot == lot for ch in CHARACTERS)


def test_streets_parks_and_lots_partition_the_board() -> None:
    for c in range(16 * 21):
        kinds = [is_street(c), c in PARK_CELLS, c in CELL_LOT]
        assert sum(kinds) == 1, c


def test_tile_table_matches_the_spec() -> None:
    text = spec_text()
    for tile in TILES:
        if tile.id == "ST":
            continue
        row = re.search(rf"^\| {tile.id} \|(.+)$", text, flags=re.M)
        assert row, tile.id
        cells = [p.strip() for p in row.group(1).split("|")]
        assert tile.shape in cells and str(tile.value) in cells
        assert len(SHAPES[tile.shape]) in {int(c) for c in cells if c.isdigit()}


def test_rotation_classes() -> None:
    two = {"I2", "I3", "I4", "S4", "R6"}
    one = {"O4", "X5"}
    for shape in SHAPES:
        expected = 2 if shape in two else 1 if shape in one else 4
        assert len(canonical_rots(shape)) == expected, shape
