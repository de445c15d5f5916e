"""How New York 1901 reads in chat: its moves in words, its menus grouped by tile and lot, the seats'
colours and what ``/rules`` teaches."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from engine.core.presentation import PresentationDefaults
from engine.core.say import Level, Say
from engine.ny1901 import words
from engine.ny1901.actions import Action
from engine.ny1901.cards import CELL_LOT, LOT_IDS, PLAYER_COLOURS, TILE_BY_ID, WIDTH, footprint
from engine.ny1901.state import NyState
from engine.ny1901.words import say


class Ny1901Presentation(PresentationDefaults):
    """New York 1901 in words and menus."""

    how_to: ClassVar[Sequence[Say]] = words.HOW_TO
    glossary: ClassVar[Sequence[Say]] = words.GLOSSARY
    option_says: ClassVar[Mapping[str, Say]] = words.OPTIONS

    def menu_path(self, state: NyState, seat: int, action: Action) -> Sequence[Level]:
        """Placements are chosen by tile, then by the lot under the anchor cell, then the exact placement;
        lot cards by market slot."""
        if action.kind in ("take", "grab"):
            slot = action.slot or 1
            card = words.lot_card(str(state.market[slot - 1]))
            key = f"{action.kind} {slot}"
            label = (
                say("Take the {card} (market slot {slot})", card=card, slot=slot)
                if action.kind == "take"
                else say("Land Grab: the {card} (market slot {slot})", card=card, slot=slot)
            )
            return (Level(key=key, label=label),)
        if action.tile is None or action.x is None or action.y is None:
            return ()
        first = f"{action.kind} {action.tile}"
        verb = {
            "build": say("Build {tile}", tile=words.tile(action.tile)),
            "boom": say("Construction Boom: build {tile}", tile=words.tile(action.tile)),
            "rebuild": say("Demolish and rebuild: {tile}", tile=words.tile(action.tile)),
        }[action.kind]
        lot = CELL_LOT.get(action.y * WIDTH + action.x)
        if lot is not None:
            second = Level(
                key=f"{first} on lot {LOT_IDS[lot]}",
                label=say("{move}, starting on {lot}", move=verb, lot=words.lot(LOT_IDS[lot])),
            )
        else:
            second = Level(key=f"{first} off the lots", label=say("{move}, starting off the lots", move=verb))
        return (Level(key=first, label=verb), second)

    def describe(self, state: NyState, seat: int, action: Action) -> Say:
        """The action in words, e.g. "Build gold T of 5 (7 points) on green lot 7: column 2, row 3"."""
        k = action.kind
        if k in ("take", "grab"):
            slot = action.slot or 1
            card = words.lot_card(str(state.market[slot - 1]))
            lot = words.lot(str(action.lot))
            if k == "take":
                return say("Take the {card} (slot {slot}) and claim {lot}", card=card, slot=slot, lot=lot)
            return say("Land Grab: the {card} (slot {slot}), claiming {lot}", card=card, slot=slot, lot=lot)
        if k in ("build", "boom", "rebuild"):
            assert action.tile is not None and action.x is not None and action.y is not None
            tile = words.TILE_WORDS[action.tile]
            cells = footprint(TILE_BY_ID[action.tile].shape, action.rot, action.x, action.y) or ()
            lots, place = words.lots(cells), words.where(action.x, action.y, action.rot)
            if k == "build":
                return say("Build {tile} on {lots} ({place})", tile=tile, lots=lots, place=place)
            if k == "boom":
                return say("Boom: {tile} on {lots} ({place})", tile=tile, lots=lots, place=place)
            return say("Rebuild: {tile} on {lots} ({place})", tile=tile, lots=lots, place=place)
        if k == "shift":
            return say("Play Market Shift: four new lot cards")
        if k == "giveback":
            return say("Give back {lot} and its card", lot=words.lot(str(action.lot)))
        if k == "end":
            return say("End your turn")
        return say("Pass")

    def places_of(self, state: NyState, seat: int, action: Action) -> tuple[str, ...]:
        """The lot a lot card claims or a move gives back, or the lots under a tile being built."""
        if action.kind in ("take", "grab", "giveback"):
            return (str(action.lot),)
        if action.tile is None or action.x is None or action.y is None:
            return ()  # shift, end, pass
        cells = footprint(TILE_BY_ID[action.tile].shape, action.rot, action.x, action.y) or ()
        return tuple(LOT_IDS[lot] for lot in sorted({CELL_LOT[c] for c in cells if c in CELL_LOT}))

    def place_name(self, state: NyState, place: str) -> Say:
        """A lot as the map numbers it: "green lot 7"."""
        return words.lot(place)

    def seat_colour(self, state: NyState, seat: int) -> str | None:
        """The seat's piece colour (§2.1)."""
        return PLAYER_COLOURS[seat].lower()
