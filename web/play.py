"""Moves sent from a seat's private page: one of its moves, or the items of a choice of several. Each
needs the seat's session cookie and the form's token (``web.sessions``), stays within the seat's rate
(``web.limits``), and goes to the host as a move from Discord does; the page then shows what was played,
or why nothing was, above the board as it stands."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web
from multidict import MultiDictProxy

from engine.host.page_turns import PageAnswer, pick_from_page, play_from_page
from engine.host.ports import MatchRecord
from web.links import SeatPass
from web.pages import refused_page, seat_locale, seat_of, show_seat
from web.sessions import cookie_name, form_token_matches, session_of
from web.table import TABLE

# The most items a choice of several can send: more is not a person's form.
MOST_ITEMS = 64
# The longest move a page offers (a shortcut's several moves included).
LONGEST_MOVE = 500


@dataclass(frozen=True, slots=True)
class Sent:
    """A form sent from a seat's page, its session and token checked: the match as it is now, the seat,
    the board version the page showed, the fields, and the language of the answer."""

    match: MatchRecord
    seat_pass: SeatPass
    version: int
    fields: MultiDictProxy[str | bytes | bytearray | web.FileField]
    locale: str

    def text(self, key: str) -> str | None:
        value = self.fields.get(key)
        return value if isinstance(value, str) else None

    def numbers(self, key: str) -> list[int] | None:
        """Every ``key`` field as a number; None when one is not."""
        values = [value for value in self.fields.getall(key, []) if isinstance(value, str)]
        if len(values) != len(self.fields.getall(key, [])) or not all(map(_is_number, values)):
            return None
        return [int(value) for value in values]


def _is_number(text: str | None) -> bool:
    return text is not None and text.isascii() and text.isdigit() and len(text) < 10


async def _sent(request: web.Request) -> Sent | web.Response:
    """The checked form of a move sent from a page; or the refusal of one that lacks the link, the
    session or the form token (403), the seat's patience (429) or the board's version (400)."""
    opened = await seat_of(request)
    if opened is None:
        return refused_page(request, 403)
    match, seat_pass = opened
    table = request.app[TABLE]
    fields = await request.post()
    cookie = request.cookies.get(cookie_name(seat_pass))
    token = fields.get("form")
    if (
        cookie is None
        or session_of(table.secret, cookie, seat_pass, table.clock()) is None
        or not form_token_matches(table.secret, cookie, token if isinstance(token, str) else None)
    ):
        return refused_page(request, 403)
    if not table.moves.allows((match.id, seat_pass.seat)):
        return web.Response(status=429, text="Too many moves at once.", headers={"Retry-After": "1"})
    version = fields.get("version")
    if not isinstance(version, str) or not _is_number(version):
        return refused_page(request, 400)
    locale = await seat_locale(request, match, seat_pass.seat)
    return Sent(match, seat_pass, int(version), fields, locale)


async def _answered(request: web.Request, sent: Sent, answer: PageAnswer) -> web.Response:
    """After a move, the seat's page again, by its address, so that reloading it sends nothing twice;
    it shows what was played above the board. A refusal changed nothing: it is shown at once (409)."""
    table = request.app[TABLE]
    if answer.refused is not None:
        match = await table.host.match(sent.match.id)
        return await show_seat(request, match, sent.seat_pass, answer, 409)
    if answer.lines:
        if table.on_move is not None:
            table.on_move()
        match = await table.host.match(sent.match.id)
        table.played[(match.id, sent.seat_pass.seat)] = (match.version, answer)
    raise web.HTTPSeeOther(f"/p/{request.match_info['token']}#moves")


async def play(request: web.Request) -> web.Response:
    """One of the seat's moves, named by the notation its page offered."""
    sent = await _sent(request)
    if not isinstance(sent, Sent):
        return sent
    move = sent.text("move")
    if not move or len(move) > LONGEST_MOVE:
        return refused_page(request, 400)
    host = request.app[TABLE].host
    answer = await play_from_page(host, sent.match, sent.seat_pass.seat, move, sent.version, sent.locale)
    return await _answered(request, sent, answer)


async def pick(request: web.Request) -> web.Response:
    """The items ticked in one of the seat's choices of several."""
    sent = await _sent(request)
    if not isinstance(sent, Sent):
        return sent
    index = sent.numbers("choice")
    items = sent.numbers("item")
    if index is None or len(index) != 1 or items is None or len(items) > MOST_ITEMS:
        return refused_page(request, 400)
    host = request.app[TABLE].host
    answer = await pick_from_page(
        host, sent.match, sent.seat_pass.seat, index[0], items, sent.version, sent.locale
    )
    return await _answered(request, sent, answer)
