"""The watchers of a match: each told the newest version once, a crowd woken a few at each turn of the
event loop, and none left behind once its block ends."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack

from engine.host.watch import WAKE_AT_ONCE, MatchVersions, Watcher


async def next_turn() -> None:
    """Let the event loop take one turn (the callbacks scheduled before this run first)."""
    await asyncio.sleep(0)


async def test_a_watcher_wakes_with_the_newest_version_only() -> None:
    versions = MatchVersions()
    with versions.watching(7) as watcher, versions.watching(8) as other:
        versions.publish(7, 3)
        versions.publish(7, 5)
        versions.publish(7, 4)  # an older version told late changes nothing
        assert await watcher.newer(-1, 10.0) == 5
        assert other.version == -1
        assert await watcher.newer(5, 0.0) is None  # nothing newer: the wait ends at its time
        watcher.stop()
        assert await watcher.newer(-1, 10.0) is None
    assert versions.watched() == frozenset() and versions.watchers() == 0


async def test_a_crowd_is_woken_a_few_at_each_turn_of_the_loop() -> None:
    versions = MatchVersions()
    crowd = 3 * WAKE_AT_ONCE + 1
    with ExitStack() as stack:
        watchers: list[Watcher] = [stack.enter_context(versions.watching(1)) for _ in range(crowd)]
        assert versions.watchers(1) == crowd
        versions.publish(1, 9)
        told = [sum(w.version == 9 for w in watchers)]
        while told[-1] < crowd:
            await next_turn()
            told.append(sum(w.version == 9 for w in watchers))
        assert told == [WAKE_AT_ONCE, 2 * WAKE_AT_ONCE, 3 * WAKE_AT_ONCE, crowd]
