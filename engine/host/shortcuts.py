"""Shortcuts: one menu choice that plays a short run of moves of one turn (``GamePresentation.shortcuts``).

A menu offers a shortcut only when every move of it is legal where it stands, with the moves the rules
make on their own (``GameRules.automatic``) in between, and the seat is still to act before its last
move. Choosing it plays the moves one by one, each checked, committed and announced as a move of its own
(so the log and a replay see ordinary moves); the first move refused stops the run, and the player is
told what was played and why the rest was not.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

import lang
from engine.core.contract import GameRules
from engine.core.errors import EngineError
from engine.core.presentation import GamePresentation, Shortcut
from engine.host.menus import LABEL_LIMIT, PLAY, STEP, MenuEntry
from engine.host.ports import Scope
from engine.host.results import ActResult
from lang.says import Namer, render

log = logging.getLogger(__name__)

# A menu value goes in a select option's value (100 characters), after the one-character play mark.
VALUE_LIMIT = LABEL_LIMIT - len(PLAY)
# The moves the rules may make on their own after one move, at most (a safety net against a rules bug).
MAX_AUTOMATIC = 50


def joined(moves: Sequence[str]) -> str:
    """The moves of a run as one menu value's notation."""
    return STEP.join(moves)


def steps(notation: str) -> tuple[str, ...]:
    """The moves a menu value's notation stands for: one, or a shortcut's run."""
    return tuple(part.strip() for part in notation.split(STEP)) if STEP in notation else (notation,)


def settle(rules: GameRules[Any, Any], state: BaseModel) -> BaseModel:
    """``state`` after the moves the rules make for people on their own, as the host makes them."""
    for _ in range(MAX_AUTOMATIC):
        forced = [(s, a) for s in sorted(rules.to_act(state)) if (a := rules.automatic(state, s)) is not None]
        if not forced:
            return state
        seat, action = forced[0]
        state = rules.apply(state, seat, action).state
    raise EngineError("the automatic moves of the rules do not end")


def run_through(
    rules: GameRules[Any, Any], state: BaseModel, seat: int, moves: Sequence[str]
) -> BaseModel | None:
    """The state after ``seat`` plays ``moves`` from ``state`` (with the automatic moves in between), or
    None when one of them is refused or the turn passes before the last."""
    current = state
    for number, text in enumerate(moves):
        if STEP in text or seat not in rules.to_act(current):
            return None
        try:
            current = settle(rules, rules.apply(current, seat, rules.parse(text)).state)
        except EngineError:
            return None
        if number == len(moves) - 1:
            return current
    return None


def playable(
    rules: GameRules[Any, Any], presentation: GamePresentation[Any, Any], state: BaseModel, seat: int
) -> list[Shortcut]:
    """``seat``'s shortcuts that can be offered now: two moves or more, each legal in turn, and short
    enough to fit a menu value."""
    offered = []
    for shortcut in presentation.shortcuts(state, seat):
        if len(shortcut.moves) < 2 or len(joined(shortcut.moves)) > VALUE_LIMIT:
            continue
        if run_through(rules, state, seat, shortcut.moves) is None:
            log.warning("%s offers a shortcut it cannot play: %s", rules.name, joined(shortcut.moves))
            continue
        offered.append(shortcut)
    return offered


def shortcut_entries(
    rules: GameRules[Any, Any],
    presentation: GamePresentation[Any, Any],
    state: BaseModel,
    seat: int,
    name: Namer,
    locale: str = lang.DEFAULT,
) -> list[MenuEntry]:
    """``seat``'s playable shortcuts as menu entries, labelled in ``locale``."""
    return [
        MenuEntry(
            notation=joined(shortcut.moves),
            label=render(locale, shortcut.label, name),
            path=tuple((level.key, render(locale, level.label, name)) for level in shortcut.path),
        )
        for shortcut in playable(rules, presentation, state, seat)
    ]


@dataclass(frozen=True, slots=True)
class RunResult:
    """What a chosen run of moves led to: the moves played, in order, and, when one was refused, why
    (the moves after it were not tried)."""

    played: tuple[ActResult, ...]
    refused: EngineError | None = None
    left: tuple[str, ...] = ()


class Acting(Protocol):
    """What a run of moves needs of the host: playing one move (``GameHost.act``)."""

    async def act(
        self,
        match_id: int,
        user_id: int,
        move: str | int | None,
        expected_version: int | None = None,
        scope: Scope | None = None,
        seen_version: int | None = None,
        locale: str = lang.DEFAULT,
    ) -> ActResult: ...


async def act_run(
    host: Acting,
    match_id: int,
    user_id: int,
    moves: Sequence[str],
    expected_version: int | None = None,
    scope: Scope | None = None,
    locale: str = lang.DEFAULT,
) -> RunResult:
    """Play ``moves`` for ``user_id`` one by one, each through ``GameHost.act`` bound to the board the
    one before it left (``expected_version`` binds the first). A refusal of the first move is raised as
    ``act`` raises it; a later one stops the run and is returned with the moves left."""
    played: list[ActResult] = []
    version = expected_version
    for number, move in enumerate(moves):
        try:
            result = await host.act(
                match_id, user_id, move, expected_version=version, scope=scope, locale=locale
            )
        except EngineError as exc:
            if not played:
                raise
            return RunResult(tuple(played), exc, tuple(moves[number:]))
        played.append(result)
        if result.trouble is not None:
            break  # the computers' moves after it failed: the rest waits for the board to settle
        version = result.match.version
    return RunResult(tuple(played))
