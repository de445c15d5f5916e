"""Static tables of Skyline of the World (spec §2): pieces, colours, the 6×6 board, bonus cards, missions."""

from __future__ import annotations

from typing import Final, NamedTuple

# §2.1 piece codes: coloured floors and penthouses belong to a colour; N is neutral; S is a Skyline floor.
COLOURED: Final = ("1", "2", "4", "6", "PH")
PIECES: Final = ("1", "2", "4", "6", "PH", "N", "S")
PRICE: Final = {"1": 1, "2": 2, "4": 4, "6": 6, "PH": 10, "N": 5}
# §4.5: the fee of a new piece is its own printed value; N and S count as 5.
FEE: Final = {"1": 1, "2": 2, "4": 4, "6": 6, "PH": 10, "N": 5, "S": 5}
SELL: Final = {"1": 0, "2": 1, "4": 2, "6": 3, "PH": 5, "N": 2}
LEVEL: Final = {"1": 1, "2": 2, "4": 3, "6": 4, "PH": 5}
INCOME: Final = {"1": 1, "2": 2, "4": 4, "6": 6}
SUPPLY_PER_COLOUR: Final = {"1": 8, "2": 6, "4": 4, "6": 3, "PH": 3}
START_STOCK: Final = ("1", "1", "2")  # §2.3: taken from the colour's supply at setup
NEUTRAL_COUNT: Final = 6
SKYLINE_PER_COLOUR: Final = 2
START_CASH: Final = 10
CASH_CAP: Final = 30
MAX_HEIGHT: Final = 5
HAND_SIZE: Final = 3  # §3 step 4
EXCHANGE_COUNT: Final = 3  # §4.8
EXCHANGE_REWARD: Final = 5
MISSION_PP: Final = 2
PENTHOUSES_TO_END: Final = 3

# §2.2 (designed)
COLOURS: Final = ("red", "blue", "green", "purple")
COLOUR_HEX: Final = {"red": "#D7263D", "blue": "#1B4F9C", "green": "#2E8B57", "purple": "#7D3C98"}


def piece_order(code: str) -> int:
    """Canonical position of a piece code (stocks are kept sorted by it)."""
    return PIECES.index(code)


# §2.5 board (designed). Sites are indexed column-major, k = 6·x + y, so index order is the spec's
# site order A1 < A2 < … < F6 (column then row).
SIZE: Final = 6
COLUMNS: Final = "ABCDEF"


class Icon(NamedTuple):
    """An icon type of §2.5."""

    id: str
    name: str
    badge: str
    colour: str


ICONS: Final = {
    i.id: i
    for i in (
        Icon("LIB", "Liberty torch", "Li", "#0F766E"),
        Icon("OPE", "Opera shell", "Op", "#0E7490"),
        Icon("PRL", "Pearl tower", "Pe", "#BE185D"),
        Icon("CLK", "Clock tower", "Cl", "#92400E"),
        Icon("BRG", "Swan bridge", "Br", "#1E3A8A"),
        Icon("EUR", "Euro sign", "€", "#854D0E"),
    )
}

ICON_SITES: Final = {
    "LIB": ("A1", "E3", "C5"),
    "OPE": ("F2", "A3", "E5"),
    "PRL": ("C1", "F4", "A5"),
    "CLK": ("B2", "D4", "F6"),
    "BRG": ("E1", "C3", "B6"),
    "EUR": ("D2", "B4", "D6"),
}
ORANGE_SITES: Final = ("C2", "E4", "B5")


class Site(NamedTuple):
    """One building site (§2.5)."""

    k: int
    id: str
    x: int
    y: int
    icon: str | None
    orange: bool
    neighbours: tuple[int, ...]


def site_index(x: int, y: int) -> int:
    """Index of the site at column ``x``, row ``y``."""
    return x * SIZE + y


def site_name(k: int) -> str:
    """``C4`` for the site at x=2, y=3."""
    return f"{COLUMNS[k // SIZE]}{k % SIZE + 1}"


def _icon_of(name: str) -> str | None:
    return next((icon for icon, names in ICON_SITES.items() if name in names), None)


def _neighbours(x: int, y: int) -> tuple[int, ...]:
    # §2.5: orthogonal adjacency only.
    out = [
        site_index(x + dx, y + dy)
        for dx, dy in ((-1, 0), (0, -1), (0, 1), (1, 0))
        if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE
    ]
    return tuple(sorted(out))


SITES: Final = tuple(
    Site(
        k=site_index(x, y),
        id=site_name(site_index(x, y)),
        x=x,
        y=y,
        icon=_icon_of(site_name(site_index(x, y))),
        orange=site_name(site_index(x, y)) in ORANGE_SITES,
        neighbours=_neighbours(x, y),
    )
    for x in range(SIZE)
    for y in range(SIZE)
)
SITE_BY_NAME: Final = {s.id: s.k for s in SITES}
ORANGE: Final = frozenset(SITE_BY_NAME[n] for n in ORANGE_SITES)

# §2.6 shapes: base cells (dx, dy); every rotation and mirror image is allowed.
SHAPES: Final = {
    "I3": ((0, 0), (1, 0), (2, 0)),
    "L3": ((0, 0), (1, 0), (0, 1)),
    "I4": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "L4": ((0, 0), (0, 1), (0, 2), (1, 2)),
    "T4": ((0, 0), (1, 0), (2, 0), (1, 1)),
    "S4": ((1, 0), (2, 0), (0, 1), (1, 1)),
    "O4": ((0, 0), (1, 0), (0, 1), (1, 1)),
}


def shape_picture(shape: str) -> tuple[str, ...]:
    """Rows of ``#``/``.`` as in the §2.6 table."""
    cells = SHAPES[shape]
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    return tuple("".join("#" if (x, y) in cells else "." for x in range(w)) for y in range(h))


