"""The frozen game state of Piatnik's New York (spec §4.10) and read-only helpers on it."""

from __future__ import annotations

from typing import Literal

from engine.core.contract import Frozen
from engine.ny_piatnik.cards import COLOUR_INDEX, RED_BACK

Phase = Literal["colour_choice", "preliminary", "main", "over"]
StopLocation = Literal["aside", "discard", "deck"]
PendingKind = Literal["give", "fill", "return"]
PendingSource = Literal["statik", "spekulation", "sanierung", "ruin", "exchange"]


class Pending(Frozen):
    """A decision another player (or the refilling players) must take inside ``player``'s turn (§4.8)."""

    kind: PendingKind
    source: PendingSource
    seat: int  # who decides now
    player: int  # whose turn it is (P)
    victim: str | None = None  # give: the house that cedes a building
    gain: str | None = None  # give: the house of P that receives it
    line: str | None = None  # give after Statik: the line L
    options: tuple[int, ...] = ()  # give: candidate buildings; fill: the target spaces (inner or corners)
    count: int = 0  # return: how many cards must come back
    draw_after: bool = False  # the play was a pair, so P draws up once this is resolved


class NyState(Frozen):
    """Everything about a match. Per-colour tuples are indexed by ``COLOURS`` (red..black).

    ``deck[-1]`` is the top card; ``discard[-1]`` the card put there last. Hands are sorted canonically.
    """

    seats: int
    events: bool = False  # V1
    chosen_colours: bool = False  # V2
    team: bool = False  # V4
    houses: tuple[str, ...]  # colours in play, canonical order
    controller: tuple[int, ...]  # per colour: the seat controlling it, -1 if nobody (yet)
    prelim_slots: tuple[str, ...] = ()  # preliminary colour of each rotation slot (§3.4, §7.3)
    prelim_done: int = 0
    supply: tuple[int, ...]  # per colour
    money: tuple[int, ...]  # per seat
    board: tuple[str | None, ...]  # 49 entries: owning colour or None
    deck: tuple[str, ...]
    discard: tuple[str, ...] = ()
    stop_location: StopLocation = "aside"
    hands: tuple[tuple[str, ...], ...]
    phase: Phase
    active: int = 0  # seat whose main turn it is
    pending: Pending | None = None
    final_phase: bool = False
    exchange_used: bool = False
    last_play: tuple[str, ...] = ()  # the cards of the last play (public)
    highlight: tuple[int, ...] = ()  # buildings changed by the last play and its decisions
    highlight_line: str | None = None  # Statik/Bauloewe line of the last play
    ended_by: int | None = None  # seat that drew a Stop card
    turns: int = 0  # main-phase turns started
    rng: int

    @property
    def two_player(self) -> bool:
        """V3 is implied by two seats."""
        return self.seats == 2


def houses_of(state: NyState, seat: int) -> tuple[str, ...]:
    """Colours controlled by ``seat``, canonical order (empty before allocation)."""
    return tuple(c for c in state.houses if state.controller[COLOUR_INDEX[c]] == seat)


def controller_of(state: NyState, colour: str) -> int:
    """Seat controlling ``colour`` (-1 if not allocated)."""
    return state.controller[COLOUR_INDEX[colour]]


def partner_of(state: NyState, seat: int) -> int | None:
    """V4 partner (teams S1+S3 vs S2+S4), else ``None``."""
    return (seat + 2) % 4 if state.team else None


def team_of(state: NyState, seat: int) -> int | None:
    """V4 team number 0 (S1+S3) or 1 (S2+S4), else ``None``."""
    return seat % 2 if state.team else None


def back_counts(hand: tuple[str, ...] | list[str]) -> tuple[int, int]:
    """(red-back, blue-back) counts of a hand."""
    red = sum(1 for c in hand if c in RED_BACK)
    return red, len(hand) - red


def unowned(state: NyState) -> int:
    """Number of empty buildings."""
    return state.board.count(None)


def on_board(state: NyState, colour: str) -> int:
    """Buildings owned by ``colour``."""
    return state.board.count(colour)


def seat_label(state: NyState, seat: int) -> str:
    """How logs name a seat: its colour once allocated (3-5 players), else ``S1``…"""
    if not state.two_player and state.phase in ("main", "over"):
        own = houses_of(state, seat)
        if own:
            return own[0]
    return f"S{seat + 1}"


def acting_seat(state: NyState) -> int | None:
    """The seat that must decide now: the pending decision's owner, else whose turn it is."""
    if state.phase == "over":
        return None
    if state.phase == "colour_choice":
        return len(state.prelim_slots) % state.seats
    if state.phase == "preliminary":
        return (state.prelim_done % len(state.prelim_slots)) % state.seats
    return state.pending.seat if state.pending is not None else state.active
