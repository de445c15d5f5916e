"""How Fifth Avenue reads in chat: its moves in words, its menus grouped by action, shop and colour, the
choices of several cards for a bid, the seats' colours and what ``/rules`` teaches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from engine.core.presentation import MultiSelect, PresentationDefaults
from engine.core.say import Level, Say
from engine.fifth_avenue import words
from engine.fifth_avenue.actions import Action
from engine.fifth_avenue.cards import BLACK, DISTRICTS, PAWNS, SLOTS, card_colour, card_value
from engine.fifth_avenue.rules import bid_colours, bid_error, bid_pool, describe
from engine.fifth_avenue.state import FifthState, acting_seat
from engine.fifth_avenue.words import say


class FifthAvenuePresentation(PresentationDefaults):
    """*Fifth Avenue* in words and menus."""

    how_to: ClassVar[Sequence[Say]] = words.HOW_TO
    glossary: ClassVar[Sequence[Say]] = words.GLOSSARY
    option_says: ClassVar[Mapping[str, Say]] = words.OPTIONS

    def multi_selects(self, state: FifthState, seat: int) -> Sequence[MultiSelect]:
        """One card choice per usable colour while bidding; its first ``min_items`` items already win."""
        if state.phase != "auction" or acting_seat(state) != seat:
            return []
        out: list[MultiSelect] = []
        for colour in bid_colours(state, seat):
            pool = bid_pool(state, seat, colour)
            coloured = sorted((c for c in pool if card_colour(c) == colour), key=card_value, reverse=True)
            if not coloured and (not state.auction or not state.auction.piles[seat]):
                continue
            black = sorted((c for c in pool if card_colour(c) == BLACK), key=card_value, reverse=True)
            items = sorted(pool, key=card_value, reverse=True)
            if coloured:
                items = [coloured[0], *sorted(coloured[1:] + black, key=card_value, reverse=True)]
            if bid_error(state, seat, items) is not None:
                continue
            least = next(n for n in range(1, len(items) + 1) if bid_error(state, seat, items[:n]) is None)
            out.append(
                MultiSelect(
                    label=f"bid with {colour} and black cards",
                    template="bid {}",
                    items=tuple(items),
                    min_items=least,
                    max_items=len(items),
                    title=say("Bid with {colour} and black cards", colour=words.CARD_COLOURS[colour]),
                    item_labels=tuple(map(words.card, items)),
                )
            )
        return out

    def describe(self, state: FifthState, seat: int, action: Action) -> Say:
        """The action in words, as the log also tells the moves the rules make on their own."""
        return describe(state, seat, action)

    def menu_path(self, state: FifthState, seat: int, action: Action) -> Sequence[Level]:
        """The four actions first (A to D), shops by type, bids by colour."""
        match action.kind:
            case "B":
                tile = str(state.row[SLOTS.index(str(action.slot))])
                return (
                    Level(key="B", label=say("B: put a shop on a lot")),
                    Level(key=f"B {tile}", label=say("B: put {shop} on a lot", shop=words.A_SHOP[tile])),
                )
            case "C":
                return (Level(key="C", label=say("C: a black card and a pawn move")),)
            case "D":
                return (Level(key="D", label=say("D: score a district")),)
            case "bid":
                colour = next((card_colour(c) for c in action.cards if card_colour(c) != BLACK), BLACK)
                return (
                    Level(key=f"bid {colour}", label=say("Bid {colour}", colour=words.CARD_COLOURS[colour])),
                )
            case "place":
                district = str(action.lot).split(".")[0]
                return (
                    Level(
                        key=f"place {district}", label=say("Start on {place}", place=words.PLACES[district])
                    ),
                )
        return ()

    def places_of(self, state: FifthState, seat: int, action: Action) -> tuple[str, ...]:
        """The lot a start or a shop goes on (and the supply's slot the shop comes from), the districts a
        pawn leaves and reaches, the district scored, and the district built on after an auction.
        City Hall and Central Park are not drawn on the board: a move there names the other end only."""
        match action.kind:
            case "place":
                return (str(action.lot),)
            case "B":
                return (str(action.lot), str(action.slot))
            case "C" | "move":
                start = state.pawns[PAWNS.index(str(action.pawn))]
                return tuple(dict.fromkeys(p for p in (start, str(action.dest)) if p in DISTRICTS))
            case "D":
                return (str(action.district),)
            case "build" | "close" if state.auction is not None:
                site = state.auction.sites[state.auction.site]
                return (site,) if site in DISTRICTS else ()
        return ()  # taking buildings, drawing cards, bidding and passing

    def place_name(self, state: FifthState, place: str) -> Say:
        """A district by its street ("Times Square"), a lot by its district and colour, a slot of the
        shop supply by its number."""
        if place in DISTRICTS:
            return words.PLACES[place]
        if place in SLOTS:
            return say("slot {number} of the shop supply", number=SLOTS.index(place) + 1)
        return words.lot(place)

    def seat_colour(self, state: FifthState, seat: int) -> str | None:
        return state.colours[seat]
