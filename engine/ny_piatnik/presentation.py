"""How Piatnik's New York reads in chat: its moves in words, its menus grouped by the pair of cards
played, the team game's choices of several cards, the seats' colours and what ``/rules`` teaches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from engine.core.presentation import MultiSelect, PresentationDefaults
from engine.core.say import Arg, Level, Say, items
from engine.ny_piatnik import words
from engine.ny_piatnik.actions import Action
from engine.ny_piatnik.cards import (
    AVENUES,
    BAU_B,
    BAU_R,
    BUILDING_IDS,
    BUILDING_INDEX,
    COL_OF,
    LINE_CELLS,
    ROW_OF,
    SIZE,
    STAT_B,
    STAT_R,
    STREETS,
)
from engine.ny_piatnik.rules import prelim_turn, price_of, statik_leaders
from engine.ny_piatnik.state import NyState, acting_seat, houses_of
from engine.ny_piatnik.words import say, say_n


class NyPiatnikPresentation(PresentationDefaults):
    """Piatnik's *New York* in words and menus."""

    how_to: ClassVar[Sequence[Say]] = words.HOW_TO
    glossary: ClassVar[Sequence[Say]] = words.GLOSSARY
    option_says: ClassVar[Mapping[str, Say]] = words.OPTIONS

    def multi_selects(self, state: NyState, seat: int) -> Sequence[MultiSelect]:
        """V4's card exchange (any number of cards) and the partner's return (exactly as many)."""
        if acting_seat(state) != seat or not state.team:
            return []
        hand = state.hands[seat]
        p = state.pending
        if p is not None and p.kind == "return" and p.seat == seat:
            label = f"Return {p.count} card(s) to your partner"
            title = say_n(
                "Give {count} card back to your partner", "Give {count} cards back to your partner", p.count
            )
            return [
                MultiSelect(
                    label=label,
                    template="return give={}",
                    items=hand,
                    min_items=p.count,
                    max_items=p.count,
                    title=title,
                    item_labels=tuple(_card_label(c) for c in hand),
                )
            ]
        if p is None and state.phase == "main" and not state.exchange_used and hand:
            label = "Exchange cards with your partner"
            return [
                MultiSelect(
                    label=label,
                    template="exchange give={}",
                    items=hand,
                    max_items=len(hand),
                    title=say("Pass cards to your partner"),
                    item_labels=tuple(_card_label(c) for c in hand),
                )
            ]
        return []

    def describe(self, state: NyState, seat: int, action: Action) -> Say:
        return action_say(state, seat, action)

    def menu_path(self, state: NyState, seat: int, action: Action) -> Sequence[Level]:
        """Plays by the pair of cards (then the building), events, preliminary spaces by avenue."""
        if action.kind == "play":
            red, blue = str(action.red), str(action.blue)
            pair = items((words.card(red), words.card(blue)), "plus")
            return (Level(key=f"play {red} {blue}", label=say("Play {cards}", cards=pair)),)
        if action.kind == "event":
            return (
                Level(
                    key=f"event {action.card}", label=say("Play {card}", card=words.card(str(action.card)))
                ),
            )
        if action.kind in ("place", "fill", "give") and action.at is not None:
            avenue = action.at.split("-")[0]
            return (
                Level(key=f"{action.kind} {avenue}", label=say("On {avenue}", avenue=words.AVENUES[avenue])),
            )
        if action.kind == "exchange":
            return (Level(key="exchange", label=say("Pass one card to your partner")),)
        return ()

    def places_of(self, state: NyState, seat: int, action: Action) -> tuple[str, ...]:
        """The building a marker goes on or comes off; for Statik, every building of its line."""
        if action.kind in ("place", "give", "fill"):
            return (str(action.at),)
        if action.kind != "play":
            return ()  # colours, events, exchanges and returns of cards, resetting the preliminary round
        red, blue = str(action.red), str(action.blue)
        if red == STAT_R or blue == STAT_B:
            line = action.line or (blue if red == STAT_R else red)
            return tuple(BUILDING_IDS[idx] for idx in LINE_CELLS[line])
        if action.at is not None:
            return (action.at,)
        return (BUILDING_IDS[ROW_OF[red] * SIZE + COL_OF[blue]],)

    def place_name(self, state: NyState, place: str) -> Say:
        """A building by its corner: "the building at Park Ave & 42nd St"."""
        return say("the building at {corner}", corner=words.building(place))

    def seat_colour(self, state: NyState, seat: int) -> str | None:
        """The seat's first house once the colours are dealt."""
        own = houses_of(state, seat)
        return own[0] if own and state.phase in ("main", "over") else None


