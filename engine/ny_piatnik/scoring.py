"""Final scoring (spec §5, §7.3, §7.4, ruling 17): connected groups, per-seat totals, places."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.contract import Frozen, Outcome
from engine.core.say import Say, items, who
from engine.ny_piatnik.cards import CELLS, COL_CELLS, SIZE
from engine.ny_piatnik.state import NyState, houses_of, seat_label
from engine.ny_piatnik.words import COLOURS, say

_FULL = (1 << CELLS) - 1
_COL0 = sum(1 << i for i in COL_CELLS[0])
_COL_LAST = sum(1 << i for i in COL_CELLS[SIZE - 1])


def grow(mask: int) -> int:
    """``mask`` plus its orthogonal neighbours (row-major 7×7 bit board)."""
    return (
        mask
        | ((mask << SIZE) & _FULL)
        | (mask >> SIZE)
        | ((mask << 1) & _FULL & ~_COL0)  # shifting left must not wrap col 6 onto the next row's col 0
        | ((mask >> 1) & ~_COL_LAST)
    )


def group_sizes(mask: int) -> list[int]:
    """Sizes of the orthogonally connected groups in a bit board (§5: diagonals do not connect)."""
    sizes = []
    while mask:
        comp = mask & -mask
        while True:
            grown = grow(comp) & mask
            if grown == comp:
                break
            comp = grown
        sizes.append(comp.bit_count())
        mask &= ~comp
    return sizes


def largest_group(mask: int) -> int:
    """Size of the largest connected group (0 for an empty board)."""
    return max(group_sizes(mask), default=0)


def colour_mask(board: Sequence[str | None], colour: str) -> int:
    """Bit board of the buildings owned by ``colour``."""
    mask = 0
    for i, owner in enumerate(board):
        if owner == colour:
            mask |= 1 << i
    return mask


class SeatScore(Frozen):
    """One seat's final score and its breakdown (§5)."""

    seat: int
    label: str
    houses: tuple[str, ...]
    largest: tuple[int, ...]  # largest group size per house
    buildings: int  # all buildings of the seat's houses
    others: int  # buildings outside the doubled group (base/V4) or outside the counted groups (V3)
    money: int
    total: int
    team_total: int | None = None
    place: int = 0


def seat_scores(
    state: NyState, board: Sequence[str | None] | None = None, money: Sequence[int] | None = None
) -> list[SeatScore]:
    """Every seat's score for ``board``/``money`` (defaults: the state's); places not yet set."""
    board = state.board if board is None else board
    money = state.money if money is None else money
    out = []
    for seat in range(state.seats):
        own = houses_of(state, seat)
        largest = []
        buildings = 0
        for colour in own:
            mask = colour_mask(board, colour)
            largest.append(largest_group(mask))
            buildings += mask.bit_count()
        if state.two_player:
            # §7.3: the two largest groups (one per house) score 1 each; nothing else counts.
            total = sum(largest) + money[seat]
        else:
            # §5: largest group ×2 (ruling 18: only one of equal groups), every other building 1.
            total = 2 * sum(largest) + (buildings - sum(largest)) + money[seat]
        out.append(
            SeatScore(
                seat=seat,
                label=seat_label(state, seat),
                houses=own,
                largest=tuple(largest),
                buildings=buildings,
                others=buildings - sum(largest),
                money=money[seat],
                total=total,
            )
        )
    return out


def _places(keys: Sequence[tuple[int, ...]]) -> list[int]:
    # Ruling 17: equal keys share a place; the next place counts everyone ahead.
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def ranked_scores(state: NyState) -> list[SeatScore]:
    """Seat scores with places (and V4 team totals), by the tie-breaks of §5 and §7.4."""
    scores = seat_scores(state)
    if state.team:
        team_keys = []
        for s in scores:
            mate = scores[(s.seat + 2) % 4]
            team_keys.append((s.total + mate.total, sum(s.largest) + sum(mate.largest), s.money + mate.money))
        places = _places(team_keys)
        return [
            s.model_copy(update={"team_total": team_keys[s.seat][0], "place": places[s.seat]}) for s in scores
        ]
    places = _places([(s.total, sum(s.largest), s.money) for s in scores])
    return [s.model_copy(update={"place": places[s.seat]}) for s in scores]


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def breakdown_line(state: NyState, s: SeatScore) -> str:
    """One human-readable score line."""
    who = f"S{s.seat + 1} {'+'.join(s.houses)}"
    if state.two_player:
        groups = " + ".join(f"{c} group {n}" for c, n in zip(s.houses, s.largest, strict=True))
        return f"{who}: {groups} + money {s.money} = {s.total} ({_ordinal(s.place)})"
    largest = sum(s.largest)
    return (
        f"{who}: largest group {largest}×2 = {2 * largest} + others {s.others} + money {s.money}"
        f" = {s.total} ({_ordinal(s.place)})"
    )


