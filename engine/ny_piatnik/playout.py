"""A light copy of the base game's main phase, for the strong player's rollouts.

``rules.apply`` validates, logs and freezes a new state on every action; a rollout needs none of that.
``Playout`` keeps the same facts in plain mutable lists and bit boards and plays exactly the same rules
for pair plays, the automatic reset, drawing, reshuffles, the final phase and the Stop cards (spec §4),
drawing from the state's own generator in the same order. ``greedy_move`` makes the greedy player's
choice (``bots.GreedyPolicy``: the same values, the same ties, the same draws from its generator) without
building any ``Action``. Only the base game is covered (3-5 seats, no variant): see ``Playout.covers``.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core.rng import Rng
from engine.ny_piatnik.actions import Action
from engine.ny_piatnik.bots import JOKER_COST, NEIGHBOUR_BONUS, OPPONENT_WEIGHT
from engine.ny_piatnik.cards import (
    AVENUES,
    BJ,
    BUILDING_INDEX,
    CARD_RANK,
    CELLS,
    COL,
    COL_CELLS,
    COL_OF,
    COLOUR_INDEX,
    FINAL_PHASE_UNOWNED,
    NEIGHBOURS,
    RED_BACK,
    RJ,
    ROW,
    ROW_CELLS,
    ROW_OF,
    SIZE,
    STOP,
    STREETS,
)
from engine.ny_piatnik.rules import SETTLE_LIMIT
from engine.ny_piatnik.scoring import grow, largest_group
from engine.ny_piatnik.state import NyState

ROW_MASKS = tuple(sum(1 << i for i in cells) for cells in ROW_CELLS)
COL_MASKS = tuple(sum(1 << i for i in cells) for cells in COL_CELLS)
NEIGHBOUR_MASKS = tuple(sum(1 << j for j in near) for near in NEIGHBOURS)
_RED_ORDER = (*AVENUES, RJ)  # §4.4 canonical order of the cards a base-game pair can use
_BLUE_ORDER = (*STREETS, BJ)
_EVERY = tuple(range(SIZE))
# The rows (red-back cards) or columns (blue-back cards) a card can name.
_LINES = {**{a: (ROW_OF[a],) for a in AVENUES}, RJ: _EVERY, **{s: (COL_OF[s],) for s in STREETS}, BJ: _EVERY}
_RANK = CARD_RANK.__getitem__


@lru_cache(maxsize=1 << 17)
def largest_size(mask: int) -> int:
    """Size of the largest connected group of ``mask`` (remembered: the same boards recur constantly)."""
    return largest_group(mask)


@lru_cache(maxsize=1 << 17)
def largest_part(mask: int) -> int:
    """The bit board of the largest connected group of ``mask`` (the first of equal ones)."""
    best = 0
    rest = mask
    while rest:
        part = rest & -rest
        while (grown := grow(part) & mask) != part:
            part = grown
        if part.bit_count() > best.bit_count():
            best = part
        rest &= ~part
    return best


@lru_cache(maxsize=1 << 17)
def house_value(mask: int) -> int:
    """A house's final points from its buildings (§5): the largest group counts twice."""
    return largest_size(mask) + mask.bit_count()


@lru_cache(maxsize=1 << 14)  # about 0.7 kB an entry; the boards of a decision recur within it
def groups(mask: int) -> tuple[int, ...]:
    """For each of the 49 buildings, the bit board of its connected group in ``mask`` (0 outside it)."""
    of = [0] * CELLS
    rest = mask
    while rest:
        part = rest & -rest
        while (grown := grow(part) & mask) != part:
            part = grown
        rest &= ~part
        cells = part
        while cells:
            bit = cells & -cells
            of[bit.bit_length() - 1] = part
            cells ^= bit
    return tuple(of)


def value_without(mask: int, bit: int) -> int:
    """``house_value(mask & ~bit)`` for a building ``bit`` in ``mask``: outside the largest group, a
    removal leaves that group the largest."""
    if bit & largest_part(mask):
        return house_value(mask & ~bit)
    return largest_size(mask) + mask.bit_count() - 1


def price_in(mask: int, idx: int) -> int:
    """§4.3 price of building ``idx`` owned by the house with bit board ``mask``."""
    return min((mask & ROW_MASKS[ROW[idx]]).bit_count(), (mask & COL_MASKS[COL[idx]]).bit_count())


def _satisfied(hand: list[str]) -> bool:
    red = sum(1 for c in hand if c in RED_BACK)
    return red >= 2 and len(hand) - red >= 2


