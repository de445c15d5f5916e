"""What players may see (spec §6, §9): a public view for the board image and a private view for DMs."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.contract import Frozen
from engine.ny_piatnik.cards import BUILDING_IDS, COLOUR_HEX, COLOUR_INDEX, PARAMS
from engine.ny_piatnik.scoring import breakdown_line, ranked_scores
from engine.ny_piatnik.state import (
    NyState,
    acting_seat,
    back_counts,
    controller_of,
    houses_of,
    partner_of,
    seat_label,
    team_of,
)


class HouseInfo(Frozen):
    """One house (piece colour) in play."""

    colour: str
    hex: str
    controller: int | None  # None before the colour allocation
    prelim_seat: int | None  # who places it in the preliminary round
    on_board: int
    supply: int


class SeatInfo(Frozen):
    """One panel row of §9."""

    seat: int
    label: str  # "S1"
    name: str  # how the log names the seat (its colour in 3-5 player games once allocated)
    houses: tuple[str, ...]
    team: int | None  # V4: 0 = S1+S3, 1 = S2+S4
    money: int
    on_board: int
    supply: int
    hand_red: int  # red-back cards in hand (backs are public)
    hand_blue: int
    active: bool  # the ▶ marker: this seat's turn
    to_act: bool  # this seat must decide now (turn or pending decision)


class ScoreLine(Frozen):
    """Final score breakdown of one seat (§5, §7.3, §7.4)."""

    seat: int
    houses: tuple[str, ...]
    largest: tuple[int, ...]
    others: int
    money: int
    total: int
    team_total: int | None
    place: int
    text: str


class LegalPlay(Frozen):
    """A legal action with a short description ("buy PARK-49 from yellow for 1")."""

    notation: str
    text: str


class PublicView(Frozen):
    """Everything everybody may see: board, panel, log highlight (no hand faces, no deck order)."""

    game: str = "ny_piatnik"
    seats: int
    variants: tuple[str, ...]  # "events", "chosen_colours", "two_player", "team"
    phase: str  # colour_choice | preliminary | main | over
    banner: str  # COLOUR CHOICE | PRELIMINARY | MAIN | FINAL PHASE | GAME OVER
    status: str  # "S2 placing blue — 3 left", "red to play", "waiting for yellow to ..."
    board: tuple[str | None, ...]  # 49 owners by building index
    players: tuple[SeatInfo, ...]
    houses: tuple[HouseInfo, ...]
    deck_size: int
    discard_size: int
    discard: tuple[str, ...]  # ruling 20: the discard pile is public (last = top)
    last_play: tuple[str, ...]
    stop_location: str  # aside | discard | deck
    unowned: int
    final_phase: bool
    active_seat: int | None
    to_act: tuple[int, ...]
    pending: str | None  # pending-decision line
    pending_seat: int | None
    highlight: tuple[str, ...]  # buildings changed by the last play
    highlight_line: str | None  # Statik/Bauloewe line of the last play
    show_specials: bool  # V1: mark inner-city and corner spaces
    scores: tuple[ScoreLine, ...] = ()
    result: tuple[str, ...] = ()


class PrivateView(PublicView):
    """The public view plus one seat's secrets and choices (§6 DM contents)."""

    seat: int
    my_houses: tuple[str, ...]
    hand: tuple[str, ...]  # sorted red-back then blue-back, canonical order
    legal: tuple[LegalPlay, ...]
    decision: str | None  # a pending decision addressed to this seat ("fill a corner space")
    can_exchange: bool  # V4: an exchange of any number of hand cards is open (a multi-select)
    return_count: int | None  # V4: how many cards this seat must return now
    partner: int | None
    partner_hand: tuple[str, ...] | None  # V4: partners see each other's hands


def _banner(st: NyState) -> str:
    if st.phase == "over":
        return "GAME OVER"
    if st.phase == "colour_choice":
        return "COLOUR CHOICE"
    if st.phase == "preliminary":
        return "PRELIMINARY"
    return "FINAL PHASE" if st.final_phase else "MAIN"


def pending_task(st: NyState) -> str:
    """What the pending decision asks for ("choose a blue building on 53 to cede to red"), or ""."""
    p = st.pending
    if p is None:
        return ""
    if p.kind == "give":
        where = f" on {p.line}" if p.line else ""
        return f"choose a {p.victim} building{where} to cede to {p.gain}"
    if p.kind == "fill":
        return "fill an inner-city space" if p.source == "sanierung" else "fill a corner space"
    return f"return {p.count} card(s) to {seat_label(st, p.player)}"


def pending_text(st: NyState) -> str:
    """The public pending-decision line ("waiting for yellow to choose a building …"), or ""."""
    if st.pending is None:
        return ""
    return f"waiting for {seat_label(st, st.pending.seat)} to {pending_task(st)}"


