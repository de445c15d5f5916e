"""One step of ``/replay``, worked out where the boards are drawn (see ``RenderPool.replay_step``): the
match is replayed from its kept log, the board of the step drawn and the places to jump to listed, so
that a press of a replay button costs the bot's event loop only the reading of the log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import lang
from engine.core.replay import LoggedAction
from engine.core.say import Say
from engine.host.history import Jump, jumps, moment_in, replayed_frames
from engine.host.ports import MatchRecord
from engine.registry import get_game
from render.registry import render_view


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The match after its ``move``-th move of ``moves``: its board (None: a game without boards), what
    the move said (``says``) and the places a reader may jump to."""

    move: int
    moves: int
    png: bytes | None
    says: tuple[Say, ...]
    places: list[Jump]


def replay_step(
    match: MatchRecord,
    kept: Sequence[tuple[int, LoggedAction]],
    move: int,
    seat: int | None,
    names: Sequence[str] = (),
    locale: str = lang.DEFAULT,
) -> ReplayStep:
    """``match`` after its ``move``-th kept move (clamped), replayed from ``kept``: the public board, or
    with ``seat`` that seat's own view and what it alone was told too. Raises ``CorruptRecord`` when the
    log cannot be replayed."""
    rules = get_game(match.game)
    frames = replayed_frames(rules, match, kept)
    shown = moment_in(rules, frames, kept, move, seat)
    png = render_view(match.game, rules.view(shown.state, seat), tuple(names), locale)
    return ReplayStep(shown.move, shown.moves, png, shown.says, jumps(frames, shown.move))
