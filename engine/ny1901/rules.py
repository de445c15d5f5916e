"""The rules of New York 1901 (spec: shared/games/ny1901.md) behind the ``GameRules`` contract."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, lru_cache
from typing import ClassVar

from pydantic import BaseModel

from engine.core.contract import Event, HiddenPile, Outcome, RulesDefaults, Step, public
from engine.core.errors import IllegalAction, NotYourTurn
from engine.core.rng import Rng
from engine.core.say import Say, items, who
from engine.ny1901 import views, words
from engine.ny1901.actions import Action, act, notation, parse
from engine.ny1901.cards import (
    ACTION_CARDS,
    CELL_FACES,
    CELL_LOT,
    CHALLENGES,
    CHARACTER_BY_ID,
    CHARACTERS,
    END_SUPPLY,
    HEIGHT,
    LEGENDARY,
    LOT_CELLS,
    LOT_IDS,
    LOT_INDEX,
    LOT_TYPE,
    NEIGHBOURS,
    STREET_BY_ID,
    STREET_CARDS,
    STREET_OF_CARD,
    SUPPLY_TILES,
    TECH_NAMES,
    TILE_BY_ID,
    WIDTH,
    all_lot_cards,
    canonical_rots,
    card_type,
    footprint,
)
from engine.ny1901.scoring import final_outcome
from engine.ny1901.state import Building, NyState, Turn, free_workers, seat_name, thresholds, unlocked
from engine.ny1901.words import say, say_n

OPTIONS: Mapping[str, str] = {
    "intro": "§7.2 introductory game: no challenge card",
    "expert": "§7.3 expert rules: no starting properties, silver at 10 and gold at 25 points",
}

Placement = tuple[int, int, int, tuple[int, ...]]  # rot, x, y, covered cells


# ---------------------------------------------------------------------------------------------
# Geometry helpers


def estate_cells(state: NyState, seat: int) -> frozenset[int]:
    """Lot cells of every lot the seat owns (§4.1 estate)."""
    return frozenset(c for i, o in enumerate(state.lot_owner) if o == seat for c in LOT_CELLS[i])


@cache
def _shape_index(shape: str) -> dict[int, tuple[tuple[int, Placement], ...]]:
    """All placements of ``shape`` on lot cells obeying P5/P6, keyed by the lowest lot they touch.

    Each entry carries the bit mask of the lots it touches, so an estate test is one AND.
    """
    index: dict[int, list[tuple[int, Placement]]] = {}
    seen: set[tuple[int, ...]] = set()
    for rot in canonical_rots(shape):
        for y in range(HEIGHT):
            for x in range(WIDTH):
                cells = footprint(shape, rot, x, y)
                if cells is None or cells in seen or any(c not in CELL_LOT for c in cells):
                    continue
                if not any(c in CELL_FACES for c in cells):
                    continue
                seen.add(cells)
                lots = {CELL_LOT[c] for c in cells}
                mask = sum(1 << i for i in lots)
                index.setdefault(min(lots), []).append((mask, (rot, x, y, cells)))
    return {k: tuple(v) for k, v in index.items()}


@lru_cache(maxsize=8192)
def placements(shape: str, owned_mask: int) -> tuple[Placement, ...]:
    """Every placement of ``shape`` inside the lots of ``owned_mask`` obeying P3, P5 and P6."""
    index = _shape_index(shape)
    out: list[Placement] = []
    lot = 0
    mask = owned_mask
    while mask:
        if mask & 1:
            for m, placement in index.get(lot, ()):
                if m & ~owned_mask == 0:
                    out.append(placement)
        mask >>= 1
        lot += 1
    out.sort(key=lambda p: (p[2], p[1], p[0]))
    return tuple(out)


def owned_mask(state: NyState, seat: int) -> int:
    """Bit mask of the seat's lots (bit i = ``LOT_IDS[i]``)."""
    return sum(1 << i for i, o in enumerate(state.lot_owner) if o == seat)


def cover_map(state: NyState) -> dict[int, int]:
    """Covered cell -> index of the building in ``state.buildings``."""
    return {c: i for i, b in enumerate(state.buildings) for c in b.cells}


def touched_lots(cells: Sequence[int]) -> set[int]:
    """Lots with at least one of ``cells``."""
    return {CELL_LOT[c] for c in cells}


def available_tiles(state: NyState, seat: int) -> list[str]:
    """Tiles the seat may build now (P1, P2): unlocked supply tiles, plus legendaries if allowed."""
    level = unlocked(state, seat)
    tiles = [t for t in state.supply[seat] if TILE_BY_ID[t].tech <= level]
    if level >= 3 and state.legend_of[seat] is None:
        tiles.extend(state.legend_pool)
    return tiles


def _emptied(
    state: NyState, seat: int, cells: Sequence[int], demolish: set[int], cover: dict[int, int]
) -> list[int]:
    """§4.6 E: owned lots left with no covered cell and no worker after the change, sorted."""
    touched = touched_lots(cells)
    out = []
    for i, owner in enumerate(state.lot_owner):
        if owner != seat or i in touched or state.workers[i]:
            continue
        if not any(c in cover and cover[c] not in demolish for c in LOT_CELLS[i]):
            out.append(i)
    return out


