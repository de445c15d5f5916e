"""A greedy computer player for Fifth Avenue: scores when ahead, builds where shops are varied."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.fifth_avenue.actions import Action
from engine.fifth_avenue.cards import CP, VALUE
from engine.fifth_avenue.rules import district_scores, pile_total
from engine.fifth_avenue.scoring import types_at
from engine.fifth_avenue.state import FifthState

GREEDY_BUDGET = 17  # most card points the greedy player spends on one building right


class GreedyPolicy:
    """One-ply heuristics: value each legal action and take the best (ties: first)."""

    name = "greedy"

    def choose(
        self, rules: GameRules[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: Rng
    ) -> Any:
        return max(legal, key=lambda a: action_value(state, seat, a))

    # A plain function keeps the policy stateless.


def _district_gain(st: FifthState, seat: int, district: str) -> int:
    gains = district_scores(st.lots, district, st.seats, st.six)
    return gains[seat] * st.seats - sum(gains)


def action_value(st: FifthState, seat: int, a: Action) -> float:
    kind = a.kind
    if kind == "place":
        assert a.lot is not None
        return types_at(st.lots, a.lot, st.six)
    if kind == "A":
        return 3.0 if st.reserve[seat] < 3 and st.supply[seat] > 0 else 0.5
    if kind == "D":
        assert a.district is not None
        return _district_gain(st, seat, a.district) / 2
    if kind == "B":
        assert a.lot is not None and a.slot is not None
        district = a.lot.split(".")[0]
        before = district_scores(st.lots, district, st.seats, st.six)
        lots = dict(st.lots)
        tile = st.row[int(a.slot[1:]) - 1]
        lots[a.lot] = lots[a.lot].model_copy(update={"shops": (*lots[a.lot].shops, tile)})
        after = district_scores(lots, district, st.seats, st.six)
        mine = after[seat] - before[seat]
        theirs = sum(after) - sum(before) - mine
        # Shops also drive the game to its end (§5.4), so a neutral placement still beats a pawn move.
        return 1.2 + (mine - theirs / max(1, st.seats - 1)) / 2
    if kind in ("C", "move"):
        return 1.0 if a.dest == "START" else 0.8
    if kind == "draw":
        return 0.0
    if kind == "bid":
        au = st.auction
        assert au is not None
        total = pile_total(au.piles[seat]) + pile_total(a.cards)
        if st.reserve[seat] == 0 or total > GREEDY_BUDGET:
            return -1.0
        return 1.0 - total / 100 - len(a.cards) / 50
    if kind == "pass":
        return 0.0
    if kind == "build":
        return a.k
    if kind == "close":
        au = st.auction
        assert au is not None
        where = au.sites[au.site]
        if where == CP:
            return -1.0
        total = sum(lot.count for k, lot in st.lots.items() if k.startswith(where + "."))
        gains = district_scores(st.lots, where, st.seats, st.six)
        return (total - sum(g // 2 for g in gains) + gains[seat] // 2) / VALUE[2]
    return 0.0