class Playout:
    """A base-game match in the main phase with no decision pending, as mutable lists (see the module)."""

    __slots__ = (
        "active",
        "board",
        "colour",
        "deck",
        "discard",
        "empty",
        "final_phase",
        "hands",
        "masks",
        "money",
        "over",
        "rng",
        "seats",
        "supply",
    )

    seats: int
    colour: list[str]  # per seat: its house
    board: list[str | None]
    masks: dict[str, int]  # per house: the bit board of its buildings
    supply: dict[str, int]
    money: list[int]
    hands: list[list[str]]  # kept in canonical order, as the state keeps them
    deck: list[str]  # top at the end
    discard: list[str]
    rng: Rng
    empty: int  # unowned buildings
    final_phase: bool
    over: bool
    active: int

    @staticmethod
    def covers(state: NyState) -> bool:
        """Whether ``state`` is one this class plays: base game, main phase, nothing pending."""
        return (
            state.phase == "main"
            and state.pending is None
            and not (state.events or state.team or state.two_player)
            and len(state.houses) == state.seats
        )

    @classmethod
    def of(cls, state: NyState) -> Playout:
        """The playout at ``state`` (which ``covers`` must accept)."""
        p = cls.__new__(cls)
        p.seats = state.seats
        p.colour = [""] * state.seats
        for colour in state.houses:
            p.colour[state.controller[COLOUR_INDEX[colour]]] = colour
        p.board = list(state.board)
        p.masks = dict.fromkeys(state.houses, 0)
        for i, owner in enumerate(state.board):
            if owner is not None:
                p.masks[owner] |= 1 << i
        p.supply = {h: state.supply[COLOUR_INDEX[h]] for h in state.houses}
        p.money = list(state.money)
        p.hands = [list(h) for h in state.hands]
        p.deck = list(state.deck)
        p.discard = list(state.discard)
        p.rng = Rng(state.rng)
        p.empty = state.board.count(None)
        p.final_phase = state.final_phase
        p.over = False
        p.active = state.active
        return p

    def copy(self) -> Playout:
        """An independent copy."""
        p = Playout.__new__(Playout)
        p.seats = self.seats
        p.colour = self.colour
        p.board = self.board.copy()
        p.masks = self.masks.copy()
        p.supply = self.supply.copy()
        p.money = self.money.copy()
        p.hands = [h.copy() for h in self.hands]
        p.deck = self.deck.copy()
        p.discard = self.discard.copy()
        p.rng = Rng(self.rng.state)
        p.empty = self.empty
        p.final_phase = self.final_phase
        p.over = self.over
        p.active = self.active
        return p

    # -- the rules ---------------------------------------------------------------------------------

    def play(self, red: str, blue: str, idx: int) -> None:
        """The active seat plays ``red`` and ``blue`` on building ``idx`` (a legal play), then every
        forced step follows as in ``rules.apply``: draw-up, the next turn, automatic resets."""
        seat = self.active
        hand = self.hands[seat]
        hand.remove(red)
        hand.remove(blue)
        self.discard += (red, blue)
        gain = self.colour[seat]
        owner = self.board[idx]
        bit = 1 << idx
        if owner is None:
            self.board[idx] = gain
            self.masks[gain] |= bit
            self.supply[gain] -= 1
            self.empty -= 1
        elif owner == gain:
            self.board[idx] = None
            self.masks[gain] &= ~bit
            self.supply[gain] += 1
            self.empty += 1
        else:
            price = price_in(self.masks[owner], idx)
            self.money[seat] -= price
            self.money[self.colour.index(owner)] += price
            self.masks[owner] &= ~bit
            self.supply[owner] += 1
            self.board[idx] = gain
            self.masks[gain] |= bit
            self.supply[gain] -= 1
        if not self.final_phase and self.empty <= FINAL_PHASE_UNOWNED:
            self.discard += (STOP, STOP)  # ruling 15
            self.final_phase = True
        if not self._draw(seat):
            self._next_turn()

    def play_action(self, action: Action) -> None:
        """``play`` for a pair-play ``Action`` of the active seat."""
        red, blue = str(action.red), str(action.blue)
        idx = BUILDING_INDEX[action.at] if action.at is not None else ROW_OF[red] * SIZE + COL_OF[blue]
        self.play(red, blue, idx)

    def _draw(self, seat: int) -> bool:
        """§4.6/§4.7 draw-up; whether a Stop card ended the match."""
        hand = self.hands[seat]
        drew = False
        while not _satisfied(hand):
            if not self.deck:
                if not self.discard:
                    break  # ruling 14
                self.deck = self.rng.shuffled(self.discard)
                self.discard = []
            card = self.deck.pop()
            if card == STOP:
                self.over = True
                break
            hand.append(card)
            drew = True
        if drew:
            hand.sort(key=_RANK)
        return self.over

    def _next_turn(self) -> None:
        self.active = (self.active + 1) % self.seats
        for _ in range(SETTLE_LIMIT):
            if self.has_play(self.active):
                return
            # §4.5: the automatic reset; the revealed hand goes to the discard pile in hand order.
            seat = self.active
            self.discard += self.hands[seat]
            self.hands[seat] = []
            if self._draw(seat):
                return
            self.active = (seat + 1) % self.seats

    def _target_ok(self, seat: int, idx: int) -> bool:
        owner = self.board[idx]
        gain = self.colour[seat]
        if owner == gain:
            return True
        if self.supply[gain] <= 0:
            return False
        return owner is None or price_in(self.masks[owner], idx) <= self.money[seat]

    def has_play(self, seat: int) -> bool:
        """Whether ``seat`` has a legal pair play (§4.4)."""
        held = set(self.hands[seat])
        rows = {r for c in held if c in _RED_SET for r in _LINES[c]}
        cols = {k for c in held if c in _BLUE_SET for k in _LINES[c]}
        return any(self._target_ok(seat, r * SIZE + k) for r in rows for k in cols)

    # -- the greedy player -------------------------------------------------------------------------

    def greedy_move(self, rng: Rng) -> tuple[str, str, int]:
        """The greedy player's play for the active seat: (red card, blue card, building)."""
        moves, values = self.greedy_values()
        if len(moves) == 1:
            return moves[0]
        best = max(values)
        top = [m for m, v in zip(moves, values, strict=True) if v >= best - 1e-9]
        return top[rng.below(len(top))] if len(top) > 1 else top[0]

    def greedy_values(self) -> tuple[list[tuple[str, str, int]], list[float]]:
        """The active seat's legal plays (red card, blue card, building) and the greedy value of each,
        in the greedy player's order."""
        seat = self.active
        held = set(self.hands[seat])
        reds = [c for c in _RED_ORDER if c in held]
        blues = [c for c in _BLUE_ORDER if c in held]
        worth: list[float | None] = [None] * CELLS
        known = [False] * CELLS
        moves: list[tuple[str, str, int]] = []
        values: list[float] = []
        for r in reds:
            for b in blues:
                cost = JOKER_COST * ((r == RJ) + (b == BJ))
                for row in _LINES[r]:
                    for col in _LINES[b]:
                        idx = row * SIZE + col
                        if not known[idx]:
                            worth[idx] = self._worth(seat, idx)
                            known[idx] = True
                        value = worth[idx]
                        if value is not None:
                            moves.append((r, b, idx))
                            values.append(value - cost)
        return moves, values

    def _worth(self, seat: int, idx: int) -> float | None:
        """The greedy value of acting on ``idx`` before the cards' cost; ``None`` if illegal. Summed in
        the greedy player's order, so that equal values stay equal."""
        gain = self.colour[seat]
        owner = self.board[idx]
        mine = self.masks[gain]
        bit = 1 << idx
        total = 0.0
        if owner == gain:
            total += 1.0 * (value_without(mine, bit) - house_value(mine))
            return total
        if self.supply[gain] <= 0:
            return None
        # Adding a building only merges groups: the new largest is the old one or the group it joins,
        # which is its neighbours' groups and itself.
        of = groups(mine)
        joined = bit
        for j in NEIGHBOURS[idx]:
            joined |= of[j]
        largest = largest_size(mine)
        grown = joined.bit_count()
        gained = (grown if grown > largest else largest) + 1 - largest
        if owner is None:
            total += 1.0 * gained
        else:
            theirs = self.masks[owner]
            price = min(
                (theirs & ROW_MASKS[ROW[idx]]).bit_count(), (theirs & COL_MASKS[COL[idx]]).bit_count()
            )
            if price > self.money[seat]:
                return None
            rival = -(OPPONENT_WEIGHT / max(1, self.seats - 1))  # each opponent's weight
            total += rival * (value_without(theirs, bit) - house_value(theirs))
            total += 1.0 * gained
            total += 1.0 * -price
            total += rival * price
        return total + NEIGHBOUR_BONUS * (mine & NEIGHBOUR_MASKS[idx]).bit_count()

    # -- scores ------------------------------------------------------------------------------------

    def final_scores(self) -> list[float]:
        """Every seat's score (§5) if the match ended now."""
        return [float(self.money[s] + house_value(self.masks[self.colour[s]])) for s in range(self.seats)]


_RED_SET = frozenset(_RED_ORDER)
_BLUE_SET = frozenset(_BLUE_ORDER)
