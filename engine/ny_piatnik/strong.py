"""The strong computer player for Piatnik's New York: determinised Monte Carlo search with greedy replies.

Hidden information is the faces of other seats' hands and the order of the deck (spec §6). The player
imagines worlds that agree with everything its seat can see: the unseen cards are pooled in a canonical
order, shuffled with the bot's generator and dealt back with each hand's public back counts, the rest
(with the Stop cards when they are in it) forming the deck; the state's own generator is reseeded.

In every world the most promising plays (by the greedy player's value) are each played, followed by a
short rollout in which the other seats play greedily (the greedy opponents' own policy) and the seat
itself plays whichever of the greedy player's few favourite plays the evaluation likes best one play
ahead, and the position is scored as the lead in projected final points. Candidates are compared on the
same worlds and the same rollout luck; after each share of the worlds the weaker half is dropped
(successive halving), so the close calls get the most worlds. The work is bounded in simulated actions,
never in time. In the base game the rollouts run on ``playout.Playout``, a light copy of the rules that
plays the same moves at a fraction of the cost, so that game gets a larger budget than the variants.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.core.search import margin, reseeded
from engine.ny_piatnik.actions import Action
from engine.ny_piatnik.bots import GreedyPolicy, ScoreDeltas
from engine.ny_piatnik.cards import (
    AVENUES,
    BJ,
    BLUE_BACK,
    CARD_RANK,
    CELLS,
    COL_OF,
    COLOUR_INDEX,
    JOKERS,
    NEIGHBOURS,
    RED_BACK,
    RJ,
    ROW_OF,
    SIZE,
    STOP,
    STREETS,
)
from engine.ny_piatnik.playout import (
    COL_MASKS,
    ROW_MASKS,
    Playout,
    groups,
    house_value,
    largest_part,
    largest_size,
)
from engine.ny_piatnik.scoring import colour_mask, final_outcome, grow
from engine.ny_piatnik.state import NyState, partner_of


@dataclass(frozen=True, slots=True)
class Thinking:
    """How much one main-phase decision may think."""

    worlds: int = 12  # determinisations, shared by the candidates
    candidates: int = 6  # plays searched, best by the greedy value first
    rounds: int = 3  # the worlds come in this many shares; the weaker half is dropped after each
    depth: int = 6  # simulated actions after the candidate (two rounds of three seats)
    final_depth: int = 6  # the same once the Stop cards are out, when the end may come at any draw
    steps: int = 1_000  # most simulated actions in all: bounds the slowest decision
    lookahead: int = 0  # above 1: in rollouts the seat plays the best (evaluated) of this many greedy plays


# The base game: twice the worlds in two larger shares, so that the first cut is made on 12 worlds rather
# than 4, and two more candidates. Against two greedy players it took first place in 104 of 180 tuning
# matches, the old budget in 96; more worlds or deeper rollouts did no better there. With its own rollout
# plays chosen one play ahead among the greedy player's best three it took 111, at about 1.6 times the
# time. With the evaluation below, plain greedy rollouts took 107, the best of three 115, the best of four
# 123 (median decision 150 ms, where plain rollouts take 82 ms), the best of six 111 (175 ms). On the 200
# confirmation matches the best of four took first place in 67.5% (95% interval 61-74%; the player before
# these changes 57%), median decision 155 ms, 95th percentile 334 ms.
BUDGET = Thinking(worlds=24, candidates=8, rounds=2, lookahead=4)
VARIANT_BUDGET = Thinking()  # the variants, whose rollouts through the rules cost several times more


def _canonical(card: str) -> int:
    return CARD_RANK.get(card, len(CARD_RANK))  # the Stop card (in no hand) sorts last


def determinize(state: NyState, seat: int, rng: Rng) -> NyState:
    """A state ``seat`` cannot tell from ``state``: unseen hands and the deck redealt from the unseen
    cards, and a new future for the state's generator. Depends only on ``seat``'s view and ``rng``."""
    mate = partner_of(state, seat)
    hidden = [s for s in range(state.seats) if s not in (seat, mate)]
    pool = list(state.deck)
    for s in hidden:
        pool += state.hands[s]
    # Sorted first, so that the worlds depend on which cards are unseen, not on where they really are.
    pool.sort(key=_canonical)
    pool = rng.shuffled(pool)
    reds = [c for c in pool if c in RED_BACK]
    blues = [c for c in pool if c in BLUE_BACK]
    hands = list(state.hands)
    for s in hidden:
        red = sum(1 for c in state.hands[s] if c in RED_BACK)
        blue = len(state.hands[s]) - red
        hands[s] = tuple(sorted(reds[:red] + blues[:blue], key=_canonical))
        del reds[:red], blues[:blue]
    stops = [c for c in pool if c == STOP]
    deck = tuple(rng.shuffled(reds + blues + stops))
    return reseeded(state.model_copy(update={"hands": tuple(hands), "deck": deck}), rng)


# Projected final score as a linear function of where a house stands, by stage of the match: fitted by
# least squares on 1,500 matches of greedy players (the opponents this player meets) to the final score,
# each seat's features and score taken relative to the mean of the seats in the same position, since only
# the differences between seats enter the lead. Features: largest group, buildings, money, jokers in hand,
# hand size, buildings that cost 1 to buy, sum of purchase prices, empty spaces next to the largest group,
# empty spaces next to any, the most the largest group can grow by one claim the hand can make now, and
# the most it can shrink by the loss of one building. On held-out positions it leaves 3 to 8 per cent less
# of the relative scores unexplained than the former fit (the first nine features, each seat's features
# to its own score), mostly by fitting relative to the mean; the last two features add under 1 per cent,
# 4 in the final phase. With the seat's rollout plays chosen among the greedy player's best three, the
# former fit took first place in 111 of 180 tuning matches, this one in 115; with plain greedy rollouts,
# 104 and 107.
_STAGES = (
    (0.27, 1.24, 0.92, -0.11, 0.23, -0.34, 0.26, 0.30, 0.46, 0.58, -0.15),  # more than 15 empty spaces
    (0.50, 1.61, 1.15, 0.17, 0.37, -0.29, 0.19, 0.26, 0.08, 0.46, -0.38),  # 10 to 15
    (0.66, 1.33, 1.09, 0.49, 0.22, -0.30, 0.13, 0.23, -0.06, 0.59, -0.42),  # 5 to 9
    (0.85, 1.10, 1.02, 0.69, 0.07, -0.24, 0.06, 0.23, -0.19, 0.59, -0.44),  # the final phase
)


_BOARD = (1 << CELLS) - 1  # every building


def _stage(final_phase: bool, empty: int) -> int:
    """Which row of ``_STAGES`` applies, given the bit board of the empty spaces."""
    if final_phase:
        return 3
    count = empty.bit_count()
    return 0 if count > 15 else 1 if count > 9 else 2


def projected(state: NyState) -> list[float]:
    """Every seat's expected final score from the position (the fitted model above; base game only,
    other variants are scored as if the match ended now)."""
    if state.two_player or state.team or len(state.houses) != state.seats:
        return standing(state)
    empty = 0
    for i, owner in enumerate(state.board):
        if owner is None:
            empty |= 1 << i
    masks = []
    for seat in range(state.seats):
        colour = state.houses[0]
        for colour in state.houses:
            if state.controller[COLOUR_INDEX[colour]] == seat:
                break
        masks.append(colour_mask(state.board, colour))
    return _projection(_stage(state.final_phase, empty), empty, masks, state.money, state.hands)


def _projection(
    stage: int, empty: int, masks: Sequence[int], money: Sequence[int], hands: Sequence[Sequence[str]]
) -> list[float]:
    """The fitted scores of the seats whose houses have bit boards ``masks`` (one house each)."""
    (
        w_largest,
        w_count,
        w_money,
        w_jokers,
        w_hand,
        w_cheap,
        w_prices,
        w_part_rim,
        w_rim,
        w_growth,
        w_cut,
    ) = _STAGES[stage]
    scores = []
    for seat, mask in enumerate(masks):
        largest, count, cheap, prices, part_rim, rim, cut = _house_features(mask)
        hand = hands[seat]
        scores.append(
            w_largest * largest
            + w_count * count
            + w_money * money[seat]
            + w_jokers * sum(1 for c in hand if c in JOKERS)
            + w_hand * len(hand)
            + w_cheap * cheap
            + w_prices * prices
            + w_part_rim * (part_rim & empty).bit_count()
            + w_rim * (rim & empty).bit_count()
            + w_growth * growth(mask, rim & empty & reachable(hand))
            + w_cut * cut
        )
    return scores


@lru_cache(maxsize=1 << 16)
def _house_features(mask: int) -> tuple[int, int, int, int, int, int, int]:
    """The features of ``_STAGES`` that depend on one house's buildings alone: largest group, buildings,
    buildings that cost 1, sum of prices, the bit boards around the largest group and around all, and
    the most the largest group shrinks by the loss of one building."""
    part = largest_part(mask)
    # §4.3: a building's price is the smaller of its house's counts on its avenue and on its street.
    in_rows = [(mask & line).bit_count() for line in ROW_MASKS]
    in_columns = [(mask & line).bit_count() for line in COL_MASKS]
    cheap = prices = 0
    rest = mask
    while rest:
        bit = rest & -rest
        row, column = divmod(bit.bit_length() - 1, SIZE)
        price = min(in_rows[row], in_columns[column])
        cheap += price == 1
        prices += price
        rest ^= bit
    return part.bit_count(), mask.bit_count(), cheap, prices, grow(part), grow(mask), cut_loss(mask, part)


def cut_loss(mask: int, part: int) -> int:
    """The most the largest group of ``mask`` (``part``) shrinks, beyond the building itself, when one
    building leaves ``mask`` (0 if no loss costs more than the building)."""
    largest = part.bit_count()
    others = -1  # the largest of the other groups, once needed
    worst = 0
    rest = part
    while rest:
        bit = rest & -rest
        rest ^= bit
        left = part & ~bit
        near = grow(bit) & left
        if not near & (near - 1):
            continue  # one neighbour in the group at most: the rest stays joined
        reached = near & -near
        while (spread := grow(reached) & left) != reached:
            reached = spread
        if reached != left:
            if others < 0:
                others = largest_size(mask & ~part)
            piece = max(reached.bit_count(), largest_size(left & ~reached), others)
            worst = max(worst, largest - 1 - piece)
    return worst


# The bit board of the line each card can name: an avenue (row) for red-back cards, a street (column)
# for blue-back ones, every line for a joker.
_CARD_ROWS = {**{a: ROW_MASKS[ROW_OF[a]] for a in AVENUES}, RJ: _BOARD}
_CARD_COLUMNS = {**{s: COL_MASKS[COL_OF[s]] for s in STREETS}, BJ: _BOARD}


def reachable(hand: Sequence[str]) -> int:
    """The bit board of the buildings a pair play from ``hand`` can name (event cards aside)."""
    rows = columns = 0
    for card in hand:
        rows |= _CARD_ROWS.get(card, 0)
        columns |= _CARD_COLUMNS.get(card, 0)
    return rows & columns


def growth(mask: int, spaces: int) -> int:
    """The most the largest group of ``mask`` grows when one of ``spaces`` (outside it) is added."""
    if not spaces:
        return 0
    of = groups(mask)
    largest = largest_size(mask)
    best = largest
    while spaces:
        bit = spaces & -spaces
        spaces ^= bit
        joined = bit
        for near in NEIGHBOURS[bit.bit_length() - 1]:
            joined |= of[near]
        best = max(best, joined.bit_count())
    return best - largest


def standing(state: NyState) -> list[float]:
    """Every seat's score if the match ended now (§5; §7.3 two largest groups; §7.4 team totals)."""
    scores = [float(m) for m in state.money]
    for colour in state.houses:
        seat = state.controller[COLOUR_INDEX[colour]]
        if seat < 0:
            continue
        mask = 0
        for i, owner in enumerate(state.board):
            if owner == colour:
                mask |= 1 << i
        largest = largest_size(mask)
        scores[seat] += largest if state.two_player else largest + mask.bit_count()
    return _teamed(state, scores)


def _teamed(state: NyState, scores: list[float]) -> list[float]:
    if state.team:
        return [scores[s] + scores[(s + 2) % 4] for s in range(state.seats)]
    return scores


def _lead(state: NyState, scores: list[float], seat: int) -> float:
    """``seat``'s lead over the best rival (in the team game, the other team)."""
    if state.team:
        return scores[seat] - scores[(seat + 1) % 4]
    return margin(scores, seat)


# Also tried against two greedy players, on the same 180 tuning matches (the lead in points took first
# place in 104): the chance of first place instead of the lead, as a logistic curve of the lead whose
# scale was fitted per stage on greedy matches, 100; the same in the final phase only, 99; with the chance,
# the best play of every sort (claim, purchase, own building; with or without a joker) forced among the
# candidates, 92 (and with the lead, 48 of the first 90, where the lead alone took 52). None is kept.
def evaluate(state: NyState, seat: int) -> float:
    """``seat``'s lead over the best rival in projected final points (a finished match: the real ones)."""
    if state.phase == "over":
        return _lead(state, _teamed(state, [float(s) for s in final_outcome(state).scores]), seat)
    return _lead(state, projected(state), seat)


def evaluate_playout(playout: Playout, seat: int) -> float:
    """``evaluate`` for the position a playout has reached."""
    if playout.over:
        return margin(playout.final_scores(), seat)
    masks = [playout.masks[c] for c in playout.colour]
    empty = _BOARD
    for mask in playout.masks.values():
        empty &= ~mask
    scores = _projection(_stage(playout.final_phase, empty), empty, masks, playout.money, playout.hands)
    return margin(scores, seat)


