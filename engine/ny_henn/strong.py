"""The strong computer player for Dirk Henn's New York: determinised Monte Carlo search (engine.core.search).

It imagines worlds consistent with what its seat may see (the hidden money and tiles redrawn), tries the
most promising actions in each, lets every seat continue with the greedy player for a few actions, and
scores the position reached by the final standing it projects.
"""

from __future__ import annotations

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.core.search import Budget, SearchPolicy, margin, reseeded
from engine.ny_henn.actions import PASS, Action, buy, redesign, take
from engine.ny_henn.bots import GreedyPolicy
from engine.ny_henn.cards import (
    BANKS,
    BUILDING_TILES,
    CARD_RANK,
    DISPLAY_SIZE,
    SCORE_A,
    SCORING_CARDS,
    TILE_IDS,
    TYPE_CODES,
    card_value,
    money_deck,
    paid_places,
    sort_hand,
)
from engine.ny_henn.city import frontier, place_error, street_value
from engine.ny_henn.rules import NyHennRules, can_pass, payment_options, take_options
from engine.ny_henn.scoring import majority_points, type_counts
from engine.ny_henn.state import HennState, city_map

# A starting hand holds about 4.5 cards (cards are dealt until they total 20), which places the
# scoring cards' piles in the deck (§3.1 step 8) without remembering the real deal.
_STARTING_CARDS = 4.5
MONEY_WEIGHT = 0.5  # points per unit of money in hand
TILE_WEIGHT = 0.0  # points per built tile, for the majorities it may help win later
WIN_BONUS = 20.0
DECAY = False  # a finished game: first place is what counts


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
    """Each seat's score if the scoring rounds still to come were played on the cities as they stand,
    plus money in hand at a smaller rate; tiles waiting to be placed count as built."""
    seats = state.seats
    counts = [
        type_counts([t for _x, _y, t in state.cities[s]] + list(state.pending[s])) for s in range(seats)
    ]
    dirk = type_counts(state.dirk) if state.two_player else None
    streets = [street_value(city_map(state, s)) for s in range(seats)]
    rounds = [r for r in ("A", "B") if r not in state.scored] + ["C"]
    # Money and tiles also promise points to come, less so as the bag empties (money left at the end is
    # worth nothing, a tile bought late can no longer grow into a majority).
    future = len(state.bag) / (len(TILE_IDS) - DISPLAY_SIZE) if DECAY else 1.0
    projected = [
        float(state.scores[s])
        + future * MONEY_WEIGHT * sum(map(card_value, state.hands[s]))
        + future * TILE_WEIGHT * (len(state.cities[s]) - 1 + len(state.pending[s]))
        for s in range(seats)
    ]
    for code in TYPE_CODES:
        row = [c[code] for c in counts] + ([dirk[code]] if dirk is not None else [])
        for r in rounds:
            points = majority_points(row, paid_places(r, code))
            for s in range(seats):
                projected[s] += points[s]
    for s in range(seats):
        projected[s] += streets[s] * len(rounds)
    return projected


def evaluate(state: HennState, seat: int) -> float:
    """How far ``seat`` is ahead of the best other seat at the projected end, with a bonus for winning
    once the game is over (final scores on the same scale)."""
    if state.phase == "over":
        value = margin(state.scores, seat)
        return value + (WIN_BONUS if value >= 0 else 0.0)
    return margin(projected_scores(state), seat)


_GREEDY = GreedyPolicy()
RULES = NyHennRules()


def prior(state: HennState, seat: int, action: Action) -> float:
    """The greedy player's value of ``action``: ranks the actions worth searching."""
    return _GREEDY.value(state, seat, action)


UNTIL_TURN = False
BUDGET = Budget(worlds=4, candidates=5, depth=6, steps=200)


def rollout_actions(state: HennState, seat: int) -> list[Action]:
    """The legal actions the greedy player might choose: all of them but the removes and swaps it never
    plays (it values them below a take and below a pass), which are the costly ones to list."""
    if state.phase != "action":
        return list(RULES.legal_actions(state, seat))
    out = [take(cards) for cards in take_options(state.display)]
    hand = state.hands[seat]
    for bank, tile in zip(BANKS, state.market, strict=True):
        if tile is not None:
            out += [buy(bank, p) for p in payment_options(hand, bank, BUILDING_TILES[tile].price)]
    reserve = list(dict.fromkeys(state.reserves[seat]))
    if reserve:
        city = city_map(state, seat)
        cells = frontier(city)
        out += [redesign("add", c, t) for t in reserve for c in cells if place_error(city, t, c) is None]
    if can_pass(state, seat):
        out.append(PASS)
    return out


class StrongPolicy(SearchPolicy[HennState, Action]):
    """Determinised Monte Carlo search with a projected-standing evaluation and greedy rollouts."""

    name = "strong"

    def __init__(self, budget: Budget = BUDGET) -> None:
        super().__init__(
            determinize=determinize, evaluate=evaluate, prior=prior, rollout=_GREEDY, budget=budget
        )

    def _simulate(
        self, rules: GameRules[HennState, Action], world: HennState, seat: int, action: Action, rng: Rng
    ) -> tuple[float, int]:
        """As the base search, with the rollout's actions listed by ``rollout_actions``."""
        state = rules.apply(world, seat, action).state
        used = 1
        away = False
        while used <= self.budget.depth and state.phase != "over":
            away = away or state.active != seat
            if UNTIL_TURN and away and state.active == seat:
                break
            actor = min(rules.to_act(state))
            legal = rollout_actions(state, actor)
            move = legal[0] if len(legal) == 1 else _GREEDY.choose(rules, state, actor, legal, rng)
            state = rules.apply(state, actor, move).state
            used += 1
        return self.evaluate(state, seat), used