def _lifted(state: NyState, seat: int, cells: Sequence[int]) -> list[int]:
    """Lots of the seat with a worker that the new footprint touches (R6)."""
    return sorted(i for i in touched_lots(cells) if state.workers[i] and state.lot_owner[i] == seat)


def placement_error(
    state: NyState, seat: int, tile: str, cells: tuple[int, ...] | None, mode: str, cover: dict[int, int]
) -> str | None:
    """Why placing ``tile`` on ``cells`` breaks P1–P7 (``mode``: "build" or "rebuild"), else ``None``."""
    info = TILE_BY_ID[tile]
    if tile == "ST":
        return "P1: the starting property is never built"
    if info.name:
        if tile not in state.legend_pool:
            return f"P1: {info.name} ({tile}) has already been built"
        if state.legend_of[seat] is not None:
            return "P1: each player may build only one legendary skyscraper"
    elif tile not in state.supply[seat]:
        return f"P1: {tile} is not in your supply"
    level = unlocked(state, seat)
    if info.tech > level:
        silver, gold = thresholds(state)
        need = silver if info.tech == 2 else gold
        return f"P2: {TECH_NAMES[info.tech]} needs {need} points (you have {state.scores[seat]})"
    if cells is None:
        return "P6: the tile would leave the board"
    owned = set(i for i, o in enumerate(state.lot_owner) if o == seat)
    for c in cells:
        lot = CELL_LOT.get(c)
        if lot is None:
            return f"P3: {c % WIDTH},{c // WIDTH} is not a lot cell"
        if lot not in owned:
            return f"P3: {c % WIDTH},{c // WIDTH} lies on {LOT_IDS[lot]}, which you do not own"
    if mode == "build":
        for c in cells:
            if c in cover:
                return f"P4: {c % WIDTH},{c // WIDTH} is already built on (build needs free cells)"
    else:
        demolish = {cover[c] for c in cells if c in cover}
        if not demolish:
            return "P4: a rebuild must cover at least one of your buildings"
        for i in sorted(demolish):
            b = state.buildings[i]
            if b.owner != seat:
                return f"P4: {b.tile} belongs to {seat_name(state, b.owner)}"
            if TILE_BY_ID[b.tile].tech >= info.tech:
                return (
                    f"P4: {b.tile} is {TECH_NAMES[TILE_BY_ID[b.tile].tech]}; "
                    f"{tile} ({TECH_NAMES[info.tech]}) may only replace lower technology"
                )
    if not any(c in CELL_FACES for c in cells):
        return "P5: the building must face a street or a park"
    if mode == "rebuild":
        demolish = {cover[c] for c in cells if c in cover}
        empty = _emptied(state, seat, cells, demolish, cover)
        avail = free_workers(state, seat) + len(_lifted(state, seat, cells))
        if len(empty) > avail:
            return (
                f"P7: {len(empty)} lot{'s' if len(empty) != 1 else ''} would be left empty but you have "
                f"{avail} free worker{'s' if avail != 1 else ''}"
            )
    return None


def _iter_placements(state: NyState, seat: int, kind: str, cover: dict[int, int]) -> Iterator[Action]:
    """Every legal ``build``/``boom`` (build mode) or ``rebuild`` action, stable order, lazily."""
    estate = owned_mask(state, seat)
    rebuild = kind == "rebuild"
    fw = free_workers(state, seat)
    # Owned lots without a worker -> the buildings covering them; such a lot empties (§4.6 E) when the
    # new footprint misses it and every building on it is demolished.
    bare: list[tuple[int, frozenset[int]]] = []
    if rebuild:
        for i, owner in enumerate(state.lot_owner):
            if owner == seat and not state.workers[i]:
                bare.append((i, frozenset(cover[c] for c in LOT_CELLS[i] if c in cover)))
    techs = [TILE_BY_ID[b.tile].tech if b.owner == seat else 9 for b in state.buildings]
    for tile in available_tiles(state, seat):
        info = TILE_BY_ID[tile]
        if kind == "boom" and not info.name and len(state.supply[seat]) - 1 < END_SUPPLY:
            continue
        for rot, x, y, cells in placements(info.shape, estate):
            if not rebuild:
                if any(c in cover for c in cells):
                    continue
            else:
                demolish = {cover[c] for c in cells if c in cover}
                if not demolish or any(techs[i] >= info.tech for i in demolish):
                    continue
                touched = {CELL_LOT[c] for c in cells}
                empty = sum(1 for i, on in bare if i not in touched and on <= demolish)
                if empty:
                    lifted = sum(1 for i in touched if state.workers[i])
                    if empty > fw + lifted:
                        continue
            yield act(kind, tile=tile, rot=rot, x=x, y=y)  # type: ignore[arg-type]


def placement_actions(state: NyState, seat: int, kind: str, cover: dict[int, int]) -> list[Action]:
    """Every legal ``build``/``boom`` (build mode) or ``rebuild`` action, stable order."""
    return list(_iter_placements(state, seat, kind, cover))


def _any_placement(state: NyState, seat: int, cover: dict[int, int]) -> bool:
    return any(True for _ in _iter_placements(state, seat, "build", cover)) or any(
        True for _ in _iter_placements(state, seat, "rebuild", cover)
    )


