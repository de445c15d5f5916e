"""What players may see (spec §6, §9): a public view for the board image and a private view for DMs."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.core.contract import Frozen
from engine.ny_henn.cards import (
    ALL_TILES,
    BANK_NAMES,
    BANKS,
    DIRK_COLOUR,
    SCORING_CARDS,
    START_COLOURS,
    card_bank,
    card_value,
)
from engine.ny_henn.city import frontier, place_error, street_value
from engine.ny_henn.scoring import places_of, type_counts
from engine.ny_henn.state import HennState, acting_seats, city_map, seat_label


class TileInfo(Frozen):
    """One tile as drawn (§9.2): id, type code (None for a start tile), price, street edges ``"NE"``."""

    id: str
    type: str | None
    price: int
    streets: str


class PlacedTile(Frozen):
    """A tile in a city at cell (x, y)."""

    x: int
    y: int
    tile: TileInfo


class MarketSlot(Frozen):
    """One market slot: its bank (the currency to pay in) and its tile, if any."""

    bank: str
    bank_name: str
    tile: TileInfo | None


class PlayerPanel(Frozen):
    """One player panel of §9.1 (public)."""

    seat: int
    label: str  # "P1"
    colour: str
    score: int
    hand_count: int  # only the count of cards is public (§6)
    street: int
    type_counts: dict[str, int]
    city: tuple[PlacedTile, ...]
    reserve: tuple[TileInfo, ...]
    pending: tuple[TileInfo, ...]
    active: bool
    to_act: bool
    changed: tuple[tuple[int, int], ...] = ()  # cells the last move changed (outlined on the image)


class DirkPanel(Frozen):
    """The imaginary collector of the 2-player game (§7)."""

    colour: str
    score: int
    type_counts: dict[str, int]
    tiles: tuple[TileInfo, ...]


class PublicView(Frozen):
    """Everything everybody may see (no hand faces, no deck or bag order)."""

    game: str = "ny_henn"
    seats: int
    phase: str  # action | placement | final | over
    turn: int
    active: int
    to_act: tuple[int, ...]
    chain_open: bool  # the active player paid exactly and must act again
    display: tuple[str | None, ...]
    market: tuple[MarketSlot, ...]
    deck_size: int
    discard_size: int
    bag_size: int
    scoring_done: tuple[str, ...]
    scoring_cards_left: tuple[str, ...]  # "A"/"B" still in the deck
    players: tuple[PlayerPanel, ...]
    dirk: DirkPanel | None
    result: tuple[str, ...]
    last_move: str = ""
    places: tuple[
        int, ...
    ] = ()  # once over: each seat's place, 1 = first, tied seats share it (Dirk has none)


class Target(Frozen):
    """A pending tile and the cells where it may be placed now."""

    tile: str
    cells: tuple[tuple[int, int], ...]


class PrivateView(PublicView):
    """The public view plus ``seat``'s hand, per-bank totals, legal actions and placement targets."""

    seat: int
    hand: tuple[str, ...]
    bank_totals: dict[str, int]
    legal: tuple[str, ...]
    targets: tuple[Target, ...]


@cache  # one per tile of the game
def tile_info(tid: str) -> TileInfo:
    """The drawable description of a tile id."""
    t = ALL_TILES[tid]
    return TileInfo(id=t.id, type=t.type, price=t.price, streets=t.street_text)


def _fields(state: HennState) -> dict[str, object]:
    acting = acting_seats(state)
    players = []
    for s in range(state.seats):
        city = city_map(state, s)
        players.append(
            PlayerPanel(
                seat=s,
                label=seat_label(s),
                colour=START_COLOURS[s],
                score=state.scores[s],
                hand_count=len(state.hands[s]),
                street=street_value(city),
                type_counts=type_counts(list(city.values())),
                city=tuple(PlacedTile(x=x, y=y, tile=tile_info(t)) for x, y, t in state.cities[s]),
                reserve=tuple(tile_info(t) for t in state.reserves[s]),
                pending=tuple(tile_info(t) for t in state.pending[s]),
                active=s == state.active and state.phase in ("action", "placement"),
                to_act=s in acting,
                changed=tuple((x, y) for seat, x, y in state.changed if seat == s),
            )
        )
    dirk = None
    if state.two_player:
        dirk = DirkPanel(
            colour=DIRK_COLOUR,
            score=state.dirk_score,
            type_counts=type_counts(state.dirk),
            tiles=tuple(tile_info(t) for t in state.dirk),
        )
    return {
        "seats": state.seats,
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "to_act": tuple(sorted(acting)),
        "chain_open": state.chain_open,
        "display": state.display,
        "market": tuple(
            MarketSlot(bank=b, bank_name=BANK_NAMES[b], tile=None if t is None else tile_info(t))
            for b, t in zip(BANKS, state.market, strict=True)
        ),
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "bag_size": len(state.bag),
        "scoring_done": state.scored,
        "scoring_cards_left": tuple(c[-1] for c in SCORING_CARDS if c in state.deck),
        "players": tuple(players),
        "dirk": dirk,
        "result": state.result,
        "last_move": state.last_move,
        "places": places_of(state.scores) if state.phase == "over" else (),
    }


def public_view(state: HennState) -> PublicView:
    """The board as everybody sees it (§6, §9.1)."""
    return PublicView.model_validate(_fields(state))


def private_view(state: HennState, seat: int, legal: Sequence[str]) -> PrivateView:
    """``seat``'s DM view (§6, §9.3): own hand and totals, legal actions, where pending tiles may go."""
    hand = state.hands[seat]
    city = city_map(state, seat)
    targets = tuple(
        Target(tile=t, cells=tuple(c for c in frontier(city) if place_error(city, t, c) is None))
        for t in dict.fromkeys(state.pending[seat])
    )
    fields = _fields(state)
    fields.update(
        seat=seat,
        hand=hand,
        bank_totals={b: sum(card_value(c) for c in hand if card_bank(c) == b) for b in BANKS},
        legal=tuple(legal),
        targets=targets,
    )
    return PrivateView.model_validate(fields)
