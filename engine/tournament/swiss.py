"""Swiss pairing for tables of several players (the Board Game Arena style).

Each round the active players are split into legal table sizes (``table_sizes``), the byes go to the
lowest-ranked among those with the fewest byes so far, and the rest are seated so that, first, as few
pairs as possible meet again and, second, players at a table have similar points. The second goal is the
sum over each table's pairs of their squared point difference; the first always wins over it, as in chess,
where a rematch is avoided even at the price of a lopsided pairing.

The search is a greedy fill (top table first: the best unseated player, then the next best players who
have met nobody at the table yet) followed by swaps between tables while any swap helps. When rematches
remain, a few seeded restarts from shaken orders look for a better local optimum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from engine.core.rng import Rng
from engine.tournament.models import Round, Table, TournamentConfig
from engine.tournament.sizes import table_sizes

# Restarts only run while rematches remain; they are cheap (swaps are evaluated in constant time).
RESTARTS = 12
# A bound on improvement passes; each pass that changes anything strictly lowers the cost, so this is
# only a guard.
MAX_PASSES = 200

Cost = tuple[int, float]


def pair_swiss(
    config: TournamentConfig,
    number: int,
    ranked: Sequence[str],
    points: Mapping[str, Fraction],
    byes: Mapping[str, int],
    met: Mapping[frozenset[str], int],
    rng: Rng,
) -> Round:
    """Round ``number`` for the active players ``ranked`` best first.

    ``points`` and ``byes`` are per player so far; ``met`` counts earlier meetings per pair. Raises
    ``SetupError`` when fewer players remain than the smallest table.
    """
    sizes = table_sizes(len(ranked), config.min_size, config.max_size, config.preferred)
    bye_count = len(ranked) - sum(sizes)
    # Byes: fewest byes first (nobody gets a second while someone has none), then the lowest-ranked.
    position = {p: i for i, p in enumerate(ranked)}
    sitting_out = sorted(ranked, key=lambda p: (byes[p], -position[p]))[:bye_count]
    out = set(sitting_out)
    seated = [p for p in ranked if p not in out]
    # Equal points are ordered at random each round so the same players do not always meet first.
    noise = {p: rng.next_u64() for p in seated}
    seated.sort(key=lambda p: (-points[p], noise[p]))

    matrix = [[met.get(frozenset((a, b)), 0) if a != b else 0 for b in seated] for a in seated]
    values = [float(points[p]) for p in seated]
    tables = arrange(list(range(len(seated))), sizes, matrix, values, rng)
    return Round(
        number=number,
        tables=tuple(
            Table(number=i + 1, players=tuple(seated[j] for j in table)) for i, table in enumerate(tables)
        ),
        byes=tuple(sitting_out),
    )


def arrange(
    order: list[int], sizes: Sequence[int], met: list[list[int]], values: list[float], rng: Rng
) -> list[list[int]]:
    """Tables (lists of indices into ``met``/``values``) of the given ``sizes`` for players ``order``
    (best first), minimising rematches first and point spread second.
    """
    best_tables = _search(order, sizes, met, values)
    best_cost = cost(best_tables, met, values)
    for attempt in range(RESTARTS):
        if best_cost[0] == 0:
            break
        tables = _search(_shaken(order, values, rng, attempt + 1), sizes, met, values)
        found = cost(tables, met, values)
        if found < best_cost:
            best_tables, best_cost = tables, found
    return best_tables


def cost(tables: Sequence[Sequence[int]], met: list[list[int]], values: list[float]) -> Cost:
    """(earlier meetings of pairs seated together, sum of their squared point differences)."""
    repeats = 0
    spread = 0.0
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                repeats += met[a][b]
                spread += (values[a] - values[b]) ** 2
    return repeats, spread


def _shaken(order: list[int], values: list[float], rng: Rng, strength: int) -> list[int]:
    """``order`` with each player moved a random distance, more for later restarts, to leave a local
    optimum while staying roughly in points order.
    """
    keyed = [(pos + rng.below(2 * strength + 2), pos) for pos in range(len(order))]
    keyed.sort()
    return [order[pos] for _, pos in keyed]


def _search(
    order: list[int], sizes: Sequence[int], met: list[list[int]], values: list[float]
) -> list[list[int]]:
    tables = _greedy(order, sizes, met)
    improve(tables, met, values)
    return tables


def _greedy(order: list[int], sizes: Sequence[int], met: list[list[int]]) -> list[list[int]]:
    """Fill tables top down: the best unseated player, then the best ones who add the fewest rematches."""
    free = list(order)
    tables = []
    for size in sizes:
        table = [free.pop(0)]
        while len(table) < size:
            pick = min(range(len(free)), key=lambda i: (sum(met[free[i]][t] for t in table), i))
            table.append(free.pop(pick))
        tables.append(table)
    return tables


def improve(tables: list[list[int]], met: list[list[int]], values: list[float]) -> None:
    """Swap players between tables while a swap lowers the cost (in place). Indices of ``met`` and
    ``values`` that sit at no table are left alone.

    ``rep[p][t]`` and ``spr[p][t]`` hold player p's meetings with, and squared point distance to,
    everyone at table t, so each candidate swap is priced in constant time.
    """
    n = len(values)
    seat_of = [-1] * n  # players not seated (byes) stay at -1 and are never swapped in
    for t, table in enumerate(tables):
        for p in table:
            seat_of[p] = t
    seated = [p for p in range(n) if seat_of[p] >= 0]
    rep = [[sum(met[p][q] for q in table) for table in tables] for p in range(n)]
    spr = [[sum((values[p] - values[q]) ** 2 for q in table) for table in tables] for p in range(n)]

    for _ in range(MAX_PASSES):
        changed = False
        for i, x in enumerate(seated):
            for y in seated[i + 1 :]:
                a, b = seat_of[x], seat_of[y]
                if a == b:
                    continue
                d_rep = rep[y][a] - rep[x][a] + rep[x][b] - rep[y][b] - 2 * met[x][y]
                d_spr = spr[y][a] - spr[x][a] + spr[x][b] - spr[y][b] - 2 * (values[x] - values[y]) ** 2
                # Float noise must not make a neutral swap look useful and loop forever.
                if d_rep < 0 or (d_rep == 0 and d_spr < -1e-9):
                    tables[a][tables[a].index(x)] = y
                    tables[b][tables[b].index(y)] = x
                    seat_of[x], seat_of[y] = b, a
                    for p in range(n):
                        shift_rep = met[p][y] - met[p][x]
                        shift_spr = (values[p] - values[y]) ** 2 - (values[p] - values[x]) ** 2
                        rep[p][a] += shift_rep
                        rep[p][b] -= shift_rep
                        spr[p][a] += shift_spr
                        spr[p][b] -= shift_spr
                    changed = True
        if not changed:
            return
