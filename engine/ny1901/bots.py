"""Computer players for New York 1901: a greedy one-ply policy (random comes from engine.core)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.ny1901.actions import Action
from engine.ny1901.cards import CELL_FACES, LOT_CELLS, LOT_INDEX, NEIGHBOURS, TILE_BY_ID
from engine.ny1901.state import NyState

# Hand-set weights in points; tests/engine/ny1901/test_bots.py checks the result beats random play.
_CARD_POINT = 1.0  # an unused action card is worth 1 point at the end (§5.3)
_LAND = 1.5  # a lot is future building room
_ADJACENT = 0.6  # per own neighbouring cell: lots that join let bigger tiles fit
_FACING = 0.1  # per cell facing a street/park: more placements


class GreedyPolicy:
    """Takes the action with the best immediate value: points now, land that joins the estate."""

    name = "greedy"

    def choose(
        self, rules: GameRules[Any, Any], state: NyState, seat: int, legal: Sequence[Action], rng: Rng
    ) -> Action:
        best: list[Action] = []
        best_value = float("-inf")
        own = {c for i, o in enumerate(state.lot_owner) if o == seat for c in LOT_CELLS[i]}
        for action in legal:
            value = self._value(state, seat, action, own)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return rng.choice(best)

    def _value(self, state: NyState, seat: int, action: Action, own: set[int]) -> float:
        k = action.kind
        if k in ("build", "boom", "rebuild"):
            assert action.tile is not None
            info = TILE_BY_ID[action.tile]
            # Bigger tiles first: each cell used now is a cell that scores; gold earns +2 per tile.
            value = info.value + 0.1 * info.tech
            if k == "boom":
                value -= _CARD_POINT
            if k == "rebuild":
                value -= 0.5  # the replaced tiles' cells scored already
            return value
        if k in ("take", "grab"):
            assert action.lot is not None
            cells = LOT_CELLS[LOT_INDEX[action.lot]]
            adj = sum(1 for c in cells for n in NEIGHBOURS[c] if n in own)
            value = _LAND + 0.5 * len(cells) + _ADJACENT * adj + _FACING * sum(c in CELL_FACES for c in cells)
            if k == "grab":
                value -= _CARD_POINT
            return value
        if k == "shift":
            return -_CARD_POINT - 0.5
        if k == "end":
            return 0.0
        return -0.1  # pass / giveback: only when nothing better
