"""The web table's pages: a match as spectators see it (``/m/{id}``, its board ``/m/{id}/board.png``) and
one seat's private page behind a signed link (``/p/{token}``, its hand ``/p/{token}/hand.png``).

Every word comes from the host (``engine.host.sights``) and the catalogues; the images from the renderers
the Discord posts use. A link that does not open a page is refused with a page that names nothing of any
match, so that guessing links teaches nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web
from pydantic import BaseModel

from engine.core.errors import MatchNotFound
from engine.host.languages import chosen_language
from engine.host.link_secret import link_secret
from engine.host.ports import MatchRecord, SettingsStore
from engine.host.service import GameHost
from engine.host.sight_memory import SightMemory
from engine.host.sights import seat_sight
from lang import t
from web.links import SeatPass, verified
from web.live import add_live
from web.readers import page_locale
from web.security import secure_headers

HERE = Path(__file__).resolve().parent

# Draws a view of a game (the public board, or a seat's hand) with the seats' names and its words in a
# locale, as PNG bytes; None for a game without a renderer.
Draw = Callable[[str, BaseModel, Sequence[str], str], Awaitable[bytes | None]]


async def draw_in_thread(game: str, view: BaseModel, names: Sequence[str], locale: str) -> bytes | None:
    """The renderers of the Discord posts, off the event loop (the bot hands its render processes instead)."""
    from render.registry import render_view

    return await asyncio.to_thread(render_view, game, view, tuple(names), locale)


@dataclass
class WebTable:
    """What the pages need: the host, a clock for the links' expiry, how to draw, and the signing secret
    (set when the application starts)."""

    host: GameHost
    settings: SettingsStore
    configured_secret: str | None
    clock: Callable[[], datetime]
    draw: Draw
    secret: bytes = b""
    sights: SightMemory = field(default_factory=SightMemory)


TABLE = web.AppKey("table", WebTable)
TEMPLATES = web.AppKey("templates", jinja2.Environment)


def create_app(
    host: GameHost,
    settings: SettingsStore,
    *,
    secret: str | None = None,
    clock: Callable[[], datetime] | None = None,
    draw: Draw | None = None,
) -> web.Application:
    """The web table's application on ``host``: ``settings`` keeps the links' secret unless ``secret``
    (the operator's) is given; ``clock`` tells the time links expire by (default: the host's); ``draw``
    draws the images (default: the renderers, in a thread)."""
    app = web.Application(middlewares=[secure_headers])
    app[TABLE] = WebTable(host, settings, secret, clock or host.clock, draw or draw_in_thread)
    app[TEMPLATES] = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    app.on_startup.append(_load_secret)
    app.router.add_get(r"/m/{match_id:\d+}", match_page)
    app.router.add_get(r"/m/{match_id:\d+}/board.png", board_png)
    app.router.add_get("/p/{token}", seat_page)
    app.router.add_get("/p/{token}/hand.png", hand_png)
    add_live(app, host)
    app.router.add_static("/static", HERE / "static", append_version=False)
    return app


async def _load_secret(app: web.Application) -> None:
    table = app[TABLE]
    table.secret = await link_secret(table.settings, table.configured_secret)


def _locale(request: web.Request, chosen: str | None = None) -> str:
    return page_locale(request.query.get("lang"), request.headers.get("Accept-Language"), chosen)


async def _seat_locale(request: web.Request, match: MatchRecord, seat: int) -> str:
    """The language of ``seat``'s private page: the one its player chose in their settings, unless the
    address asks for another."""
    player = match.player_at(seat)
    table = request.app[TABLE]
    return _locale(request, await chosen_language(table.settings, player.user_id if player else None))


def _page(request: web.Request, template: str, status: int = 200, **context: Any) -> web.Response:
    html = request.app[TEMPLATES].get_template(template).render(**context)
    response = web.Response(text=html, content_type="text/html", status=status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _refused(request: web.Request, status: int) -> web.Response:
    """A page that says the address opens nothing, naming no match (403 for a link, 404 for the rest)."""
    locale = _locale(request)
    if status == 403:
        words = {
            "title": t(locale, "This link does not open a page"),
            "text": t(locale, "It may have expired or been copied wrong. Ask for a new link."),
        }
    else:
        words = {
            "title": t(locale, "There is no such page"),
            "text": t(locale, "Check the address, or ask for a new link."),
        }
    return _page(request, "refused.html", status, locale=locale, words=words)


async def _match(request: web.Request, match_id: int) -> MatchRecord | None:
    try:
        return await request.app[TABLE].host.match(match_id)
    except MatchNotFound:
        return None


def _words(locale: str, number: int, player: str = "") -> dict[str, str]:
    return {
        "match": t(locale, "match #{number}", number=number),
        "board": t(locale, "The board as it stands"),
        "log": t(locale, "Every move so far"),
        "scores": t(locale, "Points so far"),
        "hand": t(locale, "Your hand"),
        "moves": t(locale, "Your moves now"),
        "keep": t(
            locale, "The hand and moves of {player}: keep this page's link to yourself.", player=player
        ),
        "later": t(locale, "Play them in Discord for now: playing on this page comes later."),
    }


async def match_page(request: web.Request) -> web.Response:
    """The public page of a match: heading, whose turn, the board, the standings once over, the log."""
    match = await _match(request, int(request.match_info["match_id"]))
    if match is None:
        return _refused(request, 404)
    locale = _locale(request)
    sight = await request.app[TABLE].sights.public(request.app[TABLE].host, match, locale)
    board_src = f"/m/{match.id}/board.png?v={sight.version}&lang={locale}"
    return _page(
        request,
        "match.html",
        locale=locale,
        sight=sight,
        words=_words(locale, match.id),
        board_src=board_src,
    )


def _png(data: bytes) -> web.Response:
    response = web.Response(body=data, content_type="image/png")
    response.headers["Cache-Control"] = "no-cache"
    return response


async def board_png(request: web.Request) -> web.Response:
    """The public board of a match as it stands, drawn as the thread's posts draw it."""
    table = request.app[TABLE]
    match = await _match(request, int(request.match_info["match_id"]))
    if match is None or match.state_json is None:
        return _refused(request, 404)
    view = table.host.view(match, None)
    png = await table.draw(match.game, view, match.seat_names(), _locale(request))
    return _refused(request, 404) if png is None else _png(png)


