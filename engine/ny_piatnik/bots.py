"""Computer players for Piatnik's New York: a greedy one-ply policy (random comes from engine.core)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.ny_piatnik.actions import Action
from engine.ny_piatnik.cards import (
    BAU_B,
    BAU_R,
    BUILDING_INDEX,
    CELLS,
    COL_OF,
    COLOUR_INDEX,
    CORNERS,
    INNER,
    JOKERS,
    LINE_CELLS,
    NEIGHBOURS,
    ROW_OF,
    SIZE,
    STAT_B,
    STAT_R,
)
from engine.ny_piatnik.rules import price_of, statik_leaders
from engine.ny_piatnik.scoring import colour_mask, largest_group
from engine.ny_piatnik.state import NyState, houses_of

# Hand-set weights (score points); tests/engine/ny_piatnik/test_bots.py checks the result beats random play.
JOKER_COST = 0.45  # a joker spent on a plain target is a joker not kept for a better one
_EVENT_COST = 0.25  # event cards are rarer than jokers; keep them for a clear gain
_EXCHANGE_COST = 0.5  # V4: exchanges are not modelled, so only reset beats them
NEIGHBOUR_BONUS = 0.08  # own neighbours of a new marker: groups that may merge later
OPPONENT_WEIGHT = 1.2  # opponents' gains count this much in total, shared among them


class ScoreDeltas:
    """Fast score deltas for one seat's point of view: only the houses a change touches are recounted."""

    def __init__(self, st: NyState, seat: int) -> None:
        self.st = st
        self.seat = seat
        self.two = st.two_player
        self.masks = {h: colour_mask(st.board, h) for h in st.houses}
        self.values = {h: self._house_value(m) for h, m in self.masks.items()}
        self.ctrl = {h: st.controller[COLOUR_INDEX[h]] for h in st.houses}
        n = st.seats
        if st.team:
            mine = {seat, (seat + 2) % 4}
            self.weight = [1.0 if s in mine else -1.0 for s in range(n)]
        else:
            share = OPPONENT_WEIGHT / max(1, n - 1)
            self.weight = [1.0 if s == seat else -share for s in range(n)]

    def _house_value(self, mask: int) -> int:
        largest = largest_group(mask)
        # §5: largest ×2 + others = largest + count; §7.3: only the largest group counts.
        return largest if self.two else largest + mask.bit_count()

    def delta(self, changes: Sequence[tuple[int, str | None, str | None]], money: dict[int, int]) -> float:
        """Weighted score change for board changes (idx, old owner, new owner) and money moves."""
        masks = self._masks_after(changes)
        total = 0.0
        for h, mask in masks.items():
            total += self.weight[self.ctrl[h]] * (self._house_value(mask) - self.values[h])
        for s, amount in money.items():
            total += self.weight[s] * amount
        return total

    def delta_for(self, seat: int, changes: Sequence[tuple[int, str | None, str | None]]) -> int:
        """Raw score change of ``seat`` alone."""
        masks = self._masks_after(changes)
        return sum(self._house_value(m) - self.values[h] for h, m in masks.items() if self.ctrl[h] == seat)

    def _masks_after(self, changes: Sequence[tuple[int, str | None, str | None]]) -> dict[str, int]:
        masks: dict[str, int] = {}
        for idx, old, new in changes:
            bit = 1 << idx
            if old is not None:
                masks[old] = masks.get(old, self.masks[old]) & ~bit
            if new is not None:
                masks[new] = masks.get(new, self.masks[new]) | bit
        return masks

    def neighbours(self, idx: int, colour: str) -> int:
        return sum(1 for j in NEIGHBOURS[idx] if self.st.board[j] == colour)


