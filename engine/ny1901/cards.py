"""Static tables of New York 1901 transcribed from the spec (shared/games/ny1901.md §2)."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

WIDTH = 16
HEIGHT = 21

# §2.2 board map, one string per row y = 1..19 without the border columns; ".." = street/park.
# Each entry is a lot id ("G01") or "**" (park) or "##" (street).
_MAP_ROWS: dict[int, str] = {
    1: "** ** G01 G01 ## G07 G07 B07 B07 ## B01 B02 ** **",
    2: "G02 G03 G03 G03 ## G07 G08 B08 B09 ## B01 B02 B02 B03",
    3: "G02 G04 G05 G05 ## G08 G08 B08 B09 ## B04 B05 B05 B03",
    4: "G02 G04 G06 G06 ## G09 G09 B10 B10 ## B04 B05 B06 B06",
    6: "G10 G11 G11 G13 ## ** ** ** ** ## B11 B11 B12 B13",
    7: "G10 G12 G12 G13 ## ** ** ** ** ## B11 B12 B12 B13",
    8: "P07 P08 P08 P09 ## ** ** ** ** ## Y07 Y08 Y08 Y10",
    9: "P07 P07 P08 P09 ## ** ** ** ** ## Y07 Y09 Y09 Y10",
    11: "P01 P01 P01 P02 ## ** ** ** ** ## Y01 Y01 Y02 Y02",
    12: "** P03 P03 P02 ## ** ** ** ** ## Y03 Y04 Y04 **",
    13: "** P04 P04 P05 ## ** ** ** ** ## Y03 Y05 Y04 **",
    14: "P06 P06 P04 P05 ## ** ** ** ** ## Y03 Y05 Y06 Y06",
    16: "P10 P10 R07 R07 ## R01 R01 R02 R02 ## Y11 Y11 Y11 Y13",
    17: "P11 P12 R08 R07 ## R03 R05 R05 R04 ## Y12 Y12 Y13 Y13",
    18: "P11 P12 R08 R08 ## R03 R06 R06 R04 ## R10 R10 R11 R11",
    19: "P13 P13 R09 R09 ## R03 ** ** R04 ## R12 R12 R13 R13",
}

DISTRICTS = ("G", "B", "Y", "R", "P")
DISTRICT_NAMES = {"G": "green", "B": "blue", "Y": "yellow", "R": "red", "P": "pink"}
DISTRICT_HEX = {"G": "#a5d6a7", "B": "#90caf9", "Y": "#fff59d", "R": "#ef9a9a", "P": "#f8bbd0"}


def cell(x: int, y: int) -> int:
    """Index of cell ``x,y`` (row-major)."""
    return y * WIDTH + x


def xy(c: int) -> tuple[int, int]:
    """``(x, y)`` of a cell index."""
    return c % WIDTH, c // WIDTH


def _parse_map() -> tuple[dict[str, tuple[int, ...]], frozenset[int]]:
    lots: dict[str, list[int]] = {}
    parks: set[int] = set()
    for y, row in _MAP_ROWS.items():
        for i, token in enumerate(row.split()):
            x = i + 1
            if token == "**":
                parks.add(cell(x, y))
            elif token != "##":
                lots.setdefault(token, []).append(cell(x, y))
    # Whole-park blocks (1,1) and (1,2) are written as "**" above too.
    return {k: tuple(sorted(v)) for k, v in sorted(lots.items())}, frozenset(parks)


_LOTS, PARK_CELLS = _parse_map()
LOT_IDS: tuple[str, ...] = tuple(sorted(_LOTS, key=lambda k: (DISTRICTS.index(k[0]), k)))
LOT_INDEX = {lot: i for i, lot in enumerate(LOT_IDS)}
LOT_CELLS: tuple[tuple[int, ...], ...] = tuple(_LOTS[lot] for lot in LOT_IDS)
LOT_DISTRICT: tuple[str, ...] = tuple(lot[0] for lot in LOT_IDS)
LOT_TYPE: tuple[str, ...] = tuple(f"{lot[0]}{len(_LOTS[lot])}" for lot in LOT_IDS)
CELL_LOT: dict[int, int] = {c: i for i, cells in enumerate(LOT_CELLS) for c in cells}


def is_street(c: int) -> bool:
    """§2.2: street cells are the columns 0,5,10,15 and rows 0,5,10,15,20."""
    x, y = xy(c)
    return x in (0, 5, 10, 15) or y in (0, 5, 10, 15, 20)


class Street(NamedTuple):
    """One street line of §2.2; ``card`` is its bonus card id or ``None`` for border streets."""

    id: str
    name: str
    axis: str  # "row" or "col"
    line: int
    card: str | None
    hex: str


STREETS: tuple[Street, ...] = (
    Street("cedar", "Cedar Street", "row", 5, "S-CEDAR", "#00897b"),
    Street("pine_thames", "Pine & Thames Street", "row", 10, "S-PINE", "#6d4c41"),
    Street("wall", "Wall Street", "row", 15, "S-WALL", "#c62828"),
    Street("broadway", "Broadway", "col", 5, "S-BWAY", "#7e57c2"),
    Street("nassau_broad", "Nassau & Broad Street", "col", 10, "S-NASSAU", "#ef6c00"),
    Street("border_n", "Liberty Street", "row", 0, None, "#8c8c8c"),
    Street("border_s", "Exchange Place", "row", 20, None, "#8c8c8c"),
    Street("border_w", "Trinity Place", "col", 0, None, "#8c8c8c"),
    Street("border_e", "William Street", "col", 15, None, "#8c8c8c"),
)
STREET_CARDS: tuple[str, ...] = ("S-WALL", "S-PINE", "S-CEDAR", "S-BWAY", "S-NASSAU")
STREET_OF_CARD = {s.card: s.id for s in STREETS if s.card}
STREET_BY_ID = {s.id: s for s in STREETS}


def _street_cells(street: Street) -> frozenset[int]:
    if street.axis == "row":
        return frozenset(cell(x, street.line) for x in range(WIDTH) if x not in (0, 5, 10, 15))
    return frozenset(cell(street.line, y) for y in range(HEIGHT) if y not in (0, 5, 10, 15, 20))


STREET_CELLS: dict[str, frozenset[int]] = {s.id: _street_cells(s) for s in STREETS}


def neighbours(c: int) -> tuple[int, ...]:
    """Orthogonal neighbours on the board (§2.2: adjacency is orthogonal only)."""
    x, y = xy(c)
    out = []
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        nx, ny = x + dx, y + dy
        if 0 <= nx < WIDTH and 0 <= ny < HEIGHT:
            out.append(cell(nx, ny))
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(neighbours(c) for c in range(WIDTH * HEIGHT))
# Per lot cell: the streets it faces (ids) and whether it faces a street or park at all (P5, R8).
CELL_STREETS: dict[int, frozenset[str]] = {
    c: frozenset(s for s, cells in STREET_CELLS.items() if any(n in cells for n in NEIGHBOURS[c]))
    for c in CELL_LOT
}
CELL_FACES: frozenset[int] = frozenset(
    c for c in CELL_LOT if CELL_STREETS[c] or any(n in PARK_CELLS for n in NEIGHBOURS[c])
)


# §2.5 characters: id -> (name, district, start lot)
class Character(NamedTuple):
    id: str
    name: str
    origin: str
    district: str
    start_lot: str
    symbol: str


CHARACTERS: tuple[Character, ...] = (
    Character("C-GRN", "Margaret Kelly", "Cork, Ireland", "G", "G06", "harp"),
    Character("C-BLU", "Robert Fletcher", "Liverpool, England", "B", "B04", "shield & raven"),
    Character("C-YEL", "Giuseppe Russo", "Naples, Italy", "Y", "Y01", "lion"),
    Character("C-RED", "Anna Lindqvist", "Gothenburg, Sweden", "R", "R01", "anchor"),
    Character("C-PNK", "David Schneider", "Hamburg, Germany", "P", "P02", "edelweiss"),
)
CHARACTER_BY_ID = {c.id: c for c in CHARACTERS}

# §2.7 challenge cards
CHALLENGES: dict[str, str] = {
    "X-BRONZE": "Bronze Baron",
    "X-ARCH": "Master Architect",
    "X-GEN": "Generation King",
    "X-TYCOON": "Gold Tycoon",
    "X-PRESTIGE": "Gold Prestige",
}
BRONZE_BARON = {4: 5, 5: 10, 6: 15}
ARCH_POINTS = {3: 3, 4: 6}  # 5 or more -> 10

# §2.8 action cards
ACTION_CARDS: tuple[str, ...] = ("A-BOOM", "A-SHIFT", "A-GRAB")
ACTION_NAMES = {"A-BOOM": "Construction Boom", "A-SHIFT": "Market Shift", "A-GRAB": "Land Grab"}

# §2.11 shapes, base orientation, (dx, dy) with dy southward.
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "I2": ((0, 0), (1, 0)),
    "I3": ((0, 0), (1, 0), (2, 0)),
    "L3": ((0, 0), (0, 1), (1, 1)),
    "I4": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "O4": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "L4": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "S4": ((1, 0), (2, 0), (0, 1), (1, 1)),
    "P5": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "L5": ((0, 0), (0, 1), (0, 2), (0, 3), (1, 3)),
    "T5": ((0, 0), (1, 0), (2, 0), (1, 1), (1, 2)),
    "X5": ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
    "R6": ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)),
    "T6": ((0, 0), (1, 0), (2, 0), (3, 0), (1, 1), (2, 1)),
    "W7": ((0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
}
ROTATIONS = (0, 90, 180, 270)


class Tile(NamedTuple):
    """A skyscraper tile of §2.9/§2.10. ``tech``: 0 ST, 1 bronze, 2 silver, 3 gold/legendary."""

    id: str
    tech: int
    shape: str
    value: int
    regular: bool | None  # None for ST (neither, R4)
    name: str = ""
    height: int = 0  # legendary height in metres (tie-break)


TILES: tuple[Tile, ...] = (
    Tile("ST", 0, "I2", 0, None),
    Tile("BR1", 1, "I2", 2, True),
    Tile("BR2", 1, "I2", 2, True),
    Tile("BR3", 1, "I3", 3, True),
    Tile("BR4", 1, "L3", 3, False),
    Tile("BR5", 1, "O4", 4, True),
    Tile("BR6", 1, "L4", 4, False),
    Tile("SI1", 2, "I3", 4, True),
    Tile("SI2", 2, "O4", 5, True),
    Tile("SI3", 2, "I4", 5, True),
    Tile("SI4", 2, "T4", 5, False),
    Tile("SI5", 2, "S4", 5, False),
    Tile("SI6", 2, "P5", 6, False),
    Tile("GO1", 3, "I4", 6, True),
    Tile("GO2", 3, "L5", 7, False),
    Tile("GO3", 3, "P5", 7, False),
    Tile("GO4", 3, "T5", 7, False),
    Tile("GO5", 3, "R6", 8, True),
    Tile("GO6", 3, "T6", 8, False),
    Tile("LPR", 3, "O4", 7, True, "Park Row Building", 119),
    Tile("LSI", 3, "X5", 8, False, "Singer Building", 187),
    Tile("LML", 3, "R6", 9, True, "Metropolitan Life Tower", 213),
    Tile("LWO", 3, "W7", 10, False, "Woolworth Building", 241),
)
TILE_BY_ID = {t.id: t for t in TILES}
SUPPLY_TILES: tuple[str, ...] = tuple(t.id for t in TILES if t.id != "ST" and not t.id.startswith("L"))
LEGENDARY: tuple[str, ...] = ("LPR", "LSI", "LML", "LWO")
TECH_NAMES = ("starting property", "bronze", "silver", "gold")

# §2.12 thresholds (silver, gold): standard and expert.
THRESHOLDS = {False: (6, 18), True: (10, 25)}
END_SUPPLY = 4  # §5.2 (a)
STREET_BONUS = 5
PLAYER_COLOURS = ("Brown", "Green", "Yellow", "Blue")
PLAYER_HEX = ("#6d4c41", "#1b5e20", "#f9a825", "#0d47a1")
WORKERS = 4


@cache
def oriented(shape: str, rot: int) -> tuple[tuple[int, int], ...]:
    """§2.11: the shape turned ``rot`` degrees clockwise, normalised to min dx = min dy = 0, sorted."""
    cells = list(SHAPES[shape])
    for _ in range((rot // 90) % 4):
        cells = [(-dy, dx) for dx, dy in cells]
    mx = min(dx for dx, _ in cells)
    my = min(dy for _, dy in cells)
    return tuple(sorted((dx - mx, dy - my) for dx, dy in cells))


@cache
def canonical_rots(shape: str) -> tuple[int, ...]:
    """The rotations giving distinct cell sets; each the smallest of its class (§2.11)."""
    seen: set[tuple[tuple[int, int], ...]] = set()
    out = []
    for rot in ROTATIONS:
        o = oriented(shape, rot)
        if o not in seen:
            seen.add(o)
            out.append(rot)
    return tuple(out)


@cache
def canonical_rot(shape: str, rot: int) -> int:
    """The smallest rotation with the same cell set as ``rot``."""
    target = oriented(shape, rot)
    return next(r for r in ROTATIONS if oriented(shape, r) == target)


def footprint(shape: str, rot: int, x: int, y: int) -> tuple[int, ...] | None:
    """Covered cell indices of a placement, or ``None`` if a cell falls off the board (P6)."""
    out = []
    for dx, dy in oriented(shape, rot):
        nx, ny = x + dx, y + dy
        if not (0 <= nx < WIDTH and 0 <= ny < HEIGHT):
            return None
        out.append(cell(nx, ny))
    return tuple(sorted(out))


def lot_card_types(two_player: bool) -> tuple[str, ...]:
    """Lot card types in play (§2.4, §3.3: pink out with two players)."""
    return tuple(f"{d}{s}" for d in DISTRICTS if not (two_player and d == "P") for s in (2, 3))


def all_lot_cards(two_player: bool) -> tuple[str, ...]:
    """Every lot card id in play, canonical order: ``G2#1``…``P3#4``."""
    return tuple(
        f"{t}#{n}" for t in lot_card_types(two_player) for n in range(1, (9 if t[1] == "2" else 4) + 1)
    )


def card_type(card: str) -> str:
    """``"Y2#7"`` -> ``"Y2"``."""
    return card.split("#", 1)[0]
