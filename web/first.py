"""A newcomer's first match in the browser, on a table served on this computer only (``python bot.py``
with no Discord token): the home page lists the games and the guest's matches; a game's page asks for the
seat count, the variants and the computer players' level, and starts the match at the guest's own page."""

from __future__ import annotations

from aiohttp import web

from engine.core.errors import EngineError
from engine.host.first_match import GUEST_ID, choices_of, games, guest_matches, open_first_match
from engine.host.languages import LANGUAGE
from engine.host.text import refusal
from lang import N_, t, tn
from web.links import pass_for
from web.pages import page, page_locale_of, refused_page
from web.table import TABLE

GOING_ON = N_("{game}, match #{number}: being played")
OVER = N_("{game}, match #{number}: over")


def _private(request: web.Request, match_id: int, seat: int) -> str:
    table = request.app[TABLE]
    return f"/p/{pass_for(table.secret, match_id, seat, table.clock())}"


async def home(request: web.Request) -> web.Response:
    """The games to choose from, and the guest's matches to go back to."""
    table = request.app[TABLE]
    locale = page_locale_of(request)
    mine = [
        {
            "link": _private(request, one.number, one.seat),
            "label": t(locale, GOING_ON if one.playing else OVER, game=one.title, number=one.number),
        }
        for one in await guest_matches(table.host, locale)
    ]
    words = {
        "title": t(locale, "Play a match against computer players"),
        "intro": t(
            locale,
            "Choose a game: you play one seat, computer players take the others. Your matches stay here, "
            "to go on with whenever you like.",
        ),
        "choose": t(locale, "Games"),
        "mine": t(locale, "Your matches"),
    }
    return page(request, "home.html", locale=locale, words=words, games=games(table.host, locale), mine=mine)


def _new_words(locale: str, seats: tuple[int, ...]) -> dict[str, object]:
    return {
        "back": t(locale, "Back to the games"),
        "seats": t(locale, "Players, you included"),
        "players": {count: tn(locale, "{count} player", "{count} players", count) for count in seats},
        "variants": t(locale, "Variants"),
        "level": t(locale, "Computer players"),
        "name": t(locale, "Your name in the match"),
        "start": t(locale, "Start the match"),
    }


async def new_match(request: web.Request) -> web.Response:
    """A game's choices (GET), or the match they make, started, at the guest's page (POST)."""
    table = request.app[TABLE]
    locale = page_locale_of(request)
    game = choices_of(table.host, request.match_info["game"], locale)
    if game is None:
        return refused_page(request, 404)
    chosen: dict[str, object] = {
        "seats": min(game.seats, key=lambda count: abs(count - 3)),
        "variants": (),
        "level": "greedy" if any(level.value == "greedy" for level in game.levels) else game.levels[0].value,
        "name": t(locale, "Guest"),
    }
    refused = None
    if request.method == "POST":
        form = await request.post()
        seats, level, name = form.get("seats"), form.get("level"), form.get("name")
        variants = frozenset(
            value for value in form.getall("variant", []) if isinstance(value, str) and value
        )
        if not (isinstance(seats, str) and seats.isdigit() and len(seats) < 3):
            return refused_page(request, 400)
        if not isinstance(level, str) or not isinstance(name, str):
            return refused_page(request, 400)
        chosen = {"seats": int(seats), "variants": variants, "level": level, "name": name}
        try:
            match = await open_first_match(table.host, game.game, int(seats), variants, level, name)
        except EngineError as error:
            refused = refusal(locale, error)
        else:
            # The guest's own page speaks the language they chose the match in.
            await table.settings.set("user", GUEST_ID, LANGUAGE, locale)
            seat = match.seat_of(GUEST_ID)
            assert seat is not None  # the guest has just been seated
            raise web.HTTPSeeOther(_private(request, match.id, seat))
    return page(
        request,
        "new.html",
        status=409 if refused else 200,
        locale=locale,
        game=game,
        chosen=chosen,
        refused=refused,
        words=_new_words(locale, game.seats),
    )


def add_routes(app: web.Application) -> None:
    """The newcomer's pages, on a table for this computer only."""
    app.router.add_get("/", home)
    app.router.add_get(r"/new/{game:[a-z0-9_]+}", new_match)
    app.router.add_post(r"/new/{game:[a-z0-9_]+}", new_match)