def _status(st: NyState) -> str:
    if st.phase == "over":
        ender = st.ended_by
        return "game over" + (f" — Stop card drawn by {seat_label(st, ender)}" if ender is not None else "")
    if st.phase == "colour_choice":
        return f"S{len(st.prelim_slots) % st.seats + 1} choosing a colour"
    if st.phase == "preliminary":
        slot = st.prelim_done % len(st.prelim_slots)
        colour = st.prelim_slots[slot]
        left = PARAMS[st.seats].prelim - st.board.count(colour)
        return f"S{slot % st.seats + 1} placing {colour} — {left} left"
    if st.pending is not None:
        return pending_text(st)
    return f"{seat_label(st, st.active)} to play"


def _public_fields(st: NyState) -> dict[str, object]:
    acting = acting_seat(st)
    players = []
    for seat in range(st.seats):
        own = houses_of(st, seat)
        red, blue = back_counts(st.hands[seat])
        players.append(
            SeatInfo(
                seat=seat,
                label=f"S{seat + 1}",
                name=seat_label(st, seat),
                houses=own,
                team=team_of(st, seat),
                money=st.money[seat],
                on_board=sum(st.board.count(h) for h in own),
                supply=sum(st.supply[COLOUR_INDEX[h]] for h in own),
                hand_red=red,
                hand_blue=blue,
                active=st.phase == "main" and st.active == seat,
                to_act=acting == seat,
            )
        )
    houses = []
    for colour in st.houses:
        ctrl = controller_of(st, colour)
        prelim = None
        if colour in st.prelim_slots:
            prelim = st.prelim_slots.index(colour) % st.seats
        houses.append(
            HouseInfo(
                colour=colour,
                hex=COLOUR_HEX[colour],
                controller=ctrl if ctrl >= 0 else None,
                prelim_seat=prelim,
                on_board=st.board.count(colour),
                supply=st.supply[COLOUR_INDEX[colour]],
            )
        )
    variants = tuple(
        name
        for name, on in (
            ("events", st.events),
            ("chosen_colours", st.chosen_colours),
            ("two_player", st.two_player),
            ("team", st.team),
        )
        if on
    )
    scores: tuple[ScoreLine, ...] = ()
    result: tuple[str, ...] = ()
    if st.phase == "over":
        ranked = ranked_scores(st)
        scores = tuple(
            ScoreLine(
                seat=s.seat,
                houses=s.houses,
                largest=s.largest,
                others=s.others,
                money=s.money,
                total=s.total,
                team_total=s.team_total,
                place=s.place,
                text=breakdown_line(st, s),
            )
            for s in ranked
        )
        result = tuple(s.text for s in scores)
    return {
        "seats": st.seats,
        "variants": variants,
        "phase": st.phase,
        "banner": _banner(st),
        "status": _status(st),
        "board": st.board,
        "players": tuple(players),
        "houses": tuple(houses),
        "deck_size": len(st.deck),
        "discard_size": len(st.discard),
        "discard": st.discard,
        "last_play": st.last_play,
        "stop_location": st.stop_location,
        "unowned": st.board.count(None),
        "final_phase": st.final_phase,
        "active_seat": st.active if st.phase == "main" else None,
        "to_act": () if acting is None else (acting,),
        "pending": pending_text(st) or None,
        "pending_seat": st.pending.seat if st.pending is not None else None,
        "highlight": tuple(BUILDING_IDS[i] for i in st.highlight),
        "highlight_line": st.highlight_line,
        "show_specials": st.events,
        "scores": scores,
        "result": result,
    }


def public_view(st: NyState) -> PublicView:
    """The public view (§6 public board image)."""
    return PublicView(**_public_fields(st))  # type: ignore[arg-type]


def private_view(st: NyState, seat: int, legal: Sequence[tuple[str, str]]) -> PrivateView:
    """The view of ``seat``: public fields plus its hand, legal plays, decision and (V4) partner's hand."""
    mate = partner_of(st, seat)
    p = st.pending
    mine = p is not None and p.seat == seat
    can_exchange = (
        st.team and st.phase == "main" and p is None and st.active == seat and not st.exchange_used
    ) and bool(st.hands[seat])
    return PrivateView(
        **_public_fields(st),  # type: ignore[arg-type]
        seat=seat,
        my_houses=houses_of(st, seat),
        hand=st.hands[seat],
        legal=tuple(LegalPlay(notation=n, text=t) for n, t in legal),
        decision=pending_task(st) if mine else None,
        can_exchange=can_exchange,
        return_count=p.count if mine and p is not None and p.kind == "return" else None,
        partner=mate,
        partner_hand=st.hands[mate] if mate is not None else None,
    )
