"""Public and per-seat views of Fifth Avenue (spec §6, §9): what the board image and a player's DM need."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.contract import Frozen
from engine.fifth_avenue.cards import BLACK, COLOURS, GROUPS, SLOTS, card_colour
from engine.fifth_avenue.scoring import ranking
from engine.fifth_avenue.state import ASSO, FifthState, acting_seat, bid_colours


class LotView(Frozen):
    id: str
    shops: tuple[str, ...]
    owner: str | None  # player colour, or "asso"
    count: int


class SeatView(Frozen):
    colour: str
    score: int
    reserve: int
    supply: int
    cp_buildings: int
    hand_size: int
    hand_colours: tuple[tuple[str, int], ...]  # per colour and black; values stay private (ruling 21)
    active: bool


class AuctionView(Frozen):
    pawn: str
    sites: tuple[str, ...]
    site: str
    turn: str | None
    piles: tuple[tuple[str, tuple[str, ...], int], ...]  # colour, face-up cards, total
    passed: tuple[str, ...]
    high: int
    high_bidder: str | None
    cp_colour: str | None
    asso_cards: tuple[str, ...]
    winner: str | None
    max_build: int


class PublicView(Frozen):
    """Everything public: the board of §9 and the info panel."""

    seats: tuple[SeatView, ...]
    six_lots: bool
    asso_colour: str | None
    asso_supply: int
    lots: tuple[LotView, ...]
    closed: tuple[str, ...]
    pawns: tuple[tuple[str, str], ...]
    tokens: tuple[tuple[str, tuple[str, ...]], ...]
    row: tuple[tuple[str, str | None], ...]
    active_group: int | None
    placed: int
    cp_pile: tuple[str, ...]
    cp_revealed: tuple[str, ...]
    deck_tops: tuple[tuple[str, str | None, int], ...]  # colour, top card, count
    black_count: int
    phase: str
    to_act: str | None
    active: str
    auction: AuctionView | None
    last: str
    game_over: bool
    places: tuple[int, ...] = ()  # once over: each seat's place, 1 = first, tied seats share it


class PrivateView(PublicView):
    """The public view plus the seat's own cards and choices (§6 DM view)."""

    seat: int
    hand: tuple[str, ...]
    options: tuple[str, ...]
    eligible: tuple[str, ...]
    own_pile: tuple[str, ...]
    min_raise: int | None


def final_places(st: FifthState) -> tuple[int, ...]:
    """Each seat's place once over, as the outcome ranks them (§5.6)."""
    return ranking(st.scores, [len(h) for h in st.hands], st.end_reason, ()).places


def _name(st: FifthState, seat: int | None) -> str | None:
    if seat is None:
        return None
    return "asso" if seat == ASSO else st.colours[seat]


def build_view(st: FifthState, seat: int | None, options: Sequence[str]) -> PublicView:
    """The public view (``seat`` None) or ``seat``'s private view."""
    group = next((k for k, g in enumerate(GROUPS) if any(st.row[i] is not None for i in g)), None)
    au = st.auction
    auction = None
    if au is not None:
        auction = AuctionView(
            pawn=au.pawn,
            sites=au.sites,
            site=au.sites[au.site],
            turn=_name(st, au.order[au.turn]) if st.phase == "auction" else None,
            piles=tuple((st.colours[s], p, sum(int(c[2]) for c in p)) for s, p in enumerate(au.piles) if p),
            passed=tuple(n for n in (_name(st, s) for s in au.passed) if n is not None),
            high=au.high,
            high_bidder=_name(st, au.high_bidder),
            cp_colour=au.cp_colour,
            asso_cards=au.asso_cards,
            winner=_name(st, au.winner),
            max_build=au.max_build,
        )
    seats = tuple(
        SeatView(
            colour=st.colours[s],
            score=st.scores[s],
            reserve=st.reserve[s],
            supply=st.supply[s],
            cp_buildings=st.cp_buildings[s],
            hand_size=len(st.hands[s]),
            hand_colours=tuple(
                (c, sum(1 for card in st.hands[s] if card_colour(card) == c)) for c in (*COLOURS, BLACK)
            ),
            active=s == st.active,
        )
        for s in range(st.seats)
    )
    fields = {
        "seats": seats,
        "six_lots": st.six,
        "asso_colour": st.asso_colour,
        "asso_supply": st.asso_supply,
        "lots": tuple(
            LotView(id=k, shops=lot.shops, owner=_name(st, lot.owner), count=lot.count)
            for k, lot in st.lots.items()
        ),
        "closed": st.closed,
        "pawns": (("white", st.pawns[0]), ("beige", st.pawns[1])),
        "tokens": (("white", st.tokens[0]), ("beige", st.tokens[1])),
        "row": tuple(zip(SLOTS, st.row, strict=True)),
        "active_group": None if group is None else group + 1,
        "placed": st.placed,
        "cp_pile": st.cp_pile,
        "cp_revealed": st.cp_revealed,
        "deck_tops": tuple((c, d[0] if d else None, len(d)) for c, d in zip(COLOURS, st.decks, strict=True)),
        "black_count": len(st.black),
        "phase": st.phase,
        "to_act": _name(st, acting_seat(st)),
        "active": st.colours[st.active],
        "auction": auction,
        "last": st.last,
        "game_over": st.phase == "over",
        "places": final_places(st) if st.phase == "over" else (),
    }
    if seat is None:
        return PublicView(**fields)  # type: ignore[arg-type]
    eligible: tuple[str, ...] = ()
    pile: tuple[str, ...] = ()
    min_raise = None
    if au is not None and st.phase == "auction":
        # After a first bid only its colour may follow, so the hand names just that one.
        eligible = bid_colours(st, seat)
        pile = au.piles[seat]
        min_raise = au.high + 1 - sum(int(c[2]) for c in pile)
    return PrivateView(
        **fields,  # type: ignore[arg-type]
        seat=seat,
        hand=st.hands[seat],
        options=tuple(options),
        eligible=eligible,
        own_pile=pile,
        min_raise=min_raise,
    )
