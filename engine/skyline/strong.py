"""The strong computer player for Skyline of the World: determinised search over whole rounds.

A decision is made by imagining a few worlds consistent with what the seat may know (``determinize``),
trying the most promising actions in each, and letting every seat play on with the greedy heuristic
until the seat's next turn begins (a whole round, so every candidate is judged at the same point of
the game, after the other seats' answers). The position reached is scored by ``evaluate``: the seat's
projected prestige against the best other seat's, with money and floors in stock as small terms.
The work is bounded in simulated actions, never in time, so a seed gives the same decision anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.core.search import Budget, SearchPolicy, margin, reseeded
from engine.skyline.actions import ENDBUILD, Action, build
from engine.skyline.bots import INCOME_WEIGHT as GREEDY_INCOME_WEIGHT
from engine.skyline.bots import MISSION_SITE_WEIGHT, PP_WEIGHT, GreedyPolicy, position_value
from engine.skyline.cards import (
    BONUS_CARDS,
    BONUS_IDS,
    COLOURED,
    LEVEL,
    MAX_HEIGHT,
    MISSION_IDS,
    MISSION_MASKS,
    MISSION_PP,
    ORANGE,
    PLACEMENT_MASKS,
    PRICE,
    SITE_BY_NAME,
    SITES,
    SUPPLY_PER_COLOUR,
)
from engine.skyline.rules import build_error, fee_for, free_actions
from engine.skyline.scoring import ranking_keys
from engine.skyline.state import SkylineState, Stack, income_groups, orange_tops, penthouses, topped_mask

GREEDY = GreedyPolicy()

# ---------------------------------------------------------------------------------------------
# Determinisation: the seat's view, the rest redrawn


def determinize(state: SkylineState, seat: int, rng: Rng) -> SkylineState:
    """A state ``seat`` cannot tell from ``state``, its hidden part redrawn from ``rng``.

    Only what ``seat`` may see is read: its own hand and mission, the claimed cards, hand and deck
    sizes and the board (and, in the hidden variant, nothing of the other seats' money). The unseen
    cards (all not in ``seat``'s hand and not claimed, in a fixed order) are shuffled and dealt to the
    other hands and the deck; those left over stand for the cards exchanged face down. The unseen
    missions are dealt the same way.
    """
    seen = set(state.hands[seat]) | {c for claimed in state.claimed for c in claimed}
    pool = rng.shuffled([c for c in BONUS_IDS if c not in seen])
    hands = list(state.hands)
    for other in range(state.seats):
        if other != seat:
            n = len(state.hands[other])
            hands[other], pool = tuple(sorted(pool[:n])), pool[n:]
    update: dict[str, object] = {"hands": tuple(hands), "deck": tuple(pool[: len(state.deck)])}
    if state.phase != "over":
        unseen = rng.shuffled([m for m in MISSION_IDS if m != state.missions[seat]])
        missions = list(state.missions)
        for other in range(state.seats):
            if other != seat:
                missions[other] = unseen.pop()
        update["missions"] = tuple(missions)
        update["spare_missions"] = tuple(sorted(unseen))
    if state.hidden:
        update.update(_guess_money(state, seat))
    return reseeded(state.model_copy(update=update), rng)


def _guess_money(state: SkylineState, seat: int) -> dict[str, object]:
    """The hidden variant: the other seats' cash, stock and supply guessed from the board alone.

    What a colour has not placed is in its stock or supply; the guess is a small working stock like a
    player keeps, the rest in supply, and a middling amount of cash.
    """
    cash, stock, supply = list(state.cash), list(state.stock), list(state.supply)
    for other in range(state.seats):
        if other == seat:
            continue
        tag = str(other)
        placed = [p[1:] for stack in state.board for p in stack if p[0] == tag]
        left = {c: SUPPLY_PER_COLOUR[c] - placed.count(c) for c in COLOURED}
        mine: list[str] = []
        for c, want in (("1", 2), ("2", 1), ("4", 1), ("6", 1)):
            mine += [c] * min(want, left[c])
        mine += ["S"] * (state.skyline_received[other] - placed.count("S"))
        stock[other] = tuple(mine)
        supply[other] = tuple(left[c] - mine.count(c) for c in COLOURED)
        cash[other] = 10 + income_groups(state.board, other)[0]
    return {"cash": tuple(cash), "stock": tuple(stock), "supply": tuple(supply)}


# ---------------------------------------------------------------------------------------------
# The greedy player, faster: the same choices, for rollouts


_FULL = (1 << 36) - 1
# Sites whose row is not the first (resp. last): where a one-row shift of a bitmask may land.
_NOT_FIRST_ROW = sum(1 << k for k in range(36) if k % 6 != 0)
_NOT_LAST_ROW = sum(1 << k for k in range(36) if k % 6 != 5)
_TOP_INCOME = {"1": 1, "2": 2, "4": 4, "6": 6}


@lru_cache(maxsize=1 << 14)
def best_income(board: tuple[Stack, ...], mask: int) -> int:
    """``income_groups(board, seat)[0]`` for the sites ``mask`` that ``seat`` tops, by bitmask flood
    fill (sites are column-major, so a row step is a shift by one and a column step by six)."""
    best = 0
    rest = mask
    while rest:
        group = rest & -rest
        while True:
            grown = group | (group << 1) & _NOT_FIRST_ROW | (group >> 1) & _NOT_LAST_ROW
            grown = (grown | group << 6 | group >> 6) & mask
            if grown == group:
                break
            group = grown
        rest &= ~group
        value = 0
        while group:
            low = group & -group
            value += _TOP_INCOME.get(board[low.bit_length() - 1][-1][1:], 0)
            group ^= low
        best = max(best, value)
    return best


def _site_bonus(stack: Stack, k: int, tag: str) -> float:
    """The greedy player's future-penthouse term for one site (see ``bots.position_value``)."""
    if len(stack) == 4 and any(p[0] == tag for p in stack):
        top = stack[-1]
        if top == "N" or top[0] != tag or top.endswith("S"):
            return 2.0 + (1.0 if k in ORANGE else 0.0)
    return 0.0


@lru_cache(maxsize=1 << 14)
def _cards_value(mask: int, hand: tuple[str, ...]) -> float:
    value = 0.0
    for card in hand:
        if any(mask & need == need for need, _ in PLACEMENT_MASKS[card]):
            value += BONUS_CARDS[card].reward * 0.5
    return value


@lru_cache(maxsize=1 << 12)
def _sites_bonus(board: tuple[Stack, ...], tag: str) -> float:
    return sum(_site_bonus(stack, k, tag) for k, stack in enumerate(board))


_BUILDS = {(p, site.k): build(p, site.id) for p in ("1", "2", "4", "6", "PH", "N", "S") for site in SITES}


def rollout_legal(rules: GameRules[Any, Any], st: SkylineState, seat: int) -> Sequence[Action]:
    """``rules.legal_actions(st, seat)``, the builds found faster: a coloured floor is only tried where
    the height fits its level, any piece only below the top height."""
    if st.phase != "build" or seat != st.active:
        legal: Sequence[Action] = rules.legal_actions(st, seat)
        return legal
    board = st.board
    builds: list[Action] = []
    for piece in dict.fromkeys(st.stock[seat]):
        level = LEVEL.get(piece)
        for k, stack in enumerate(board):
            if (len(stack) + 1 != level) if level is not None else len(stack) >= MAX_HEIGHT:
                continue
            if build_error(st, seat, piece, k) is None:
                builds.append(_BUILDS[piece, k])
    out = builds + free_actions(st, seat)
    if st.built_any or not builds:
        out.append(ENDBUILD)
    return out


def greedy_choice(st: SkylineState, seat: int, legal: Sequence[Action]) -> Action:
    """What ``GreedyPolicy.choose`` plays, computed with the board terms updated site by site.

    Every term of the greedy value is a multiple of one half, so the sums are exact and the choice
    (first best in ``legal`` order) is the same.
    """
    board = st.board
    tag = str(seat)
    mask = topped_mask(board, seat)
    mission = MISSION_MASKS[st.missions[seat]]
    hand = st.hands[seat]
    ph = penthouses(board, seat)
    orange = orange_tops(board, seat)
    sites = _sites_bonus(board, tag)
    base = PP_WEIGHT * (ph + orange)
    base += GREEDY_INCOME_WEIGHT * best_income(board, mask)
    base += MISSION_SITE_WEIGHT * (mask & mission).bit_count()
    base += _cards_value(mask, hand)
    base += sites
    best, best_value = legal[0], float("-inf")
    for a in legal:
        if a.kind != "build":
            value = GREEDY.value(st, seat, a, base)
        else:
            assert a.piece is not None and a.site is not None
            k = SITE_BY_NAME[a.site]
            stack = board[k]
            piece = "N" if a.piece == "N" else f"{seat}{a.piece}"
            new_stack = (*stack, piece)
            new_board = (*board[:k], new_stack, *board[k + 1 :])
            bit = 1 << k
            new_mask = mask & ~bit if piece == "N" else mask | bit
            new_ph = ph + (a.piece == "PH")
            new_orange = orange
            if k in ORANGE:
                was = bool(stack) and stack[-1][0] == tag and not stack[-1].endswith("S")
                now = piece[0] == tag and a.piece != "S"
                new_orange += int(now) - int(was)
            new_value = PP_WEIGHT * (new_ph + new_orange)
            new_value += GREEDY_INCOME_WEIGHT * best_income(new_board, new_mask)
            new_value += MISSION_SITE_WEIGHT * (new_mask & mission).bit_count()
            new_value += _cards_value(new_mask, hand)
            new_value += sites - _site_bonus(stack, k, tag) + _site_bonus(new_stack, k, tag)
            fee, to = fee_for(board, seat, a.piece, k)
            cost = fee * (0.6 if to is not None else 0.4)
            value = new_value - base - cost + (5.0 if not st.built_any else 0.0)
        if value > best_value:
            best, best_value = a, value
    return best


# ---------------------------------------------------------------------------------------------
# Evaluation


# Prestige expected at the end from a mission with this many of its four sites topped now.
MISSION_PROGRESS = (0.0, 0.2, 0.5, 1.0, MISSION_PP * 0.9)
MONEY_WEIGHT = 0.05  # prestige per million: a penthouse costs about 20 M all told
INCOME_WEIGHT = 0.1
PH_SITE_WEIGHT = 0.35  # a height-4 building this seat may top with a penthouse
FIRST_BONUS = 1.0
LATE_MONEY = (0.6, 0.2)  # share of the money terms once a seat has two penthouses / in the final turns


def _assets(state: SkylineState, seat: int) -> float:
    """Cash plus the floors in stock at their price (a Skyline floor counts as a neutral one)."""
    stock = sum(PRICE.get(p, 5) for p in state.stock[seat])
    return state.cash[seat] + stock


def money_worth(state: SkylineState) -> float:
    """How much money still counts: fully while the end is far, less once a seat is one penthouse
    from ending the match, little in the final turns (money scores nothing at the end)."""
    if state.trigger is not None:
        return LATE_MONEY[1]
    if max(len(seq) for seq in state.penthouse_seq) >= 2:
        return LATE_MONEY[0]
    return 1.0


def projected(state: SkylineState, seat: int, worth: float = 1.0) -> float:
    """``seat``'s prestige expected at the end, estimated from the position as it stands; ``worth``
    scales the money terms (see ``money_worth``)."""
    board = state.board
    mask = topped_mask(board, seat)
    value = float(penthouses(board, seat) + orange_tops(board, seat))
    value += MISSION_PROGRESS[(mask & MISSION_MASKS[state.missions[seat]]).bit_count()]
    tag = str(seat)
    chances = 0
    for stack in board:
        if len(stack) == 4 and any(p[0] == tag for p in stack):
            top = stack[-1]
            if top == "N" or top[0] != tag or top.endswith("S"):
                chances += 1
    value += PH_SITE_WEIGHT * min(chances, 2)
    value += worth * (MONEY_WEIGHT * _assets(state, seat) + INCOME_WEIGHT * best_income(board, mask))
    return value


def evaluate(state: SkylineState, seat: int) -> float:
    """How good ``state`` is for ``seat``: its projected prestige lead over the best other seat, and
    at the end the real lead plus a bonus for first place (ties and tie-breaks as the rules rank)."""
    if state.phase == "over":
        keys = ranking_keys(state)
        scores = [float(k[0]) for k in keys]
        first = all(keys[seat] >= k for k in keys)
        return margin(scores, seat) + (FIRST_BONUS if first else 0.0)
    worth = money_worth(state)
    return margin([projected(state, s, worth) for s in range(state.seats)], seat)


def priors(state: SkylineState, seat: int, legal: Sequence[Action]) -> list[float]:
    """The greedy player's heuristic value of each action in ``legal``."""
    base = position_value(state.board, state, seat)
    return [GREEDY.value(state, seat, a, base) for a in legal]


# ---------------------------------------------------------------------------------------------
# The search


# How much one decision may think: two worlds, eight candidates (and ending the phase), each followed to
# this seat's next turn within 40 simulated actions (a round takes about 20); no further world once 600
# actions were simulated.
BUDGET = Budget(worlds=2, candidates=8, depth=40, steps=600)


def prior(state: SkylineState, seat: int, action: Action) -> float:
    """The greedy player's heuristic value of ``action``."""
    return priors(state, seat, [action])[0]


class StrongPolicy(SearchPolicy[SkylineState, Action]):
    """Determinised search: each candidate is played in each world, then every seat plays greedily
    until this seat's next turn (or the end), and the mean evaluation decides."""

    def __init__(self, budget: Budget = BUDGET) -> None:
        super().__init__(
            determinize=determinize, evaluate=evaluate, prior=prior, rollout=GREEDY, budget=budget
        )

    def candidates(self, world: SkylineState, seat: int, legal: Sequence[Action]) -> list[Action]:
        """The best by the greedy values (read in one pass), and ending the phase whatever its value."""
        values = priors(world, seat, legal)
        order = sorted(range(len(legal)), key=lambda i: (-values[i], i))
        picked = order[: self.budget.candidates]
        picked += [i for i in order[self.budget.candidates :] if legal[i].kind in ("endbuild", "endturn")]
        return [legal[i] for i in picked]

    def simulate(
        self, rules: GameRules[SkylineState, Action], world: SkylineState, seat: int, action: Action, rng: Rng
    ) -> tuple[float, int]:
        """The value for ``seat`` of ``action`` in ``world`` once every seat has played greedily up
        to ``seat``'s next turn, and the number of actions simulated."""
        state: SkylineState = rules.apply(world, seat, action).state
        used = 1
        left = state.active != seat
        while used < self.budget.depth and state.phase != "over":
            actor = state.active
            if actor == seat and left:
                break
            left = left or actor != seat
            legal = rollout_legal(rules, state, actor)
            move = legal[0] if len(legal) == 1 else greedy_choice(state, actor, legal)
            state = rules.apply(state, actor, move).state
            used += 1
        return evaluate(state, seat), used