def _free_lots_of_type(state: NyState, typ: str) -> list[str]:
    return [LOT_IDS[i] for i, o in enumerate(state.lot_owner) if o < 0 and LOT_TYPE[i] == typ]


# ---------------------------------------------------------------------------------------------
# Turn-phase logic


def _can_shift(state: NyState, seat: int) -> bool:
    """§4.3: first action, card held, deck ≥ 4 (R10), market full."""
    t = state.turn
    return (
        t.main is None
        and not t.shifted
        and "A-SHIFT" in state.action_cards[seat]
        and len(state.deck) >= 4
        and all(c is not None for c in state.market)
    )


def _forced_giveback(state: NyState, seat: int, cover: dict[int, int]) -> bool:
    """§4.4: 0 free workers and no legal build or rebuild."""
    return free_workers(state, seat) == 0 and not _any_placement(state, seat, cover)


def _acquisitions(state: NyState, kind: str, size2_only: bool) -> list[Action]:
    out = []
    for slot, card in enumerate(state.market, start=1):
        if card is None:
            continue
        typ = card_type(card)
        if size2_only and typ[1] != "2":
            continue
        for lot in _free_lots_of_type(state, typ):
            out.append(act(kind, slot=slot, lot=lot))  # type: ignore[arg-type]
    return out


def _can_grab(state: NyState, seat: int) -> bool:
    """§4.5 grab preconditions apart from the chosen card."""
    t = state.turn
    return (
        t.main == "take"
        and t.take_size == 2
        and not t.grabbed
        and "A-GRAB" in state.action_cards[seat]
        and free_workers(state, seat) >= 1
        and len(state.deck) > 0
    )


def _can_boom(state: NyState, seat: int) -> bool:
    """§4.5 boom preconditions apart from the placement (R11)."""
    t = state.turn
    return t.built and not t.boomed and "A-BOOM" in state.action_cards[seat]


def extras(state: NyState, seat: int, cover: dict[int, int]) -> list[Action]:
    """Optional extras after the main action (without ``end``)."""
    t = state.turn
    out: list[Action] = []
    if t.main == "take" and not t.built:
        out.extend(placement_actions(state, seat, "build", cover))
    if _can_grab(state, seat):
        out.extend(_acquisitions(state, "grab", size2_only=True))
    if _can_boom(state, seat):
        out.extend(placement_actions(state, seat, "boom", cover))
    return out


def has_extra(state: NyState, seat: int, cover: dict[int, int]) -> bool:
    """Whether any optional extra is legal (else the turn ends by itself, §4.2)."""
    t = state.turn
    if t.main == "take" and not t.built and any(True for _ in _iter_placements(state, seat, "build", cover)):
        return True
    if _can_grab(state, seat) and _acquisitions(state, "grab", size2_only=True):
        return True
    return _can_boom(state, seat) and any(True for _ in _iter_placements(state, seat, "boom", cover))


def legal(state: NyState, seat: int) -> list[Action]:
    """Every legal action of ``seat`` in a stable order."""
    if state.over or seat != state.active:
        return []
    cover = cover_map(state)
    t = state.turn
    if t.main is not None:
        return [*extras(state, seat, cover), act("end")]
    out: list[Action] = []
    final = state.final_round
    if _forced_giveback(state, seat, cover):
        out.extend(
            act("giveback", lot=LOT_IDS[i])
            for i, w in enumerate(state.workers)
            if w and state.lot_owner[i] == seat
        )
    else:
        fw = free_workers(state, seat)
        market = any(c is not None for c in state.market)
        if fw and market:
            out.extend(_acquisitions(state, "take", size2_only=False))
        if not fw or not market:
            out.extend(placement_actions(state, seat, "build", cover))
        out.extend(placement_actions(state, seat, "rebuild", cover))
    if final or not out:
        out.append(act("pass"))  # R19 final-round pass; §4.10 automatic pass when nothing is legal
    if _can_shift(state, seat):
        out.insert(0, act("shift"))
    return out


# ---------------------------------------------------------------------------------------------
# State changes


def _place(
    state: NyState,
    seat: int,
    tile: str,
    rot: int,
    x: int,
    y: int,
    cells: tuple[int, ...],
    cover: dict[int, int],
    said: list[Say],
) -> tuple[NyState, list[str], bool]:
    """§4.5/§4.6 effects of a placement: demolish, lift workers, place, refill emptied lots, score.

    Returns the new state, effect texts and whether the 4-tiles-left trigger ends the turn; the effects
    as sentences go to ``said``.
    """
    info = TILE_BY_ID[tile]
    demolish = {cover[c] for c in cells if c in cover}
    effects: list[str] = []
    empty = _emptied(state, seat, cells, demolish, cover) if demolish else []
    workers = list(state.workers)
    for i in _lifted(state, seat, cells):
        workers[i] = False
    for i in empty:
        workers[i] = True  # mandatory worker on each emptied lot (§4.6)
    demolished_cells: list[int] = []
    if demolish:
        effects.append("demolished " + ",".join(state.buildings[i].tile for i in sorted(demolish)))
        gone = items(words.TILE_WORDS[state.buildings[i].tile] for i in sorted(demolish))
        said.append(say("demolishing {tiles}", tiles=gone))
        for i in sorted(demolish):
            demolished_cells.extend(state.buildings[i].cells)
    if empty:
        effects.append("worker to " + ",".join(LOT_IDS[i] for i in empty))
        said.append(say("a worker goes to {lots}", lots=items(words.lot(LOT_IDS[i]) for i in empty)))
    kept = [b for i, b in enumerate(state.buildings) if i not in demolish]
    new = Building(tile=tile, owner=seat, cells=cells, rot=rot, x=x, y=y)
    buildings = (*kept, new)
    supply = list(state.supply)
    legend_pool = state.legend_pool
    legend_of = list(state.legend_of)
    if info.name:
        legend_pool = tuple(t for t in legend_pool if t != tile)
        legend_of[seat] = tile
    else:
        supply[seat] = tuple(t for t in supply[seat] if t != tile)
    gain = info.value
    bonus = 0
    if state.challenge == "X-PRESTIGE" and info.tech == 3:
        # R20: opponents' bronze/silver buildings touching the new tile, after demolition.
        around = {n for c in cells for n in NEIGHBOURS[c]} - set(cells)
        bonus = sum(
            1 for b in kept if b.owner != seat and TILE_BY_ID[b.tile].tech in (1, 2) and around & set(b.cells)
        )
    scores = list(state.scores)
    scores[seat] += gain + bonus
    prestige = list(state.prestige)
    prestige[seat] += bonus
    effects.append(f"+{gain}" + (f" (+{bonus} prestige)" if bonus else "") + f" ({scores[seat]})")
    said.append(say_n("+{count} point", "+{count} points", gain))
    if bonus:
        said.append(say_n("+{count} prestige point", "+{count} prestige points", bonus))
    said.append(say("{total} in all", total=scores[seat]))
    trigger = state.trigger
    reason = state.end_reason
    ends = not info.name and len(supply[seat]) == END_SUPPLY
    if ends:
        effects.append(f"{seat_name(state, seat)} has {END_SUPPLY} tiles left")
        said.append(say_n("{count} tile left", "{count} tiles left", END_SUPPLY))
        if trigger is None:
            trigger, reason = seat, "tiles"
            effects.append("END TRIGGERED")
            said.append(say("the end of the game is triggered"))
    new_state = state.model_copy(
        update={
            "workers": tuple(workers),
            "buildings": buildings,
            "supply": tuple(supply),
            "legend_pool": legend_pool,
            "legend_of": tuple(legend_of),
            "scores": tuple(scores),
            "prestige": tuple(prestige),
            "trigger": trigger,
            "end_reason": reason,
            "highlight": cells,
            "demolished": tuple(sorted(demolished_cells)),
        }
    )
    return new_state, effects, ends


def _acquire(state: NyState, seat: int, slot: int, lot: str) -> NyState:
    card = state.market[slot - 1]
    assert card is not None
    i = LOT_INDEX[lot]
    owners = list(state.lot_owner)
    owners[i] = seat
    workers = list(state.workers)
    workers[i] = True
    market = list(state.market)
    market[slot - 1] = None  # no refill before the end of the turn (§4.5)
    piles = list(state.piles)
    piles[seat] = (*piles[seat], card)
    return state.model_copy(
        update={
            "lot_owner": tuple(owners),
            "workers": tuple(workers),
            "market": tuple(market),
            "piles": tuple(piles),
            "highlight": LOT_CELLS[i],
            "demolished": (),
        }
    )


def _discard_card(state: NyState, seat: int, card: str) -> NyState:
    cards = list(state.action_cards)
    cards[seat] = tuple(c for c in cards[seat] if c != card)
    return state.model_copy(update={"action_cards": tuple(cards)})


_ERROR_SAYS = {
    "shift: Market Shift may only be the very first action of the turn": say(
        "Market Shift may only be the very first action of your turn"
    ),
    "shift: you have already used Market Shift": say("you have already used Market Shift"),
    "pass: you have already acted this turn; use end": say(
        "you have already acted this turn: end it instead"
    ),
    "R12: you may not pass outside the final round": say("you may not pass before the final round"),
    "end: choose your main action first": say("choose your main action first"),
    "§4.4: give-back is only allowed with 0 free workers and no legal build or rebuild": say(
        "you may give back a lot only with no free worker and nothing to build"
    ),
    "§4.4: you have no free worker and nothing to build: give back a lot": say(
        "you have no free worker and nothing to build: give back a lot"
    ),
    "take: land is acquired only as the first main action": say("land is taken only as the first action"),
    "take: you have no free worker": say("you have no free worker"),
    "grab: Land Grab needs a take first this turn": say("Land Grab comes after taking a lot card this turn"),
    "grab: you have already used Land Grab": say("you have already used Land Grab"),
    "grab: only one Land Grab per turn": say("only one Land Grab per turn"),
    "grab: Land Grab forbids 3-cell lots this turn": say("Land Grab cannot take a lot of 3 cells"),
    "grab: you have no free worker": say("you have no free worker"),
    "grab: Land Grab is not usable when the deck is empty": say(
        "Land Grab cannot be used when the deck is empty"
    ),
    "build: with a free worker and cards in the market, option 1 starts with take": say(
        "with a free worker and cards in the market, your turn starts by taking a lot card"
    ),
    "build: only one build per turn (after take); use boom for a second": say(
        "only one building per turn; Construction Boom allows a second"
    ),
    "rebuild: option 2 must be the turn's main action": say(
        "demolish and rebuild must be your turn's action"
    ),
    "boom: you have already used Construction Boom": say("you have already used Construction Boom"),
    "boom: Construction Boom needs a first build this turn (R11)": say(
        "Construction Boom comes after a first building this turn"
    ),
    "P1: the starting property is never built": say("the starting property is never built"),
    "P1: each player may build only one legendary skyscraper": say(
        "each player may build one legendary skyscraper"
    ),
    "P6: the tile would leave the board": say("the tile would leave the board"),
    "P4: a rebuild must cover at least one of your buildings": say(
        "a rebuild must cover one of your buildings"
    ),
    "P5: the building must face a street or a park": say("the building must face a street or a park"),
}


