""" "While you were away": what a computer played for a seat since a person last played it themselves, told
privately to the person who plays it now (a newcomer who took the seat over, or its player back with
``/game return``).

The moves are read from the kept log and said as the seat itself reads its moves in a menu: the seat is
theirs now, so what only that seat may know may be shown to them (never in the thread). A phone shows a
few lines well: the latest ``AWAY_SHOWN`` moves are listed in the order they were played, after a line
that counts the earlier ones left out.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from engine.core.contract import GameRules
from engine.core.presentation import GamePresentation
from engine.core.replay import LoggedAction
from engine.core.say import Say
from engine.host.ports import MatchRecord, MatchStore
from engine.host.text import HOST
from lang.says import Namer, render

log = logging.getLogger(__name__)

# How many of the computer's moves a summary lists: enough to see where the seat stands, short enough
# to read on a phone without scrolling.
AWAY_SHOWN = 8


class AwayHost(Protocol):
    """What a summary needs of the host: its store, the games and the states of a match."""

    store: MatchStore

    def rules(self, game: str) -> GameRules[Any, Any]: ...

    def presentation(self, game: str) -> GamePresentation[Any, Any]: ...

    async def state_at(self, match: MatchRecord, version: int) -> BaseModel: ...


@dataclass(frozen=True, slots=True)
class AwaySummary:
    """The moves a computer played for a seat since a person last did (``count`` in all), the latest
    ``moves`` of them in words, oldest first."""

    count: int
    moves: tuple[Say, ...] = ()

    def says(self) -> tuple[Say, ...]:
        """The summary as sentences, one per line: what it counts, the earlier moves left out, then the
        moves listed."""
        if not self.count:
            return (HOST.say("A computer made no move for your seat meanwhile."),)
        heading = HOST.say_n(
            "While you were away, a computer played {count} move for your seat:",
            "While you were away, a computer played {count} moves for your seat:",
            self.count,
        )
        left_out = self.count - len(self.moves)
        earlier = (
            (HOST.say_n("… {count} earlier move", "… {count} earlier moves", left_out),) if left_out else ()
        )
        return (heading, *earlier, *self.moves)


def computers_run(kept: Sequence[tuple[int, LoggedAction]], seat: int) -> list[int]:
    """The versions of the moves a computer played for ``seat`` since a person last moved there
    themselves, oldest first."""
    run: list[int] = []
    for version, entry in reversed(kept):
        if entry.seat != seat:
            continue
        if not entry.stand_in:
            break
        run.append(version)
    run.reverse()
    return run


async def away_summary(host: AwayHost, match: MatchRecord, seat: int, shown: int = AWAY_SHOWN) -> AwaySummary:
    """What a computer played for ``seat`` of ``match`` since a person last moved there (see the module
    docstring), the latest ``shown`` moves in words. Raises ``CorruptRecord`` when the log cannot be
    replayed."""
    kept = await host.store.kept_actions(match.id)
    run = computers_run(kept, seat)
    if not run:
        return AwaySummary(0)
    listed = run[-shown:] if shown else []
    if not listed:
        return AwaySummary(len(run))
    rules, presentation = host.rules(match.game), host.presentation(match.game)
    wanted = set(listed)
    state = await host.state_at(match, listed[0] - 1)
    moves: list[Say] = []
    for version, entry in kept:
        if version < listed[0]:
            continue
        action = rules.parse(entry.notation)
        if version in wanted:
            try:
                moves.append(presentation.describe(state, seat, action))
            except Exception:  # a move without words is left out; the count still says it was played
                log.exception("match %s: no words for the move at version %s", match.id, version)
        if version == listed[-1]:
            break
        state = rules.apply(state, entry.seat, action).state
    return AwaySummary(len(run), tuple(moves))


def summary_text(locale: str, summary: AwaySummary, name: Namer) -> str:
    """``summary`` as lines of text in ``locale``: its heading, then one bulleted line per move."""
    heading, *rest = summary.says()
    lines = [render(locale, heading, name)]
    lines.extend(f"• {render(locale, said, name)}" for said in rest)
    return "\n".join(lines)


def welcome_text(locale: str, welcome: Say, summary: AwaySummary, name: Namer) -> str:
    """What a person who now plays a seat reads privately: ``welcome``, then ``summary``."""
    return render(locale, welcome, name) + "\n" + summary_text(locale, summary, name)
