"""What a person sees of a match in words, for a front end that shows a whole page rather than posts (the
web table): the heading, whose turn it is, the final standings once it is over and the whole public log,
for a spectator; and for one seat, the menu of its moves in words or why it has none now.

Everything here is public but the seat's menu, which only that seat's page may carry.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from engine.host.clock_words import deadline_lines
from engine.host.marks import PageMarks
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost
from engine.host.table import Table
from engine.host.text import HOST, standings_lines, winners_line
from lang import t, tn
from lang.says import render

YOUR_TURN = HOST.say("It is your turn: choose your move below.")


@dataclass(frozen=True, slots=True)
class PublicSight:
    """A match as a spectator reads it in one language: the game's ``title``, the match ``number``, the
    ``version`` its board is drawn at, who must act (or that it is over or not begun) and, when the
    match has a clock, until when (``clocks``, with moments written for a page), each seat's
    ``scores`` so far while it runs (when the game keeps them in the open), the final ``standings`` once
    it is over (the winner's line first), every public ``log`` line from the start, and whether there is
    a ``board`` to draw yet."""

    title: str
    number: int
    version: int
    waiting: str
    clocks: tuple[str, ...]
    scores: tuple[str, ...]
    standings: tuple[str, ...]
    log: tuple[str, ...]
    board: bool


@dataclass(frozen=True, slots=True)
class SeatSight:
    """What one seat reads of its own: its ``name``, its legal ``moves`` in words when it must act, else
    ``why_not`` (whose turn it is, or that the match is over); and ``waiting``, the line under its page's
    heading (that it is the seat's turn, or the spectators' line)."""

    name: str
    moves: tuple[str, ...]
    why_not: str | None
    waiting: str


async def public_sight(host: GameHost, match: MatchRecord, locale: str) -> PublicSight:
    """``match`` as a spectator reads it in ``locale`` (the whole log, never cut). Raises
    ``CorruptRecord`` when its log cannot be replayed."""
    started = match.status is not MatchStatus.LOBBY and match.state_json is not None
    name = host.namer(match)
    table = Table(match, None, host.to_act(match), False, name)
    outcome = host.outcome(match)
    standings: tuple[str, ...] = ()
    if outcome is not None:
        standings = (winners_line(locale, outcome, name), *standings_lines(locale, match, outcome, name))
    log = await host.public_log(match, limit=0, locale=locale) if started else []
    points = open_scores(host.view(match, None)) if started and outcome is None else None
    scores = tuple(
        f"{name(seat)} · {tn(locale, '{count} point', '{count} points', count)}"
        for seat, count in enumerate(points or ())
    )
    return PublicSight(
        title=t(locale, host.rules(match.game).title),
        number=match.id,
        version=match.version,
        waiting=render(locale, table.waiting, name),
        clocks=await deadline_lines(host, match, locale, PageMarks(locale)),
        scores=scores,
        standings=standings,
        log=tuple(log),
        board=started,
    )


def open_scores(view: BaseModel) -> tuple[int, ...] | None:
    """Each seat's score so far, when the public ``view`` shows one per seat (its ``players`` or
    ``seats``, each with a ``score``); None for a game that keeps none in the open while it runs (a
    Skyline score waits for the secret missions, a Piatnik one for the end)."""
    for field in ("players", "seats"):
        rows = getattr(view, field, None)
        if isinstance(rows, tuple) and rows and all(isinstance(getattr(r, "score", None), int) for r in rows):
            return tuple(int(row.score) for row in rows)
    return None


def seat_sight(host: GameHost, match: MatchRecord, seat: int, locale: str) -> SeatSight:
    """What ``seat`` of ``match`` reads of its own in ``locale``: its moves in words on its turn (the
    labels of its menu), else why it has none now."""
    name = host.namer(match)
    to_act = host.to_act(match)
    table = Table(match, seat, to_act, False, name)
    waiting = render(locale, table.waiting, name)
    if not table.my_turn:
        return SeatSight(name(seat), (), waiting, waiting)
    moves = tuple(entry.label for entry in host.legal_menu(match, seat, locale))
    if len(table.to_act) > 1:
        # Several act at once: the page says who else the match waits for.
        return SeatSight(name(seat), moves, None, waiting)
    return SeatSight(name(seat), moves, None, render(locale, YOUR_TURN))
