"""Table sizes: fewest byes first, then as many preferred-size tables as possible."""

from __future__ import annotations

import pytest

from engine.core.errors import SetupError
from engine.tournament import table_sizes

RANGES = [(2, 2, 2), (3, 4, 4), (3, 4, 3), (2, 5, 4), (4, 6, 4), (4, 6, 5), (2, 6, 6), (5, 5, 5)]


@pytest.mark.parametrize(
    ("n", "lo", "hi", "preferred", "expected"),
    [
        (13, 3, 4, 4, [4, 3, 3, 3]),  # the example: no bye needed
        (5, 3, 4, 4, [4]),  # one bye rather than a table of 3 and two byes
        (6, 3, 4, 4, [3, 3]),  # no bye beats the preferred size
        (8, 3, 4, 4, [4, 4]),
        (9, 3, 4, 4, [3, 3, 3]),
        (10, 2, 5, 4, [4, 4, 2]),  # two tables of 4 beat 4+3+3
        (9, 2, 5, 4, [5, 4]),  # one 4; the other as close to 4 as possible
        (7, 4, 6, 4, [6]),  # 7 cannot be split at 4..6: one bye
        (12, 4, 6, 5, [6, 6]),
        (7, 2, 2, 2, [2, 2, 2]),
        (3, 3, 4, 4, [3]),
        (64, 3, 4, 4, [4] * 16),
    ],
)
def test_examples(n: int, lo: int, hi: int, preferred: int, expected: list[int]) -> None:
    assert table_sizes(n, lo, hi, preferred) == expected


def _splits(m: int, lo: int, hi: int, largest: int) -> list[list[int]]:
    """Every split of exactly m into parts lo..largest, parts non-increasing (brute force)."""
    if m == 0:
        return [[]]
    return [[s, *rest] for s in range(min(largest, m), lo - 1, -1) for rest in _splits(m - s, lo, hi, s)]


@pytest.mark.parametrize(("lo", "hi", "preferred"), RANGES)
def test_against_brute_force(lo: int, hi: int, preferred: int) -> None:
    for n in range(lo, 31):
        sizes = table_sizes(n, lo, hi, preferred)
        assert sizes == sorted(sizes, reverse=True)
        assert all(lo <= s <= hi for s in sizes)
        byes = n - sum(sizes)
        # No split with fewer byes exists.
        assert not any(_splits(n - b, lo, hi, hi) for b in range(byes)), (n, sizes)
        # Among splits with that many byes, none has more preferred tables.
        best = max(s.count(preferred) for s in _splits(n - byes, lo, hi, hi))
        assert sizes.count(preferred) == best, (n, sizes)


def test_byes_stay_below_the_smallest_table() -> None:
    for lo, hi, preferred in RANGES:
        for n in range(lo, 65):
            assert n - sum(table_sizes(n, lo, hi, preferred)) < lo


def test_refusals() -> None:
    with pytest.raises(SetupError) as info:
        table_sizes(2, 3, 4, 4)
    assert info.value.allowed == ("3",)
    with pytest.raises(SetupError):
        table_sizes(10, 4, 3, 4)
    with pytest.raises(SetupError):
        table_sizes(10, 3, 4, 5)
