"""Pages that follow their match live: ``GET /m/{id}/events`` streams the match's version as server-sent
events, and the pages' script (``static/live.js``) fetches its own page again when it changes.

The stream is public and carries the version number alone: what changed is read from the page, through
the same link (a private page refreshes through its own signed link). The version written last is sent
as soon as a stream opens, so a page that reconnects after missing moves catches up at once; a comment
every ``keep_alive_s`` keeps proxies from closing a quiet stream. The host hears of versions as they are
written (``engine.host.watch``): from this process's writes, and from other processes' on PostgreSQL.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from aiohttp import web

from engine.core.errors import MatchNotFound
from engine.host.service import GameHost
from engine.host.watch import Watcher
from engine.host.web_links import server_shows_links
from web.security import HEADERS
from web.table import TABLE
from web.turns import Turnstile, turnstile_middleware

# How often a quiet stream says it is still there, in seconds: well within the minute after which
# common reverse proxies close an idle connection.
KEEP_ALIVE_S = 15.0
# How long a browser waits before opening a lost stream again, in milliseconds.
RETRY_MS = 1000
# Each page waits a moment chosen at random within the spread before fetching itself again, so that a
# crowd following a match does not ask for it all at once: so long per page following it, at most so
# long in all (milliseconds; the page still changes within a second of the move).
SPREAD_PER_PAGE_MS = 2
LONGEST_SPREAD_MS = 500
# Streams open at once from one address: a person's tabs, or a club's spectators behind one router;
# beyond that, a stream is refused (429) and its page says it no longer follows the match.
STREAMS_PER_ADDRESS = 40
RETRY_AFTER_S = 60


@dataclass
class Live:
    """The host whose matches the streams follow, and the streams open now: by the address they come
    from, each one's watcher and connection."""

    host: GameHost
    keep_alive_s: float
    streams_per_address: int = STREAMS_PER_ADDRESS
    streams: dict[str, dict[Watcher, asyncio.BaseTransport | None]] = field(default_factory=dict)

    def room_for(self, address: str) -> bool:
        """Whether ``address`` may open one more stream. At its limit, the streams whose page was closed
        are let go first: a stream hears that its page left only when it next writes."""
        open_here = self.streams.get(address, {})
        if len(open_here) < self.streams_per_address:
            return True
        for watcher, connection in list(open_here.items()):
            if connection is None or connection.is_closing():
                watcher.stop()
                del open_here[watcher]
        return len(open_here) < self.streams_per_address


LIVE = web.AppKey("live", Live)


def add_live(app: web.Application, host: GameHost, keep_alive_s: float = KEEP_ALIVE_S) -> None:
    """Serve the streams of ``host``'s matches on ``app``, and hear other processes' moves while it runs."""
    app[LIVE] = Live(host, keep_alive_s)
    # The crowd of pages a move sends asking for themselves at once is taken a few at a time.
    app.middlewares.append(turnstile_middleware(Turnstile()))
    app.router.add_get(r"/m/{match_id:\d+}/events", match_events)
    app.cleanup_ctx.append(_hearing_other_processes)
    app.on_shutdown.append(_end_streams)


async def _hearing_other_processes(app: web.Application) -> AsyncIterator[None]:
    async with app[LIVE].host.hearing_other_processes():
        yield


async def _end_streams(app: web.Application) -> None:
    """Let every open stream end, so that the server stops without waiting for them."""
    for open_here in app[LIVE].streams.values():
        for watcher in list(open_here):
            watcher.stop()


def event(version: int, followers: int) -> bytes:
    """The event telling ``version`` to one of ``followers`` pages, and the spread of their fetches (see
    ``SPREAD_PER_PAGE_MS``); its id is the version, which a reconnecting browser sends back."""
    spread = min(LONGEST_SPREAD_MS, followers * SPREAD_PER_PAGE_MS)
    return f"id: {version}\ndata: {version} {spread}\n\n".encode()


async def match_events(request: web.Request) -> web.StreamResponse:
    """The versions of a match as server-sent events: the current one at once, then each newer one."""
    live = request.app[LIVE]
    match_id = int(request.match_info["match_id"])
    address = request.remote or ""
    if not live.room_for(address):
        raise web.HTTPTooManyRequests(headers={**HEADERS, "Retry-After": str(RETRY_AFTER_S)})
    return await _stream(request, live, match_id, address)


async def _stream(request: web.Request, live: Live, match_id: int, address: str) -> web.StreamResponse:
    with live.host.versions.watching(match_id) as watcher:
        open_here = live.streams.setdefault(address, {})
        open_here[watcher] = request.transport
        try:
            return await _follow(request, live, match_id, watcher)
        finally:
            open_here.pop(watcher, None)
            if not open_here and live.streams.get(address) is open_here:
                del live.streams[address]


async def _follow(request: web.Request, live: Live, match_id: int, watcher: Watcher) -> web.StreamResponse:
    try:
        # Read once watching: a version written in between is told to the watcher as well.
        match = await live.host.match(match_id)
    except MatchNotFound:
        raise web.HTTPNotFound() from None
    if not await server_shows_links(request.app[TABLE].settings, match.guild_id):
        raise web.HTTPNotFound()  # as the match's pages: its server switched the table off
    watcher.tell(match.version)
    response = web.StreamResponse(
        headers={
            **HEADERS,
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",  # nginx would hold the events back in its buffer
        }
    )
    await response.prepare(request)
    try:
        await response.write(f"retry: {RETRY_MS}\n\n".encode())
        sent = -1
        while True:
            version = await watcher.newer(sent, live.keep_alive_s)
            if watcher.stopped:
                break
            if version is None:
                await response.write(b": still here\n\n")
                continue
            await response.write(event(version, live.host.versions.watchers(match_id)))
            sent = version
    except ConnectionResetError:
        pass  # the page was closed
    return response
