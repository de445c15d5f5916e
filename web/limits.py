"""How often the web table lets one caller do one thing: moves per seat, and wrong links per address
(so that guessing links is slow). Counted in memory, on the table's clock."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime

# Callers not seen for this many seconds are forgotten, so the table keeps no more than it needs.
FORGET_AFTER_S = 3600.0


@dataclass
class Limiter:
    """A bucket of ``burst`` tries per caller that refills at ``per_second``: a caller with an empty bucket
    is refused until it refills."""

    burst: float
    per_second: float
    clock: Callable[[], datetime]
    _buckets: dict[Hashable, tuple[float, float]] = field(default_factory=dict)

    def _level(self, key: Hashable, now: float) -> float:
        level, since = self._buckets.get(key, (self.burst, now))
        return min(self.burst, level + (now - since) * self.per_second)

    def allows(self, key: Hashable) -> bool:
        """Whether ``key`` may try once more now (the try is counted)."""
        now = self.clock().timestamp()
        if len(self._buckets) > 10_000:
            self._forget(now)
        level = self._level(key, now)
        if level < 1.0:
            self._buckets[key] = (level, now)
            return False
        self._buckets[key] = (level - 1.0, now)
        return True

    def blocked(self, key: Hashable) -> bool:
        """Whether ``key`` has no try left now (nothing is counted)."""
        return self._level(key, self.clock().timestamp()) < 1.0

    def _forget(self, now: float) -> None:
        for key, (_, since) in list(self._buckets.items()):
            if now - since > FORGET_AFTER_S:
                del self._buckets[key]