def error_say(message: str) -> Say:
    """A refusal of ``_error`` or ``placement_error`` as a sentence: lots, tiles and cells by name."""
    if message in _ERROR_SAYS:
        return _ERROR_SAYS[message]
    numbers = re.findall(r"\d+", message)
    lot = re.search(r"\b([GBYRP]\d\d)\b", message)
    tile = next(
        (t for t in re.findall(r"\b([A-Z]{2}\d?|[A-Z]{3})\b", message) if t in words.TILE_WORDS), None
    )
    cell = re.search(r"(\d+),(\d+)", message)
    if "Market Shift needs 4 cards" in message:
        return say_n(
            "Market Shift needs 4 cards in the deck; there is {count}",
            "Market Shift needs 4 cards in the deck; there are {count}",
            int(numbers[0]),
        )
    if "does not carry your worker" in message and lot:
        return say("{lot} does not carry your worker", lot=words.lot(lot[1]))
    if "is already owned" in message and lot:
        return say("{lot} already has an owner", lot=words.lot(lot[1]))
    if "market slot" in message and message.endswith("is empty"):
        return say("market slot {slot} is empty", slot=numbers[0])
    if "which does not match" in message and lot:
        return say("that lot card does not match {lot}", lot=words.lot(lot[1]))
    if "Construction Boom may not leave fewer than" in message:
        return say("Construction Boom may not leave you fewer than {count} tiles", count=numbers[0])
    if message.startswith("P1:") and tile and "already been built" in message:
        return say("{tile} has already been built", tile=words.TILE_WORDS[tile])
    if message.startswith("P1:") and tile:
        return say("{tile} is not among your tiles", tile=words.TILE_WORDS[tile])
    if message.startswith("P2:"):
        return say(
            "that tile needs {points} points (you have {score})", points=numbers[-2], score=numbers[-1]
        )
    if message.startswith("P3:") and cell and "not a lot cell" in message:
        return say("column {x}, row {y} is not on a lot", x=cell[1], y=cell[2])
    if message.startswith("P3:") and cell and lot:
        return say(
            "column {x}, row {y} is on {lot}, which is not yours", x=cell[1], y=cell[2], lot=words.lot(lot[1])
        )
    if message.startswith("P4:") and cell:
        return say("column {x}, row {y} is already built on", x=cell[1], y=cell[2])
    if message.startswith("P4:") and "belongs to" in message:
        return say("that building belongs to another player")
    if message.startswith("P4:"):
        return say("a building may only replace one of lower technology")
    if message.startswith("P7:"):
        return say_n(
            "{count} lot would be left empty, more than your free workers ({workers})",
            "{count} lots would be left empty, more than your free workers ({workers})",
            int(numbers[1]),
            workers=numbers[-1],
        )
    return say("that move is not possible now")


def _end_turn(state: NyState, events: list[Event]) -> NyState:
    """§4.9: refill, deck trigger, final round bookkeeping, next player."""
    seat = state.active
    market = list(state.market)
    deck = list(state.deck)
    for i in range(4):  # R17: ascending slot order
        if market[i] is None and deck:
            market[i] = deck.pop(0)
    trigger, reason = state.trigger, state.end_reason
    if not deck and sum(c is not None for c in market) < 4 and trigger is None:
        trigger, reason = seat, "market"
        events.append(
            public(
                f"{seat_name(state, seat)} triggered the end: the market cannot be refilled",
                say("{player} triggers the end: the market cannot be refilled", player=who(seat)),
            )
        )
    update: dict[str, object] = {
        "market": tuple(market),
        "deck": tuple(deck),
        "trigger": trigger,
        "end_reason": reason,
        "turn": Turn(),
        "turn_no": state.turn_no + 1,
    }
    if state.final_round:
        left = state.final_left[1:]
        update["final_left"] = left
        if not left:
            update["over"] = True
            events.append(
                public(
                    "The final round is over: final scoring", say("The final round is over: final scoring")
                )
            )
        else:
            update["active"] = left[0]
    elif trigger is not None:
        left = tuple((seat + k) % state.seats for k in range(1, state.seats))
        update["final_left"] = left
        update["active"] = left[0]
        events.append(
            public(
                "Final round: " + ", ".join(seat_name(state, s) for s in left) + " play once more",
                say("Final round: {players} play once more", players=items(map(who, left))),
            )
        )
    else:
        update["active"] = (seat + 1) % state.seats
    return state.model_copy(update=update)


