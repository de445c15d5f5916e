"""A strong computer player for Fifth Avenue: determinised Monte Carlo search on a projected final score.

What a seat cannot see (spec §6): the values of other seats' cards (their colours are public), the coloured
decks below their top cards, the face-down black cards and the future of the state's generator. A world
keeps the seat's own hand, the deck tops, the face-up black discards and everything on the board, and
deals the unseen cards of each colour (and of black) back at random in the observed sizes.

A position is judged by what each seat would score if the match ended now (final district and Central
Park scorings as they stand, special scorings it qualifies for), plus smaller terms for buildings in
reserve and cards in hand, relative to the best opponent.

The search follows ``engine.core.search`` (worlds, candidates ranked by a prior, a greedy rollout of
fixed depth, every candidate played in the same worlds), with two changes: on a turn's first phase every
kind of action is searched and the weaker half is dropped after two worlds; and it runs on a faster
simulator, where rollout actions are built directly by the greedy player's rules of thumb and applied
without re-validating them, since the legality check (it lists every minimal bid) costs more than the move.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from engine.core.contract import GameRules
from engine.core.rng import Rng
from engine.core.search import Budget, SearchPolicy, margin, reseeded
from engine.fifth_avenue.actions import Action, act, notation
from engine.fifth_avenue.bots import GREEDY_BUDGET, GreedyPolicy
from engine.fifth_avenue.bots import action_value as greedy_value
from engine.fifth_avenue.cards import (
    BLACK,
    COLOURS,
    DISTRICTS,
    LAST_SHOP,
    SLOTS,
    SPECIAL,
    VALUE,
    card_colour,
    card_value,
    neighbours,
    sort_cards,
)
from engine.fifth_avenue.rules import (
    Work,
    acting_seat,
    active_group,
    bid_colours,
    buildings_districts,
    do_action,
    legal_of_acting,
    move_options,
    own_lot,
    pile_total,
    scorable,
    settle_work,
    shop_targets,
)
from engine.fifth_avenue.scoring import district_scores
from engine.fifth_avenue.state import FifthState

_WIN_BONUS = 15.0  # a finished match: first place matters more than the margin
_RESERVE = 1.5  # a building in reserve, scaled by how much of the match is left
_CARD = 0.12  # a card's value (4-6) in hand, scaled likewise
_CP_GUESS = 3.5  # a Central Park building when its three tiles are still to come


# How much one decision may think, in simulated actions (so a decision does not depend on the clock):
# on a turn's first phase every kind of action plays two worlds, then the best five the other three.
BUDGET = Budget(worlds=5, candidates=5, depth=14, steps=900, prune_after=2)
SHOPS = 3  # shop placements searched on a turn's first phase, best by prior


# ---------------------------------------------------------------------------------------------
# Determinisation


def determinize(state: FifthState, seat: int, rng: Rng) -> FifthState:
    """A world ``seat`` cannot tell from ``state``: unseen cards redealt, the generator reseeded.

    Per colour, the pool is the other seats' cards of that colour and the deck below its top card; for
    black, the other seats' black cards and the face-down black deck. Each pool is sorted before it is
    shuffled, so the world depends only on what ``seat`` sees and on ``rng``.
    """
    hands = [list(h) for h in state.hands]
    others = [s for s in range(state.seats) if s != seat]
    decks = [list(d) for d in state.decks]
    for index, colour in enumerate(COLOURS):
        deck = decks[index]
        pool = [c for s in others for c in hands[s] if card_colour(c) == colour] + deck[1:]
        dealt = rng.shuffled(sorted(pool))
        for s in others:
            hands[s] = [dealt.pop() if card_colour(c) == colour else c for c in hands[s]]
        decks[index] = deck[:1] + dealt
    black = list(state.black)
    down = [i for i, up in enumerate(state.black_up) if not up]
    pool = [c for s in others for c in hands[s] if card_colour(c) == BLACK] + [black[i] for i in down]
    dealt = rng.shuffled(sorted(pool))
    for s in others:
        hands[s] = [dealt.pop() if card_colour(c) == BLACK else c for c in hands[s]]
    for i in down:
        black[i] = dealt.pop()
    world = state.model_copy(
        update={
            "hands": tuple(sort_cards(h) for h in hands),
            "decks": tuple(tuple(d) for d in decks),
            "black": tuple(black),
        }
    )
    return reseeded(world, rng)


# ---------------------------------------------------------------------------------------------
# Evaluation


def projected(st: FifthState) -> list[float]:
    """Each seat's score if the match ended now, plus what its reserve and hand are likely worth."""
    seats = st.seats
    out = [float(s) for s in st.scores]
    for d in DISTRICTS:
        if d not in st.closed:
            for s, gain in enumerate(district_scores(st.lots, d, seats, st.six)):
                out[s] += gain
    cp = VALUE[len(set(st.cp_pile))] if len(st.cp_pile) >= 8 else _CP_GUESS
    left = max(0.0, (LAST_SHOP - st.placed) / LAST_SHOP)
    for s in range(seats):
        out[s] += st.cp_buildings[s] * min(cp, 5)
        out[s] += _RESERVE * left * min(st.reserve[s], 6)
        out[s] += _CARD * left * sum(card_value(c) for c in st.hands[s])
        have = buildings_districts(st, s)
        for count, (need, vp) in SPECIAL.items():
            if st.placed < count:
                if have >= need:
                    out[s] += vp
                elif have == need - 1:
                    out[s] += vp / 3
    return out


