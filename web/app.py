"""The web table's application: its pages (``web.pages``), the moves sent from a seat's page
(``web.play``) and, on a table for this computer only, a newcomer's first match (``web.first``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import jinja2
from aiohttp import web

from engine.host.link_secret import link_secret
from engine.host.ports import SettingsStore
from engine.host.service import GameHost
from web import first, pages, play, replay
from web.live import add_live
from web.security import same_origin, secure_headers
from web.table import TABLE, TEMPLATES, Draw, WebTable, draw_in_thread

HERE = Path(__file__).resolve().parent


def create_app(
    host: GameHost,
    settings: SettingsStore,
    *,
    secret: str | None = None,
    clock: Callable[[], datetime] | None = None,
    draw: Draw | None = None,
    on_move: Callable[[], None] | None = None,
    guest: bool = False,
) -> web.Application:
    """The web table's application on ``host``: ``settings`` keeps the links' secret unless ``secret``
    (the operator's) is given; ``clock`` tells the time links expire by (default: the host's); ``draw``
    draws the images (default: the renderers, in a thread); ``on_move`` is called once a move played
    here is stored (the bot's outbox kick, so that its thread is told at once); ``guest`` opens the
    newcomer's pages (``web.first``), for a table served to this computer only."""
    app = web.Application(middlewares=[secure_headers, same_origin])
    app[TABLE] = WebTable(host, settings, secret, clock or host.clock, draw or draw_in_thread, on_move)
    app[TEMPLATES] = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        # Read once: asking the disk whether a template changed, at every page, held the event loop.
        auto_reload=False,
    )
    if guest:
        first.add_routes(app)

    app.on_startup.append(_load_secret)
    app.router.add_get(r"/m/{match_id:\d+}", pages.match_page)
    app.router.add_get(r"/m/{match_id:\d+}/board.png", pages.board_png)
    app.router.add_get(r"/m/{match_id:\d+}/board-large.png", pages.board_large_png)
    app.router.add_get("/p/{token}", pages.seat_page)
    app.router.add_get("/p/{token}/hand.png", pages.hand_png)
    app.router.add_post("/p/{token}/play", play.play)
    app.router.add_post("/p/{token}/pick", play.pick)
    replay.add_routes(app)
    add_live(app, host)
    app.router.add_static("/static", HERE / "static", append_version=False)
    return app


async def _load_secret(app: web.Application) -> None:
    table = app[TABLE]
    table.secret = await link_secret(table.settings, table.configured_secret)
