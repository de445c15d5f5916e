"""Static tables of Piatnik's New York (spec §2, §3.1, §9): lines, buildings, cards, colours, counts."""

from __future__ import annotations

from typing import Final, NamedTuple

# §2.2 — avenues are rows (red-back cards), streets are columns (blue-back cards).
AVENUES: Final = ("8AV", "BWY", "6AV", "5AV", "MAD", "PARK", "LEX")
STREETS: Final = ("34", "38", "42", "45", "49", "53", "57")
AVENUE_NAMES: Final = {
    "8AV": "Eighth Avenue",
    "BWY": "Broadway",
    "6AV": "Sixth Avenue",
    "5AV": "Fifth Avenue",
    "MAD": "Madison Avenue",
    "PARK": "Park Avenue",
    "LEX": "Lexington Avenue",
}
STREET_NAMES: Final = {
    "34": "34th Street",
    "38": "38th Street",
    "42": "42nd Street",
    "45": "45th Street",
    "49": "49th Street",
    "53": "53rd Street",
    "57": "57th Street",
}
LINE_NAMES: Final = {**AVENUE_NAMES, **STREET_NAMES}
ROW_OF: Final = {code: i for i, code in enumerate(AVENUES)}
COL_OF: Final = {code: i for i, code in enumerate(STREETS)}

SIZE: Final = 7
CELLS: Final = SIZE * SIZE


class Building(NamedTuple):
    """One of the 49 crossings (§2.3)."""

    idx: int
    id: str
    row: int
    col: int
    x: int
    y: int
    neighbours: tuple[int, ...]
    special: str  # "", "inner", "centre" or "corner"


def _neighbours(row: int, col: int) -> tuple[int, ...]:
    # §2.3: orthogonal only, listed in index order.
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            out.append(r * SIZE + c)
    return tuple(out)


# Ruling 2: centre 5AV-45 plus its four orthogonal neighbours; corners are unambiguous.
INNER: Final = (17, 23, 24, 25, 31)
CORNERS: Final = (0, 6, 42, 48)
CENTRE: Final = 24


def _special(idx: int) -> str:
    if idx == CENTRE:
        return "centre"
    if idx in INNER:
        return "inner"
    if idx in CORNERS:
        return "corner"
    return ""


BUILDINGS: Final = tuple(
    Building(
        idx=r * SIZE + c,
        id=f"{AVENUES[r]}-{STREETS[c]}",
        row=r,
        col=c,
        x=200 + 80 * c,
        y=110 + 80 * r,
        neighbours=_neighbours(r, c),
        special=_special(r * SIZE + c),
    )
    for r in range(SIZE)
    for c in range(SIZE)
)
BUILDING_IDS: Final = tuple(b.id for b in BUILDINGS)
BUILDING_INDEX: Final = {b.id: b.idx for b in BUILDINGS}
NEIGHBOURS: Final = tuple(b.neighbours for b in BUILDINGS)
ROW: Final = tuple(b.row for b in BUILDINGS)
COL: Final = tuple(b.col for b in BUILDINGS)
ROW_CELLS: Final = tuple(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE))
COL_CELLS: Final = tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
LINE_CELLS: Final = {
    **{AVENUES[r]: ROW_CELLS[r] for r in range(SIZE)},
    **{STREETS[c]: COL_CELLS[c] for c in range(SIZE)},
}

# §2.6 (designed, decorative only).
LANDMARKS: Final = {
    "5AV-34": "Empire State Building",
    "BWY-34": "Herald Square",
    "8AV-42": "Port Authority",
    "6AV-42": "Bryant Park",
    "5AV-42": "Public Library",
    "PARK-42": "Grand Central",
    "LEX-42": "Chrysler Building",
    "BWY-45": "Times Square",
    "5AV-49": "Rockefeller Center",
    "PARK-49": "Waldorf-Astoria",
    "5AV-53": "MoMA",
    "5AV-57": "Tiffany's",
}

# §2.4 — cards. Codes are stored as strings in states and notations.
RJ: Final = "RJ"
BJ: Final = "BJ"
STOP: Final = "STOP"
BAU_R, BAU_B, STAT_R, STAT_B = "BAU-R", "BAU-B", "STAT-R", "STAT-B"
SINGLE_EVENTS: Final = ("SAN-R", "SAN-B", "RUIN-R", "RUIN-B", "SPEC-R", "SPEC-B")
COMBO_EVENTS: Final = (BAU_R, BAU_B, STAT_R, STAT_B)
EVENT_CARDS: Final = (
    "SAN-R",
    "SAN-B",
    "RUIN-R",
    "RUIN-B",
    "SPEC-R",
    "SPEC-B",
    "BAU-R",
    "BAU-R",
    "BAU-B",
    "BAU-B",
    "STAT-R",
    "STAT-B",
)
EVENT_NAMES: Final = {
    "SAN": "Sanierung",
    "RUIN": "Ruin",
    "SPEC": "Spekulation",
    "BAU": "Bauloewe",
    "STAT": "Statik",
}

# §4.4 canonical enumeration order of the cards that can form a pair.
RED_PAIR_ORDER: Final = (*AVENUES, RJ, BAU_R, STAT_R)
BLUE_PAIR_ORDER: Final = (*STREETS, BJ, BAU_B, STAT_B)
# §6: hands are shown red-back first, then blue-back, each in canonical order.
CARD_ORDER: Final = (
    *RED_PAIR_ORDER,
    "SAN-R",
    "RUIN-R",
    "SPEC-R",
    *BLUE_PAIR_ORDER,
    "SAN-B",
    "RUIN-B",
    "SPEC-B",
)
CARD_RANK: Final = {code: i for i, code in enumerate(CARD_ORDER)}
ALL_CARDS: Final = frozenset(CARD_ORDER)
RED_BACK: Final = frozenset(
    code for code in CARD_ORDER if code in AVENUES or code.endswith("-R") or code == RJ
)
BLUE_BACK: Final = ALL_CARDS - RED_BACK
BACK: Final = {code: ("R" if code in RED_BACK else "B") for code in CARD_ORDER}
ORDINARY: Final = frozenset((*AVENUES, *STREETS, RJ, BJ))
JOKERS: Final = frozenset((RJ, BJ))


def card_name(code: str) -> str:
    """Human name of a card code (for hands and help texts)."""
    if code in AVENUE_NAMES:
        return AVENUE_NAMES[code]
    if code in STREET_NAMES:
        return STREET_NAMES[code]
    if code == RJ:
        return "red joker (any avenue)"
    if code == BJ:
        return "blue joker (any street)"
    if code == STOP:
        return "Stop"
    kind, back = code.split("-")
    return f"{EVENT_NAMES[kind]} ({'red' if back == 'R' else 'blue'})"


def canonical_deck(events: bool) -> tuple[str, ...]:
    """The unshuffled deck of §2.4: avenues by row, streets by column, jokers, then (V1) the events."""
    cards: list[str] = []
    for code in AVENUES:
        cards += [code] * 4
    for code in STREETS:
        cards += [code] * 4
    cards += [RJ] * 5 + [BJ] * 5
    if events:
        cards += EVENT_CARDS
    return tuple(cards)


def sort_hand(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Cards in the canonical hand order (§6)."""
    return tuple(sorted(cards, key=CARD_RANK.__getitem__))


# §3.1, §2.5 — houses and counts.
COLOURS: Final = ("red", "blue", "yellow", "green", "black")
COLOUR_INDEX: Final = {c: i for i, c in enumerate(COLOURS)}
PIECES_IN_BOX: Final = {"red": 25, "blue": 25, "yellow": 25, "green": 20, "black": 15}
COLOUR_HEX: Final = {
    "red": "#D32F2F",
    "blue": "#1E63C8",
    "yellow": "#F2C200",
    "green": "#2E8B3D",
    "black": "#222222",
}
MONEY_IN_BOX: Final = 25


class Params(NamedTuple):
    """Per player count (§3.1)."""

    houses: tuple[str, ...]
    pieces: int
    money: int
    prelim: int


PARAMS: Final = {
    2: Params(COLOURS[:4], 20, 12, 6),
    3: Params(COLOURS[:3], 25, 8, 8),
    4: Params(COLOURS[:4], 20, 6, 6),
    5: Params(COLOURS[:5], 15, 5, 5),
}

# §4.7: the final phase starts when at most this many buildings are unowned.
FINAL_PHASE_UNOWNED: Final = 4
# Ruling 25: Spekulation needs "more than 8" buildings.
SPECULATION_MIN: Final = 9