def final_outcome(state: NyState) -> Outcome:
    """The ``Outcome`` of a finished match: own scores per seat, places, breakdown lines."""
    ranked = ranked_scores(state)
    details = [breakdown_line(state, s) for s in ranked]
    if state.team:
        for first in (0, 1):
            a, b = ranked[first], ranked[first + 2]
            # Seat places count seats ahead (1,1,3,3); the team line ranks teams (1st/2nd).
            team_place = 1 + sum(1 for other in (0, 1) if ranked[other].place < a.place)
            details.append(
                f"team S{first + 1}+S{first + 3} ({a.houses[0]}+{b.houses[0]}): "
                f"{a.total} + {b.total} = {a.team_total} ({_ordinal(team_place)})"
            )
    ender = state.ended_by
    reason = f"Stop card drawn by {seat_label(state, ender)}" if ender is not None else "game over"
    return Outcome(
        scores=tuple(s.total for s in ranked),
        places=tuple(s.place for s in ranked),
        reason=reason,
        details=tuple(details),
        reason_say=say("{player} drew a Stop card", player=who(ender))
        if ender is not None
        else say("game over"),
        breakdown=tuple(_breakdown_says(state, ranked)),
        teams=((0, 2), (1, 3)) if state.team else (),
    )


def _breakdown_says(state: NyState, ranked: list[SeatScore]) -> list[Say]:
    """Per seat: the largest group (doubled), the other buildings and the money; then the teams."""
    lines = []
    for s in ranked:
        if state.two_player:
            groups = items(
                (
                    say("{colour} group {size}", colour=COLOURS[c], size=n)
                    for c, n in zip(s.houses, s.largest, strict=True)
                ),
                "plus",
            )
            lines.append(
                say(
                    "{player}: {groups} + money {money} = {total}",
                    player=who(s.seat),
                    groups=groups,
                    money=s.money,
                    total=s.total,
                )
            )
        else:
            largest = sum(s.largest)
            lines.append(
                say(
                    "{player}: largest group {largest} × 2 + others {others} + money {money} = {total}",
                    player=who(s.seat),
                    largest=largest,
                    others=s.others,
                    money=s.money,
                    total=s.total,
                )
            )
    if state.team:
        for first in (0, 1):
            a, b = ranked[first], ranked[first + 2]
            lines.append(
                say(
                    "Team {one} + {two}: {a} + {b} = {total}",
                    one=who(a.seat),
                    two=who(b.seat),
                    a=a.total,
                    b=b.total,
                    total=a.team_total or 0,
                )
            )
    return lines


def score_log_line(state: NyState) -> str:
    """``system: score yellow=34 blue=32 red=30 winner=yellow`` (§8)."""
    ranked = ranked_scores(state)
    if state.team:
        # §7.4: "red=30 yellow=25 team=55 …", teams in ranking order.
        teams = sorted((0, 1), key=lambda t: (ranked[t].place, t))
        parts = [
            f"{ranked[t].label}={ranked[t].total} {ranked[t + 2].label}={ranked[t + 2].total} "
            f"team={ranked[t].team_total}"
            for t in teams
        ]
        win = ",".join(f"{ranked[t].label}+{ranked[t + 2].label}" for t in teams if ranked[t].place == 1)
    else:
        order = sorted(ranked, key=lambda s: (s.place, s.seat))
        parts = [f"{s.label}={s.total}" for s in order]
        win = ",".join(s.label for s in order if s.place == 1)
    return f"system: score {' '.join(parts)} winner={win}"
