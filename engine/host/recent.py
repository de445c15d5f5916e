"""A small most-recently-used memory, for values worth keeping at hand but cheap to lose."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

V = TypeVar("V")


class Recent(Generic[K, V]):
    """The ``size`` entries used most recently, by key: older ones are dropped as new ones come."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def keep(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def forget(self, key: K) -> None:
        self._entries.pop(key, None)


class Shared(Generic[K, V]):
    """Values worked out once per key, for the ``size`` keys used most recently: the first to ask starts
    the work, and whoever asks meanwhile waits for that same work (a crowd asks at once). A failure is
    forgotten, so the next to ask tries again; one asker that stops waiting stops no other."""

    def __init__(self, size: int) -> None:
        self._kept: Recent[K, asyncio.Future[V]] = Recent(size)

    async def get(self, key: K, work: Callable[[], Awaitable[V]]) -> V:
        """The value of ``key``, from ``work`` unless it is kept or under way."""
        known = self._kept.get(key)
        if known is None:
            known = asyncio.ensure_future(work())
            self._kept.keep(key, known)
        try:
            return await asyncio.shield(known)
        except Exception:
            if self._kept.get(key) is known:
                self._kept.forget(key)
            raise
