"""The web table's pages: a match as spectators see it (``/m/{id}``, its board ``/m/{id}/board.png``) and
one seat's private page behind a signed link (``/p/{token}``, its hand ``/p/{token}/hand.png``).

Every word comes from the host (``engine.host.sights``) and the catalogues; the images from the renderers
the Discord posts use. A link that does not open a page is refused with a page that names nothing of any
match, so that guessing links teaches nothing.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from aiohttp import web

from engine.core.errors import MatchNotFound
from engine.host.languages import chosen_language
from engine.host.page_turns import PageAnswer, page_turn
from engine.host.ports import MatchRecord
from engine.host.sights import seat_sight
from engine.host.web_links import links_revoked, server_shows_links
from lang import t
from web.board import board_figure, draw_large, figure_words
from web.links import LINK_LIFETIME, SeatPass, verified
from web.readers import page_locale
from web.sessions import cookie_name, form_token, new_session, session_of
from web.table import TABLE, TEMPLATES, Draw


def page_locale_of(request: web.Request, chosen: str | None = None) -> str:
    """The language of a page for ``request`` (see ``web.readers.page_locale``)."""
    return page_locale(request.query.get("lang"), request.headers.get("Accept-Language"), chosen)


async def seat_locale(request: web.Request, match: MatchRecord, seat: int) -> str:
    """The language of ``seat``'s private page: the one its player chose in their settings, unless the
    address asks for another."""
    player = match.player_at(seat)
    table = request.app[TABLE]
    return page_locale_of(request, await chosen_language(table.settings, player.user_id if player else None))


def page(request: web.Request, template: str, status: int = 200, **context: Any) -> web.Response:
    return html_response(request.app[TEMPLATES].get_template(template).render(**context), status)


async def written_off_the_loop(request: web.Request, template: str, **context: Any) -> str:
    """``template`` written with ``context`` in a thread: a match's page (its board's every place, its
    whole log) takes long enough to write that the event loop would stall for it."""
    return await asyncio.to_thread(request.app[TEMPLATES].get_template(template).render, **context)


def html_response(html: str, status: int = 200) -> web.Response:
    """A page, never kept by the browser or a proxy (it changes with every move, and may be private)."""
    response = web.Response(text=html, content_type="text/html", status=status)
    response.headers["Cache-Control"] = "no-store"
    return response


def refused_page(request: web.Request, status: int) -> web.Response:
    """A page that says the address opens nothing, naming no match (403 for a link, 404 for the rest, 400
    for a form no page of ours sends)."""
    locale = page_locale_of(request)
    if status == 400:
        words = {
            "title": t(locale, "This form cannot be read"),
            "text": t(locale, "Open the page again from your link and choose again."),
        }
    elif status == 403:
        words = {
            "title": t(locale, "This link does not open a page"),
            "text": t(locale, "It may have expired or been copied wrong. Ask for a new link."),
        }
    else:
        words = {
            "title": t(locale, "There is no such page"),
            "text": t(locale, "Check the address, or ask for a new link."),
        }
    return page(request, "refused.html", status, locale=locale, words=words)


async def _match(request: web.Request, match_id: int) -> MatchRecord | None:
    """Match ``match_id``, unless there is none or its server's admins switched the web table's links
    off (then none of its pages opens)."""
    table = request.app[TABLE]
    try:
        match = await table.host.match(match_id)
    except MatchNotFound:
        return None
    return match if await server_shows_links(table.settings, match.guild_id) else None


def _words(locale: str, number: int, player: str = "") -> dict[str, str]:
    return {
        "match": t(locale, "match #{number}", number=number),
        "board": t(locale, "The board as it stands"),
        "log": t(locale, "Every move so far"),
        "earlier": t(locale, "Earlier moves"),
        "scores": t(locale, "Points so far"),
        "hand": t(locale, "Your hand"),
        "moves": t(locale, "Your moves now"),
        "keep": t(
            locale, "The hand and moves of {player}: keep this page's link to yourself.", player=player
        ),
        "play": t(locale, "Play"),
        "several": t(locale, "Play these"),
        "replay": t(locale, "Replay"),
        "live_off": t(
            locale, "This page no longer follows the match by itself: reload it to see the latest moves."
        ),
    }


def replay_href(request: web.Request, page_path: str) -> str:
    """The address of the replay of the page at ``page_path`` (keeping a language the address asked)."""
    asked = request.query.get("lang")
    return f"{page_path}/replay" + (f"?lang={page_locale_of(request)}" if asked else "")


async def match_page(request: web.Request) -> web.Response:
    """The public page of a match: heading, whose turn, the board, the standings once over, the log. It
    is the same for every spectator asking the same address of the same version: written once for all
    of them (a crowd follows a match)."""
    table = request.app[TABLE]
    match = await _match(request, int(request.match_info["match_id"]))
    if match is None:
        return refused_page(request, 404)
    locale = page_locale_of(request)
    key = (match.id, match.version, locale, request.query_string)
    return html_response(await table.public_pages.get(key, lambda: _public_page(request, match, locale)))


async def _public_page(request: web.Request, match: MatchRecord, locale: str) -> str:
    table = request.app[TABLE]
    sight = await table.sights.public(table.host, match, locale)
    return await written_off_the_loop(
        request,
        "match.html",
        locale=locale,
        sight=sight,
        words=_words(locale, match.id),
        board_src=f"/m/{match.id}/board.png?v={sight.version}&lang={locale}",
        replay_href=replay_href(request, f"/m/{match.id}"),
        **await _figure(request, match, locale, sight.board),
    )


async def _figure(
    request: web.Request, match: MatchRecord, locale: str, started: bool, seat: int | None = None
) -> dict[str, Any]:
    """The board drawn large with its places (see ``web.board``), for a page's template."""
    if not started:
        return {"figure": None}
    src = f"/m/{match.id}/board-large.png?v={match.version}&lang={locale}"
    place, asked = request.query.get("place"), request.query.get("lang")
    table = request.app[TABLE]
    figure = await board_figure(table.layouts, table.host, match, locale, src, place, seat, asked)
    return {"figure": figure, "figure_words": figure_words(locale, figure) if figure else {}}


def _png(data: bytes) -> web.Response:
    response = web.Response(body=data, content_type="image/png")
    response.headers["Cache-Control"] = "no-cache"
    return response


async def board_png(request: web.Request) -> web.Response:
    """The public board of a match as it stands, drawn as the thread's posts draw it."""
    table = request.app[TABLE]
    return await _public_board(request, "posts", table.draw)


async def board_large_png(request: web.Request) -> web.Response:
    """The public board of a match drawn for its web pages, at twice the scale of the thread's posts."""
    return await _public_board(request, "large", draw_large)


async def _public_board(request: web.Request, size: str, draw: Draw) -> web.Response:
    """A match's public board as it stands, drawn by ``draw`` once per version, language and ``size``
    for every page that shows it. Asked for by its version (``?v=``, as the pages ask), it never changes,
    and browsers may keep it."""
    table = request.app[TABLE]
    match = await _match(request, int(request.match_info["match_id"]))
    if match is None or match.state_json is None:
        return refused_page(request, 404)
    locale = page_locale_of(request)

    async def drawn() -> bytes | None:
        return await draw(match.game, table.host.view(match, None), match.seat_names(), locale)

    png = await table.boards.get((size, match.id, match.version, locale), drawn)
    if png is None:
        return refused_page(request, 404)
    response = _png(png)
    if request.query.get("v") == str(match.version):
        response.headers["Cache-Control"] = "public, max-age=86400, immutable"
    return response


