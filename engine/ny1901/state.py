"""The frozen game state of New York 1901 (spec §3, §4) and read-only helpers on it."""

from __future__ import annotations

from typing import Literal

from engine.core.contract import Frozen
from engine.ny1901.cards import PLAYER_COLOURS, THRESHOLDS, TILE_BY_ID, WORKERS

MainKind = Literal["take", "build", "rebuild", "giveback", "pass"]


class Building(Frozen):
    """A tile on the board: its id, owner seat, covered cells (sorted) and placement."""

    tile: str
    owner: int
    cells: tuple[int, ...]
    rot: int = 0
    x: int = 0
    y: int = 0


class Turn(Frozen):
    """What the current player has done so far this turn (§4.2 state machine)."""

    shifted: bool = False
    main: MainKind | None = None
    take_size: int = 0  # size of the lot acquired by ``take`` (grab needs 2, §4.5)
    built: bool = False  # the turn's normal build (extra after take) or the first build
    grabbed: bool = False
    boomed: bool = False


class NyState(Frozen):
    """Everything about a match. Per-seat tuples are indexed by seat; per-lot tuples by ``LOT_IDS``.

    ``deck[0]`` is the top card. ``market`` has 4 slots, ``None`` = empty.
    """

    seats: int
    expert: bool = False
    intro: bool = False
    characters: tuple[str, ...]  # per seat
    lot_owner: tuple[int, ...]  # per lot: seat or -1
    workers: tuple[bool, ...]  # per lot: the owner's worker stands there
    buildings: tuple[Building, ...] = ()
    supply: tuple[tuple[str, ...], ...]  # per seat, unbuilt tiles among the 18
    legend_pool: tuple[str, ...]
    legend_of: tuple[str | None, ...]  # per seat: the legendary they built (King token)
    action_cards: tuple[tuple[str, ...], ...]  # per seat: unused action cards
    scores: tuple[int, ...]
    prestige: tuple[int, ...]  # per seat: points from X-PRESTIGE (for the breakdown)
    piles: tuple[tuple[str, ...], ...]  # per seat: acquired lot cards
    deck: tuple[str, ...]
    market: tuple[str | None, ...]
    streets: tuple[str, ...]  # the 3 active street ids
    challenge: str | None
    first: int
    active: int
    turn_no: int = 1
    turn: Turn = Turn()
    trigger: int | None = None  # seat whose turn triggered the end
    end_reason: str = ""  # "tiles" or "market" (§5.2)
    final_left: tuple[int, ...] = ()  # final round: seats still to play, the current one first
    over: bool = False
    highlight: tuple[int, ...] = ()  # cells placed by the last turn
    demolished: tuple[int, ...] = ()  # footprint demolished in the last turn
    last_move: str = ""
    rng: int

    @property
    def two_player(self) -> bool:
        """§3.3 is implied by two seats."""
        return self.seats == 2

    @property
    def final_round(self) -> bool:
        return bool(self.final_left)


def thresholds(state: NyState) -> tuple[int, int]:
    """(silver, gold) unlock scores (§2.12)."""
    return THRESHOLDS[state.expert]


def unlocked(state: NyState, seat: int) -> int:
    """Highest tech the seat may build now (§4.1)."""
    silver, gold = thresholds(state)
    score = state.scores[seat]
    return 3 if score >= gold else 2 if score >= silver else 1


def free_workers(state: NyState, seat: int) -> int:
    """Workers in the seat's supply (§4.1)."""
    placed = sum(1 for i, w in enumerate(state.workers) if w and state.lot_owner[i] == seat)
    return WORKERS - placed


def tech(tile: str) -> int:
    return TILE_BY_ID[tile].tech


def seat_name(state: NyState, seat: int) -> str:
    """How logs name a seat: its piece colour (§2.1)."""
    return PLAYER_COLOURS[seat]