class GreedyPolicy:
    """One-ply lookahead on the final-score formula: own gain minus opponents' gain, price included.

    Pending decisions are answered the same way (cede the least harmful building, fill the best space);
    ties are broken with the given ``rng``. Pure and deterministic for a given ``rng``.
    """

    name = "greedy"

    def choose(
        self, rules: GameRules[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: Rng
    ) -> Any:
        if len(legal) == 1:
            return legal[0]
        ev = ScoreDeltas(state, seat)
        values = [self.value(ev, state, seat, a) for a in legal]
        best = max(values)
        top = [a for a, v in zip(legal, values, strict=True) if v >= best - 1e-9]
        return top[rng.below(len(top))] if len(top) > 1 else top[0]

    def value(self, ev: ScoreDeltas, st: NyState, seat: int, a: Action) -> float:
        """Estimated worth of ``a`` for ``seat`` (higher is better)."""
        kind = a.kind
        if kind == "play":
            return self._play(ev, st, seat, a)
        if kind == "event":
            return self._event(ev, st, seat, a) - _EVENT_COST
        if kind == "give":
            p = st.pending
            assert p is not None and a.at is not None
            idx = BUILDING_INDEX[a.at]
            return ev.delta([(idx, p.victim, p.gain)], {})
        if kind == "fill":
            assert a.at is not None
            idx = BUILDING_INDEX[a.at]
            colour = a.colour or houses_of(st, seat)[0]
            return ev.delta([(idx, None, colour)], {}) + NEIGHBOUR_BONUS * ev.neighbours(idx, colour)
        if kind == "place":
            return self._place(st, a)
        if kind == "colour":
            return 1.0 if a.colour == "red" else 0.0  # §7.2: red moves first
        if kind == "exchange":
            return -_EXCHANGE_COST
        return 0.0  # reset, return

    def _place(self, st: NyState, a: Action) -> float:
        # Preliminary round: spread out diagonally so that later claims join pieces (only V2 keeps colours).
        assert a.at is not None
        idx = BUILDING_INDEX[a.at]
        slot = st.prelim_done % len(st.prelim_slots)
        colour = st.prelim_slots[slot]
        row, col = divmod(idx, SIZE)
        diag = 0
        for dr in (-1, 1):
            for dc in (-1, 1):
                r, c = row + dr, col + dc
                if 0 <= r < SIZE and 0 <= c < SIZE and st.board[r * SIZE + c] == colour:
                    diag += 1
        centre = -abs(row - 3) - abs(col - 3)
        return diag + 0.1 * centre

    def _play(self, ev: ScoreDeltas, st: NyState, seat: int, a: Action) -> float:
        red, blue = str(a.red), str(a.blue)
        cost = JOKER_COST * ((red in JOKERS) + (blue in JOKERS))
        own = houses_of(st, seat)
        gain = a.colour or own[0]
        if red == STAT_R or blue == STAT_B:
            line = a.line or (blue if red == STAT_R else red)
            victim = a.victim or statik_leaders(st.board, line, st.houses, own)[0]
            options = [i for i in LINE_CELLS[line] if st.board[i] == victim]
            return self._cede(ev, victim, gain, options) - cost - _EVENT_COST
        idx = BUILDING_INDEX[a.at] if a.at is not None else ROW_OF[red] * SIZE + COL_OF[blue]
        owner = st.board[idx]
        if red == BAU_R or blue == BAU_B:
            value = ev.delta([(idx, owner, gain)], {}) - _EVENT_COST
        elif owner is None:
            value = ev.delta([(idx, None, gain)], {})
        elif owner in own:
            value = ev.delta([(idx, owner, None)], {})
        else:
            price = price_of(st.board, idx)
            payee = st.controller[COLOUR_INDEX[owner]]
            value = ev.delta([(idx, owner, gain)], {seat: -price, payee: price})
        if owner not in own:
            value += NEIGHBOUR_BONUS * ev.neighbours(idx, gain)
        return value - cost

    def _cede(self, ev: ScoreDeltas, victim: str, gain: str, options: Sequence[int]) -> float:
        # The victim's controller picks the building that hurts them least: assume exactly that.
        victim_seat = ev.ctrl[victim]
        best_for_victim = None
        outcome = 0.0
        for idx in options:
            change = [(idx, victim, gain)]
            loss = ev.delta_for(victim_seat, change)
            if best_for_victim is None or loss > best_for_victim:
                best_for_victim = loss
                outcome = ev.delta(change, {})
        return outcome

    def _event(self, ev: ScoreDeltas, st: NyState, seat: int, a: Action) -> float:
        card = str(a.card)
        own = houses_of(st, seat)
        gain = a.colour or own[0]
        if card.startswith("SPEC"):
            target = str(a.target)
            options = [i for i in range(CELLS) if st.board[i] == target]
            return self._cede(ev, target, gain, options)
        spaces = INNER if card.startswith("SAN") else CORNERS
        return self._refill(ev, st, seat, spaces)

    def _refill(self, ev: ScoreDeltas, st: NyState, seat: int, spaces: Sequence[int]) -> float:
        # Simulate the clearing and a refill in which every placer takes its own best space.
        changes: list[tuple[int, str | None, str | None]] = []
        supply = list(st.supply)
        for i in spaces:
            owner = st.board[i]
            if owner is not None:
                changes.append((i, owner, None))
                supply[COLOUR_INDEX[owner]] += 1
        n = st.seats
        placer = seat
        empty = list(spaces)
        for _ in range(len(spaces)):
            for _k in range(n):
                if any(supply[COLOUR_INDEX[h]] > 0 for h in houses_of(st, placer)):
                    break
                placer = (placer + 1) % n
            else:
                break
            colour = next(h for h in houses_of(st, placer) if supply[COLOUR_INDEX[h]] > 0)
            best_idx, best = empty[0], None
            for i in empty:
                gain = ev.delta_for(placer, [*changes, (i, None, colour)])
                if best is None or gain > best:
                    best_idx, best = i, gain
            empty.remove(best_idx)
            changes.append((best_idx, None, colour))
            supply[COLOUR_INDEX[colour]] -= 1
            placer = (placer + 1) % n
        return ev.delta(changes, {})
