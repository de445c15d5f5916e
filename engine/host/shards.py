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

    @classmethod
    def parse(cls, ids: str | None, count: int | None) -> Shards | None:
        """The shards of the settings ``BIGAPPLE_SHARD_IDS`` (``0-3`` or ``0,2,5``; all when unset) and
        ``BIGAPPLE_SHARD_COUNT``; None when neither is set. ``ValueError`` says what is wrong."""
        if count is None:
            if ids:
                raise ValueError("BIGAPPLE_SHARD_IDS needs BIGAPPLE_SHARD_COUNT, the total number of shards")
            return None
        if not ids or not ids.strip():
            return cls.of(range(count), count)
        chosen: set[int] = set()
        for part in ids.split(","):
            first, _, last = part.strip().partition("-")
            try:
                chosen.update(range(int(first), int(last or first) + 1))
            except ValueError:
                raise ValueError(
                    f"BIGAPPLE_SHARD_IDS is a list of shard numbers and ranges such as 0-3 or 0,2,5, "
                    f"not {ids!r}"
                ) from None
        return cls.of(chosen, count)

    @property
    def everything(self) -> bool:
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int | None) -> int:
        """The shard Discord puts ``guild_id`` on (direct messages, ``None``, are on shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids
