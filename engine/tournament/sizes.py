"""Splitting a field into tables whose sizes the game allows.

The policy, in order: (1) as few byes as possible, since sitting out is the worst outcome for a player who
came to play; (2) as many tables of the preferred size as possible; (3) the other tables as close to the
preferred size as possible; (4) fewer, larger tables. So 13 players at 3..4 (preferred 4) sit 4+3+3+3, and
5 players at 3..4 sit one table of 4 with one bye (not a table of 3 with two byes).
"""

from __future__ import annotations

from functools import lru_cache

from engine.core.errors import SetupError

# Per partition: (tables of the preferred size, -distance from it, -number of tables); larger is better.
_Score = tuple[int, int, int]


def table_sizes(n: int, min_size: int, max_size: int, preferred: int) -> list[int]:
    """Sizes of the tables (largest first) for ``n`` players; ``n - sum(sizes)`` players get a bye.

    Raises ``SetupError`` when the range is empty or ``n`` is smaller than ``min_size`` (nobody could play).
    """
    if not 2 <= min_size <= preferred <= max_size:
        raise SetupError(
            f"table sizes {min_size}..{max_size} with preferred {preferred} do not fit together",
            [str(n) for n in range(max(min_size, 2), max(max_size, 2) + 1)],
        )
    if n < min_size:
        raise SetupError(f"{n} players cannot fill a table of {min_size}", [str(min_size)])
    for byes in range(n - min_size + 1):
        best = exact_partition(n - byes, min_size, max_size, preferred)
        if best is not None:
            return list(best)
    raise AssertionError("unreachable: a single table of min_size always fits")


def seats_possible(m: int, min_size: int, max_size: int) -> bool:
    """Whether exactly ``m`` players can be split into tables of ``min_size``..``max_size``."""
    # t tables seat anything from t*min to t*max players.
    return m >= min_size and any(t * min_size <= m <= t * max_size for t in range(1, m // min_size + 1))


@lru_cache(maxsize=4096)
def exact_partition(m: int, lo: int, hi: int, preferred: int) -> tuple[int, ...] | None:
    """The best split of exactly ``m`` players by the module's policy, largest table first, or ``None``."""
    if not seats_possible(m, lo, hi):
        return None
    # Every criterion is a sum over tables, so the best split of t players extends a best split of t - s.
    best: list[tuple[_Score, tuple[int, ...]] | None] = [None] * (m + 1)
    best[0] = ((0, 0, 0), ())
    for total in range(lo, m + 1):
        for size in range(hi, lo - 1, -1):
            prior = best[total - size] if total >= size else None
            if prior is None:
                continue
            (pref, dist, tables), sizes = prior
            score = (pref + (size == preferred), dist - abs(size - preferred), tables - 1)
            current = best[total]
            if current is None or score > current[0]:
                best[total] = (score, tuple(sorted((*sizes, size), reverse=True)))
    found = best[m]
    return None if found is None else found[1]