def evaluate(st: FifthState, seat: int) -> float:
    """How good ``st`` is for ``seat``: its projected lead over the best opponent, won matches above all."""
    if st.phase == "over":
        scores = [float(s) for s in st.scores]
        hands = [len(h) for h in st.hands]
        first = all((scores[seat], hands[seat]) >= (s, h) for s, h in zip(scores, hands, strict=True))
        return margin(scores, seat) + (_WIN_BONUS if first else 0.0)
    return margin(projected(st), seat)


# ---------------------------------------------------------------------------------------------
# A fast simulator: unvalidated steps and a greedy rollout that builds its action directly


def step(st: FifthState, seat: int, action: Action) -> FifthState:
    """``action`` (known to be legal) applied, with the automatic steps that follow it."""
    w = Work(st)
    w.last = f"{st.colours[seat]}: {notation(action)}"  # as ``apply`` sets it, so states compare equal
    do_action(w, seat, action)
    settle_work(w)
    return w.freeze()


def _greedy_turn(st: FifthState, seat: int) -> Action:
    """The greedy player's phase-1 choice (same values, same ties), without listing every action."""
    best = act("A")
    best_value = 3.0 if st.reserve[seat] < 3 and st.supply[seat] > 0 else 0.5
    group = active_group(st.row)
    targets = shop_targets(st) if group is not None else []
    if group is not None and targets:
        n = st.seats
        seen: set[str] = set()
        for i in group:
            tile = st.row[i]
            if tile is None or tile in seen:
                continue
            seen.add(tile)
            for lot_id in targets:
                gains = _shop_gains(st, lot_id, tile)
                mine = gains[seat]
                theirs = sum(gains) - mine
                value = 1.2 + (mine - theirs / max(1, n - 1)) / 2
                if value > best_value:
                    best, best_value = act("B", slot=SLOTS[i], lot=lot_id), value
    moves = move_options(st, "C")
    home = [a for a in moves if a.dest == "START"]
    value = 1.0 if home else 0.8
    if value > best_value:
        best, best_value = (home or moves)[0], value
    for d in scorable(st):
        gains = district_scores(st.lots, d, st.seats, st.six)
        value = (gains[seat] * st.seats - sum(gains)) / 2
        if value > best_value:
            best, best_value = act("D", district=d), value
    return best


@cache
def _near(lot_id: str, six: bool) -> tuple[str, str]:
    return neighbours(lot_id, six)


def _shop_gains(st: FifthState, lot_id: str, tile: str) -> list[int]:
    """Per seat, how much the buildings next to ``lot_id`` gain when ``tile`` is put on it."""
    gains = [0] * st.seats
    lots = st.lots
    for near in _near(lot_id, st.six):
        lot = lots[near]
        if lot.owner is None or lot.owner < 0:
            continue
        a, b = _near(near, st.six)
        shops = set(lots[a].shops) | set(lots[b].shops)
        before = VALUE[len(shops)]
        shops.add(tile)
        gains[lot.owner] += lot.count * (VALUE[len(shops)] - before)
    return gains


def _greedy_bid(st: FifthState, seat: int) -> Action:
    """The greedy player's auction move: the cheapest bid keeping its pile at most 17, else a pass."""
    au = st.auction
    assert au is not None
    if st.reserve[seat] == 0:
        return act("pass")
    return _cheapest_bid(st.hands[seat], au.piles[seat], au.high, bid_colours(st, seat))


@lru_cache(maxsize=1 << 14)
def _cheapest_bid(
    hand: tuple[str, ...], pile: tuple[str, ...], high: int, colours: tuple[str, ...]
) -> Action:
    """The bid the greedy player picks from its minimal bids (the same one but for ties between equal
    cards), cached: rollouts from one world meet the same auctions again and again."""
    spent = pile_total(pile)
    need = high - spent  # the cards added must total more than this
    room = GREEDY_BUDGET - spent
    if room <= need:
        return act("pass")
    blacks = [c for c in hand if card_colour(c) == BLACK]
    best: tuple[int, int, tuple[str, ...]] | None = None
    for rank, colour in enumerate(colours):
        mine = [c for c in hand if card_colour(c) == colour]
        if not pile and not mine:
            continue
        for bid in _bids(blacks, mine, need, room, first=not pile):
            # The greedy player's order: cheapest, then its first colour, then the first card list.
            key = (pile_total(bid) + 2 * len(bid), rank, sort_cards(bid))
            if best is None or key < best:
                best = key
    if best is None:
        return act("pass")
    return act("bid", cards=best[2])


