"""The replay pages: a match step by step as spectators saw it (``/m/{id}/replay?move=N``, its board
``/m/{id}/replay/board.png?move=N``), and a seat's own replay behind its signed link
(``/p/{token}/replay?move=N``, its own view ``/p/{token}/replay/hand.png?move=N``).

A step shows the board as it stood after its move, what the move said, a scrubber over every move (a
range in a form, which needs no script), links to the first, previous, next and last moves, and the
turns and scorings to jump to. The steps, their words and what a seat may see of them are the host's
(``engine.host.replay_sights``).
"""

from __future__ import annotations

from urllib.parse import urlencode

from aiohttp import web

from engine.core.errors import MatchNotFound
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.replay_sights import StepSight, step_sight, step_version
from engine.host.replay_steps import LATEST
from lang import t
from web.board import draw_large
from web.pages import page, page_locale_of, refused_page, seat_locale, seat_of
from web.table import TABLE

# The most digits a move number is read with: more than any match has moves.
MOVE_DIGITS = 6


def asked_move(request: web.Request) -> int | None:
    """The move the address asks for (``?move=N``; none: the latest); None when it is not a number."""
    asked = request.query.get("move", "")
    if not asked:
        return LATEST
    if not (asked.isascii() and asked.isdigit() and len(asked) <= MOVE_DIGITS):
        return None
    return int(asked)


async def started_match(request: web.Request) -> MatchRecord | None:
    """The match of a public replay address, once it has started (a lobby has no board to replay)."""
    try:
        match = await request.app[TABLE].host.match(int(request.match_info["match_id"]))
    except MatchNotFound:
        return None
    return match if replayable(match) else None


def replayable(match: MatchRecord) -> bool:
    """Whether ``match`` has moves to step through: it started (a lobby has no board yet)."""
    return match.status is not MatchStatus.LOBBY and match.state_json is not None


def step_href(move: int, asked_locale: str | None) -> str:
    """The address, relative to the replay page, of the step after ``move`` (keeping an asked language)."""
    query = {"lang": asked_locale} if asked_locale else {}
    return "?" + urlencode({**query, "move": move})


def png_answer(data: bytes) -> web.Response:
    """A drawn step as an image, checked again before a browser shows it from its cache: a move taken
    back changes what a step's address draws."""
    response = web.Response(body=data, content_type="image/png")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _words(locale: str, number: int) -> dict[str, str]:
    return {
        "match": t(locale, "match #{number}", number=number),
        "replay": t(locale, "Replay"),
        "board": t(locale, "The board after this move"),
        "hand": t(locale, "Your own view after this move"),
        "first": t(locale, "First move"),
        "previous": t(locale, "Previous move"),
        "next": t(locale, "Next move"),
        "last": t(locale, "Last move"),
        "scrub": t(locale, "Move to show"),
        "show": t(locale, "Show this move"),
        "jumps": t(locale, "Turns and scorings"),
        "full": t(locale, "Show the board at full size"),
        "fit": t(locale, "Fit the board to the screen"),
    }


def _step_page(
    request: web.Request, locale: str, step: StepSight, base: str, hand_src: str | None
) -> web.Response:
    """The page of ``step``, its addresses under ``base`` (the replay's own, without a query)."""
    asked = locale if request.query.get("lang") else None
    query = f"move={step.move}&v={step.version}&lang={locale}"
    return page(
        request,
        "replay.html",
        locale=locale,
        step=step,
        words=_words(locale, step.number),
        action=base,
        asked_locale=asked,
        back=base.removesuffix("/replay") + (f"?lang={asked}" if asked else ""),
        steps={kind: step_href(target, asked) for kind, target in step.steps.items()},
        jumps=[(jump, step_href(jump.move, asked)) for jump in step.jumps],
        board_src=f"/m/{step.number}/replay/board.png?{query}",
        hand_src=f"{hand_src}?{query}" if hand_src else None,
    )


async def replay_page(request: web.Request) -> web.Response:
    """A match after one of its moves, as spectators saw it then."""
    match = await started_match(request)
    move = asked_move(request)
    if match is None or move is None:
        return refused_page(request, 404)
    locale = page_locale_of(request)
    step = await step_sight(request.app[TABLE].host, match, move, None, locale)
    return _step_page(request, locale, step, f"/m/{match.id}/replay", None)


async def replay_board_png(request: web.Request) -> web.Response:
    """The public board of a match as it stood after one of its moves, drawn as its pages draw it."""
    table = request.app[TABLE]
    match = await started_match(request)
    move = asked_move(request)
    if match is None or move is None:
        return refused_page(request, 404)
    view = await table.host.view_at(match, await step_version(table.host, match, move))
    png = await draw_large(match.game, view, match.seat_names(), page_locale_of(request))
    return refused_page(request, 404) if png is None else png_answer(png)


async def _opened(request: web.Request) -> tuple[MatchRecord, int, int] | web.Response:
    """The match, seat and move a seat's replay address opens, or the page refusing it."""
    opened = await seat_of(request)
    if opened is None:
        return refused_page(request, 403)
    match, seat_pass = opened
    move = asked_move(request)
    if not replayable(match) or move is None:
        return refused_page(request, 404)
    return match, seat_pass.seat, move


async def seat_replay_page(request: web.Request) -> web.Response:
    """A seat's own replay: each step's public board, and its own view and what it alone was told then."""
    opened = await _opened(request)
    if isinstance(opened, web.Response):
        return opened
    match, seat, move = opened
    locale = await seat_locale(request, match, seat)
    step = await step_sight(request.app[TABLE].host, match, move, seat, locale)
    base = f"/p/{request.match_info['token']}/replay"
    return _step_page(request, locale, step, base, f"{base}/hand.png")


async def seat_replay_hand_png(request: web.Request) -> web.Response:
    """A seat's own view as it stood after one of the match's moves, drawn as its direct messages draw
    it, behind the same link as its page."""
    opened = await _opened(request)
    if isinstance(opened, web.Response):
        return opened
    match, seat, move = opened
    table = request.app[TABLE]
    version = await step_version(table.host, match, move)
    view = await table.host.view_at(match, version, seat)
    png = await table.draw(match.game, view, match.seat_names(), await seat_locale(request, match, seat))
    return refused_page(request, 404) if png is None else png_answer(png)


def add_routes(app: web.Application) -> None:
    """The replay pages' addresses on ``app``."""
    app.router.add_get(r"/m/{match_id:\d+}/replay", replay_page)
    app.router.add_get(r"/m/{match_id:\d+}/replay/board.png", replay_board_png)
    app.router.add_get("/p/{token}/replay", seat_replay_page)
    app.router.add_get("/p/{token}/replay/hand.png", seat_replay_hand_png)
