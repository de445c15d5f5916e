"""The frozen game state of Fifth Avenue (spec §2.9)."""

from __future__ import annotations

from typing import Literal

from engine.core.contract import Frozen
from engine.fifth_avenue.cards import COLOURS, CP

Phase = Literal["setup", "action", "draw", "move", "auction", "build", "over"]
ASSO = -1  # owner id of the automated player's buildings (§7.1)


class Lot(Frozen):
    """A lot: 0–2 shops or buildings of one owner (``ASSO`` for Asso), never both (§2.5)."""

    shops: tuple[str, ...] = ()
    owner: int | None = None
    count: int = 0

    @property
    def empty(self) -> bool:
        return not self.shops and self.owner is None


class Auction(Frozen):
    """One auction series (§4.8) and the auction now running in it (§4.9, §4.11)."""

    pawn: str  # colour of the pawn whose return started the series
    sites: tuple[str, ...]
    site: int = 0
    order: tuple[int, ...]  # bidders clockwise from the trigger player; ASSO last with 2 players
    turn: int = 0  # index into ``order`` of the bidder to act
    passed: tuple[int, ...] = ()  # bidders out of this auction (ASSO once out)
    piles: tuple[tuple[str, ...], ...] = ()  # per seat, cards played face up
    colour: tuple[str | None, ...] = ()  # per seat, own auction colour once fixed
    eligible: tuple[tuple[str, ...], ...] = ()  # per seat, colours allowed (district auctions)
    situation: tuple[int, ...] = ()  # per seat, §4.9 situation 1/2/3 (0 for CP)
    full: bool = False  # district had no empty lot at the start of the auction (closure possible)
    high: int = 0
    high_bidder: int | None = None
    cp_colour: str | None = None
    asso_done: bool = False
    asso_cards: tuple[str, ...] = ()
    winner: int | None = None  # set while the winner decides (phase ``build``)
    max_build: int = 0
    may_close: bool = False
    must_close: bool = False
    resume: Literal["draw", "end"] = "end"


class FifthState(Frozen):
    """Everything about a match. Per-seat tuples are indexed by seat; decks have the top at index 0."""

    seats: int
    six: bool = False
    colours: tuple[str, ...]
    asso_colour: str | None = None
    asso_supply: int = 0
    scores: tuple[int, ...]
    reserve: tuple[int, ...]
    supply: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    lots: dict[str, Lot]
    closed: tuple[str, ...] = ()
    pawns: tuple[str, str] = ("START", "START")
    tokens: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    row: tuple[str | None, ...]
    placed: int = 0
    cp_pile: tuple[str, ...] = ()
    cp_buildings: tuple[int, ...]
    decks: tuple[tuple[str, ...], ...]
    black: tuple[str, ...]
    black_up: tuple[bool, ...]
    phase: Phase
    setup_order: tuple[int, ...] = ()
    setup_done: int = 0
    active: int = 0
    chosen: str | None = None
    auction: Auction | None = None
    last: str = ""
    cp_revealed: tuple[str, ...] = ()
    end_reason: str = ""
    turns: int = 0
    # Points scored so far by source (a district, "special" or "CP") and seat, for the final breakdown.
    earned: tuple[tuple[str, tuple[int, ...]], ...] = ()
    rng: int


def district_of(lot: str) -> str:
    return lot.split(".")[0]


def acting_seat(st: FifthState) -> int | None:
    """The seat that must decide now (Asso never does: he acts inside ``apply``)."""
    if st.phase == "over":
        return None
    if st.phase == "setup":
        return st.setup_order[st.setup_done]
    if st.phase == "auction":
        assert st.auction is not None
        return st.auction.order[st.auction.turn]
    if st.phase == "build":
        assert st.auction is not None
        return st.auction.winner
    return st.active


def bid_colours(st: FifthState, seat: int) -> tuple[str, ...]:
    """Colours ``seat`` may use for coloured cards in a bid now (own colour once fixed)."""
    au = st.auction
    assert au is not None
    own = au.colour[seat]
    if own is not None:
        return (own,)
    if au.sites[au.site] == CP:
        return (au.cp_colour,) if au.cp_colour is not None else COLOURS
    return au.eligible[seat]