def _bids(
    blacks: Sequence[str], coloured: Sequence[str], need: int, room: int, first: bool
) -> list[tuple[str, ...]]:
    """Sets of at most four cards (a pile of 17 holds no more) totalling more than ``need`` and at most
    ``room``: each value taken from black before coloured; a first bid holds a coloured card."""
    pool: dict[int, list[str]] = {4: [], 5: [], 6: []}
    for c in (*blacks, *coloured):
        pool[card_value(c)].append(c)
    out: list[tuple[str, ...]] = []
    for n4 in range(min(4, len(pool[4])) + 1):
        for n5 in range(min(4 - n4, len(pool[5])) + 1):
            for n6 in range(min(4 - n4 - n5, len(pool[6])) + 1):
                total = 4 * n4 + 5 * n5 + 6 * n6
                if not need < total <= room:
                    continue
                bid = (*pool[4][:n4], *pool[5][:n5], *pool[6][:n6])
                if first and all(card_colour(c) == BLACK for c in bid):
                    swapped = _with_a_coloured(bid, coloured)
                    if swapped is None:
                        continue
                    bid = swapped
                out.append(bid)
    return out


def _with_a_coloured(bid: tuple[str, ...], coloured: Sequence[str]) -> tuple[str, ...] | None:
    """``bid`` with one black card swapped for a coloured card of the same value, if there is one."""
    for i, card in enumerate(bid):
        for c in coloured:
            if c[2] == card[2]:
                return (*bid[:i], c, *bid[i + 1 :])
    return None


def rollout_action(st: FifthState, seat: int) -> Action:
    """What the greedy player would do (nearly always the same move), built without the legal list where
    listing it is costly."""
    phase = st.phase
    if phase == "action":
        return _greedy_turn(st, seat)
    if phase == "auction":
        return _greedy_bid(st, seat)
    legal = legal_of_acting(st)
    return max(legal, key=lambda a: greedy_value(st, seat, a))


# ---------------------------------------------------------------------------------------------
# The player


def prior(st: FifthState, seat: int, action: Action) -> float:
    """A quick guess at ``action``, ranking the actions worth a search: a shop by what it adds to the
    buildings next to it (mine against the best opponent's), a draw by how useful the two cards are to
    ``seat``, anything else by the greedy player's own valuation."""
    if action.kind == "B":
        assert action.lot is not None and action.slot is not None
        tile = st.row[SLOTS.index(action.slot)]
        assert tile is not None
        return _shop_prior(_shop_gains(st, action.lot, tile), seat)
    if action.kind == "draw":
        return sum(_colour_use(st, seat, colour) for colour in action.cols)
    return greedy_value(st, seat, action)


def _shop_prior(gains: Sequence[int], seat: int) -> float:
    return gains[seat] - max(g for s, g in enumerate(gains) if s != seat)


def _colour_use(st: FifthState, seat: int, colour: str) -> float:
    """How much ``seat`` wants the top card of ``colour``: cards of the colour of its own lots (the only
    colour it may bid there) and of empty lots where it has none; fours build the most."""
    deck = st.decks[COLOURS.index(colour)]
    if not deck:
        return 0.0
    use = 0.0
    for d in DISTRICTS:
        if d in st.closed:
            continue
        lot = st.lots.get(f"{d}.{colour}")
        if lot is None:
            continue
        if lot.owner == seat:
            use += 2.0
        elif lot.empty and own_lot(st, d, seat) is None:
            use += 0.5
    held = sum(1 for c in st.hands[seat] if card_colour(c) == colour)
    return use / (1 + held) + (4 - card_value(deck[0])) * -0.2


class StrongPolicy(SearchPolicy[FifthState, Action]):
    """Determinised flat Monte Carlo search with greedy rollouts on a fast simulator (see the module)."""

    def __init__(self, budget: Budget = BUDGET) -> None:
        super().__init__(
            determinize=determinize, evaluate=evaluate, prior=prior, rollout=GreedyPolicy(), budget=budget
        )

    def candidates(self, world: FifthState, seat: int, legal: Sequence[Action]) -> list[Action]:
        """The actions worth a search, ranked in a world (not the real state) so that no prior can read a
        secret: on a turn's first phase every kind of action gets a chance (A, the best shops, every
        pawn move and scoring); otherwise the best by the prior."""
        order = sorted(range(len(legal)), key=lambda i: (-prior(world, seat, legal[i]), i))
        ranked = [legal[i] for i in order]
        if world.phase != "action":
            return ranked[: self.budget.candidates]
        shops = [a for a in ranked if a.kind == "B"][:SHOPS]
        return [a for a in ranked if a.kind != "B" or a in shops]

    def simulate(
        self, rules: GameRules[FifthState, Action], world: FifthState, seat: int, action: Action, rng: Rng
    ) -> tuple[float, int]:
        """The value for ``seat`` of ``action`` in ``world`` after a greedy rollout, and the actions taken."""
        st = step(world, seat, action)
        used = 1
        while used <= self.budget.depth and st.phase != "over":
            actor = acting_seat(st)
            if actor is None:
                break
            st = step(st, actor, rollout_action(st, actor))
            used += 1
        return evaluate(st, seat), used
