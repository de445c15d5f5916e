"""Hearing the new versions of matches that other processes write to a shared PostgreSQL database: each
write that changes a match sends a notice on ``VERSION_CHANNEL`` when it commits (``data.sql_store``'s
version guard); one connection of the pool LISTENs for them and tells ``MatchVersions``.

A lost connection is opened again, a little later each time it fails, and the versions of the matches
watched meanwhile are read afresh: a notice sent while nobody listened is never sent again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import asyncpg

from data.postgres.db import Conn, PgDatabase
from data.sql_store.core import VERSION_CHANNEL
from engine.host.watch import MatchVersions

log = logging.getLogger(__name__)

# The first wait before opening a lost connection again, and the longest, in seconds.
FIRST_RETRY_S = 0.05
LAST_RETRY_S = 5.0
_CURRENT = "SELECT id, version FROM matches WHERE id = ANY($1::bigint[])"


class VersionListener:
    """Feeds ``versions`` with the versions told on ``db``'s channel while ``run`` runs."""

    def __init__(self, db: PgDatabase, versions: MatchVersions) -> None:
        self.db = db
        self.versions = versions
        self.listening = asyncio.Event()  # set while a connection listens
        self.connections = 0  # how many were opened so far
        self.server_pid: int | None = None  # the server's process of the one listening now

    def _heard(self, conn: Conn, pid: int, channel: str, payload: object) -> None:
        try:
            match_id, version = map(int, str(payload).split())
        except ValueError:
            log.warning("a notice on %s was not a match and its version: %r", channel, str(payload)[:80])
            return
        self.versions.publish(match_id, version)

    async def _catch_up(self, conn: Conn) -> None:
        watched = sorted(self.versions.watched())
        if watched:
            for match_id, version in await conn.fetch(_CURRENT, watched):
                self.versions.publish(int(match_id), int(version))

    async def _listen_once(self) -> None:
        """Listen on one connection until it is lost."""
        async with self.db.pool.acquire() as conn:
            lost = asyncio.Event()
            conn.add_termination_listener(lambda _: lost.set())
            await conn.add_listener(VERSION_CHANNEL, self._heard)
            self.connections += 1
            self.server_pid = conn.get_server_pid()
            try:
                await self._catch_up(conn)
                self.listening.set()
                await lost.wait()
            finally:
                self.listening.clear()
                if not conn.is_closed():
                    with suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                        await conn.remove_listener(VERSION_CHANNEL, self._heard)

    async def run(self) -> None:
        """Listen until cancelled, opening the connection again whenever it is lost."""
        wait = FIRST_RETRY_S
        while True:
            try:
                await self._listen_once()
                wait = FIRST_RETRY_S
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                log.warning("listening for new versions failed (%s); trying again in %.1f s", exc, wait)
                await asyncio.sleep(wait)
                wait = min(LAST_RETRY_S, wait * 2)


@asynccontextmanager
async def hearing_versions(db: PgDatabase, versions: MatchVersions) -> AsyncIterator[VersionListener]:
    """Within the block, every version any process writes to ``db`` reaches ``versions``; the block
    begins once the first connection listens."""
    listener = VersionListener(db, versions)
    task = asyncio.create_task(listener.run(), name="listening for new versions")
    try:
        ready = asyncio.create_task(listener.listening.wait())
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if task.done():
            task.result()  # raises what stopped it
        yield listener
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
