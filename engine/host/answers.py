"""What a person is answered when they play a move or take one back from a private menu: the move(s)
played, why the rest of a shortcut was not, and what follows (their menu again while the turn is still
theirs, else who plays next). A front end shows the answer; the host plays and words it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import lang
from engine.core.errors import AlreadyPlayed, EngineError, StaleVersion
from engine.core.say import Say
from engine.host import controls
from engine.host.menus import KEY, unkey
from engine.host.outgoing import Outgoing
from engine.host.ports import MatchRecord, Scope
from engine.host.results import ActResult
from engine.host.service import GameHost
from engine.host.shortcuts import act_run
from engine.host.table import STALE_CHOICE, Table
from engine.host.text import GO_ON_IN_THREAD, HOST, answer_after_change, stands_after
from lang.says import Namer, render

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Line:
    """One line of an answer: a mark that tells its kind at a glance, and its sentence."""

    mark: str
    say: Say


def lines_text(locale: str, lines: Sequence[Line], name: Namer) -> str:
    """``lines`` in ``locale``, one a line, each after its mark."""
    return "\n".join(f"{line.mark} {render(locale, line.say, name)}" for line in lines)


@dataclass(frozen=True, slots=True)
class MoveAnswer:
    """A move accepted: the moves played (a shortcut's several), and the lines that say so, with why the
    rest of a shortcut was not played when it stopped midway."""

    played: tuple[ActResult, ...]
    lines: tuple[Line, ...]
    refused: EngineError | None = None

    @property
    def match(self) -> MatchRecord:
        """The match as the last move left it."""
        return self.played[-1].match

    @property
    def troubled(self) -> bool:
        """Whether something failed after the last move was stored (its lines say so): nothing follows
        it in a menu until the board has settled."""
        return self.played[-1].trouble is not None


def played_lines(
    played: Sequence[ActResult], refused: EngineError | None = None, go_on: Say = GO_ON_IN_THREAD
) -> tuple[Line, ...]:
    """ "You played: …" for each move of ``played``, then what failed after the last one was stored
    (and how to go on: ``go_on``), then why the rest was not played (``refused``)."""
    lines = [
        Line("✅", HOST.say("You played: {move}.", move=one.label or one.notation or "")) for one in played
    ]
    trouble = played[-1].trouble if played else None
    if trouble is not None:
        lines.append(Line("⚠️", stands_after(trouble, go_on)))
    if refused is not None:
        # A shortcut stopped midway: what was played stays played, and the player learns why the rest
        # was not.
        reason = refused.say if refused.say is not None else refused.message
        lines.append(Line("⚠️", HOST.say("The rest of your choice was not played: {reason}.", reason=reason)))
    return tuple(lines)


async def menu_choice(
    host: GameHost, match_id: int, user_id: int, version: int, value: str, scope: Scope | None = None
) -> str:
    """The menu value that the option ``value`` of a select on board ``version`` stands for: itself, or
    the move or group whose short key it is (see ``engine.host.menus.option_value``), looked up in the
    person's menu as it is now. A key that names nothing there any more is refused as no longer on
    offer, never played as something else."""
    if not value.startswith(KEY):
        return value
    table = await host.menu(match_id, user_id, version=version, scope=scope)
    found = unkey(value, table.menu)
    if found is None:
        raise StaleVersion(STALE_CHOICE)
    return found


async def play_move(
    host: GameHost,
    match_id: int,
    user_id: int,
    notation: str | int | None,
    run: Sequence[str] = (),
    version: int | None = None,
    scope: Scope | None = None,
    seen_version: int | None = None,
    locale: str = lang.DEFAULT,
    go_on: Say = GO_ON_IN_THREAD,
) -> MoveAnswer | None:
    """Play ``notation`` (or the moves of a shortcut, ``run``) for ``user_id`` and word what was played;
    None for a second click of the choice just played (nothing to say). ``version`` binds a control to
    its exact board; ``seen_version`` binds a typed move to the board the person saw (see
    ``GameHost.act``); ``go_on`` says how to go on should something fail after the move was stored."""
    try:
        if len(run) <= 1:
            played = await host.act(
                match_id,
                user_id,
                run[0] if run else notation,
                expected_version=version,
                scope=scope,
                seen_version=seen_version,
                locale=locale,
            )
            return MoveAnswer((played,), played_lines((played,), go_on=go_on))
        outcome = await act_run(host, match_id, user_id, run, version, scope, locale)
    except AlreadyPlayed:
        return None
    if outcome.refused is not None:
        log.info("a shortcut stopped in match %s: %s", match_id, outcome.refused.message)
    lines = played_lines(outcome.played, outcome.refused, go_on)
    return MoveAnswer(outcome.played, lines, outcome.refused)


def took_back(match: MatchRecord) -> Line:
    """The line of a move taken back in ``match``."""
    return Line("↩️", HOST.say("You took back your move in match #{number}.", number=match.id))


@dataclass(frozen=True, slots=True)
class Next:
    """What a private message shows after a move or an undo: the person's ``table``, with the menu of
    their moves while the turn is still theirs (``my_turn``), else ``waiting`` says who plays next (and
    ``table.may_undo`` whether they may still take their move back)."""

    table: Table

    @property
    def my_turn(self) -> bool:
        return self.table.my_turn

    @property
    def waiting(self) -> Say:
        return self.table.waiting


async def next_step(host: GameHost, match: MatchRecord, user_id: int, locale: str = lang.DEFAULT) -> Next:
    """What follows for ``user_id`` in ``match`` (see ``Next``)."""
    table = await host.table(match, user_id, undo=True)
    if table.my_turn:
        return Next(await host.menu(match, user_id, locale))
    return Next(table)


async def what_follows(
    host: GameHost, match: MatchRecord, user_id: int, locale: str, done: Sequence[Line]
) -> Outgoing:
    """The private message after a move or an undo: the lines of what was ``done``, then the person's
    menu while the turn is still theirs, else who plays next, with Undo while they may take their move
    back."""
    said = lines_text(locale, done, host.namer(match))
    after = await next_step(host, match, user_id, locale)
    table = after.table
    if after.my_turn:
        menu = controls.menu(table, locale)
        return Outgoing(f"{said}\n{menu.text}", menu.controls)
    undo = (controls.undo(match.id, match.version, locale, menu=True),) if table.may_undo else ()
    return Outgoing(f"{said}\n{render(locale, after.waiting, table.name)}", undo)


async def what_follows_stored(
    host: GameHost, match: MatchRecord, user_id: int, locale: str, done: Sequence[Line]
) -> Outgoing:
    """``what_follows`` a move or an undo that is stored already; when it cannot be made, what was
    ``done`` and that it stands (see ``after_change``)."""
    try:
        return await what_follows(host, match, user_id, locale, done)
    except Exception as exc:
        return after_change(lines_text(locale, done, host.namer(match)), exc, locale)


def after_change(done: str, error: BaseException, locale: str) -> Outgoing:
    """What a person reads when ``error`` came after what they did (``done``, in words) was stored."""
    return Outgoing(f"{done}\n{answer_after_change(error, locale)}")
