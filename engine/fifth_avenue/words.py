"""The words of Fifth Avenue: bidding cards, shops, districts, lots and pawns as a player reads them
(translated at the edge from the ``fifth_avenue`` catalogue)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.say import Arg, Say, Speaker, items
from engine.fifth_avenue.cards import CP, START, card_colour, card_value

SPEAKER = Speaker("fifth_avenue")
say = SPEAKER.say
say_n = SPEAKER.say_n
word = SPEAKER.word

CARD_COLOURS = {
    "GY": word("grey", "card"),
    "BR": word("brown", "card"),
    "OR": word("orange", "card"),
    "GN": word("green", "card"),
    "VI": word("violet", "card"),
    "BK": word("black", "card"),
}
LOT_COLOURS = {
    "GY": word("grey", "lot"),
    "BR": word("brown", "lot"),
    "OR": word("orange", "lot"),
    "GN": word("green", "lot"),
    "VI": word("violet", "lot"),
    "X": word("uncoloured", "lot"),
}
SHOPS = {
    "F": word("fashion boutique", "shop"),
    "J": word("jeweller", "shop"),
    "A": word("art gallery", "shop"),
    "P": word("perfumery", "shop"),
}
# A shop named with its article, where a sentence puts one somewhere ("an art gallery").
A_SHOP = {
    "F": word("a fashion boutique", "a shop"),
    "J": word("a jeweller", "a shop"),
    "A": word("an art gallery", "a shop"),
    "P": word("a perfumery", "a shop"),
}
PLACES = {
    START: word("City Hall", "place"),
    "34W": word("34th Street West", "place"),
    "34E": word("34th Street East", "place"),
    "42W": word("42nd Street West", "place"),
    "TS": word("Times Square", "place"),
    "42E": word("42nd Street East", "place"),
    "52W": word("52nd Street West", "place"),
    "52E": word("52nd Street East", "place"),
    CP: word("Central Park", "place"),
}
# A place where a pawn goes, with the words that take it there ("to City Hall"): some languages put an
# article in ("sulla Partenza") that the bare name does not carry.
TO_PLACE = {
    START: word("to City Hall", "to place"),
    "34W": word("to 34th Street West", "to place"),
    "34E": word("to 34th Street East", "to place"),
    "42W": word("to 42nd Street West", "to place"),
    "TS": word("to Times Square", "to place"),
    "42E": word("to 42nd Street East", "to place"),
    "52W": word("to 52nd Street West", "to place"),
    "52E": word("to 52nd Street East", "to place"),
    CP: word("to Central Park", "to place"),
}
PAWNS = {"white": word("white", "pawn"), "beige": word("beige", "pawn")}
PLAYER_COLOURS = {
    "red": word("red", "player"),
    "yellow": word("yellow", "player"),
    "blue": word("blue", "player"),
    "green": word("green", "player"),
}
ASSO = word("Asso", "player")


def card(code: str) -> Say:
    """A bidding card: "grey 5", "black 4"."""
    return say("{colour} {value}", colour=CARD_COLOURS[card_colour(code)], value=card_value(code))


def cards(codes: Sequence[str]) -> Arg:
    """Cards joined with "+" ("grey 5 + black 4"), or "no cards"."""
    if not codes:
        return say("no cards")
    return items(map(card, codes), "plus")


def lot(lot_id: str) -> Say:
    """A lot: "Times Square, grey lot"."""
    district, colour = lot_id.split(".")
    return say("{district}, {colour} lot", district=PLACES[district], colour=LOT_COLOURS[colour])


def places(ids: Sequence[str]) -> Arg:
    return items(PLACES[i] for i in ids)


# /rules: how to play, and what the board and menus show.
HOW_TO = (
    say("Build skyscrapers along Fifth Avenue next to as many different kinds of shop as possible."),
    say(
        "On your turn choose one action: A take buildings from your supply, B put a shop on a lot, C draw a "
        "black card and move a pawn, or D score a district. Then take coloured cards and move a pawn."
    ),
    say(
        "A pawn back from Central Park opens auctions in the districts it surveyed: bid with one colour and "
        "black cards; the winner builds there."
    ),
    say(
        "A building scores more the more different shops stand next to it. The game ends at the twelfth shop "
        "or the second closed district. With two players the automatic bidder Asso joins in."
    ),
)
GLOSSARY = (
    say("Lots are named by district and colour (Times Square, grey lot)."),
    say("Shops on the board: ✂ fashion boutique, ◆ jeweller, ✎ art gallery, ✿ perfumery."),
)
OPTIONS = {"six_lots": say("The six-lot side of the board: an uncoloured sixth lot in every district")}
