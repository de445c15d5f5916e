"""Which servers a bot process looks after, when several share one database.

Discord splits a bot's servers into shards: server ``g`` is on shard ``(g >> 22) % count``, direct
messages on shard 0. A process connects a range of shards (discord.py's ``shard_ids``/``shard_count``)
and does the duties of their servers alone: sending their matches' notices, firing their clocks and
reminders, resuming their computer players. Processes with disjoint ranges never do the same work twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.contract import Frozen


class Shards(Frozen):
    """The shards ``ids`` out of ``count`` that one process runs."""

    ids: frozenset[int]
    count: int

    @classmethod
    def every(cls) -> Shards:
        """One process for everything (the only choice on SQLite)."""
        return cls(ids=frozenset({0}), count=1)

    @classmethod
    def of(cls, ids: Iterable[int], count: int) -> Shards:
        """``ids`` out of ``count``; ``ValueError`` when none is given or one is not in ``0 .. count - 1``."""
        chosen = frozenset(ids)
        if count < 1 or not chosen or not all(0 <= i < count for i in chosen):
            raise ValueError(f"shard ids must be some of 0 .. {count - 1}, not {sorted(chosen)}")
        return cls(ids=chosen, count=count)

    @property
    def everything(self) -> bool:
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int | None) -> int:
        """The shard Discord puts ``guild_id`` on (direct messages, ``None``, are on shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids
