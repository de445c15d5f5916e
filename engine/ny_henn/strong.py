"""The strong computer player for Dirk Henn's New York: determinised Monte Carlo search (engine.core.search).

It imagines worlds consistent with what its seat may see (the hidden money and tiles redrawn), tries the
most promising actions in each, lets every seat continue with the greedy player for a few actions, and
scores the position reached by the final standing it expects: the scoring rounds still to come, with
majorities that the tiles yet to be bought can still turn weighed as chances, money in hand, and room
left to build.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.core.search import Budget, SearchPolicy, margin, reseeded
from engine.ny_henn.actions import PASS, Action, buy, place, redesign, take
from engine.ny_henn.bots import GreedyPolicy, type_value
from engine.ny_henn.cards import (
    BANKS,
    BUILDING_TILES,
    CARD_RANK,
    DELTA,
    DISPLAY_SIZE,
    OPPOSITE,
    SCORE_A,
    SCORING_CARDS,
    STREETS,
    TYPE_CODES,
    card_bank,
    card_value,
    money_deck,
    paid_places,
    sort_hand,
)
from engine.ny_henn.city import frontier, place_error, street_value
from engine.ny_henn.rules import NyHennRules, bank_total, can_pass, payment_options, take_options
from engine.ny_henn.scoring import type_counts
from engine.ny_henn.state import HennState, Placed, acting_seats, city_map

# A starting hand holds about 4.5 cards (cards are dealt until they total 20), which places the
# scoring cards' piles in the deck (§3.1 step 8) without remembering the real deal.
_STARTING_CARDS = 4.5
MONEY_WEIGHT = 0.5  # points per unit of money in hand
WIN_BONUS = 20.0  # a finished game: first place is what counts
OPEN_WEIGHT = 2.0  # points per open cell next to a city (see _open_count), up to OPEN_CAP cells
OPEN_CAP = 6
SPREAD = 1.0  # scales the spread of how the tiles still to come fall to the seats
OFFERED = 8  # candidates offered to the search before successive halving
CARDS_PER_TILE = 1.7  # money cards drawn per tile bought, seen in greedy matches


def determinize(state: HennState, seat: int, rng: Rng) -> HennState:
    """A world ``seat`` cannot tell from ``state``: other hands, deck and bag redrawn from what it may see.

    The pool of unseen money (other hands and the deck) is put in canonical order before it is shuffled,
    so the world depends only on the multiset, which the seat can work out; the scoring cards still in
    the deck go where the setup (§3.1 step 8) would put them given how many cards were drawn since.
    """
    revealed = state.phase in ("final", "over")  # §5.4: hands are shown at the game's end
    others = [s for s in range(state.seats) if s != seat and not revealed]
    money = [c for c in state.deck if c not in SCORING_CARDS]
    pool = rng.shuffled(
        sorted([c for s in others for c in state.hands[s]] + money, key=CARD_RANK.__getitem__)
    )
    hands = list(state.hands)
    for s in others:
        size = len(state.hands[s])
        hands[s], pool = sort_hand(pool[:size]), pool[size:]
    deck = _with_scoring_cards(state, pool, rng)
    bag = rng.shuffled(sorted(state.bag))
    world = state.model_copy(update={"hands": tuple(hands), "deck": tuple(deck), "bag": tuple(bag)})
    return reseeded(world, rng)


def _with_scoring_cards(state: HennState, money: list[str], rng: Rng) -> list[str]:
    """``money`` with the scoring cards still to come inserted in their estimated piles (2 and 4)."""
    left = [c for c in SCORING_CARDS if c in state.deck]
    if not left:
        return money
    total = len(money_deck(state.seats))
    start = total - DISPLAY_SIZE - round(_STARTING_CARDS * state.seats)  # money deck after the deal
    drawn = start - len(money)  # cards drawn since the setup (an estimate)
    pile = start / 5
    deck = list(money)
    floor = 0
    for card in left:
        first_pile = 1 if card == SCORE_A else 3
        lo = round(first_pile * pile) - drawn
        hi = round((first_pile + 1) * pile) - drawn
        lo, hi = min(max(lo, floor), len(money)), min(max(hi, floor), len(money))
        at = lo + rng.below(hi - lo + 1)
        deck.insert(at + (len(deck) - len(money)), card)
        floor = at
    return deck


def projected_scores(state: HennState) -> list[float]:
    """Each seat's expected final score: points so far, the expected points of the scoring rounds still
    to come (majorities as chances, see ``expected_majority``), its street in every such round, money in
    hand at a smaller rate and room left to build; tiles waiting to be placed count as built."""
    seats = state.seats
    counts = [
        type_counts([t for _x, _y, t in state.cities[s]] + list(state.pending[s])) for s in range(seats)
    ]
    dirk = type_counts(state.dirk) if state.two_player else None
    left = type_counts(list(state.bag) + [t for t in state.market if t is not None])
    total_left = sum(left.values())
    rounds = [(r, round_share(state, r, total_left)) for r in ("A", "B") if r not in state.scored]
    rounds.append(("C", 1.0))
    # Money keeps its worth to the end: the richest in a bank takes the market's leftover tile (§5.4).
    projected = [
        float(state.scores[s]) + MONEY_WEIGHT * sum(map(card_value, state.hands[s])) for s in range(seats)
    ]
    for code in TYPE_CODES:
        row = [c[code] for c in counts] + ([dirk[code]] if dirk is not None else [])
        for r, share in rounds:
            # Rounded so that the remembered answers are met again (a quarter tile changes little).
            coming = round(left[code] * share * 4) / 4
            points = expected_majority(tuple(row), seats, coming, paid_places(r, code))
            for s in range(seats):
                projected[s] += points[s]
    for s in range(seats):
        projected[s] += street_value(city_map(state, s)) * len(rounds)
        projected[s] += OPEN_WEIGHT * min(OPEN_CAP, _open_count(state.cities[s]))
    return projected


def round_share(state: HennState, round_id: str, tiles_left: int) -> float:
    """About what share of the tiles still to come will be bought before scoring round ``round_id`` (A
    or B, not yet drawn): the cards expected to be drawn before its card, at CARDS_PER_TILE a tile."""
    if tiles_left <= 0:
        return 1.0
    money = sum(1 for c in state.deck if c not in SCORING_CARDS)
    start = len(money_deck(state.seats)) - DISPLAY_SIZE - round(_STARTING_CARDS * state.seats)
    drawn = start - money
    pile = start / 5
    first_pile = 1 if round_id == "A" else 3
    lo, hi = first_pile * pile, (first_pile + 1) * pile
    to_come = max(1.0, (max(lo, drawn) + hi) / 2 - drawn)
    return min(1.0, to_come / CARDS_PER_TILE / tiles_left)


@lru_cache(maxsize=1 << 14)
def expected_majority(
    counts: tuple[int, ...], seats: int, coming: float, paid: tuple[int, ...]
) -> tuple[float, ...]:
    """Expected majority points of each real seat for one type when about ``coming`` more tiles of it
    are still to be shared out before the round, each as likely to go to any seat.

    ``counts``: tiles of the type per seat, then Dirk's (he gets no points here, and no random share).
    Each pair of participants is compared through the normal law of their final difference; a seat's
    place follows from how many others are likely to finish ahead. With nothing to come it is the
    rule (two tied seats share their two places; three or more share theirs almost evenly)."""
    spread = [SPREAD * coming / seats if i < seats else 0.0 for i in range(len(counts))]
    joins = 1.0 - (1.0 - 1.0 / seats) ** coming
    out = [0.0] * seats
    for s in range(seats):
        own = counts[s]
        if own <= 0 and coming < 0.5:
            continue
        # ahead[k]: chance that exactly k other participants finish ahead of s.
        ahead = [1.0]
        for o, other in enumerate(counts):
            if o == s or (other <= 0 and coming < 0.5):
                continue
            var = spread[s] + spread[o]
            diff = own - other
            if var <= 0.0:
                beat = 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
            else:
                beat = 0.5 * (1.0 + math.erf(diff / math.sqrt(2.0 * var)))
            lose = 1.0 - beat
            ahead = [
                (ahead[k] * beat if k < len(ahead) else 0.0) + (ahead[k - 1] * lose if k else 0.0)
                for k in range(len(ahead) + 1)
            ]
        value = sum(p * paid[k] for k, p in enumerate(ahead) if k < len(paid))
        out[s] = value if own > 0 else value * joins
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def _open_count(city: tuple[Placed, ...]) -> int:
    """Empty cells next to ``city`` that every neighbour faces without a street: room where most tiles
    still fit. A city walled in by its own streets can build nothing more and ends with its purchases
    in the reserve, where they score nothing."""
    cells = {(x, y): t for x, y, t in city}
    count = 0
    for cx, cy in frontier(cells):
        if all(
            not STREETS[cells[(cx + dx, cy + dy)]][OPPOSITE[d]]
            for d, (dx, dy) in enumerate(DELTA)
            if (cx + dx, cy + dy) in cells
        ):
            count += 1
    return count


def evaluate(state: HennState, seat: int) -> float:
    """How far ``seat`` is ahead of the best other seat at the projected end, with a bonus for winning
    once the game is over (final scores on the same scale)."""
    if state.phase == "over":
        value = margin(state.scores, seat)
        return value + (WIN_BONUS if value >= 0 else 0.0)
    return margin(projected_scores(state), seat)


# The kinds of a redesign of the city (``redesign add``, ``remove`` and ``swap``).
REDESIGNS = frozenset({"add", "remove", "swap"})

_GREEDY = GreedyPolicy()
RULES = NyHennRules()


def prior(state: HennState, seat: int, action: Action) -> float:
    """The greedy player's value of ``action``: ranks the actions worth searching."""
    return _GREEDY.value(state, seat, action)


