"""The words of Skyline of the World: floors, sites, bonus cards, missions and icons as a player reads them
(translated at the edge from the ``skyline`` catalogue). Sites keep the board's own coordinates (column
letter and row number, "C4"), which the board image prints along its edges."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.say import Arg, Say, Speaker, items
from engine.skyline.cards import BONUS_CARDS, PRICE, site_name

SPEAKER = Speaker("skyline")
say = SPEAKER.say
say_n = SPEAKER.say_n
word = SPEAKER.word

PIECES = {
    "1": word("1 M floor", "piece"),
    "2": word("2 M floor", "piece"),
    "4": word("4 M floor", "piece"),
    "6": word("6 M floor", "piece"),
    "PH": word("penthouse", "piece"),
    "N": word("neutral floor", "piece"),
    "S": word("Skyline floor", "piece"),
}
COLOURS = {
    "red": word("red", "player"),
    "blue": word("blue", "player"),
    "green": word("green", "player"),
    "purple": word("purple", "player"),
}
# Bonus cards by the skyscraper they show (the card images print the same names).
CARDS = {
    "B01": word("US Bank Tower", "card"),
    "B02": word("Flatiron Building", "card"),
    "B03": word("Woolworth Building", "card"),
    "B04": word("Transamerica Pyramid", "card"),
    "B05": word("Empire State Building", "card"),
    "B06": word("Chrysler Building", "card"),
    "B07": word("Sears Tower", "card"),
    "B08": word("Sydney Tower", "card"),
    "B09": word("Australia Square", "card"),
    "B10": word("MLC Centre", "card"),
    "B11": word("Chifley Tower", "card"),
    "B12": word("Governor Phillip Tower", "card"),
    "B13": word("Q1 Tower", "card"),
    "B14": word("Eureka Tower", "card"),
    "B15": word("Oriental Pearl Tower", "card"),
    "B16": word("Bank of China Tower", "card"),
    "B17": word("Jin Mao Tower", "card"),
    "B18": word("Two International Finance Centre", "card"),
    "B19": word("Taipei 101", "card"),
    "B20": word("Petronas Towers", "card"),
    "B21": word("Shanghai World Financial Center", "card"),
    "B22": word("BT Tower", "card"),
    "B23": word("Centre Point", "card"),
    "B24": word("Tower 42", "card"),
    "B25": word("Lloyd's Building", "card"),
    "B26": word("One Canada Square", "card"),
    "B27": word("Euston Tower", "card"),
    "B28": word("30 St Mary Axe", "card"),
    "B29": word("Euromast", "card"),
    "B30": word("Het Witte Huis", "card"),
    "B31": word("Willemswerf", "card"),
    "B32": word("Montevideo", "card"),
    "B33": word("Delftse Poort", "card"),
    "B34": word("World Port Center", "card"),
    "B35": word("Millennium Tower", "card"),
    "B36": word("Silberturm", "card"),
    "B37": word("Trianon", "card"),
    "B38": word("Skyper", "card"),
    "B39": word("Westendstrasse 1", "card"),
    "B40": word("Messeturm", "card"),
    "B41": word("Main Tower", "card"),
    "B42": word("Commerzbank Tower", "card"),
}
MISSIONS = {
    "M1": word("Rotterdam Waterfront", "mission"),
    "M2": word("Sydney Harbour", "mission"),
    "M3": word("London Skyline", "mission"),
    "M4": word("Shanghai Bund", "mission"),
    "M5": word("Manhattan", "mission"),
    "M6": word("Frankfurt Mainhattan", "mission"),
}
ICONS = {
    "LIB": word("Liberty torch", "icon"),
    "OPE": word("Opera shell", "icon"),
    "PRL": word("Pearl tower", "icon"),
    "CLK": word("Clock tower", "icon"),
    "BRG": word("Swan bridge", "icon"),
    "EUR": word("Euro sign", "icon"),
}


def piece(code: str) -> Say:
    return PIECES[code]


def pieces(codes: Sequence[str]) -> Arg:
    """Pieces joined with "+": "1 M floor + 2 M floor"."""
    return items(map(piece, codes), "plus")


def card(card_id: str) -> Say:
    """A bonus card by name with its reward: "Woolworth Building (5 M)"."""
    return say("{card} ({reward} M)", card=CARDS[card_id], reward=BONUS_CARDS[card_id].reward)


def cards(card_ids: Sequence[str]) -> Arg:
    if not card_ids:
        return say("no cards")
    return items(map(card, card_ids), "comma")


def sites(ks: Sequence[int]) -> str:
    """Board coordinates as printed along the board's edges: "C3, C4"."""
    return ", ".join(site_name(k) for k in ks)


def price(code: str) -> int:
    return PRICE[code]


# /rules: how to play, and what the board and menus show.
HOW_TO = (
    say("Build skyscrapers floor by floor on a 6 × 6 city and earn the most prestige."),
    say(
        "A 1 M floor starts a building; each higher floor pays its value to the owner of the floor below. "
        "Then buy new floors for your stock."
    ),
    say(
        "Your largest group of topped buildings pays income every turn; bonus cards pay for patterns of "
        "buildings you top."
    ),
    say(
        "Penthouses, orange sites and your secret mission give prestige. A third penthouse ends the game "
        "after one more turn for everyone else."
    ),
)
GLOSSARY = (
    say("Sites are named by the board's column letter and row number (C4)."),
    say("Pieces: floors of 1, 2, 4 and 6 M, penthouses (PH), neutral floors (N) and Skyline floors (S)."),
)
OPTIONS = {
    "hidden": say("Advanced game: cash and floor stock are hidden from the other players"),
    "tournament": say("Tournament tie-break: a winner is always named"),
}
