"""How Dirk Henn's New York reads in chat: its moves in words, its menus grouped by kind, slot and
tile, the choices of several cards at once and what ``/rules`` teaches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from engine.core.presentation import MultiSelect, PresentationDefaults
from engine.core.say import Level, Say
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
