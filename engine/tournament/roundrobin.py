"""Round robin for small fields: every pair of players meets at least once.

With 2-player tables this is the classic circle method: one player stays put, the others rotate, n - 1
rounds for an even field and n for an odd one (each player sits out once). A withdrawn player's opponent
gets a bye for that round, as in chess.

With larger tables a schedule where every pair meets exactly once exists only for special field sizes, so
rounds are built greedily instead (a covering design): each round seats the players so that as many
not-yet-met pairs as possible share a table (a greedy fill, then swaps while they help), until every pair
has met. Byes rotate as in Swiss (nobody gets a second while someone has none) and go, among the fairest
candidates, to players with the fewest pairs still to play. A field that fits one table plays one round.

Greedy choices early on can leave awkward leftovers (a few unmet pairs spread so that each needs a round
of its own), so the whole schedule is built several times from shuffled starts and the shortest kept.
The construction looks only at who met whom, never at names, results or the tournament's seed, so the
number of rounds for a field is known in advance (``rounds_needed``) and the schedule is computed once per
field size and table range. Players take their places in it in a seeded order (``seating``).

After a withdrawal the fixed schedule no longer fits, so from then on each round is built greedily for the
players still in, until every pair of them has met.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from engine.core.rng import Rng
from engine.tournament.models import Round, Table, TournamentConfig
from engine.tournament.sizes import table_sizes
from engine.tournament.swiss import improve

MAX_FIELD = 16
# Whole schedules tried per field (besides the plain greedy one); measured over fields of 3..16 at ranges
# from 2..3 to 5..5, 12 tries save about one round in twenty, and 40 only one more in a hundred.
SCHEDULE_TRIES = 12

_SEATING_STREAM = 0x7C03 << 32
_SCHEDULE_STREAM = 0x7C04 << 32

# A round as indices into the seating order: tables, then byes.
IndexRound = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]


def uses_circle(config: TournamentConfig) -> bool:
    """Whether the field plays the 2-player circle method rather than covering rounds."""
    return config.max_size == 2


def seating(players: Sequence[str], seed: int) -> list[str]:
    """The seeded order in which the entrants take their places in the schedule."""
    return Rng.from_seed(seed, _SEATING_STREAM).shuffled(sorted(players))


def rounds_needed(config: TournamentConfig, n: int) -> int:
    """Rounds until every pair of ``n`` players has met (no withdrawals)."""
    if uses_circle(config):
        return n - 1 if n % 2 == 0 else n
    return len(schedule(config, n))


def schedule(config: TournamentConfig, n: int) -> tuple[IndexRound, ...]:
    """The covering schedule for ``n`` players (indices into the seating order), shortest found."""
    return _schedule(n, config.min_size, config.max_size, config.preferred)


def pair_roundrobin(
    config: TournamentConfig,
    number: int,
    order: Sequence[str],
    dropped: frozenset[str] | set[str],
    byes: Mapping[str, int],
    met: Mapping[frozenset[str], int],
) -> Round:
    """Round ``number`` for the entrants in seeded ``order``, leaving out the ``dropped``.

    ``byes`` and ``met`` count earlier byes and meetings. Raises ``SetupError`` when fewer players remain
    than the smallest table.
    """
    if uses_circle(config):
        return _circle_round(order, number, dropped)
    if not dropped:
        planned, planned_byes = schedule(config, len(order))[number - 1]
        return _as_round(number, order, planned, planned_byes)
    active = [p for p in order if p not in dropped]
    matrix = [[a != b and met.get(frozenset((a, b)), 0) > 0 for b in active] for a in active]
    tables, sitting_out = _covering_round(
        config.min_size, config.max_size, config.preferred, matrix, [byes[p] for p in active], None
    )
    return _as_round(number, active, tables, sitting_out)


def _as_round(
    number: int, order: Sequence[str], tables: Sequence[Sequence[int]], byes: Sequence[int]
) -> Round:
    return Round(
        number=number,
        tables=tuple(Table(number=i + 1, players=tuple(order[j] for j in t)) for i, t in enumerate(tables)),
        byes=tuple(order[j] for j in byes),
    )


def _circle_round(order: Sequence[str], number: int, dropped: frozenset[str] | set[str]) -> Round:
    """Round ``number`` (1-based) of the circle method over every entrant in ``order``.

    A player whose opponent is the odd field's empty slot, or withdrew, gets a bye.
    """
    line: list[str | None] = list(order)
    if len(line) % 2:
        line.append(None)
    fixed, rest = line[0], line[1:]
    shift = (number - 1) % len(rest)
    line = [fixed, *rest[len(rest) - shift :], *rest[: len(rest) - shift]]
    tables: list[tuple[str, str]] = []
    byes: list[str] = []
    for i in range(len(line) // 2):
        pair = [p for p in (line[i], line[-1 - i]) if p is not None and p not in dropped]
        if len(pair) == 2:
            tables.append((pair[0], pair[1]))
        else:
            byes.extend(pair)
    return Round(
        number=number,
        tables=tuple(Table(number=i + 1, players=t) for i, t in enumerate(tables)),
        byes=tuple(byes),
    )


@lru_cache(maxsize=256)
def _schedule(n: int, lo: int, hi: int, preferred: int) -> tuple[IndexRound, ...]:
    best = _build(n, lo, hi, preferred, None)
    for attempt in range(1, SCHEDULE_TRIES + 1):
        # A fixed stream per attempt: the schedule must not depend on the tournament's seed.
        tried = _build(n, lo, hi, preferred, Rng.from_seed(attempt, _SCHEDULE_STREAM | n))
        if len(tried) < len(best):
            best = tried
    return best


def _build(n: int, lo: int, hi: int, preferred: int, rng: Rng | None) -> tuple[IndexRound, ...]:
    met = [[False] * n for _ in range(n)]
    byes = [0] * n
    rounds: list[IndexRound] = []
    while not all(met[a][b] for a in range(n) for b in range(a + 1, n)):
        tables, sitting_out = _covering_round(lo, hi, preferred, met, byes, rng)
        for table in tables:
            for a in table:
                for b in table:
                    met[a][b] = met[a][b] or a != b
        for p in sitting_out:
            byes[p] += 1
        rounds.append((tuple(tuple(t) for t in tables), tuple(sitting_out)))
        if len(rounds) > n * n:  # every round covers a new pair, so this cannot happen; a guard
            raise AssertionError("round robin schedule does not converge")
    return tuple(rounds)


def _covering_round(
    lo: int, hi: int, preferred: int, met: list[list[bool]], byes: list[int], rng: Rng | None
) -> tuple[list[list[int]], list[int]]:
    """Tables and byes (indices into ``met``) covering as many unmet pairs as the search finds; ``rng``
    shuffles the tie-breaks (``None``: index order).
    """
    n = len(met)
    # One table for everyone covers every pair at once, whatever the preferred size.
    sizes = [n] if n <= hi else table_sizes(n, lo, hi, preferred)
    order = list(range(n)) if rng is None else rng.shuffled(range(n))
    rank = {p: i for i, p in enumerate(order)}
    open_pairs = [sum(not met[a][b] for b in range(n) if b != a) for a in range(n)]
    # Byes: fewest so far (fairness), then whoever has the fewest pairs still to play (costs least).
    sitting_out = sorted(range(n), key=lambda p: (byes[p], open_pairs[p], rank[p]))[: n - sum(sizes)]
    out = set(sitting_out)
    free = [p for p in order if p not in out]
    tables: list[list[int]] = []
    for size in sizes:
        first = max(free, key=lambda p: (sum(not met[p][q] for q in free if q != p), -rank[p]))
        free.remove(first)
        table = [first]
        while len(table) < size:
            pick = max(
                free,
                key=lambda p: (
                    sum(not met[p][t] for t in table),
                    sum(not met[p][q] for q in free if q != p),
                    -rank[p],
                ),
            )
            free.remove(pick)
            table.append(pick)
        tables.append(table)
    # Swapping to fewer already-met pairs is the same as covering more new ones (table sizes are fixed).
    improve(tables, [[int(met[a][b]) for b in range(n)] for a in range(n)], [0.0] * n)
    return tables, sitting_out
