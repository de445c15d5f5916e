"""The public sights of the match versions read lately, kept: every page following a match asks for the
same one as soon as a move is told, and working it out replays the whole log. Pages asking for a sight
while it is worked out wait for that one reading, and are let go a few at each turn of the event loop
(``engine.host.watch.in_turns``): a crowd let go at once would hold the loop while each lays out its page.
"""

from __future__ import annotations

import asyncio
from functools import partial

from engine.host.ports import MatchRecord
from engine.host.recent import Recent
from engine.host.service import GameHost
from engine.host.sights import PublicSight, public_sight
from engine.host.watch import in_turns

# Sights kept: a few versions of every match followed at once, in a language or two.
KEPT_SIGHTS = 256

Key = tuple[int, int, str]


class SightMemory:
    """``public_sight`` worked out once per match version and language."""

    def __init__(self, size: int = KEPT_SIGHTS) -> None:
        self._sights: Recent[Key, asyncio.Future[PublicSight]] = Recent(size)
        # The pages waiting for each sight being worked out.
        self._waiting: dict[asyncio.Future[PublicSight], list[asyncio.Future[None]]] = {}

    async def public(self, host: GameHost, match: MatchRecord, locale: str) -> PublicSight:
        """``public_sight(host, match, locale)``; raises what it raises (and forgets the failure). A page
        that stops waiting (its visitor left) stops no other."""
        key = (match.id, match.version, locale)
        known = self._sights.get(key)
        if known is None:
            known = asyncio.ensure_future(public_sight(host, match, locale))
            self._sights.keep(key, known)
            self._waiting[known] = []
            known.add_done_callback(lambda done: self._done(key, done))
        if not known.done():
            turn = asyncio.get_running_loop().create_future()
            self._waiting[known].append(turn)
            await turn
        return known.result()

    def _done(self, key: Key, done: asyncio.Future[PublicSight]) -> None:
        if (done.cancelled() or done.exception() is not None) and self._sights.get(key) is done:
            self._sights.forget(key)
        in_turns([partial(_let_go, turn) for turn in self._waiting.pop(done, [])])


def _let_go(turn: asyncio.Future[None]) -> None:
    if not turn.done():  # a page whose visitor left is done already
        turn.set_result(None)
