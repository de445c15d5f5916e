"""How Dirk Henn's New York reads in chat: its moves in words, its menus grouped by kind, slot and
tile, the choices of several cards at once and what ``/rules`` teaches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from engine.core.presentation import MultiSelect, PresentationDefaults
from engine.core.say import Level, Say, who
from engine.ny_henn import words
from engine.ny_henn.actions import Action
from engine.ny_henn.cards import BANKS, BUILDING_TILES, TAKE_LIMIT, card_bank, card_value
from engine.ny_henn.state import HennState, acting_seats, city_map
from engine.ny_henn.words import say


class NyHennPresentation(PresentationDefaults):
    """Dirk Henn's *New York* in words and menus."""

    how_to: ClassVar[Sequence[Say]] = words.HOW_TO
    glossary: ClassVar[Sequence[Say]] = words.GLOSSARY
    option_says: ClassVar[Mapping[str, Say]] = words.OPTIONS

    def multi_selects(self, state: HennState, seat: int) -> Sequence[MultiSelect]:
        """Take several display cards (§4.3) and pay with any set of one bank's cards (§4.4, ruling 6).

        Items are ordered so that the first ``min_items`` / ``max_items`` form legal choices: display
        cards by ascending value, payment cards by descending value.
        """
        if state.phase != "action" or seat not in acting_seats(state):
            return []
        out: list[MultiSelect] = []
        shown = sorted((c for c in state.display if c is not None), key=lambda c: (card_value(c), c))
        if shown:
            most, total = 0, 0
            for c in shown:
                total += card_value(c)
                if total > TAKE_LIMIT:
                    break
                most += 1
            out.append(
                MultiSelect(
                    label="Take one card, or several totalling at most 5",
                    template="take {}",
                    items=tuple(shown),
                    max_items=max(1, most),
                    title=say("Take one card, or several totalling at most 5"),
                    item_labels=tuple(map(words.card, shown)),
                )
            )
        hand = state.hands[seat]
        for bank, tile in zip(BANKS, state.market, strict=True):
            if tile is None:
                continue
            price = BUILDING_TILES[tile].price
            cards = sorted((c for c in hand if card_bank(c) == bank), key=lambda c: -card_value(c))
            if sum(card_value(c) for c in cards) < price:
                continue
            need, total = 0, 0
            while total < price:
                total += card_value(cards[need])
                need += 1
            out.append(
                MultiSelect(
                    label=f"Pay for {tile} ({BUILDING_TILES[tile].type} {price}) with {bank} cards",
                    template=f"buy slot={bank} pay={{}}",
                    items=tuple(cards),
                    min_items=need,
                    max_items=len(cards),
                    title=say(
                        "Pay for {tile} with any {bank} cards",
                        tile=words.the_tile(tile),
                        bank=words.SLOT_WORDS[bank],
                    ),
                    item_labels=tuple(map(words.card, cards)),
                )
            )
        return out

    def describe(self, state: HennState, seat: int, action: Action) -> Say:
        """The action in words, e.g. "Buy the Station $6 ↓← (yellow slot), paying yellow 6"."""
        kind = action.kind
        if kind == "take":
            return say("Take {cards}", cards=words.cards(action.cards))
        if kind == "buy":
            slot = str(action.slot)
            tile = state.market[BANKS.index(slot)]
            return say(
                "Buy {tile} ({bank} slot), paying {cards}",
                tile=words.the_tile(str(tile)),
                bank=words.SLOT_WORDS[slot],
                cards=words.cards(action.cards),
            )
        if kind == "pass":
            return say("Pass")
        if kind == "remove":
            at = action.cell
            tile = city_map(state, seat)[at]
            return say(
                "Move {tile} at {where} to your reserve", tile=words.the_tile(tile), where=words.position(*at)
            )
        if kind == "add":
            return say(
                "Build {tile} from your reserve at {where}",
                tile=words.the_tile(str(action.tile)),
                where=words.position(*action.cell),
            )
        if kind == "swap":
            at = action.cell
            return say(
                "Swap {old} at {where} for {tile} from your reserve",
                old=words.the_tile(city_map(state, seat)[at]),
                tile=words.the_tile(str(action.tile)),
                where=words.position(*at),
            )
        built = words.the_tile(str(action.tile))
        if action.to == "city":
            return say("Build {tile} at {where}", tile=built, where=words.position(*action.cell))
        if action.to == "reserve":
            return say("Put {tile} in your reserve", tile=built)
        return say("Give {tile} to Dirk", tile=built)

    def places_of(self, state: HennState, seat: int, action: Action) -> tuple[str, ...]:
        """The cards on display taken, the market's slot a building is bought from, the cell of the
        city a building goes on or leaves, or the reserve or Dirk's tiles it goes to."""
        kind = action.kind
        if kind == "take":
            taken: list[str] = []
            for card in action.cards:  # the same card may lie twice on display: each its own place
                number = next(
                    n
                    for n, shown in enumerate(state.display, 1)
                    if shown == card and f"display:{n}" not in taken
                )
                taken.append(f"display:{number}")
            return tuple(taken)
        if kind == "buy":
            return (f"market:{action.slot}",)
        if kind in ("add", "remove", "swap") or (kind == "place" and action.to == "city"):
            x, y = action.cell
            return (f"city{seat}:{x},{y}",)
        if kind == "place":
            return (f"reserve{seat}",) if action.to == "reserve" else ("dirk",)
        return ()  # passing

    def place_name(self, state: HennState, place: str) -> Say:
        """A card on display by its place, a slot of the market by its colour, a cell of a city from
        Times Square ("Ann's city: 2 east, 1 north"), a reserve, or Dirk's tiles."""
        if place == "dirk":
            return say("Dirk's tiles")
        kind, _, rest = place.partition(":")
        if kind == "display":
            return say("money card {number} on display", number=int(rest))
        if kind == "market":
            return say("{bank} slot of the market", bank=words.SLOT_WORDS[rest])
        if kind.startswith("reserve"):
            return say("{player}'s reserve", player=who(int(kind.removeprefix("reserve"))))
        x, _, y = rest.partition(",")
        return say(
            "{player}'s city: {where}",
            player=who(int(kind.removeprefix("city"))),
            where=words.position(int(x), int(y)),
        )

    def menu_path(self, state: HennState, seat: int, action: Action) -> Sequence[Level]:
        """Money, buildings by slot, redesigns by kind and tile, placements by tile; pass stands alone."""
        kind = action.kind
        if kind == "take":
            return (Level(key="take", label=say("Take money")),)
        if kind == "buy":
            slot = str(action.slot)
            tile = words.the_tile(str(state.market[BANKS.index(slot)]))
            return (
                Level(key="buy", label=say("Buy a building")),
                Level(
                    key=f"buy {slot}",
                    label=say("Buy {tile} ({bank} slot)", tile=tile, bank=words.SLOT_WORDS[slot]),
                ),
            )
        redesign_level = Level(key="redesign", label=say("Redesign your city"))
        if kind == "remove":
            return (
                redesign_level,
                Level(key="redesign remove", label=say("Move a building to your reserve")),
            )
        if kind in ("add", "swap"):
            tile = words.the_tile(str(action.tile))
            label = (
                say("Build {tile} from your reserve", tile=tile)
                if kind == "add"
                else say("Swap in {tile} from your reserve", tile=tile)
            )
            return (redesign_level, Level(key=f"redesign {kind} {action.tile}", label=label))
        if kind == "place":
            return (
                Level(
                    key=f"place {action.tile}",
                    label=say("Place {tile}", tile=words.the_tile(str(action.tile))),
                ),
            )
        return ()
