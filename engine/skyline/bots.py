"""Computer players for Skyline of the World: a one-step greedy heuristic (the random one is generic)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.skyline.actions import Action
from engine.skyline.cards import BONUS_CARDS, MISSION_MASKS, ORANGE, PLACEMENT_MASKS, SITE_BY_NAME
from engine.skyline.rules import fee_for
from engine.skyline.state import SkylineState, Stack, income_groups, orange_tops, penthouses, topped_mask

# Relative worth of the things a position gives (prestige wins the game; money only buys floors).
PP_WEIGHT = 12.0
INCOME_WEIGHT = 1.0
MISSION_SITE_WEIGHT = 2.5
FEE_WEIGHT = 0.6  # a fee paid to another player also helps a rival
BANK_FEE_WEIGHT = 0.4


def position_value(board: tuple[Stack, ...], st: SkylineState, seat: int) -> float:
    """Heuristic worth of ``board`` for ``seat``: prestige, income, mission progress, penthouse chances."""
    mask = topped_mask(board, seat)
    value = PP_WEIGHT * (penthouses(board, seat) + orange_tops(board, seat))
    value += INCOME_WEIGHT * income_groups(board, seat)[0]
    value += MISSION_SITE_WEIGHT * (mask & MISSION_MASKS[st.missions[seat]]).bit_count()
    for card in st.hands[seat]:
        if any(mask & need == need for need, _ in PLACEMENT_MASKS[card]):
            value += BONUS_CARDS[card].reward * 0.5
    tag = str(seat)
    for k, stack in enumerate(board):
        # A building at height 4 where this seat participated is a future penthouse site (§4.2).
        if len(stack) == 4 and any(p[0] == tag for p in stack):
            top = stack[-1]
            if top == "N" or top[0] != tag or top.endswith("S"):
                value += 2.0 + (1.0 if k in ORANGE else 0.0)
    return value


class GreedyPolicy:
    """Scores every legal action with a one-step heuristic and plays the best (first on ties)."""

    name = "greedy"

    def choose(
        self, rules: GameRules[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: Rng
    ) -> Any:
        """The legal action with the highest heuristic value; deterministic (``rng`` unused)."""
        st: SkylineState = state
        base = position_value(st.board, st, seat)
        best, best_value = legal[0], float("-inf")
        for a in legal:
            value = self.value(st, seat, a, base)
            if value > best_value:
                best, best_value = a, value
        return best

    def value(self, st: SkylineState, seat: int, a: Action, base: float) -> float:
        """Heuristic value of one action relative to ending the phase (0)."""
        kind = a.kind
        if kind == "claim":
            return 100.0
        if kind == "exchange":
            return 50.0 if len(st.hands[seat]) >= 4 else -1.0
        if kind in ("endbuild", "endturn"):
            return 0.0
        if kind == "build":
            assert a.piece is not None and a.site is not None
            k = SITE_BY_NAME[a.site]
            board = list(st.board)
            board[k] = (*board[k], "N" if a.piece == "N" else f"{seat}{a.piece}")
            gain = position_value(tuple(board), st, seat) - base
            fee, to = fee_for(st.board, seat, a.piece, k)
            cost = fee * (FEE_WEIGHT if to is not None else BANK_FEE_WEIGHT)
            # Building something is required anyway; spending the stock keeps the game moving.
            return gain - cost + (5.0 if not st.built_any else 0.0)
        cash = st.cash[seat]
        stock = st.stock[seat]
        if kind == "buy":
            piece = a.pieces[0]
            if piece == "PH":
                return 20.0 if "PH" not in stock else -5.0
            if piece == "N":
                return 3.0 if cash >= 15 and "N" not in stock else -5.0
            wanted = {"1": 2, "2": 1, "4": 1, "6": 1}[piece]
            if stock.count(piece) >= wanted:
                return -2.0
            # Keep enough money for a penthouse when one is needed soon.
            reserve = 10 if "PH" not in stock else 0
            return 6.0 - int(piece) if cash - int(piece) >= reserve or not st.bought_any else -1.0
        return -10.0  # sell: rarely useful for this simple player
