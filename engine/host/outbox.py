"""What every outbox shares (match notices and tournament notices): which delivery failures are final,
and back-off per destination, so that one slow or dead destination never delays any other.

A destination is whatever a notice goes to as one ordered stream: a match thread, one seat's direct
messages, a tournament channel. Notices to one destination keep their order; destinations are
independent of each other.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

# Seconds before the first retry of a destination that failed, doubled after each further failure.
BACKOFF_BASE_SECONDS = 5.0
BACKOFF_CAP_SECONDS = 15 * 60.0


class DestinationGone(Exception):
    """The destination no longer exists or will never accept the notice (a deleted thread or channel,
    a permission that is not coming back). Retrying is pointless: the outbox settles the notice at once
    instead of trying it again. The notifier has already done what it could about it (opened a new
    thread, told a person) before raising this.
    """


@dataclass(slots=True)
class _Failures:
    count: int
    retry_at: float


K = TypeVar("K", bound=Hashable)


class Backoff(Generic[K]):
    """Per-destination exponential back-off on an injectable monotonic clock (seconds); destinations
    are keys of type ``K``."""

    def __init__(
        self,
        base: float = BACKOFF_BASE_SECONDS,
        cap: float = BACKOFF_CAP_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base = base
        self.cap = max(cap, base)
        self._clock = clock
        self._failures: dict[K, _Failures] = {}

    def ready(self, destination: K) -> bool:
        """Whether ``destination`` may be tried now."""
        failures = self._failures.get(destination)
        return failures is None or failures.retry_at <= self._clock()

    def failed(self, destination: K) -> float:
        """Record a failed try; returns how many seconds the destination now waits."""
        failures = self._failures.get(destination)
        count = 1 if failures is None else failures.count + 1
        delay = min(self.cap, self.base * 2 ** (count - 1))
        self._failures[destination] = _Failures(count, self._clock() + delay)
        return delay

    def succeeded(self, destination: K) -> None:
        """Forget the failures of a destination that accepted a notice."""
        self._failures.pop(destination, None)

    def waiting(self) -> frozenset[K]:
        """The destinations that may not be tried now."""
        now = self._clock()
        return frozenset(d for d, f in self._failures.items() if f.retry_at > now)

    def next_retry_in(self) -> float | None:
        """Seconds until the earliest waiting destination may be tried again (None: nothing waits)."""
        now = self._clock()
        pending = [f.retry_at - now for f in self._failures.values() if f.retry_at > now]
        return max(0.0, min(pending)) if pending else None
