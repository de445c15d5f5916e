"""A small seeded random generator whose whole state is one integer, so it lives inside game states.

SplitMix64 (Steele, Lea, Flood 2014): fast, well mixed, and trivial to serialise. Rules code creates an
``Rng`` from the integer stored in its state, draws, and stores ``rng.state`` back in the new state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Rng:
    """Deterministic generator; equal states give equal sequences."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int, stream: int = 0) -> Rng:
        """A generator for ``seed``; different ``stream`` values give independent sequences."""
        rng = cls(seed ^ ((stream * 0xD1B54A32D192ED03) & _MASK))
        rng.next_u64()
        return rng

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``; ``n`` must be positive."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        # Rejection sampling keeps the draw exactly uniform.
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in random order (Fisher-Yates)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result


# Independent streams derived from one match seed; the rules themselves draw from stream 0.
SEAT_STREAM = 1
BOT_STREAM = 2


def bot_rng(seed: int, ply: int) -> Rng:
    """The generator a computer player uses at move ``ply`` of the match with ``seed``."""
    return Rng.from_seed(seed, (BOT_STREAM << 32) | ply)
