"""The words of Piatnik's New York: avenues, streets, buildings, cards and colours as a player reads them
(translated at the edge from the ``ny_piatnik`` catalogue). Avenues and streets keep their Manhattan names;
a building is named by its corner, "Park Ave & 42nd St", as the board image labels its rows and columns."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.say import Arg, Say, Speaker, items
from engine.ny_piatnik.cards import BJ, RJ, STOP

SPEAKER = Speaker("ny_piatnik")
say = SPEAKER.say
say_n = SPEAKER.say_n
word = SPEAKER.word

AVENUES = {
    "8AV": "8th Ave",
    "BWY": "Broadway",
    "6AV": "6th Ave",
    "5AV": "5th Ave",
    "MAD": "Madison Ave",
    "PARK": "Park Ave",
    "LEX": "Lexington Ave",
}
STREETS = {
    "34": "34th St",
    "38": "38th St",
    "42": "42nd St",
    "45": "45th St",
    "49": "49th St",
    "53": "53rd St",
    "57": "57th St",
}
COLOURS = {
    "red": word("red", "house"),
    "blue": word("blue", "house"),
    "yellow": word("yellow", "house"),
    "green": word("green", "house"),
    "black": word("black", "house"),
}
EVENTS = {
    "SAN": word("Sanierung", "event"),
    "RUIN": word("Ruin", "event"),
    "SPEC": word("Spekulation", "event"),
    "BAU": word("Bauloewe", "event"),
    "STAT": word("Statik", "event"),
}
BACKS = {"R": word("red", "back"), "B": word("blue", "back")}


def building(building_id: str) -> str:
    """A building by its corner: "Park Ave & 42nd St"."""
    avenue, street = building_id.split("-")
    return f"{AVENUES[avenue]} & {STREETS[street]}"


def line(code: str) -> str:
    """An avenue or a street by name."""
    return AVENUES.get(code) or STREETS[code]


def card(code: str) -> Arg:
    """A card as its face reads: an avenue or street, a joker, an event card with the colour of its back."""
    if code in AVENUES or code in STREETS:
        return line(code)
    if code == RJ:
        return say("red joker")
    if code == BJ:
        return say("blue joker")
    if code == STOP:
        return say("Stop card")
    kind, back = code.split("-")
    return say("{event} ({back})", event=EVENTS[kind], back=BACKS[back])


def cards(codes: Sequence[str]) -> Arg:
    if not codes:
        return say("no cards")
    return items(map(card, codes), "comma")


def backed(codes: Sequence[str]) -> Say:
    """What everyone sees of some cards: how many, and of which backs ("3 cards (2 red-backed and 1
    blue-backed)"); cards all of one back say so without naming the other ("1 blue-backed card")."""
    red = sum(1 for c in codes if c.endswith("-R") or c in AVENUES or c == RJ)
    blue = len(codes) - red
    if not blue:
        return say_n("{count} red-backed card", "{count} red-backed cards", red)
    if not red:
        return say_n("{count} blue-backed card", "{count} blue-backed cards", blue)
    return say_n(
        "{count} card ({red} red-backed and {blue} blue-backed)",
        "{count} cards ({red} red-backed and {blue} blue-backed)",
        len(codes),
        red=red,
        blue=blue,
    )


def colours(codes: Sequence[str]) -> Arg:
    return items(COLOURS[c] for c in codes)


# /rules: how to play, and what the board and menus show.
HOW_TO = (
    say("Own the largest connected group of buildings in Midtown Manhattan."),
    say(
        "On your turn play a red-backed card (an avenue) and a blue-backed card (a street): claim the "
        "building where they cross, buy it from its owner, or take your own marker off it. Then draw back up."
    ),
    say("A building costs the smaller of its owner's counts on that avenue and that street."),
    say(
        "When only 4 buildings are unowned the two Stop cards go into the discard pile, and whoever draws "
        "one ends the game. The largest group scores 2 per building, other buildings 1 and each dollar 1."
    ),
)
GLOSSARY = (
    say("A building is named by its corner: Park Ave & 42nd St."),
    say("A red joker stands for any avenue, a blue joker for any street; each colour has its own symbol."),
)
OPTIONS = {
    "events": say("Event cards join the deck: Sanierung, Ruin, Spekulation, Bauloewe and Statik"),
    "chosen_colours": say("Players choose their colours before the preliminary round"),
    "team": say("Team game for 4 (first and third player against second and fourth), with card exchanges"),
}