def _card_label(code: str) -> Say:
    """A card in a select: its face, and the colour of its back for avenues and streets."""
    if code in AVENUES:
        return say("{card} (red back)", card=words.card(code))
    if code in STREETS:
        return say("{card} (blue back)", card=words.card(code))
    return say("{card}", card=words.card(code))


def _house(colour: str | None) -> Arg:
    """ ", as yellow" when a player with two houses names the placing one (the two-player game)."""
    return say(", as {colour}", colour=words.COLOURS[colour]) if colour else ""


def action_say(state: NyState, seat: int, a: Action) -> Say:
    """A legal action in words, e.g. "Park Ave + 42nd St: buy Park Ave & 42nd St from Bob for $3"."""
    kind = a.kind
    if kind == "play":
        red, blue = str(a.red), str(a.blue)
        pair = items((words.card(red), words.card(blue)), "plus")
        if red == STAT_R or blue == STAT_B:
            line = a.line or (blue if red == STAT_R else red)
            victim = a.victim or statik_leaders(state.board, line, state.houses, houses_of(state, seat))[0]
            return say(
                "{cards}: Statik on {line}, {victim} gives up a building{house}",
                cards=pair,
                line=words.line(line),
                victim=words.COLOURS[victim],
                house=_house(a.colour),
            )
        idx = BUILDING_INDEX[a.at] if a.at is not None else ROW_OF[red] * SIZE + COL_OF[blue]
        building = words.building(BUILDING_IDS[idx])
        owner = state.board[idx]
        if red == BAU_R or blue == BAU_B:
            return say(
                "{cards}: take {building} from {owner}{house}",
                cards=pair,
                building=building,
                owner=words.COLOURS[str(owner)],
                house=_house(a.colour),
            )
        if owner is None:
            return say(
                "{cards}: claim {building}{house}", cards=pair, building=building, house=_house(a.colour)
            )
        if owner in houses_of(state, seat):
            return say("{cards}: take your marker off {building}", cards=pair, building=building)
        return say(
            "{cards}: buy {building} from {owner} for ${price}{house}",
            cards=pair,
            building=building,
            owner=words.COLOURS[owner],
            price=price_of(state.board, idx),
            house=_house(a.colour),
        )
    if kind == "event":
        card = str(a.card)
        played = words.card(card)
        if card.startswith("SAN"):
            return say("{card}: clear and refill the inner city", card=played)
        if card.startswith("RUIN"):
            return say("{card}: clear and refill the corners", card=played)
        return say(
            "{card}: {target} gives up a building{house}",
            card=played,
            target=words.COLOURS[str(a.target)],
            house=_house(a.colour),
        )
    if kind == "reset":
        return say("Show your hand, discard it and draw a new one")
    if kind == "exchange":
        return say("Pass {cards} to your partner", cards=words.cards(a.cards))
    if kind == "return":
        return say("Give {cards} back to your partner", cards=words.cards(a.cards))
    if kind == "give":
        return say("Give up {building}", building=words.building(str(a.at)))
    if kind == "fill":
        return say(
            "Put a marker on {building}{house}", building=words.building(str(a.at)), house=_house(a.colour)
        )
    if kind == "place":
        _seat, colour = prelim_turn(state)
        return say(
            "Place a {colour} marker on {building}",
            colour=words.COLOURS[colour],
            building=words.building(str(a.at)),
        )
    return say("Choose {colour}", colour=words.COLOURS[str(a.colour)])
