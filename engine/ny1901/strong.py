"""The strong computer player of New York 1901: determinised Monte Carlo search (engine.core.search).

The only secrets of the game (§6) are the order of the lot deck, hidden from everyone, and the future of
the state's own generator. A world is drawn by putting the deck's cards in a canonical order, shuffling
them with the bot's generator and reseeding the state, so it depends on what the seat sees only.

Positions are valued by a projection of the final standings (§5.3): points in play, the street cards and
the challenge card as they stand now, unused action cards, and the room the estate still offers.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.core.search import Budget, SearchPolicy, margin, reseeded
from engine.ny1901.actions import Action
from engine.ny1901.bots import GreedyPolicy
from engine.ny1901.cards import (
    CELL_STREETS,
    LOT_CELLS,
    LOT_INDEX,
    STREET_BONUS,
    TILE_BY_ID,
    footprint,
)
from engine.ny1901.scoring import challenge_points, final_outcome
from engine.ny1901.state import NyState

_WIN = 10.0  # a finished match: first place is worth this much beyond the margin
_TIED_STREET = 1.5  # a street shared at the top scores nothing yet, but either side may still take it
_FREE_CELL = 0.5  # an unbuilt cell of the estate: a future building's room (1.0 hoarded land and lost)
_STREET_PRIOR = 1.0  # per active street a new building or lot faces (ranking only)


def determinize(state: NyState, seat: int, rng: Rng) -> NyState:
    """A world ``seat`` cannot tell from ``state``: the deck reordered, the generator reseeded.

    The deck is sorted before it is shuffled so that the result does not depend on its real order.
    """
    deck = tuple(rng.shuffled(sorted(state.deck)))
    return reseeded(state.model_copy(update={"deck": deck}), rng)


def projected(state: NyState) -> list[float]:
    """Per seat: an estimate of the final total if the game ended with the board as it is (§5.3)."""
    seats = state.seats
    totals = [float(state.scores[s] + len(state.action_cards[s])) for s in range(seats)]
    for street in state.streets:
        counts = [0] * seats
        for b in state.buildings:
            if any(street in CELL_STREETS[c] for c in b.cells):
                counts[b.owner] += 1
        best = max(counts)
        if best < 1:
            continue
        leaders = [s for s in range(seats) if counts[s] == best]
        bonus = STREET_BONUS if len(leaders) == 1 else _TIED_STREET
        for s in leaders:
            totals[s] += bonus
    for s, points in enumerate(challenge_points(state)):
        totals[s] += points
    covered = {c for b in state.buildings for c in b.cells}
    for i, owner in enumerate(state.lot_owner):
        if owner >= 0:
            totals[owner] += _FREE_CELL * sum(1 for c in LOT_CELLS[i] if c not in covered)
    return totals


def evaluate(state: NyState, seat: int) -> float:
    """How well ``seat`` stands against the best other seat, in points; a finished match by its result."""
    if state.over:
        outcome = final_outcome(state)
        return margin([float(x) for x in outcome.scores], seat) + (_WIN if outcome.places[seat] == 1 else 0.0)
    return margin(projected(state), seat)


_GREEDY = GreedyPolicy()


def prior(state: NyState, seat: int, action: Action) -> float:
    """The greedy player's value of ``action``, plus a little for facing the active streets."""
    own = {c for i, o in enumerate(state.lot_owner) if o == seat for c in LOT_CELLS[i]}
    value = _GREEDY._value(state, seat, action, own)
    cells: tuple[int, ...] = ()
    if action.kind in ("build", "boom", "rebuild"):
        assert action.tile is not None and action.x is not None and action.y is not None
        cells = footprint(TILE_BY_ID[action.tile].shape, action.rot, action.x, action.y) or ()
    elif action.kind in ("take", "grab"):
        assert action.lot is not None
        cells = LOT_CELLS[LOT_INDEX[action.lot]]
    faced = {s for c in cells for s in CELL_STREETS.get(c, ())}
    return value + _STREET_PRIOR * len(faced & set(state.streets))


def strong_policy(budget: Budget | None = None) -> SearchPolicy[NyState, Action]:
    """The strong player with ``budget`` (the tuned one by default)."""
    return SearchPolicy(
        determinize=determinize,
        evaluate=evaluate,
        prior=prior,
        rollout=_GREEDY,
        budget=budget or BUDGET,
    )


# Six simulated actions cover the rest of one's own turn and roughly a turn of each opponent, enough to see
# a lot taken now built on and the street counts answered. Simulating costs about a millisecond an action
# (the rules list every placement), so three worlds of four candidates keep a decision near 0.1 s.
BUDGET = Budget(worlds=3, candidates=4, depth=6, steps=120)
