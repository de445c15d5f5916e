"""Static tables of Dirk Henn's *New York* (spec §2): money cards, building types, tiles, start tiles."""

from __future__ import annotations

from typing import NamedTuple

BANKS: tuple[str, ...] = ("B", "G", "Y", "R")  # §2.2: market slot order, blue to red
BANK_NAMES = {"B": "blue", "G": "green", "Y": "yellow", "R": "red"}
BANK_HEX = {"B": "#2F6DB5", "G": "#2E8B57", "Y": "#E0B000", "R": "#C0392B"}
VALUES: tuple[int, ...] = tuple(range(1, 10))
COPIES = 3
TWO_PLAYER_COPIES = 2  # §3.2 / ruling 20: copy #3 of every bank/value is set aside
SCORE_A = "SCORE_A"
SCORE_B = "SCORE_B"
SCORING_CARDS = (SCORE_A, SCORE_B)

# Every money code "Xv" (copies are rules-identical, §2.2) and its canonical rank (bank, then value).
MONEY_CODES: tuple[str, ...] = tuple(f"{b}{v}" for b in BANKS for v in VALUES)
CARD_RANK = {code: i for i, code in enumerate(MONEY_CODES)}


def card_bank(code: str) -> str:
    """The bank letter of a money code (``"Y7"`` -> ``"Y"``)."""
    return code[0]


def card_value(code: str) -> int:
    """The value of a money code (``"Y7"`` -> ``7``)."""
    return int(code[1])


def sort_hand(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Canonical order of a set of money cards: bank B, G, Y, R, then value ascending."""
    return tuple(sorted(cards, key=CARD_RANK.__getitem__))


def sort_payment(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Canonical order of a payment (one bank): value descending, as the spec writes ``Y6,Y5``."""
    return tuple(sorted(cards, key=lambda c: (-card_value(c), CARD_RANK[c])))


def money_deck(seats: int) -> tuple[str, ...]:
    """The unshuffled money deck: 108 cards, 72 in the 2-player game (§2.2, §3.2)."""
    copies = TWO_PLAYER_COPIES if seats == 2 else COPIES
    return tuple(code for code in MONEY_CODES for _ in range(copies))


class BuildingType(NamedTuple):
    """One row of the §2.3 table."""

    code: str
    name: str
    tiles: int
    colour: str
    score_a: tuple[int, ...]
    score_b: tuple[int, ...]
    score_c: tuple[int, ...]


TYPES: tuple[BuildingType, ...] = (
    BuildingType("MU", "Museum", 7, "#5B8FC7", (1,), (8, 1), (16, 8, 1)),
    BuildingType("TH", "Theatre", 7, "#A23B4F", (2,), (9, 2), (17, 9, 2)),
    BuildingType("ST", "Station", 9, "#8B5A2B", (3,), (10, 3), (18, 10, 3)),
    BuildingType("CH", "Church", 9, "#E8E2D0", (4,), (11, 4), (19, 11, 4)),
    BuildingType("PK", "Park", 11, "#5DA83A", (5,), (12, 5), (20, 12, 5)),
    BuildingType("SK", "Skyscraper", 11, "#6C4BA6", (6,), (13, 6), (21, 13, 6)),
)
TYPE_CODES: tuple[str, ...] = tuple(t.code for t in TYPES)
TYPE_BY_CODE = {t.code: t for t in TYPES}


def paid_places(round_id: str, type_code: str) -> tuple[int, ...]:
    """Points of the paid places of ``type_code`` in scoring round A, B or C (§5.1, §2.3)."""
    t = TYPE_BY_CODE[type_code]
    return {"A": t.score_a, "B": t.score_b, "C": t.score_c}[round_id]


# Directions in N, E, S, W order; (dx, dy) with y growing south (§2.7).
DIRS: tuple[str, ...] = ("N", "E", "S", "W")
DELTA: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
OPPOSITE: tuple[int, ...] = (2, 3, 0, 1)


class Tile(NamedTuple):
    """A building tile or start tile: street edges indexed N, E, S, W (tiles never rotate, §4.7)."""

    id: str
    type: str | None  # None for a start tile (no building type, §2.5)
    price: int
    streets: tuple[bool, bool, bool, bool]

    @property
    def street_text(self) -> str:
        """Street edges as letters (``"NEW"``), ``"-"`` when none."""
        return "".join(d for d, s in zip(DIRS, self.streets, strict=True) if s) or "-"


# §2.4, verbatim from the spec's table: id, type, price, street edges.
_TILE_TABLE = """
T01 MU 2 NEW|T02 MU 3 SW|T03 MU 4 ES|T04 MU 5 NW|T05 MU 6 N|T06 MU 7 E|T07 MU 8 -
T08 TH 3 ESW|T09 TH 4 NE|T10 TH 5 SW|T11 TH 6 ES|T12 TH 7 W|T13 TH 8 S|T14 TH 9 -
T15 ST 4 NES|T16 ST 5 NW|T17 ST 6 SW|T18 ST 6 NE|T19 ST 7 ES|T20 ST 8 N|T21 ST 8 E|T22 ST 9 -|T23 ST 10 -
T24 CH 5 NSW|T25 CH 6 ES|T26 CH 7 SW|T27 CH 7 NE|T28 CH 8 NW|T29 CH 9 W|T30 CH 9 S|T31 CH 10 -|T32 CH 11 -
T33 PK 6 ESW|T34 PK 7 NSW|T35 PK 8 SW|T36 PK 8 NE|T37 PK 8 NW|T38 PK 9 E|T39 PK 10 N|T40 PK 10 W
T41 PK 10 -|T42 PK 11 -|T43 PK 12 S
T44 SK 7 NEW|T45 SK 8 NES|T46 SK 9 ES|T47 SK 9 NE|T48 SK 9 NW|T49 SK 10 W|T50 SK 11 N|T51 SK 11 S
T52 SK 11 -|T53 SK 12 -|T54 SK 13 E
"""


def _parse_tiles() -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    for entry in _TILE_TABLE.replace("\n", "|").split("|"):
        if not entry.strip():
            continue
        tid, typ, price, edges = entry.split()
        streets = (d in edges for d in DIRS)
        tiles[tid] = Tile(tid, typ, int(price), tuple(streets))  # type: ignore[arg-type]
    return tiles


BUILDING_TILES: dict[str, Tile] = _parse_tiles()
TILE_IDS: tuple[str, ...] = tuple(BUILDING_TILES)

# §2.5: start tiles S1..S6, no streets; colours are for rendering only (ruling 26).
START_COLOURS: tuple[str, ...] = ("#F39C12", "#17A2B8", "#E83E8C", "#6C757D", "#212529", "#A3C940")
DIRK_COLOUR = "#9E9E9E"
START_TILES: dict[str, Tile] = {
    f"S{i}": Tile(f"S{i}", None, 0, (False, False, False, False)) for i in range(1, 7)
}
ALL_TILES: dict[str, Tile] = {**BUILDING_TILES, **START_TILES}
# Streets per tile id, looked up in the hot paths of the placement checks.
STREETS: dict[str, tuple[bool, bool, bool, bool]] = {t.id: t.streets for t in ALL_TILES.values()}


def start_tile(seat: int) -> str:
    """The start tile id of a 0-based seat (seat 0 -> ``S1``)."""
    return f"S{seat + 1}"


DISPLAY_SIZE = 4
TAKE_LIMIT = 5  # §4.3: several cards may total at most 5
DEAL_TARGET = 20  # §3.1 step 5
DIRK_DRAW_A = 6  # §7.2
DIRK_SETUP = 6