# ---------------------------------------------------------------------------------------------
# The rules object


class Ny1901Rules(RulesDefaults):
    """New York 1901 (Blue Orange, 2015) per shared/games/ny1901.md."""

    name: ClassVar[str] = "ny1901"
    title: ClassVar[str] = "New York 1901"
    summary: ClassVar[str] = (
        "Draft lot cards, claim matching lots of Lower Manhattan with your workers and build polyomino "
        "skyscrapers on them for points. Bronze unlocks silver at 6 points and gold at 18; later demolish "
        "your own lower-tech buildings to rebuild higher. Street majorities, a challenge card and unused "
        "action cards score at the end, which comes when someone has 4 tiles left or the market runs dry."
    )
    seat_counts: ClassVar[range] = range(2, 5)
    options: ClassVar[Mapping[str, str]] = OPTIONS
    state_model: ClassVar[type[BaseModel]] = NyState
    # §6: the deck order is the only secret; a turn's end refills the market from it.
    hidden_piles: ClassVar[Mapping[str, HiddenPile] | None] = {"deck": HiddenPile()}

    def _deal(self, seats: int, seed: int, options: frozenset[str]) -> tuple[NyState, list[Event]]:
        self.validate_setup(seats, options)
        two = seats == 2
        expert = "expert" in options
        intro = "intro" in options
        rng = Rng.from_seed(seed)
        # §3 RNG order: characters, lot deck, streets, challenge, first player.
        chars = [c.id for c in CHARACTERS if not (two and c.district == "P")]
        dealt = rng.shuffled(chars)[:seats]
        start_cards = [f"{CHARACTER_BY_ID[c].district}2#1" for c in dealt]
        rest = [c for c in all_lot_cards(two) if c not in start_cards]
        deck = rng.shuffled(rest)
        market = tuple(deck[:4])
        deck = deck[4:]
        streets = tuple(STREET_OF_CARD[c] for c in rng.shuffled(STREET_CARDS)[:3])
        challenge = None if intro else rng.shuffled(list(CHALLENGES))[0]
        first = rng.below(seats)
        owners = [-1] * len(LOT_IDS)
        workers = [False] * len(LOT_IDS)
        buildings: list[Building] = []
        for s, cid in enumerate(dealt):
            lot = LOT_INDEX[CHARACTER_BY_ID[cid].start_lot]
            owners[lot] = s
            if expert:
                workers[lot] = True  # R15
            else:
                cells = LOT_CELLS[lot]
                x, y = cells[0] % WIDTH, cells[0] // WIDTH
                rot = 0 if cells[1] - cells[0] == 1 else 90
                buildings.append(Building(tile="ST", owner=s, cells=cells, rot=rot, x=x, y=y))
        state = NyState(
            seats=seats,
            expert=expert,
            intro=intro,
            characters=tuple(dealt),
            lot_owner=tuple(owners),
            workers=tuple(workers),
            buildings=tuple(buildings),
            supply=tuple(SUPPLY_TILES for _ in range(seats)),
            legend_pool=LEGENDARY,
            legend_of=tuple(None for _ in range(seats)),
            action_cards=tuple(ACTION_CARDS for _ in range(seats)),
            scores=(0,) * seats,
            prestige=(0,) * seats,
            piles=tuple((c,) for c in start_cards),
            deck=tuple(deck),
            market=market,
            streets=streets,
            challenge=challenge,
            first=first,
            active=first,
            rng=rng.state,
        )
        events = [
            public(
                f"{seat_name(state, s)} is {CHARACTER_BY_ID[c].name} "
                f"(start lot {CHARACTER_BY_ID[c].start_lot})",
                say(
                    "{player} is {character}, starting on {lot}",
                    player=who(s),
                    character=CHARACTER_BY_ID[c].name,
                    lot=words.lot(CHARACTER_BY_ID[c].start_lot),
                ),
            )
            for s, c in enumerate(dealt)
        ]
        street_names = [STREET_BY_ID[s].name for s in streets]
        events.append(
            public(
                "Streets of New York: " + ", ".join(street_names),
                say("Streets of New York this game: {streets}", streets=items(street_names)),
            )
        )
        events.append(
            public(
                f"Challenge: {CHALLENGES[challenge]}" if challenge else "Introductory game: no challenge",
                say("Challenge card: {challenge}", challenge=words.CHALLENGE_WORDS[challenge])
                if challenge
                else say("Introductory game: no challenge card"),
            )
        )
        events.append(
            public(f"{seat_name(state, first)} plays first", say("{player} plays first", player=who(first)))
        )
        return state, events

    def setup(self, seats: int, seed: int, options: frozenset[str]) -> NyState:
        """The opening state (§3)."""
        return self._deal(seats, seed, options)[0]

    def setup_events(self, seats: int, seed: int, options: frozenset[str]) -> Sequence[Event]:
        """Public log of the deal."""
        return self._deal(seats, seed, options)[1]

    def to_act(self, state: NyState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.active})

    def legal_actions(self, state: NyState, seat: int) -> Sequence[Action]:
        return legal(state, seat)

    def apply(self, state: NyState, seat: int, action: Action) -> Step[NyState]:
        """Play ``action`` (pure); ends the turn automatically when only ``end`` would remain."""
        if state.over or seat != state.active:
            waiting = "nobody: the game is over" if state.over else seat_name(state, state.active)
            refusal = (
                say("the game is over")
                if state.over
                else say("it is {player}'s turn", player=who(state.active))
            )
            raise NotYourTurn(f"it is not your turn (waiting for {waiting})", say=refusal)
        cover = cover_map(state)
        error = self._error(state, seat, action, cover)
        if error is not None:
            raise IllegalAction(error, [notation(a) for a in legal(state, seat)], error_say(error))
        text = notation(action)
        events: list[Event] = []
        effects: list[str] = []
        said: list[Say] = []
        move = self._sentence(state, seat, action)
        t = state.turn
        end_now = False
        k = action.kind
        if k == "shift":
            market = tuple(state.deck[:4])
            rng = Rng(state.rng)
            old = [c for c in state.market if c is not None]
            deck = (*state.deck[4:], *rng.shuffled(old))
            state = _discard_card(state, seat, "A-SHIFT").model_copy(
                update={
                    "market": market,
                    "deck": deck,
                    "rng": rng.state,
                    "turn": t.model_copy(update={"shifted": True}),
                }
            )
            effects.append("market: " + " ".join(card_type(c) for c in market))
            said.append(say("the market now offers {cards}", cards=items(map(words.lot_card, market))))
        elif k in ("take", "grab"):
            assert action.slot is not None and action.lot is not None
            card = state.market[action.slot - 1]
            assert card is not None
            state = _acquire(state, seat, action.slot, action.lot)
            effects.append(f"{card_type(card)} card")
            if k == "take":
                state = state.model_copy(
                    update={
                        "turn": t.model_copy(update={"main": "take", "take_size": int(card_type(card)[1])})
                    }
                )
            else:
                state = _discard_card(state, seat, "A-GRAB").model_copy(
                    update={"turn": t.model_copy(update={"grabbed": True})}
                )
        elif k in ("build", "boom", "rebuild"):
            assert action.tile is not None and action.x is not None and action.y is not None
            cells = footprint(TILE_BY_ID[action.tile].shape, action.rot, action.x, action.y)
            assert cells is not None
            state, effects, end_now = _place(
                state, seat, action.tile, action.rot, action.x, action.y, cells, cover, said
            )
            if k == "boom":
                state = _discard_card(state, seat, "A-BOOM")
                turn = t.model_copy(update={"boomed": True})
            elif t.main is None:
                turn = t.model_copy(update={"main": k, "built": True})
            else:
                turn = t.model_copy(update={"built": True})
            state = state.model_copy(update={"turn": turn})
        elif k == "giveback":
            assert action.lot is not None
            i = LOT_INDEX[action.lot]
            typ = LOT_TYPE[i]
            pile = list(state.piles[seat])
            card = next(c for c in reversed(pile) if card_type(c) == typ)
            pile.remove(card)
            piles = list(state.piles)
            piles[seat] = tuple(pile)
            owners = list(state.lot_owner)
            owners[i] = -1
            workers = list(state.workers)
            workers[i] = False
            state = state.model_copy(
                update={
                    "piles": tuple(piles),
                    "lot_owner": tuple(owners),
                    "workers": tuple(workers),
                    "deck": (*state.deck, card),  # R21: under the deck
                    "highlight": LOT_CELLS[i],
                    "demolished": (),
                }
            )
            effects.append(f"{typ} card under the deck")
            end_now = True
        elif k in ("end", "pass"):
            end_now = True
        line = f"T{state.turn_no} {seat_name(state, seat)}: {text}"
        if effects:
            line += " → " + "; ".join(effects)
        if said:
            move = say("{move}: {effects}", move=move, effects=items(said, "comma"))
        events.append(public(line, move))
        state = state.model_copy(update={"last_move": text})
        if not end_now and k != "shift" and state.turn.main is not None:
            # §4.2: "end" is automatic when no optional extra is legal.
            end_now = not has_extra(state, seat, cover_map(state))
        if end_now:
            state = _end_turn(state, events)
        return Step(state=state, events=tuple(events))

    def _error(self, state: NyState, seat: int, action: Action, cover: dict[int, int]) -> str | None:
        """Why ``action`` is illegal now, naming the rule; ``None`` if it is legal."""
        t = state.turn
        k = action.kind
        first = t.main is None
        final = state.final_round
        forced = first and _forced_giveback(state, seat, cover)
        fw = free_workers(state, seat)
        market = any(c is not None for c in state.market)
        if k == "shift":
            if not first or t.shifted:
                return "shift: Market Shift may only be the very first action of the turn"
            if "A-SHIFT" not in state.action_cards[seat]:
                return "shift: you have already used Market Shift"
            if len(state.deck) < 4 or not all(c is not None for c in state.market):
                return f"shift: Market Shift needs 4 cards in the deck (there are {len(state.deck)}) (R10)"
            return None
        if k == "pass":
            if not first:
                return "pass: you have already acted this turn; use end"
            if final:
                return None
            # §4.10: outside the final round, pass only when nothing else is legal (shift aside).
            others = [a for a in legal(state, seat) if a.kind not in ("pass", "shift")]
            return "R12: you may not pass outside the final round" if others else None
        if k == "end":
            return "end: choose your main action first" if first else None
        if k == "giveback":
            if not forced:
                return "§4.4: give-back is only allowed with 0 free workers and no legal build or rebuild"
            assert action.lot is not None
            i = LOT_INDEX[action.lot]
            if state.lot_owner[i] != seat or not state.workers[i]:
                return f"§4.4: {action.lot} does not carry your worker"
            return None
        if forced:
            return "§4.4: you have no free worker and nothing to build: give back a lot"
        if k in ("take", "grab"):
            assert action.slot is not None and action.lot is not None
            if k == "take":
                if not first:
                    return "take: land is acquired only as the first main action"
                if fw == 0:
                    return "take: you have no free worker"
            else:
                if t.main != "take":
                    return "grab: Land Grab needs a take first this turn"
                if "A-GRAB" not in state.action_cards[seat]:
                    return "grab: you have already used Land Grab"
                if t.grabbed:
                    return "grab: only one Land Grab per turn"
                if t.take_size != 2:
                    return "grab: Land Grab forbids 3-cell lots this turn"
                if fw == 0:
                    return "grab: you have no free worker"
                if not state.deck:
                    return "grab: Land Grab is not usable when the deck is empty"
            card = state.market[action.slot - 1]
            if card is None:
                return f"{k}: market slot {action.slot} is empty"
            typ = card_type(card)
            if k == "grab" and typ[1] != "2":
                return "grab: Land Grab forbids 3-cell lots this turn"
            i = LOT_INDEX[action.lot]
            if state.lot_owner[i] >= 0:
                return f"{k}: {action.lot} is already owned"
            if LOT_TYPE[i] != typ:
                return (
                    f"{k}: slot {action.slot} holds a {typ} card, "
                    f"which does not match {action.lot} ({LOT_TYPE[i]})"
                )
            return None
        # build / boom / rebuild
        assert action.tile is not None and action.x is not None and action.y is not None
        if k == "build":
            if first:
                if fw and market:
                    return "build: with a free worker and cards in the market, option 1 starts with take"
            elif t.main != "take" or t.built:
                return "build: only one build per turn (after take); use boom for a second"
        elif k == "rebuild":
            if not first:
                return "rebuild: option 2 must be the turn's main action"
        else:
            if "A-BOOM" not in state.action_cards[seat]:
                return "boom: you have already used Construction Boom"
            if not t.built or t.boomed:
                return "boom: Construction Boom needs a first build this turn (R11)"
            if not TILE_BY_ID[action.tile].name and len(state.supply[seat]) - 1 < END_SUPPLY:
                return f"boom: Construction Boom may not leave fewer than {END_SUPPLY} tiles (R11)"
        cells = footprint(TILE_BY_ID[action.tile].shape, action.rot, action.x, action.y)
        return placement_error(
            state, seat, action.tile, cells, "rebuild" if k == "rebuild" else "build", cover
        )

    def outcome(self, state: NyState) -> Outcome | None:
        return final_outcome(state) if state.over else None

    def view(self, state: NyState, seat: int | None) -> BaseModel:
        """Public view, or the seat's view with its legal moves (§6: nothing else is secret)."""
        moves = tuple(notation(a) for a in legal(state, seat)) if seat is not None else ()
        return views.make_view(state, seat, moves)

    def notation(self, action: Action) -> str:
        return notation(action)

    def _sentence(self, state: NyState, seat: int, action: Action) -> Say:
        """What the log says ``seat`` did with ``action`` (its effects follow)."""
        k = action.kind
        player = who(seat)
        if k in ("take", "grab"):
            card = words.lot_card(str(state.market[(action.slot or 1) - 1]))
            lot = words.lot(str(action.lot))
            if k == "take":
                return say("{player} takes the {card} and claims {lot}", player=player, card=card, lot=lot)
            return say(
                "{player} plays Land Grab, takes the {card} and claims {lot}",
                player=player,
                card=card,
                lot=lot,
            )
        if k in ("build", "boom", "rebuild"):
            assert action.tile is not None and action.x is not None and action.y is not None
            cells = footprint(TILE_BY_ID[action.tile].shape, action.rot, action.x, action.y) or ()
            tile, lots = words.tile(action.tile), words.lots(cells)
            if k == "build":
                return say("{player} builds {tile} on {lots}", player=player, tile=tile, lots=lots)
            if k == "boom":
                return say(
                    "{player} plays Construction Boom and builds {tile} on {lots}",
                    player=player,
                    tile=tile,
                    lots=lots,
                )
            return say(
                "{player} demolishes and rebuilds: {tile} on {lots}", player=player, tile=tile, lots=lots
            )
        if k == "shift":
            return say("{player} plays Market Shift", player=player)
        if k == "giveback":
            return say(
                "{player} gives back {lot}; its card goes under the deck",
                player=player,
                lot=words.lot(str(action.lot)),
            )
        if k == "end":
            return say("{player} ends their turn", player=player)
        return say("{player} passes", player=player)

    def parse(self, text: str) -> Action:
        return parse(text)

    def resample_secrets(self, state: NyState, seat: int, rng: Rng) -> NyState:
        """§6: the only hidden thing is the deck order (from everyone); redraw it."""
        return state.model_copy(update={"deck": tuple(rng.shuffled(state.deck))})
