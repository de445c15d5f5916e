"""The frozen game state of Dirk Henn's New York (spec §2.6, §4.1) and read-only helpers on it."""

from __future__ import annotations

from typing import Literal

from engine.core.contract import Frozen

# §4.1 phases; UPKEEP is automatic and never visible as a resting phase.
Phase = Literal["action", "placement", "final", "over"]

# A placed tile: (x, y, tile id); a city is sorted by (y, x).
Placed = tuple[int, int, str]


class HennState(Frozen):
    """Everything about a match. Per-seat tuples are indexed by seat (0-based).

    ``deck[0]`` is the top card and ``bag[0]`` the next tile drawn (§3.3). Hands are sorted canonically.
    """

    seats: int
    phase: Phase
    active: int  # whose turn it is (ACTION / PLACEMENT)
    turn: int = 1
    chain_open: bool = False  # an exact payment was made: the active player must act again (§4.2)
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...] = ()
    display: tuple[str | None, ...]  # display.1..4
    market: tuple[str | None, ...]  # slots B, G, Y, R
    bag: tuple[str, ...]
    cities: tuple[tuple[Placed, ...], ...]
    reserves: tuple[tuple[str, ...], ...]
    pending: tuple[tuple[str, ...], ...]
    dirk: tuple[str, ...] = ()  # 2 players only (§7.2)
    scores: tuple[int, ...]
    dirk_score: int = 0
    scored: tuple[str, ...] = ()  # scoring rounds already played ("A", "B", "C")
    first: int = 0  # the start player (§3.1 step 6)
    result: tuple[str, ...] = ()  # final score breakdown lines
    # Points of each scoring round played, per seat (then Dirk's in the 2-player game), in order.
    round_totals: tuple[tuple[int, ...], ...] = ()
    last_move: str = ""  # the public log line of the last player action, for the board image
    changed: tuple[tuple[int, int, int], ...] = ()  # (seat, x, y) of city cells the last action changed
    rng: int

    @property
    def two_player(self) -> bool:
        """The Dirk variant is implied by two seats (§3.2)."""
        return self.seats == 2


def city_map(state: HennState, seat: int) -> dict[tuple[int, int], str]:
    """``seat``'s city as ``{(x, y): tile id}``."""
    return {(x, y): t for x, y, t in state.cities[seat]}


def freeze_city(city: dict[tuple[int, int], str]) -> tuple[Placed, ...]:
    """The canonical stored form of a city: (x, y, tile) sorted by row then column."""
    return tuple(sorted(((x, y, t) for (x, y), t in city.items()), key=lambda p: (p[1], p[0])))


def seat_label(seat: int) -> str:
    """How logs name a seat: ``P1`` for seat 0 (§8)."""
    return f"P{seat + 1}"


def acting_seats(state: HennState) -> frozenset[int]:
    """Seats that must decide now: the active player, or every holder of awarded tiles (§5.4)."""
    if state.phase == "over":
        return frozenset()
    if state.phase == "final":
        return frozenset(s for s in range(state.seats) if state.pending[s])
    return frozenset((state.active,))
