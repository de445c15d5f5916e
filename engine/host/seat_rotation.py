"""Who sits where at a tournament's table: the places in the order of play that win most often (as measured
in ``engine.host.seat_advantage``) go to the players whose earlier seats gave them the least, so that over
the rounds each player's summed seat advantage stays as even as the tables allow."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from engine.core.rng import SEAT_STREAM, Rng
from engine.host.seat_advantage import measured
from engine.host.tournament_records import RoundRecord

T = TypeVar("T")


def seat_edges(first_rates: Sequence[float]) -> tuple[float, ...]:
    """Each seat's advantage: how much more often than the table's average seat it finishes first."""
    mean = sum(first_rates) / len(first_rates)
    return tuple(rate - mean for rate in first_rates)


def measured_edges(game: str) -> Callable[[int], tuple[float, ...] | None]:
    """The seat advantages of ``game`` by seat count, from the shipped measurements (the game without
    options; None for a seat count not measured)."""

    def edges(seats: int) -> tuple[float, ...] | None:
        figures = measured(game, seats)
        return seat_edges(figures.first_rate_by_seat) if figures is not None else None

    return edges


def carried_advantage(
    rounds: Iterable[RoundRecord], edges: Callable[[int], Sequence[float] | None]
) -> dict[str, float]:
    """Each entrant's summed seat advantage over the tables played in ``rounds`` (a table an organiser
    decided, whose result does not give the seats, and a seat count without figures add nothing)."""
    carried: dict[str, float] = {}
    for rnd in rounds:
        for table in rnd.tables:
            if table.result is None or table.decided_by != "play":
                continue
            seated = table.result.players  # in seat order: a played table's result is read from its match
            advantage = edges(len(seated))
            if advantage is None:
                continue
            for seat, key in enumerate(seated):
                carried[key] = carried.get(key, 0.0) + advantage[seat]
    return carried


def first_seats(rounds: Iterable[RoundRecord]) -> dict[str, int]:
    """How many times each entrant played first at the tables played in ``rounds``."""
    counts: dict[str, int] = {}
    for rnd in rounds:
        for table in rnd.tables:
            if table.result is not None and table.decided_by == "play":
                first = table.result.players[0]
                counts[first] = counts.get(first, 0) + 1
    return counts


# Carried advantages closer than this are equal: sums of measured rates are not exact.
EVEN = 1e-9


def seating(
    players: Sequence[str],
    edges: Sequence[float],
    carried: Mapping[str, float],
    firsts: Mapping[str, int] | None = None,
) -> tuple[str, ...]:
    """``players`` in seat order: the seat with the most advantage goes to the player who carries the
    least, the next to the next, and so on: no other seating leaves the summed advantages closer together
    (by the sum of their squares).
    Among players carrying as much, the one who played first fewer times (``firsts``) comes first, then
    the order of ``players``; seats of equal advantage are taken in their order. Raises ``ValueError``
    when there are not as many players as seats."""
    if len(players) != len(edges):
        raise ValueError(f"{len(players)} players for {len(edges)} seats")
    firsts = firsts or {}

    def need(i: int) -> tuple[int, int, int]:
        return (round(carried.get(players[i], 0.0) / EVEN), firsts.get(players[i], 0), i)

    by_need = sorted(range(len(players)), key=need)
    by_edge = sorted(range(len(edges)), key=lambda seat: (-edges[seat], seat))
    seated = list(players)
    for seat, i in zip(by_edge, by_need, strict=True):
        seated[seat] = players[i]
    return tuple(seated)


def joining_order(seated: Sequence[T], seed: int) -> list[T]:
    """The order in which to seat ``seated`` in a lobby so that its start, which shuffles the players with
    the match seed (``engine.host.lobby``), puts them in exactly this seat order."""
    shuffle = Rng.from_seed(seed, SEAT_STREAM).shuffled(range(len(seated)))
    order: list[T] = list(seated)
    for seat, joined in enumerate(shuffle):
        order[joined] = seated[seat]
    return order
