"""The frozen game state of Skyline of the World (spec §2.8, §4) and read-only helpers on it."""

from __future__ import annotations

from typing import Literal

from engine.core.contract import Frozen
from engine.skyline.cards import COLOURS, INCOME, MISSION_MASKS, ORANGE, SITES

# §4: phase 1 (income) is automatic and never a resting phase.
Phase = Literal["build", "invest", "over"]

# A piece on the board: "N" for a neutral floor, else the owner's seat digit followed by the piece
# code ("01" = seat 0's 1 M floor, "2PH" = seat 2's penthouse, "1S" = seat 1's Skyline floor).
Piece = str
Stack = tuple[Piece, ...]


class SkylineState(Frozen):
    """Everything about a match. Per-seat tuples are indexed by seat; sites by ``cards.SITES`` index.

    ``supply[s]`` counts the pieces ``1 2 4 6 PH`` left in seat ``s``'s colour supply; stocks are sorted
    canonically. ``deck[0]`` is the next bonus card drawn. ``penthouse_seq[s]`` holds the global build
    sequence numbers of ``s``'s penthouses (tournament tie-break, §5.3).
    """

    seats: int
    hidden: bool = False
    tournament: bool = False
    phase: Phase
    active: int
    start: int  # the start player (§3 step 5)
    turn: int = 1
    board: tuple[Stack, ...]
    cash: tuple[int, ...]
    stock: tuple[tuple[str, ...], ...]
    supply: tuple[tuple[int, ...], ...]
    neutral_supply: int
    skyline_received: tuple[int, ...]
    missions: tuple[str, ...]
    spare_missions: tuple[str, ...]  # undealt: nobody ever sees them (§6)
    hands: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    claimed: tuple[tuple[str, ...], ...]  # bonus cards claimed, public (§6)
    claimed_at: tuple[tuple[str, ...], ...] = ()  # the placement of each claim, "A1,B1,C1"
    exchanged: tuple[int, ...]  # number of three-card exchanges per seat
    seq: int = 0  # global build sequence number (§2.8)
    penthouse_seq: tuple[tuple[int, ...], ...]
    # Per-turn flags of the active player (§2.8).
    built_any: bool = False
    built_skyline: bool = False
    bought_any: bool = False
    bought_neutral: bool = False
    claimed_this_turn: bool = False
    trigger: int | None = None  # first player to build a third penthouse (§5.1)
    final_queue: tuple[int, ...] = ()  # seats still owed a final turn, in order
    stall: int = 0  # consecutive turns without any build (§5.1 #2)
    last_income: tuple[int, ...]  # income of each seat's latest phase 1
    last_build: int | None = None  # site of the latest build (highlighted on the image, §9)
    last_move: str = ""
    end_reason: str = ""
    result: tuple[str, ...] = ()
    rng: int


def colour(state: SkylineState, seat: int) -> str:
    """The colour of ``seat`` (§2.2: assigned in seat order)."""
    del state
    return COLOURS[seat]


def owner(piece: Piece) -> int | None:
    """The seat owning ``piece``; ``None`` for a neutral floor."""
    return None if piece == "N" else int(piece[0])


def code(piece: Piece) -> str:
    """The piece code (``1 2 4 6 PH N S``)."""
    return "N" if piece == "N" else piece[1:]


def topped_mask(board: tuple[Stack, ...], seat: int) -> int:
    """Bitmask of the sites ``seat`` tops (§2.8): top is its coloured floor, penthouse or Skyline floor."""
    tag = str(seat)
    mask = 0
    for k, stack in enumerate(board):
        if stack and stack[-1][0] == tag:
            mask |= 1 << k
    return mask


def income_groups(board: tuple[Stack, ...], seat: int) -> tuple[int, tuple[int, ...]]:
    """§4.1: the best group's income and its sites (the first best group in site order on ties)."""
    mask = topped_mask(board, seat)
    seen = 0
    best = 0
    best_sites: tuple[int, ...] = ()
    for k in range(len(board)):
        if not mask >> k & 1 or seen >> k & 1:
            continue
        group = [k]
        seen |= 1 << k
        i = 0
        while i < len(group):
            for n in SITES[group[i]].neighbours:
                if mask >> n & 1 and not seen >> n & 1:
                    seen |= 1 << n
                    group.append(n)
            i += 1
        value = sum(INCOME.get(code(board[s][-1]), 0) for s in group)
        if value > best or not best_sites:
            best, best_sites = value, tuple(sorted(group))
    return best, best_sites


def penthouses(board: tuple[Stack, ...], seat: int) -> int:
    """Number of ``seat``'s penthouses on the board."""
    tag = f"{seat}PH"
    return sum(1 for stack in board if stack and stack[-1] == tag)


def orange_tops(board: tuple[Stack, ...], seat: int) -> int:
    """§5.2: orange sites whose top is ``seat``'s coloured floor or penthouse (not a Skyline floor)."""
    tag = str(seat)
    return sum(1 for k in ORANGE if board[k] and board[k][-1][0] == tag and code(board[k][-1]) != "S")


def mission_done(state: SkylineState, seat: int) -> bool:
    """§2.7: ``seat`` tops all four sites of its mission."""
    need = MISSION_MASKS[state.missions[seat]]
    return topped_mask(state.board, seat) & need == need
