"""What players may see (spec §6, §9): everything is public except the deck order and unused cards."""

from __future__ import annotations

from functools import lru_cache

from engine.core.contract import Frozen
from engine.ny1901.cards import (
    ACTION_NAMES,
    CHALLENGES,
    CHARACTER_BY_ID,
    DISTRICT_HEX,
    LOT_CELLS,
    LOT_IDS,
    LOT_TYPE,
    PLAYER_COLOURS,
    PLAYER_HEX,
    STREET_BY_ID,
    TILE_BY_ID,
    WIDTH,
    card_type,
)
from engine.ny1901.scoring import final_outcome, final_totals, street_counts, strict_leader
from engine.ny1901.state import NyState, free_workers, thresholds, unlocked


class LotView(Frozen):
    """One lot: id, district type, cells (x, y), owner seat (None if free) and worker."""

    id: str
    type: str
    hex: str
    cells: tuple[tuple[int, int], ...]
    owner: int | None
    worker: bool
    usable: bool  # False for pink lots in a 2-player game (§3.3)


class BuildingView(Frozen):
    """A building on the board (§9): tile, owner, tech, value, legendary name/height, cells."""

    tile: str
    owner: int
    tech: int
    value: int
    regular: bool | None
    name: str
    height: int
    rot: int
    at: tuple[int, int]
    cells: tuple[tuple[int, int], ...]


class StreetView(Frozen):
    """An active bonus street and its current leader (None when tied or empty)."""

    id: str
    name: str
    hex: str
    counts: tuple[int, ...]
    leader: int | None


class PlayerView(Frozen):
    """One side-panel row (§9)."""

    seat: int
    colour: str
    hex: str
    character: str
    character_name: str
    start_lot: str
    score: int
    level: str  # "B", "S" or "G"
    free_workers: int
    lot_cards: tuple[str, ...]  # types of acquired cards
    supply: tuple[str, ...]
    action_cards: tuple[str, ...]
    legendary: str | None
    to_act: bool
    final_turn_pending: bool


class NyView(Frozen):
    """The board image and status panel data; ``legal`` is filled only in a seat's private view."""

    seat: int | None
    turn_no: int
    active: int | None
    lots: tuple[LotView, ...]
    buildings: tuple[BuildingView, ...]
    market: tuple[str | None, ...]  # card types, slots 1-4
    deck_size: int
    streets: tuple[StreetView, ...]
    challenge: str | None
    challenge_name: str | None
    legend_pool: tuple[str, ...]
    thresholds: tuple[int, int]
    players: tuple[PlayerView, ...]
    end_triggered_by: int | None
    end_reason: str
    final_left: tuple[int, ...]
    over: bool
    highlight: tuple[tuple[int, int], ...]
    demolished: tuple[tuple[int, int], ...]
    last_move: str
    legal: tuple[str, ...] = ()
    final_scores: tuple[int, ...] = ()  # once over: the totals with the end bonuses, as the standings show
    places: tuple[int, ...] = ()  # once over: each seat's place, 1 = first, tied seats share it


@lru_cache(maxsize=4096)
def _xy(cells: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Board cells as (column, row); the same few shapes come up in every view, so they are kept."""
    return tuple((c % WIDTH, c // WIDTH) for c in cells)


@lru_cache(maxsize=4096)
def _lot_view(index: int, owner: int | None, worker: bool, usable: bool) -> LotView:
    """Lot ``index`` as a view: the board has few lots and they change rarely, so each is made once."""
    lot = LOT_IDS[index]
    return LotView(
        id=lot,
        type=LOT_TYPE[index],
        hex=DISTRICT_HEX[lot[0]],
        cells=_xy(LOT_CELLS[index]),
        owner=owner,
        worker=worker,
        usable=usable,
    )


def make_view(state: NyState, seat: int | None, legal: tuple[str, ...]) -> NyView:
    """The view for ``seat`` (``None``: public). Deck order is never shown, only its size (§6)."""
    lots = tuple(
        _lot_view(
            i,
            state.lot_owner[i] if state.lot_owner[i] >= 0 else None,
            state.workers[i],
            not (state.two_player and lot[0] == "P"),
        )
        for i, lot in enumerate(LOT_IDS)
    )
    buildings = tuple(
        BuildingView(
            tile=b.tile,
            owner=b.owner,
            tech=TILE_BY_ID[b.tile].tech,
            value=TILE_BY_ID[b.tile].value,
            regular=TILE_BY_ID[b.tile].regular,
            name=TILE_BY_ID[b.tile].name,
            height=TILE_BY_ID[b.tile].height,
            rot=b.rot,
            at=(b.x, b.y),
            cells=_xy(b.cells),
        )
        for b in state.buildings
    )
    streets = []
    for sid in state.streets:
        counts = street_counts(state, sid)
        street = STREET_BY_ID[sid]
        streets.append(
            StreetView(
                id=sid, name=street.name, hex=street.hex, counts=tuple(counts), leader=strict_leader(counts)
            )
        )
    players = tuple(
        PlayerView(
            seat=s,
            colour=PLAYER_COLOURS[s],
            hex=PLAYER_HEX[s],
            character=state.characters[s],
            character_name=CHARACTER_BY_ID[state.characters[s]].name,
            start_lot=CHARACTER_BY_ID[state.characters[s]].start_lot,
            score=state.scores[s],
            level="BSG"[unlocked(state, s) - 1],
            free_workers=free_workers(state, s),
            lot_cards=tuple(card_type(c) for c in state.piles[s]),
            supply=state.supply[s],
            action_cards=tuple(ACTION_NAMES[c] for c in state.action_cards[s]),
            legendary=state.legend_of[s],
            to_act=not state.over and state.active == s,
            final_turn_pending=s in state.final_left,
        )
        for s in range(state.seats)
    )
    return NyView(
        seat=seat,
        turn_no=state.turn_no,
        active=None if state.over else state.active,
        lots=lots,
        buildings=buildings,
        market=tuple(card_type(c) if c else None for c in state.market),
        deck_size=len(state.deck),
        streets=tuple(streets),
        challenge=state.challenge,
        challenge_name=CHALLENGES[state.challenge] if state.challenge else None,
        legend_pool=state.legend_pool,
        thresholds=thresholds(state),
        players=players,
        end_triggered_by=state.trigger,
        end_reason=state.end_reason,
        final_left=state.final_left,
        over=state.over,
        highlight=_xy(state.highlight),
        demolished=_xy(state.demolished),
        last_move=state.last_move,
        legal=legal,
        final_scores=tuple(final_totals(state)[0]) if state.over else (),
        places=final_outcome(state).places if state.over else (),
    )
