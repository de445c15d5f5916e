"""A replay step as a whole page shows it (the web table): where the step stands, what its move said, the
moves its step links go to and the turns and scorings to jump to, all in words; and the stored version
whose board the step shows.

The steps are those of ``/replay`` (``engine.host.history``, ``engine.host.replay_steps``): the same
frames, the same jumps, the same rule that a seat's step adds only what that seat alone was told.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from engine.core.errors import CorruptRecord
from engine.host.history import jumps, kept_log, moment_in, replayed_frames, unreadable
from engine.host.ports import MatchRecord
from engine.host.replay_steps import OWN_VIEW, jump_options, jump_target, step_targets, step_title
from engine.host.service import GameHost
from lang import t
from lang.says import render


@dataclass(frozen=True, slots=True)
class JumpSight:
    """A turn's end or a scoring to jump to: its ``label`` and what it holds (``about``) in words, the
    ``move`` it goes to, and whether it holds the move shown (``chosen``)."""

    label: str
    about: str
    move: int
    chosen: bool


@dataclass(frozen=True, slots=True)
class StepSight:
    """A match after its ``move``-th move of ``moves`` (0: the opening), read in one language: the game's
    ``title``, the match ``number``, the stored ``version`` the step's board stands at, where the step
    stands (``where``), what the move ``said`` (to everyone, and on a seat's own step to that seat), the
    note that a seat's ``own`` view is nobody else's, the move each step link goes to (``steps``: first,
    previous, next, last) and the ``jumps``."""

    title: str
    number: int
    move: int
    moves: int
    version: int
    where: str
    said: tuple[str, ...]
    own: str | None
    steps: dict[str, int]
    jumps: tuple[JumpSight, ...]


async def step_sight(
    host: GameHost, match: MatchRecord, move: int, seat: int | None, locale: str
) -> StepSight:
    """``match`` after its ``move``-th kept move (clamped to the moves there are) in ``locale``: for
    everyone, or with ``seat`` as that seat's own step. Raises ``MatchClosed`` for a match that never
    started, ``CorruptRecord`` when its log cannot be replayed."""
    kept = await kept_log(host, match)
    rules = host.rules(match.game)
    try:
        frames = await asyncio.to_thread(replayed_frames, rules, match, kept)
        shown = await asyncio.to_thread(moment_in, rules, frames, kept, move, seat)
    except CorruptRecord as exc:
        raise unreadable(match, exc) from None
    name = host.namer(match)
    options = jump_options(jumps(frames, shown.move), shown.move, name, locale)
    return StepSight(
        title=t(locale, rules.title),
        number=match.id,
        move=shown.move,
        moves=shown.moves,
        version=frames[shown.move].version,
        where=render(locale, step_title(shown.move, shown.moves)),
        said=tuple(render(locale, say, name) for say in shown.says),
        own=render(locale, OWN_VIEW) if seat is not None else None,
        steps=step_targets(shown.move, shown.moves),
        jumps=tuple(JumpSight(o.label, o.about, jump_target(o.value), o.chosen) for o in options),
    )


async def step_version(host: GameHost, match: MatchRecord, move: int) -> int:
    """The stored version at which ``match`` stood after its ``move``-th kept move (clamped to the
    moves there are; 0: the opening), whose board a step of its replay shows. Raises ``MatchClosed`` for
    a match that never started."""
    kept = await kept_log(host, match)
    move = max(0, min(move, len(kept)))
    if move == 0:
        return kept[0][0] - 1 if kept else match.version
    return kept[move - 1][0]