# About 510 simulated actions a decision at most: 8 candidates x 2 worlds, then the best 5 x 6 more worlds,
# each 1 + 10 rollout actions (about three turns of three seats, so that the greedy rivals answer).
BUDGET = Budget(worlds=8, candidates=5, depth=10, steps=700, prune_after=2)


@lru_cache(maxsize=1 << 12)
def _open_cells(city: tuple[Placed, ...], tile: str) -> tuple[tuple[int, int], ...]:
    """The cells of ``city`` where ``tile`` may be built, as ``rules.placements`` lists them; remembered,
    because the rollouts of one decision meet the same cities again and again."""
    cells = {(x, y): t for x, y, t in city}
    return tuple(c for c in frontier(cells) if place_error(cells, tile, c) is None)


@lru_cache(maxsize=1 << 12)
def _city_place_value(city: tuple[Placed, ...], tile: str, x: int, y: int) -> float:
    """The greedy player's value of building ``tile`` at (x, y) (bots._place_value), remembered."""
    cells = {(cx, cy): t for cx, cy, t in city}
    cells[(x, y)] = tile
    neighbours = sum((x + dx, y + dy) in cells for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    return 100.0 + 2.0 * street_value(cells) + neighbours - 0.1 * (abs(x) + abs(y))


def rollout_choice(state: HennState, seat: int, legal: Sequence[Action]) -> Action:
    """What the greedy player would choose among ``legal`` (the first of the best): ``GreedyPolicy.value``
    with its costly parts (where a tile fits, a street's length) remembered and the hand's bank totals
    and each type's value worked out once for all the actions."""
    hand = state.hands[seat]
    totals = {bank: bank_total(hand, bank) for bank in BANKS}
    type_values: dict[str, float] = {}
    best, best_value = legal[0], float("-inf")
    for a in legal:
        if a.kind == "place" and a.to == "city":
            assert a.tile is not None and a.x is not None and a.y is not None
            value = _city_place_value(state.cities[seat], a.tile, a.x, a.y)
        elif a.kind == "take":
            value = sum(map(card_value, a.cards)) + 1.5 * len(a.cards)
            for bank, offered in zip(BANKS, state.market, strict=True):
                if offered is None:
                    continue
                gain = sum(card_value(c) for c in a.cards if card_bank(c) == bank)
                if gain and totals[bank] < BUILDING_TILES[offered].price <= totals[bank] + gain:
                    value += 3
        elif a.kind == "buy":
            tile = state.market[BANKS.index(str(a.slot))]
            assert tile is not None
            info = BUILDING_TILES[tile]
            code = str(info.type)
            if code not in type_values:
                type_values[code] = type_value(state, seat, code)
            paid = sum(map(card_value, a.cards))
            value = 8.0 + type_values[code]
            if not _open_cells(state.cities[seat], tile):
                value -= 7
            if paid == info.price:
                value += 4
            value -= 1.5 * (paid - info.price)
        else:
            value = _GREEDY.value(state, seat, a)
        if value > best_value:
            best, best_value = a, value
    return best


@lru_cache(maxsize=1 << 12)
def _takes(display: tuple[str | None, ...]) -> tuple[Action, ...]:
    """The takes ``display`` offers (``rules.take_options``), remembered."""
    return tuple(take(cards) for cards in take_options(display))


@lru_cache(maxsize=1 << 14)
def _buys(cards: tuple[str, ...], bank: str, price: int) -> tuple[Action, ...]:
    """The buys of a tile of ``price`` in ``bank``'s slot with ``cards`` (the hand's cards of that bank)
    (``rules.payment_options``), remembered."""
    return tuple(buy(bank, p) for p in payment_options(cards, bank, price))


def rollout_actions(state: HennState, seat: int) -> list[Action]:
    """The legal actions the greedy player might choose, in the rules' order: all of them but the removes
    and swaps it never plays (it values them below a take and below a pass), the costly ones to list."""
    city = state.cities[seat]
    if state.phase != "action":
        out: list[Action] = []
        for tile in dict.fromkeys(state.pending[seat]):
            out += [place(tile, "city", c) for c in _open_cells(city, tile)]
            out.append(place(tile, "reserve"))
            if state.two_player and state.phase == "placement":
                out.append(place(tile, "dirk"))
        return out
    out = list(_takes(state.display))
    hand = state.hands[seat]
    for bank, offered in zip(BANKS, state.market, strict=True):
        if offered is not None:
            cards = tuple(c for c in hand if card_bank(c) == bank)
            out += _buys(cards, bank, BUILDING_TILES[offered].price)
    for tile in dict.fromkeys(state.reserves[seat]):
        out += [redesign("add", c, tile) for c in _open_cells(city, tile)]
    if can_pass(state, seat):
        out.append(PASS)
    return out


def _kind(a: Action) -> tuple[object, ...]:
    """The broad kind of an action: money, a tile, a redesign, a placement in the city or aside."""
    if a.kind in ("remove", "swap"):
        return ("rebuild",)
    if a.kind == "place":
        return ("place", a.to)
    return (a.kind,)


def _group(state: HennState, a: Action) -> tuple[object, ...]:
    """A finer kind: which slot a buy is from and whether it pays exactly (another action follows),
    which tile a placement is of."""
    if a.kind == "buy":
        tile = state.market[BANKS.index(str(a.slot))]
        exact = tile is not None and sum(map(card_value, a.cards)) == BUILDING_TILES[tile].price
        return ("buy", a.slot, exact)
    if a.kind == "place":
        return ("place", a.tile, a.to)
    return _kind(a)


class StrongPolicy(SearchPolicy[HennState, Action]):
    """Determinised Monte Carlo search with a projected-standing evaluation and greedy rollouts."""

    name = "strong"

    def __init__(self, budget: Budget = BUDGET) -> None:
        super().__init__(
            determinize=determinize, evaluate=evaluate, prior=prior, rollout=_GREEDY, budget=budget
        )

    def candidates(self, world: HennState, seat: int, legal: Sequence[Action]) -> list[Action]:
        """The actions worth a search, read in ``world``: the best of every kind first (a take is weighed
        against the buys the greedy prior prefers), then of every kind of buy or placement, then the
        best left by the prior; ``OFFERED`` in all (successive halving keeps ``budget.candidates``).

        A redesign draws nothing and ends the chain: one that does not make the seat's standing better
        as the evaluation reads it is left out, or two players could rebuild the same cell back and
        forth for ever (adding a tile, then removing it) instead of playing on."""
        order = sorted(range(len(legal)), key=lambda i: (-self.prior(world, seat, legal[i]), i))
        ranked = [legal[i] for i in order]
        before = self.evaluate(world, seat)
        helps: dict[Action, bool] = {}

        def usable(a: Action) -> bool:
            if a.kind not in REDESIGNS:
                return True
            if a not in helps:
                helps[a] = self.evaluate(RULES.advance(world, seat, a), seat) > before + 1e-9
            return helps[a]

        chosen: list[Action] = []
        for fine in (False, True):
            seen: set[tuple[object, ...]] = set()
            for a in ranked:
                k = _group(world, a) if fine else _kind(a)
                if k not in seen and usable(a):
                    seen.add(k)
                    if a not in chosen and len(chosen) < OFFERED:
                        chosen.append(a)
        for a in ranked:
            if len(chosen) >= OFFERED:
                break
            if a not in chosen and usable(a):
                chosen.append(a)
        return chosen or ranked[:OFFERED]

    def simulate(
        self, rules: GameRules[HennState, Action], world: HennState, seat: int, action: Action, rng: Rng
    ) -> tuple[float, int]:
        """As the base search, with the rollout's actions listed by ``rollout_actions`` and played
        without the log (``NyHennRules.advance``)."""
        state = RULES.advance(world, seat, action)
        used = 1
        while used <= self.budget.depth and state.phase != "over":
            actor = min(acting_seats(state))
            legal = rollout_actions(state, actor)
            move = legal[0] if len(legal) == 1 else rollout_choice(state, actor, legal)
            state = RULES.advance(state, actor, move)
            used += 1
        return self.evaluate(state, seat), used
