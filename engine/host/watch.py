"""Who hears of a match's new versions as they are written: the pages of a web table that follow a match
live. The store tells ``MatchVersions`` of every version a write of this process makes (and, where the
database can say so, those other processes make); each watcher of a match wakes with the newest.

Everything runs on the event loop's thread: a publisher and the watchers it wakes share no lock.
Only the numbers pass through here, never what a version holds, so any page may follow any match.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial

# How many watchers of a match wake at one turn of the event loop: a crowd woken at once would hold the
# loop while each of them writes to its page, and everything else the loop does would wait. (The pages
# waiting for one reading of a match wait in the same turns, see ``engine.host.sight_memory``.)
WAKE_AT_ONCE = 16


class Watcher:
    """One follower of a match: the newest ``version`` it was told of (-1: none yet), and a wake-up for
    each newer one. Several versions told between two looks are one wake-up with the newest."""

    def __init__(self, match_id: int) -> None:
        self.match_id = match_id
        self.version = -1
        self.stopped = False
        self._woken = asyncio.Event()

    def tell(self, version: int) -> None:
        """Version ``version`` of the match exists now (an older or repeated one changes nothing)."""
        if version > self.version:
            self.version = version
            self._woken.set()

    def stop(self) -> None:
        """Wake the watcher for good: ``newer`` answers None from now on (the server is closing)."""
        self.stopped = True
        self._woken.set()

    async def newer(self, than: int, timeout: float) -> int | None:
        """The newest version once it is past ``than``; None after ``timeout`` seconds without one or
        once stopped."""
        while not self.stopped and self.version <= than:
            self._woken.clear()
            try:
                async with asyncio.timeout(timeout):
                    await self._woken.wait()
            except TimeoutError:
                return None
        return None if self.stopped else self.version


def in_turns(actions: Sequence[Callable[[], object]]) -> None:
    """Run ``WAKE_AT_ONCE`` of ``actions`` now and as many more at each turn of the event loop after."""
    for action in actions[:WAKE_AT_ONCE]:
        action()
    if len(actions) > WAKE_AT_ONCE:
        asyncio.get_running_loop().call_soon(in_turns, actions[WAKE_AT_ONCE:])


class MatchVersions:
    """The watchers of every match, told of each version written."""

    def __init__(self) -> None:
        self._watchers: dict[int, set[Watcher]] = {}

    def publish(self, match_id: int, version: int) -> None:
        """Match ``match_id`` is at ``version`` now: wake its watchers, ``WAKE_AT_ONCE`` now and as many
        more at each turn of the event loop after."""
        watchers = self._watchers.get(match_id)
        if watchers:
            in_turns([partial(watcher.tell, version) for watcher in watchers])

    def watched(self) -> frozenset[int]:
        """The matches someone follows now."""
        return frozenset(self._watchers)

    def watchers(self, match_id: int | None = None) -> int:
        """How many follow match ``match_id`` now, or any match without it."""
        if match_id is not None:
            return len(self._watchers.get(match_id, ()))
        return sum(map(len, self._watchers.values()))

    @contextmanager
    def watching(self, match_id: int) -> Iterator[Watcher]:
        """A watcher of ``match_id`` for the block's length."""
        watcher = Watcher(match_id)
        self._watchers.setdefault(match_id, set()).add(watcher)
        try:
            yield watcher
        finally:
            followers = self._watchers.get(match_id)
            if followers is not None:
                followers.discard(watcher)
                if not followers:
                    del self._watchers[match_id]
