"""Static tables of Fifth Avenue transcribed from the spec (shared/games/fifth_avenue.md §2)."""

from __future__ import annotations

from typing import Final

# §2.2 bidding cards: colour codes in canonical order, then the black jokers.
COLOURS: Final = ("GY", "BR", "OR", "GN", "VI")
BLACK: Final = "BK"
VALUES: Final = (4, 5, 6)
COLOURED_DECK_COUNTS: Final = {4: 5, 5: 4, 6: 3}
BLACK_DECK_COUNTS: Final = {4: 20, 5: 16, 6: 14}
BUILDINGS_FOR_VALUE: Final = {4: 3, 5: 2, 6: 1}
ALL_CARDS: Final = tuple(f"{c}{v}" for c in (*COLOURS, BLACK) for v in VALUES)
CARD_RANK: Final = {card: i for i, card in enumerate(ALL_CARDS)}


def coloured_deck(colour: str) -> list[str]:
    """Canonical unshuffled deck of one colour: ``[c4×5, c5×4, c6×3]``."""
    return [f"{colour}{v}" for v in VALUES for _ in range(COLOURED_DECK_COUNTS[v])]


def black_deck() -> list[str]:
    """Canonical unshuffled black deck: ``[BK4×20, BK5×16, BK6×14]``."""
    return [f"BK{v}" for v in VALUES for _ in range(BLACK_DECK_COUNTS[v])]


def card_colour(card: str) -> str:
    return card[:2]


def card_value(card: str) -> int:
    return int(card[2])


def sort_cards(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Cards in canonical order (colour order, then value)."""
    return tuple(sorted(cards, key=CARD_RANK.__getitem__))


# §2.3 shop tiles.
SHOP_TYPES: Final = ("F", "J", "A", "P")
SHOP_COUNT: Final = 9


def shop_tiles() -> list[str]:
    """Canonical unshuffled tiles ``[F×9, J×9, A×9, P×9]``."""
    return [t for t in SHOP_TYPES for _ in range(SHOP_COUNT)]


# §2.4 positions and movement graph.
START: Final = "START"
CP: Final = "CP"
DISTRICTS: Final = ("34W", "34E", "42W", "TS", "42E", "52W", "52E")
POSITIONS: Final = (START, *DISTRICTS, CP)
COLUMN: Final = {START: 0, "34W": 1, "34E": 1, "42W": 2, "TS": 2, "42E": 2, "52W": 3, "52E": 3, CP: 4}
FORWARD: Final[dict[str, tuple[str, ...]]] = {
    START: ("34W", "34E"),
    "34W": ("42W", "TS"),
    "34E": ("TS", "42E"),
    "42W": ("52W",),
    "TS": ("52W", "52E"),
    "42E": ("52E",),
    "52W": (CP,),
    "52E": (CP,),
    CP: (START,),
}
PAWNS: Final = ("white", "beige")

# §2.5 / §2.6 lot rings (index 0 at the top, clockwise); X is the sixth, uncoloured lot.
RINGS: Final[dict[str, tuple[str, ...]]] = {
    "34W": ("GY", "BR", "OR", "GN", "VI"),
    "34E": ("OR", "VI", "BR", "GN", "GY"),
    "42W": ("GN", "OR", "VI", "GY", "BR"),
    "TS": ("BR", "OR", "GY", "GN", "VI"),
    "42E": ("VI", "GY", "OR", "BR", "GN"),
    "52W": ("BR", "VI", "OR", "GN", "GY"),
    "52E": ("OR", "BR", "GN", "GY", "VI"),
}
X: Final = "X"


def ring(district: str, six: bool) -> tuple[str, ...]:
    """The lot colours of ``district`` in ring order (6-lot side appends ``X``)."""
    return (*RINGS[district], X) if six else RINGS[district]


def lot_ids(six: bool) -> tuple[str, ...]:
    """Every lot id, district by district in canonical order, ring order inside."""
    return tuple(f"{d}.{c}" for d in DISTRICTS for c in ring(d, six))


def neighbours(lot: str, six: bool) -> tuple[str, str]:
    """The two lots adjacent to ``lot`` (ring index ±1)."""
    district, colour = lot.split(".")
    r = ring(district, six)
    i = r.index(colour)
    return f"{district}.{r[i - 1]}", f"{district}.{r[(i + 1) % len(r)]}"


# §2.7 supply row groups (slots 0-based) and the special scorings after the 3rd/6th/9th shop.
GROUPS: Final = ((0, 1, 2), (3, 4), (5, 6, 7), (8, 9), (10, 11, 12), (13, 14), (15, 16, 17), (18, 19))
SLOTS: Final = tuple(f"S{i + 1}" for i in range(20))
SPECIAL: Final = {3: (3, 4), 6: (4, 6), 9: (5, 8)}  # counter -> (districts needed, VP)
LAST_SHOP: Final = 12

# §2.8 value of a building by the number of different shop types next to it.
VALUE: Final = (1, 2, 3, 5, 8)

# §3.1 default player colours.
PLAYER_COLOURS: Final = ("red", "yellow", "blue", "green")
