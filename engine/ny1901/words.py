"""The words of New York 1901: districts, lots, lot cards, skyscraper tiles, streets, characters, challenge
and action cards as a player reads them (translated at the edge from the ``ny1901`` catalogue)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.say import Arg, Say, Speaker, items
from engine.ny1901.cards import CELL_LOT, LOT_IDS, TILE_BY_ID, card_type

SPEAKER = Speaker("ny1901")
say = SPEAKER.say
say_n = SPEAKER.say_n
word = SPEAKER.word

DISTRICT_WORDS = {
    "G": word("green", "district"),
    "B": word("blue", "district"),
    "Y": word("yellow", "district"),
    "R": word("red", "district"),
    "P": word("pink", "district"),
}
TILE_WORDS = {
    "ST": word("starting property", "tile"),
    "BR1": word("bronze domino", "tile"),
    "BR2": word("second bronze domino", "tile"),
    "BR3": word("bronze bar of 3", "tile"),
    "BR4": word("bronze corner of 3", "tile"),
    "BR5": word("bronze square", "tile"),
    "BR6": word("bronze L of 4", "tile"),
    "SI1": word("silver bar of 3", "tile"),
    "SI2": word("silver square", "tile"),
    "SI3": word("silver bar of 4", "tile"),
    "SI4": word("silver T of 4", "tile"),
    "SI5": word("silver S of 4", "tile"),
    "SI6": word("silver P of 5", "tile"),
    "GO1": word("gold bar of 4", "tile"),
    "GO2": word("gold L of 5", "tile"),
    "GO3": word("gold P of 5", "tile"),
    "GO4": word("gold T of 5", "tile"),
    "GO5": word("gold block of 6", "tile"),
    "GO6": word("gold T of 6", "tile"),
    "LPR": word("Park Row Building", "tile"),
    "LSI": word("Singer Building", "tile"),
    "LML": word("Metropolitan Life Tower", "tile"),
    "LWO": word("Woolworth Building", "tile"),
}
CHALLENGE_WORDS = {
    "X-BRONZE": word("Bronze Baron", "challenge"),
    "X-ARCH": word("Master Architect", "challenge"),
    "X-GEN": word("Generation King", "challenge"),
    "X-TYCOON": word("Gold Tycoon", "challenge"),
    "X-PRESTIGE": word("Gold Prestige", "challenge"),
}
ACTION_WORDS = {
    "A-BOOM": word("Construction Boom", "action card"),
    "A-SHIFT": word("Market Shift", "action card"),
    "A-GRAB": word("Land Grab", "action card"),
}
PLAYER_COLOURS = {
    "Brown": word("brown", "player"),
    "Green": word("green", "player"),
    "Yellow": word("yellow", "player"),
    "Blue": word("blue", "player"),
}
# Turns of a tile, clockwise from the way the tile chart draws it.
TURN_WORDS: dict[int, Arg] = {0: "", 90: ", 90°", 180: ", 180°", 270: ", 270°"}


def lot(lot_id: str) -> Say:
    """A lot of the map: "green lot 7" (the map shows its district colour and number)."""
    return say("{district} lot {number}", district=DISTRICT_WORDS[lot_id[0]], number=int(lot_id[1:]))


def lots(cells: Iterable[int]) -> Arg:
    """The lots under some cells, by district as the map numbers them: "green 7+8, blue 2"."""
    found = sorted({CELL_LOT[c] for c in cells if c in CELL_LOT})
    if not found:
        return say("no lot")
    by_district: dict[str, list[str]] = {}
    for i in found:
        by_district.setdefault(LOT_IDS[i][0], []).append(str(int(LOT_IDS[i][1:])))
    return items(
        (
            say("{district} {number}", district=DISTRICT_WORDS[d], number="+".join(n))
            for d, n in by_district.items()
        ),
        "comma",
    )


def lot_card(card: str) -> Say:
    """A lot card by its kind: "green card for 2" (district and lot size)."""
    kind = card_type(card)
    return say("{district} card for {size}", district=DISTRICT_WORDS[kind[0]], size=int(kind[1]))


def tile(tile_id: str) -> Say:
    """A skyscraper tile with its points: "silver T of 4 (5 points)"."""
    return say_n(
        "{tile} ({count} point)",
        "{tile} ({count} points)",
        TILE_BY_ID[tile_id].value,
        tile=TILE_WORDS[tile_id],
    )


def where(x: int, y: int, rot: int) -> Say:
    """A tile's anchor cell and clockwise turn: "column 11, row 3, 90°" (the map labels both)."""
    return say("column {x}, row {y}{turn}", x=x, y=y, turn=TURN_WORDS[rot])


# /rules: how to play, and what the board and menus show.
HOW_TO = (
    say("Build skyscrapers on the lots of Lower Manhattan in 1901 and score the most points."),
    say(
        "On your turn take a lot card from the market and put a worker on a free lot of that colour and "
        "size, then you may build a tile on your lots; or demolish your own lower buildings to rebuild "
        "higher."
    ),
    say("Points unlock better tiles: silver at 6 points, gold at 18 (10 and 25 in the expert game)."),
    say(
        "The game ends when someone has only 4 tiles left or the market cannot be refilled; street "
        "majorities, the challenge card and unused action cards score at the end."
    ),
)
GLOSSARY = (
    say("Lots are named by district colour and number (green 7), as printed on the map."),
    say(
        "Tiles go by metal and shape (a bronze square, a gold T of 5); the number on a building is its "
        "points."
    ),
    say(
        "A placement gives the column and row of the tile's first cell and its clockwise turn (90°, 180°, "
        "270°)."
    ),
)
OPTIONS = {
    "intro": say("Introductory game: no challenge card"),
    "expert": say("Expert rules: no starting properties, silver at 10 and gold at 25 points"),
}
