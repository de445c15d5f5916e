"""End-of-game scoring of New York 1901 (spec §5.3) and the winner's tie-break chain (§5.4)."""

from __future__ import annotations

from engine.core.contract import Outcome
from engine.core.say import Say, items, who
from engine.ny1901.cards import (
    ARCH_POINTS,
    BRONZE_BARON,
    CELL_LOT,
    CELL_STREETS,
    LOT_DISTRICT,
    STREET_BONUS,
    STREET_BY_ID,
    TILE_BY_ID,
)
from engine.ny1901.state import NyState, seat_name
from engine.ny1901.words import CHALLENGE_WORDS, say


def street_counts(state: NyState, street: str) -> list[int]:
    """Per seat: buildings facing ``street`` (each building once, §2.6, R18)."""
    counts = [0] * state.seats
    for b in state.buildings:
        if any(street in CELL_STREETS[c] for c in b.cells):
            counts[b.owner] += 1
    return counts


def strict_leader(counts: list[int]) -> int | None:
    """The seat with strictly the most (at least 1), else ``None`` (ties score nothing)."""
    best = max(counts)
    if best < 1 or counts.count(best) > 1:
        return None
    return counts.index(best)


def _gen_counts(state: NyState, seat: int) -> list[int]:
    """Own buildings per tech 0..3 (legendary is gold, R3)."""
    out = [0, 0, 0, 0]
    for b in state.buildings:
        if b.owner == seat:
            out[TILE_BY_ID[b.tile].tech] += 1
    return out


def challenge_points(state: NyState) -> list[int]:
    """Per seat: the active challenge card's end points (§2.7; X-PRESTIGE scores during play)."""
    n = state.seats
    pts = [0] * n
    ch = state.challenge
    if ch == "X-BRONZE":
        for s in range(n):
            bronze = _gen_counts(state, s)[1]
            pts[s] = BRONZE_BARON.get(min(bronze, 6), 0)
    elif ch == "X-ARCH":
        for s in range(n):
            irregular = sum(
                1 for b in state.buildings if b.owner == s and TILE_BY_ID[b.tile].regular is False
            )
            pts[s] = 10 if irregular >= 5 else ARCH_POINTS.get(irregular, 0)
    elif ch == "X-GEN":
        counts = [_gen_counts(state, s) for s in range(n)]
        for tech in (1, 2, 3):
            leader = strict_leader([c[tech] for c in counts])
            if leader is not None:  # R24: a tie (also at 0) scores nothing
                pts[leader] += 5
    elif ch == "X-TYCOON":
        for s in range(n):
            per: dict[str, int] = {}
            for b in state.buildings:
                if b.owner == s and TILE_BY_ID[b.tile].tech == 3:
                    for d in {LOT_DISTRICT[CELL_LOT[c]] for c in b.cells}:
                        per[d] = per.get(d, 0) + 1
            pts[s] = 3 * sum(1 for v in per.values() if v >= 2)
    return pts


def final_totals(state: NyState) -> tuple[list[int], list[str]]:
    """Final totals per seat and a breakdown line per seat (§5.3: streets, challenge, action cards)."""
    n = state.seats
    street_pts = [0] * n
    street_names: list[list[str]] = [[] for _ in range(n)]
    for street in state.streets:
        leader = strict_leader(street_counts(state, street))
        if leader is not None:
            street_pts[leader] += STREET_BONUS
            street_names[leader].append(STREET_BY_ID[street].name)
    chal = challenge_points(state)
    cards = [len(state.action_cards[s]) for s in range(n)]
    totals = [state.scores[s] + street_pts[s] + chal[s] + cards[s] for s in range(n)]
    lines = [
        f"{seat_name(state, s)}: {state.scores[s]} in play + {street_pts[s]} streets"
        f"{' (' + ', '.join(street_names[s]) + ')' if street_names[s] else ''} + {chal[s]} challenge"
        f" + {cards[s]} action cards = {totals[s]}"
        for s in range(n)
    ]
    return totals, lines


def tiebreak_key(state: NyState, seat: int, total: int) -> tuple[int, int, int]:
    """§5.4: total, then tallest legendary (0 without), then gold buildings incl. legendary (R3)."""
    legend = state.legend_of[seat]
    height = TILE_BY_ID[legend].height if legend else 0
    return total, height, _gen_counts(state, seat)[3]


def final_outcome(state: NyState) -> Outcome:
    """Scores and places; players equal on the whole chain share a place (R2)."""
    totals, lines = final_totals(state)
    keys = [tiebreak_key(state, s, totals[s]) for s in range(state.seats)]
    places = tuple(1 + sum(1 for k in keys if k > keys[s]) for s in range(state.seats))
    reason = f"end triggered by {state.end_reason}" if state.end_reason else "game over"
    reason_say = {
        "tiles": say("a player had only 4 tiles left"),
        "market": say("the market could not be refilled"),
    }.get(state.end_reason, say("the game is over"))
    return Outcome(
        scores=tuple(totals),
        places=places,
        reason=reason,
        details=tuple(lines),
        reason_say=reason_say,
        breakdown=tuple(final_says(state, totals)),
    )


def final_says(state: NyState, totals: list[int]) -> list[Say]:
    """Per seat: points in play, street bonuses (naming the streets), challenge card and action cards."""
    n = state.seats
    won: list[list[str]] = [[] for _ in range(n)]
    for street in state.streets:
        leader = strict_leader(street_counts(state, street))
        if leader is not None:
            won[leader].append(STREET_BY_ID[street].name)
    chal = challenge_points(state)
    lines = []
    for s in range(n):
        streets = (
            say("{points} for streets ({streets})", points=STREET_BONUS * len(won[s]), streets=items(won[s]))
            if won[s]
            else say("0 for streets")
        )
        challenge = (
            say("{points} for {card}", points=chal[s], card=CHALLENGE_WORDS[state.challenge])
            if state.challenge
            else say("no challenge card")
        )
        lines.append(
            say(
                "{player}: {play} in play + {streets} + {challenge} + {cards} for action cards = {total}",
                player=who(s),
                play=state.scores[s],
                streets=streets,
                challenge=challenge,
                cards=len(state.action_cards[s]),
                total=totals[s],
            )
        )
    return lines