async def _seat_of(request: web.Request) -> tuple[MatchRecord, SeatPass] | None:
    """The match and seat a private link opens; None for a bad, expired or unknown one."""
    table = request.app[TABLE]
    seat_pass = verified(table.secret, request.match_info["token"], table.clock())
    if seat_pass is None:
        return None
    match = await _match(request, seat_pass.match_id)
    if match is None or not 0 <= seat_pass.seat < match.seat_count:
        return None
    return match, seat_pass


async def seat_page(request: web.Request) -> web.Response:
    """A seat's private page: the public page, plus its hand and its moves in words."""
    opened = await _seat_of(request)
    if opened is None:
        return _refused(request, 403)
    match, seat_pass = opened
    table = request.app[TABLE]
    locale = await _seat_locale(request, match, seat_pass.seat)
    sight = await table.sights.public(table.host, match, locale)
    seat = seat_sight(table.host, match, seat_pass.seat, locale)
    token = request.match_info["token"]
    return _page(
        request,
        "seat.html",
        locale=locale,
        sight=sight,
        seat=seat,
        words=_words(locale, match.id, seat.name),
        board_src=f"/m/{match.id}/board.png?v={sight.version}&lang={locale}",
        hand_src=f"/p/{token}/hand.png?v={sight.version}&lang={locale}" if sight.board else None,
    )


async def hand_png(request: web.Request) -> web.Response:
    """A seat's own view drawn as the direct messages draw it, behind the same link as its page."""
    opened = await _seat_of(request)
    if opened is None:
        return _refused(request, 403)
    match, seat_pass = opened
    if match.state_json is None:
        return _refused(request, 404)
    table = request.app[TABLE]
    view = table.host.view(match, seat_pass.seat)
    locale = await _seat_locale(request, match, seat_pass.seat)
    png = await table.draw(match.game, view, match.seat_names(), locale)
    return _refused(request, 404) if png is None else _png(png)
