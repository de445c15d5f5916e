"""The words of Dirk Henn's New York: money cards, building types, tiles and city positions as sentences
a player reads (translated at the edge from the ``ny_henn`` catalogue)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.core.say import Arg, Say, Speaker, items
from engine.ny_henn.cards import ALL_TILES, card_bank, card_value

SPEAKER = Speaker("ny_henn")
say = SPEAKER.say
say_n = SPEAKER.say_n
word = SPEAKER.word

BANK_WORDS = {
    "B": word("blue", "bank"),
    "G": word("green", "bank"),
    "Y": word("yellow", "bank"),
    "R": word("red", "bank"),
}
# The same colours naming a market slot or a bank's cards (some languages agree them with the noun).
SLOT_WORDS = {
    "B": word("blue", "slot"),
    "G": word("green", "slot"),
    "Y": word("yellow", "slot"),
    "R": word("red", "slot"),
}
TYPE_WORDS = {
    "MU": word("Museum", "building"),
    "TH": word("Theatre", "building"),
    "ST": word("Station", "building"),
    "CH": word("Church", "building"),
    "PK": word("Park", "building"),
    "SK": word("Skyscraper", "building"),
}
# A building type with its article, where a sentence names one tile ("the Station", "la Stazione").
THE_TYPE_WORDS = {
    "MU": word("the Museum", "the building"),
    "TH": word("the Theatre", "the building"),
    "ST": word("the Station", "the building"),
    "CH": word("the Church", "the building"),
    "PK": word("the Park", "the building"),
    "SK": word("the Skyscraper", "the building"),
}
# Street edges of a tile, drawn as arrows: language-free and the same on the board image.
ARROWS = ("↑", "→", "↓", "←")
DIRK = word("Dirk", "player")
START_TILE = word("Times Square", "tile")


def card(code: str) -> Say:
    """A money card: "yellow 7"."""
    return say("{bank} {value}", bank=BANK_WORDS[card_bank(code)], value=card_value(code))


def cards(codes: Sequence[str], joiner: Literal["plus", "comma"] = "plus") -> Arg:
    """Money cards joined with "+" (a payment: "yellow 6 + yellow 5") or commas; "no cards" for none."""
    if not codes:
        return say("no cards")
    return items(map(card, codes), joiner)


def arrows(tile_id: str) -> str:
    """The tile's street edges as arrows, "" for none."""
    return "".join(a for a, street in zip(ARROWS, ALL_TILES[tile_id].streets, strict=True) if street)


def tile(tile_id: str) -> Say:
    """A building tile: its type, price and street arrows ("Station $6 ↓←"), unique among the tiles."""
    found = ALL_TILES[tile_id]
    if found.type is None:
        return START_TILE
    streets = arrows(tile_id)
    kind = TYPE_WORDS[found.type]
    if streets:
        return say("{building} ${price} {streets}", building=kind, price=found.price, streets=streets)
    return say("{building} ${price}", building=kind, price=found.price)


def the_tile(tile_id: str) -> Say:
    """A building tile named with its article, as a sentence about that one tile takes it: "the Station
    $6 ↓←" (in Italian "la Stazione", "il Museo")."""
    found = ALL_TILES[tile_id]
    if found.type is None:
        return START_TILE
    streets = arrows(tile_id)
    kind = THE_TYPE_WORDS[found.type]
    if streets:
        return say("{building} ${price} {streets}", building=kind, price=found.price, streets=streets)
    return say("{building} ${price}", building=kind, price=found.price)


def position(x: int, y: int) -> Arg:
    """A city cell counted from the start tile: "2 east, 1 north" (Times Square itself for 0, 0)."""
    parts: list[Say] = []
    if y:
        parts.append(say("{count} north", count=-y) if y < 0 else say("{count} south", count=y))
    if x:
        parts.append(say("{count} east", count=x) if x > 0 else say("{count} west", count=-x))
    if not parts:
        return START_TILE
    return items(parts, "comma")


def rounds(round_id: str) -> Say:
    return {"A": say("scoring A"), "B": say("scoring B"), "C": say("the final scoring C")}[round_id]


# /rules: how to play, and what the board and menus show.
HOW_TO = (
    say(
        "Build your own New York around Times Square: the most buildings of each type and your longest outer "
        "street score points."
    ),
    say(
        "On your turn take money from the display (one card, or several worth at most 5 together) or buy the "
        "building in a market slot, paying with that slot's colour only; an exact payment earns another "
        "action."
    ),
    say(
        "Put each building you bought next to your city, streets meeting streets, every tile reachable on "
        "foot and no empty space enclosed; or keep it in your reserve."
    ),
    say(
        "Scorings A and B turn up in the money deck and the final scoring C comes when the market runs out "
        "of tiles; each pays more than the one before. With two players the collector Dirk competes too."
    ),
)
GLOSSARY = (
    say("Money cards are named by colour and value (yellow 7)."),
    say(
        "A building shows its type, price and streets: arrows in the menus (Station $6 ↓←), dark edges on "
        "the board."
    ),
    say("A place in your city counts steps from Times Square: 2 east, 1 north (2 E, 1 N on the board)."),
)
OPTIONS: dict[str, Say] = {}