class BonusCard(NamedTuple):
    """A bonus card (§2.6): a shape that must contain a site with ``icon``."""

    id: str
    name: str
    icon: str
    shape: str
    reward: int


_CARD_ROWS: Final = (
    ("US Bank Tower", "LIB", "I3"),
    ("Flatiron Building", "LIB", "I3"),
    ("Woolworth Building", "LIB", "L3"),
    ("Transamerica Pyramid", "LIB", "L3"),
    ("Empire State Building", "LIB", "I4"),
    ("Chrysler Building", "LIB", "L4"),
    ("Sears Tower", "LIB", "T4"),
    ("Sydney Tower", "OPE", "I3"),
    ("Australia Square", "OPE", "I3"),
    ("MLC Centre", "OPE", "L3"),
    ("Chifley Tower", "OPE", "L3"),
    ("Governor Phillip Tower", "OPE", "I4"),
    ("Q1 Tower", "OPE", "L4"),
    ("Eureka Tower", "OPE", "O4"),
    ("Oriental Pearl Tower", "PRL", "I3"),
    ("Bank of China Tower", "PRL", "I3"),
    ("Jin Mao Tower", "PRL", "L3"),
    ("Two International Finance Centre", "PRL", "L3"),
    ("Taipei 101", "PRL", "I4"),
    ("Petronas Towers", "PRL", "S4"),
    ("Shanghai World Financial Center", "PRL", "T4"),
    ("BT Tower", "CLK", "I3"),
    ("Centre Point", "CLK", "I3"),
    ("Tower 42", "CLK", "L3"),
    ("Lloyd's Building", "CLK", "L3"),
    ("One Canada Square", "CLK", "I4"),
    ("Euston Tower", "CLK", "L4"),
    ("30 St Mary Axe", "CLK", "O4"),
    ("Euromast", "BRG", "I3"),
    ("Het Witte Huis", "BRG", "I3"),
    ("Willemswerf", "BRG", "L3"),
    ("Montevideo", "BRG", "L3"),
    ("Delftse Poort", "BRG", "I4"),
    ("World Port Center", "BRG", "S4"),
    ("Millennium Tower", "BRG", "T4"),
    ("Silberturm", "EUR", "I3"),
    ("Trianon", "EUR", "I3"),
    ("Skyper", "EUR", "L3"),
    ("Westendstrasse 1", "EUR", "L3"),
    ("Messeturm", "EUR", "I4"),
    ("Main Tower", "EUR", "L4"),
    ("Commerzbank Tower", "EUR", "O4"),
)

BONUS_CARDS: Final = {
    f"B{i:02d}": BonusCard(f"B{i:02d}", name, icon, shape, 5 if len(SHAPES[shape]) == 3 else 8)
    for i, (name, icon, shape) in enumerate(_CARD_ROWS, start=1)
}
BONUS_IDS: Final = tuple(BONUS_CARDS)


def _orientations(cells: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct images of ``cells`` under the 8 rotations/reflections, normalised to (0, 0)."""
    out: set[tuple[tuple[int, int], ...]] = set()
    pts = list(cells)
    for _mirror in range(2):
        for _turn in range(4):
            pts = [(-y, x) for x, y in pts]
            mx, my = min(x for x, _ in pts), min(y for _, y in pts)
            out.add(tuple(sorted((x - mx, y - my) for x, y in pts)))
        pts = [(-x, y) for x, y in pts]
    return sorted(out)


def _placements(card: BonusCard) -> tuple[tuple[int, ...], ...]:
    """Every distinct site set where ``card`` fits and covers one of its icon sites (§2.6), sorted so
    the first is the smallest sorted site list (§8 ``claim`` without ``at=``)."""
    icon_sites = {SITE_BY_NAME[n] for n in ICON_SITES[card.icon]}
    found: set[tuple[int, ...]] = set()
    for shape in _orientations(SHAPES[card.shape]):
        w = max(x for x, _ in shape) + 1
        h = max(y for _, y in shape) + 1
        for ox in range(SIZE - w + 1):
            for oy in range(SIZE - h + 1):
                sites = tuple(sorted(site_index(ox + x, oy + y) for x, y in shape))
                if icon_sites & set(sites):
                    found.add(sites)
    return tuple(sorted(found))


PLACEMENTS: Final = {cid: _placements(card) for cid, card in BONUS_CARDS.items()}
PLACEMENT_MASKS: Final = {
    cid: tuple((sum(1 << k for k in p), p) for p in places) for cid, places in PLACEMENTS.items()
}


class Mission(NamedTuple):
    """A secret mission (§2.7): four sites, in path order, to top at the end."""

    id: str
    name: str
    sites: tuple[str, ...]
    shape: str


MISSIONS: Final = {
    m.id: m
    for m in (
        Mission("M1", "Rotterdam Waterfront", ("A1", "A2", "A3", "A4"), "straight"),
        Mission("M2", "Sydney Harbour", ("F3", "F4", "F5", "F6"), "straight"),
        Mission("M3", "London Skyline", ("B1", "C1", "D1", "D2"), "L"),
        Mission("M4", "Shanghai Bund", ("C6", "D6", "E6", "E5"), "L"),
        Mission("M5", "Manhattan", ("B3", "C3", "C4", "D4"), "S"),
        Mission("M6", "Frankfurt Mainhattan", ("D3", "E3", "E2", "F2"), "S"),
    )
}
MISSION_IDS: Final = tuple(MISSIONS)
MISSION_MASKS: Final = {m.id: sum(1 << SITE_BY_NAME[n] for n in m.sites) for m in MISSIONS.values()}