class _QuickEval(ScoreDeltas):
    """The greedy player's score deltas with remembered group sizes: the same answers, faster."""

    def _house_value(self, mask: int) -> int:
        return largest_size(mask) if self.two else house_value(mask)


class QuickGreedy(GreedyPolicy):
    """The greedy player (the same choice for the same generator), cheap enough for rollouts."""

    def choose(
        self, rules: GameRules[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: Rng
    ) -> Any:
        if len(legal) == 1:
            return legal[0]
        values = self.values(state, seat, legal)
        best = max(values)
        top = [a for a, v in zip(legal, values, strict=True) if v >= best - 1e-9]
        return top[rng.below(len(top))] if len(top) > 1 else top[0]

    def values(self, state: NyState, seat: int, legal: Sequence[Action]) -> list[float]:
        """The greedy value of each of ``legal`` for ``seat``."""
        ev = _QuickEval(state, seat)
        return [self.value(ev, state, seat, a) for a in legal]


class StrongPolicy:
    """Searches main-phase decisions (see the module). The preliminary round is played greedily: the
    colours are dealt at random after it, so no placement favours the seat that makes it."""

    name = "strong"

    def __init__(self, budget: Thinking = BUDGET, variant_budget: Thinking = VARIANT_BUDGET) -> None:
        self.budget = budget  # the base game, rolled out on light playouts
        self.variant_budget = variant_budget  # the variants, rolled out by the rules themselves
        self.greedy = QuickGreedy()

    def choose(
        self, rules: GameRules[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: Rng
    ) -> Any:
        if len(legal) == 1:
            return legal[0]
        if state.phase != "main":
            return self.greedy.choose(rules, state, seat, legal, rng)
        # The base game is rolled out on light copies (the same play, far cheaper), so it can afford
        # more worlds; the variants are rolled out on states by the rules.
        light = Playout.covers(state)
        budget = self.budget if light else self.variant_budget
        worlds = [determinize(state, seat, rng) for _ in range(budget.worlds)]
        lucks = [rng.next_u64() for _ in worlds]
        playouts = [Playout.of(w) for w in worlds] if light else []
        # Ranked in the first world rather than the real state, so that the ranking cannot read a secret.
        values = self.greedy.values(worlds[0], seat, legal)
        alive = sorted(range(len(legal)), key=lambda i: (-values[i], i))[: budget.candidates]
        totals = dict.fromkeys(alive, 0.0)
        share = -(-len(worlds) // max(1, budget.rounds))
        steps = 0
        for start in range(0, len(worlds), share):
            if len(alive) == 1 or steps >= budget.steps:
                break
            for w in range(start, min(start + share, len(worlds))):
                for i in alive:
                    luck = Rng(lucks[w])
                    if light:
                        value, used = self._play_out(playouts[w].copy(), seat, legal[i], luck, budget)
                    else:
                        value, used = self._simulate(rules, worlds[w], seat, legal[i], luck, budget)
                    totals[i] += value
                    steps += used
            # Every survivor has seen the same worlds, so totals compare like means.
            ranked = sorted(alive, key=lambda i: (-totals[i], alive.index(i)))
            alive = ranked[: max(2, (len(ranked) + 1) // 2)]
        return legal[max(alive, key=lambda i: (totals[i], -alive.index(i)))]

    def _simulate(
        self,
        rules: GameRules[Any, Any],
        world: NyState,
        seat: int,
        action: Action,
        rng: Rng,
        budget: Thinking,
    ) -> tuple[float, int]:
        """The value for ``seat`` of ``action`` in ``world`` after a rollout, and its length."""
        depth = budget.final_depth if world.final_phase else budget.depth
        state = rules.apply(world, seat, action).state
        used = 1
        while used <= depth and state.phase != "over":
            (actor,) = rules.to_act(state)
            legal = rules.legal_actions(state, actor)
            if actor == seat and budget.lookahead > 1 and len(legal) > 1:
                move = self._own_action(rules, state, seat, legal, budget.lookahead)
            else:
                move = self.greedy.choose(rules, state, actor, legal, rng)
            state = rules.apply(state, actor, move).state
            used += 1
        return evaluate(state, seat), used

    def _own_action(
        self, rules: GameRules[Any, Any], state: NyState, seat: int, legal: Sequence[Action], width: int
    ) -> Action:
        """Of the ``width`` actions the greedy player values most, the one the evaluation likes best."""
        values = self.greedy.values(state, seat, legal)
        ranked = sorted(range(len(legal)), key=lambda i: (-values[i], i))[:width]
        best_action, best_value = legal[ranked[0]], float("-inf")
        for i in ranked:
            value = evaluate(rules.apply(state, seat, legal[i]).state, seat)
            if value > best_value:
                best_action, best_value = legal[i], value
        return best_action

    def _play_out(
        self, playout: Playout, seat: int, action: Action, rng: Rng, budget: Thinking
    ) -> tuple[float, int]:
        """``_simulate`` on a playout of the base game, which it changes."""
        depth = budget.final_depth if playout.final_phase else budget.depth
        playout.play_action(action)
        used = 1
        while used <= depth and not playout.over:
            # The rollout should play the seat more as the search would than as the greedy player would;
            # a search of its own is too dear there, one evaluated play ahead is affordable.
            if playout.active == seat and budget.lookahead > 1:
                playout.play(*self._own_move(playout, seat, budget.lookahead))
            else:
                playout.play(*playout.greedy_move(rng))
            used += 1
        return evaluate_playout(playout, seat), used

    def _own_move(self, playout: Playout, seat: int, width: int) -> tuple[str, str, int]:
        """Of the ``width`` plays the greedy player values most, the one the evaluation likes best."""
        moves, values = playout.greedy_values()
        if len(moves) == 1:
            return moves[0]
        ranked = sorted(range(len(moves)), key=lambda i: (-values[i], i))[:width]
        best_move, best_value = moves[ranked[0]], float("-inf")
        for i in ranked:
            after = playout.copy()
            after.play(*moves[i])
            value = evaluate_playout(after, seat)
            if value > best_value:
                best_move, best_value = moves[i], value
        return best_move