async def seat_of(request: web.Request) -> tuple[MatchRecord, SeatPass] | None:
    """The match and seat a private link opens; None for a bad, expired or unknown one, for one its
    player voided since (``/settings web revoke``), and for any link from an address that has sent too
    many bad ones lately."""
    table = request.app[TABLE]
    caller = request.remote or ""
    if table.guesses.blocked(caller):
        return None
    seat_pass = verified(table.secret, request.match_info["token"], table.clock())
    match = None if seat_pass is None else await _match(request, seat_pass.match_id)
    if seat_pass is None or match is None or not 0 <= seat_pass.seat < match.seat_count:
        table.guesses.allows(caller)
        return None
    player = match.player_at(seat_pass.seat)
    owner = player.user_id if player is not None else None
    if owner is not None and await links_revoked(table.settings, owner, seat_pass.issued):
        return None
    # A link given to whoever played the seat before a new person took it over is not the newcomer's.
    handed = await table.host.offers.handed_over_at(match.id, seat_pass.seat)
    if handed is not None and seat_pass.issued < handed.replace(microsecond=0):
        return None
    return match, seat_pass


async def seat_page(request: web.Request) -> web.Response:
    """A seat's private page: the public page, plus its hand and its moves to play."""
    opened = await seat_of(request)
    if opened is None:
        return refused_page(request, 403)
    return await show_seat(request, *opened)


async def show_seat(
    request: web.Request,
    match: MatchRecord,
    seat_pass: SeatPass,
    answer: PageAnswer | None = None,
    status: int = 200,
) -> web.Response:
    """The page of the seat ``seat_pass`` opens, with the ``answer`` to a move sent from it above; the
    first visit in a browser starts the seat's session there (see ``web.sessions``)."""
    table = request.app[TABLE]
    if answer is None:
        version, answer = table.played.get((match.id, seat_pass.seat), (-1, None))
        answer = answer if version == match.version else None
    locale = await seat_locale(request, match, seat_pass.seat)
    seat = seat_sight(table.host, match, seat_pass.seat, locale)
    sight = replace(await table.sights.public(table.host, match, locale), waiting=seat.waiting)
    token = request.match_info["token"]
    name = cookie_name(seat_pass)
    cookie = request.cookies.get(name)
    fresh = session_of(table.secret, cookie, seat_pass, table.clock()) is None
    if fresh or cookie is None:
        cookie = new_session(table.secret, seat_pass, table.clock())
    written = await written_off_the_loop(
        request,
        "seat.html",
        locale=locale,
        sight=sight,
        seat=seat,
        turn=page_turn(table.host, match, seat_pass.seat, locale),
        answer=answer,
        form=form_token(table.secret, cookie),
        token=token,
        words=_words(locale, match.id, seat.name),
        board_src=f"/m/{match.id}/board.png?v={sight.version}&lang={locale}",
        hand_src=f"/p/{token}/hand.png?v={sight.version}&lang={locale}" if sight.board else None,
        replay_href=replay_href(request, f"/p/{token}"),
        **await _figure(request, match, locale, sight.board, seat_pass.seat),
    )
    response = html_response(written, status)
    if fresh:
        response.set_cookie(
            name,
            cookie,
            max_age=int(LINK_LIFETIME.total_seconds()),
            path="/p/",
            httponly=True,
            samesite="Strict",
            secure=request.secure or request.headers.get("X-Forwarded-Proto") == "https",
        )
    return response


async def hand_png(request: web.Request) -> web.Response:
    """A seat's own view drawn as the direct messages draw it, behind the same link as its page."""
    opened = await seat_of(request)
    if opened is None:
        return refused_page(request, 403)
    match, seat_pass = opened
    if match.state_json is None:
        return refused_page(request, 404)
    table = request.app[TABLE]
    view = table.host.view(match, seat_pass.seat)
    locale = await seat_locale(request, match, seat_pass.seat)
    png = await table.draw(match.game, view, match.seat_names(), locale)
    return refused_page(request, 404) if png is None else _png(png)
