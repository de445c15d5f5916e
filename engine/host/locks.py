"""One asyncio lock per match, so two commands for the same match never interleave."""

from __future__ import annotations

import asyncio
import weakref


class MatchLocks:
    """Hands out the lock of a match; unused locks are dropped automatically."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock
