"""A small most-recently-used memory, for values worth keeping at hand but cheap to lose."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
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
