"""The web table as a process of its own on a store (``python bot.py web``), or beside the bot in its
process, and the links it serves (``python bot.py web-link``). Whoever starts it hands over the stores'
opener (or the open stores), so this package never imports the stores themselves."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

from engine.core.errors import MatchNotFound
from engine.host.link_secret import link_secret
from engine.host.ports import SettingsStore
from engine.host.service import GameHost
from engine.host.storage import OpenStores
from web.app import Draw, create_app
from web.links import pass_for

log = logging.getLogger(__name__)


class AccessLog(AbstractAccessLogger):
    """The access log without the private links' tokens: a private page is logged by its kind only."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        path = request.path
        shown = "/p/…" if path.startswith("/p/") else path
        self.logger.info("%s %s %s %.1f ms", request.method, shown, response.status, time * 1000)


def local_url(host: str, port: int) -> str:
    """The address of a server listening on ``host`` and ``port``."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def base_url(public_url: str | None, host: str, port: int) -> str:
    """Where links point: the table's public address when the operator gives one (``BIGAPPLE_WEB_URL``),
    else the local one."""
    if public_url and public_url.strip():
        return public_url.strip().rstrip("/")
    return local_url(host, port)


def _stamp(clock: Callable[[], datetime]) -> Callable[[], str]:
    return lambda: clock().astimezone(UTC).isoformat(timespec="milliseconds")


async def serve(
    database: str,
    open_stores: OpenStores,
    *,
    host: str,
    port: int,
    secret: str | None,
    announce: Callable[[str], None],
    stop: asyncio.Event,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    guest: bool = False,
    any_port: bool = False,
) -> None:
    """Serve the web table on ``database`` at ``host``:``port`` (0: any free port), tell ``announce`` its
    base address once it listens, and serve until ``stop`` is set. ``guest`` opens the newcomer's pages
    (for a table this computer alone reaches); ``any_port`` takes a free port when ``port`` is taken."""
    stores = await open_stores(database, clock=_stamp(clock))
    try:
        game_host = GameHost(stores.matches, clock=clock)
        app = create_app(game_host, stores.settings, secret=secret, clock=clock, guest=guest)
        runner = web.AppRunner(app, access_log_class=AccessLog)
        await runner.setup()
        try:
            site = web.TCPSite(runner, host, port)
            try:
                await site.start()
            except OSError:
                if not any_port:
                    raise
                site = web.TCPSite(runner, host, 0)
                await site.start()
            announce(local_url(host, bound_port(runner, port)))
            await stop.wait()
        finally:
            await runner.cleanup()
    finally:
        await stores.close()


def bound_port(runner: web.AppRunner, asked: int) -> int:
    """The port ``runner`` listens on: the one asked for, or the one found for it when that was 0."""
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    return asked


@dataclass(frozen=True, slots=True)
class Beside:
    """The web table served in another program's process (the bot's): where it listens, and its
    runner, which ``close`` stops."""

    url: str
    runner: web.AppRunner

    async def close(self) -> None:
        await self.runner.cleanup()


async def serve_beside(
    game_host: GameHost,
    settings: SettingsStore,
    *,
    host: str,
    port: int,
    secret: str | None,
    clock: Callable[[], datetime],
    draw: Draw | None = None,
    on_move: Callable[[], None] | None = None,
) -> Beside | None:
    """Serve the web table on ``game_host`` and ``settings`` at ``host``:``port`` (0: any free port) in
    this process, until the answer is closed; ``on_move`` is told of each move played there. None, with
    a warning in the log, when it cannot listen there: the program goes on without it."""
    app = create_app(game_host, settings, secret=secret, clock=clock, draw=draw, on_move=on_move)
    runner = web.AppRunner(app, access_log_class=AccessLog)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        log.warning(
            "the web table cannot listen on %s (%s): the bot runs without it; set BIGAPPLE_WEB_HOST and "
            "BIGAPPLE_WEB_PORT to a free address",
            local_url(host, port),
            exc.strerror or exc,
        )
        return None
    url = local_url(host, bound_port(runner, port))
    log.info("the web table listens on %s", url)
    return Beside(url, runner)


async def link(
    database: str,
    open_stores: OpenStores,
    *,
    match_id: int,
    seat: int | None,
    base: str,
    secret: str | None,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> str:
    """The address of match ``match_id``'s public page, or with ``seat`` the signed link of that seat's
    private page. Raises ``MatchNotFound`` for an unknown match, ``ValueError`` for a seat it lacks."""
    stores = await open_stores(database, clock=_stamp(clock))
    try:
        match = await GameHost(stores.matches, clock=clock).match(match_id)
        key = await link_secret(stores.settings, secret) if seat is not None else b""
        return signed_link(base, match.id, match.seat_count, seat, key, clock())
    finally:
        await stores.close()


def signed_link(base: str, match_id: int, seats: int, seat: int | None, key: bytes, now: datetime) -> str:
    """The address of match ``match_id``'s public page, or with ``seat`` the link of that seat's private
    page signed with ``key``. Raises ``ValueError`` for a seat the match (of ``seats`` seats) lacks."""
    if seat is None:
        return f"{base}/m/{match_id}"
    if not 0 <= seat < seats:
        raise ValueError(f"match {match_id} has seats 0 to {seats - 1}, not {seat}")
    return f"{base}/p/{pass_for(key, match_id, seat, now)}"


__all__ = ["Beside", "MatchNotFound", "base_url", "link", "serve", "serve_beside", "signed_link"]
