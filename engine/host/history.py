"""A match move by move, as it stood after each move: the frames of a replay or an animation.

The frames come from the seed and the kept action log (moves taken back are not part of the story), in
one pass off the event loop, so a long match costs one replay rather than a replay per frame.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from engine.core.contract import GameRules
from engine.core.errors import CorruptRecord
from engine.core.replay import LoggedAction, advance
from engine.core.say import Say
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import ADMIN_CAN_ABANDON, GameHost, sentence, told


@dataclass(frozen=True, slots=True)
class Frame:
    """The match after its ``number``-th move (0: the opening), stored at ``version``, played by ``seat``
    (None: the opening); ``turn_ends`` says whether the move ended its player's turn (someone else acts
    next, or the match is over), ``scoring`` whether it was a scoring (the final one included), and then
    ``says`` what it said to everyone."""

    number: int
    version: int
    state: BaseModel
    turn_ends: bool
    seat: int | None = None
    scoring: bool = False
    says: tuple[Say, ...] = ()


async def match_frames(host: GameHost, match: MatchRecord) -> list[Frame]:
    """Every frame of ``match``, from the opening to its latest move. Raises ``MatchClosed`` for a match
    that never started, ``CorruptRecord`` when its log cannot be replayed."""
    kept = await kept_log(host, match)
    try:
        return await asyncio.to_thread(replayed_frames, host.rules(match.game), match, kept)
    except CorruptRecord as exc:
        raise unreadable(match, exc) from None


async def kept_log(host: GameHost, match: MatchRecord) -> list[tuple[int, LoggedAction]]:
    """The log ``match``'s frames are replayed from: its kept actions with their versions. Raises
    ``MatchClosed`` for a match that never started."""
    if match.status is MatchStatus.LOBBY or match.state_json is None:
        host.state_of(match)  # says why there is no board
    return await host.store.kept_actions(match.id)


def unreadable(match: MatchRecord, problem: CorruptRecord) -> CorruptRecord:
    """``problem`` replaying ``match``'s log, as an admin reads it (with what they can do)."""
    return CorruptRecord(f"match #{match.id} cannot be read ({problem.message}); {ADMIN_CAN_ABANDON}")


def replayed_frames(
    rules: GameRules[Any, Any], match: MatchRecord, kept: Sequence[tuple[int, LoggedAction]]
) -> list[Frame]:
    """Every frame of ``match`` (``rules``' game), replayed from its kept log ``kept`` (see
    ``kept_log``). Raises ``CorruptRecord`` when the log cannot be replayed."""
    return list(replayed_one_by_one(rules, match, kept))


def replayed_one_by_one(
    rules: GameRules[Any, Any], match: MatchRecord, kept: Sequence[tuple[int, LoggedAction]]
) -> Iterator[Frame]:
    """The frames of ``replayed_frames``, each made only when asked for, so that a long match never
    holds more than one state at a time. Raises ``CorruptRecord`` as ``replayed_frames``, at the move
    that cannot be replayed."""
    state = rules.setup(match.seat_count, match.seed, match.options)
    opening_version = kept[0][0] - 1 if kept else match.version
    yield Frame(0, opening_version, state, True)
    for number, (version, entry) in enumerate(kept, start=1):
        after, events = advance(rules, state, [entry], first=number)
        over = rules.outcome(after) is not None
        ends = over or entry.seat not in rules.to_act(after)
        scoring = over or rules.scored(state, after)
        heard = [sentence(e) for e in told([e for e in events if e.is_public])] if scoring else []
        # What a scoring move is known by: its own sentence, or for the last one why the match ended.
        says = tuple(heard[-1:] if over else heard[:1])
        yield Frame(number, version, after, ends, entry.seat, scoring, says)
        state = after


class Marked(Protocol):
    """What a replay's jumps are found from: a frame's place in the match and what kind of move made it
    (see ``Frame``), with or without its state."""

    @property
    def number(self) -> int: ...
    @property
    def turn_ends(self) -> bool: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def scoring(self) -> bool: ...
    @property
    def says(self) -> tuple[Say, ...]: ...


@dataclass(frozen=True, slots=True)
class Mark:
    """A ``Frame`` without its state: enough to find the jumps of a long match without holding it."""

    number: int
    turn_ends: bool
    seat: int | None = None
    scoring: bool = False
    says: tuple[Say, ...] = ()

    @classmethod
    def of(cls, frame: Frame) -> Mark:
        return cls(frame.number, frame.turn_ends, frame.seat, frame.scoring, frame.says)


@dataclass(frozen=True, slots=True)
class Jump:
    """A place a replay can jump to: the end of turn ``turn`` (``seat`` played moves ``first`` to
    ``move``), or with ``scoring`` the scoring at ``move``, known by ``says``; ``final`` for the scoring
    that ended the match."""

    move: int
    turn: int
    seat: int | None
    first: int
    scoring: bool = False
    says: tuple[Say, ...] = ()
    final: bool = False


def jumps(frames: Sequence[Marked], current: int, most: int = 25) -> list[Jump]:
    """At most ``most`` places to jump to, in move order: every scoring (the latest ones when there are
    too many), the first and last turns, the turns around ``current``, and turns spread evenly between."""
    turns: list[Jump] = []
    first = 1
    for frame in frames[1:]:
        if frame.turn_ends or frame is frames[-1]:
            turns.append(Jump(frame.number, len(turns) + 1, frame.seat, first))
            first = frame.number + 1
    over = frames[-1].scoring
    scorings = [
        Jump(f.number, _turn_at(turns, f.number), f.seat, f.number, True, f.says, over and f is frames[-1])
        for f in frames
        if f.scoring
    ][-(most // 2) :]
    room = most - len(scorings)
    if len(turns) > room:
        here = _turn_at(turns, current) - 1
        chosen = {0, len(turns) - 1, *range(max(0, here - 2), min(len(turns), here + 3))}
        spare = room - len(chosen)
        for k in range(1, spare + 1):
            chosen.add(round(k * (len(turns) - 1) / (spare + 1)))
        turns = [turns[i] for i in sorted(chosen)][:room]
    return sorted([*turns, *scorings], key=lambda j: (j.move, j.scoring))


def _turn_at(turns: Sequence[Jump], move: int) -> int:
    """The number of the turn that holds ``move`` (the first turn for the opening)."""
    return next((j.turn for j in turns if j.first <= move <= j.move), turns[-1].turn if turns else 0)


@dataclass(frozen=True, slots=True)
class Moment:
    """The match as it stood after its ``move``-th move of ``moves`` (0: the opening): the state to draw
    and the sentences that move said to everyone (and to the seat asked for, if any)."""

    move: int
    moves: int
    state: BaseModel
    says: tuple[Say, ...]


async def moment(host: GameHost, match: MatchRecord, move: int, seat: int | None = None) -> Moment:
    """``match`` after its ``move``-th kept move (clamped to the moves there are), from the stored board
    of that time, never today's. ``seat``: also what that seat alone was told then."""
    if match.state_json is None:
        host.state_of(match)  # says why there is no board
    kept = await host.store.kept_actions(match.id)
    move = max(0, min(move, len(kept)))
    if move == 0:
        opening = kept[0][0] - 1 if kept else match.version
        return Moment(0, len(kept), await host.state_at(match, opening), ())
    version, entry = kept[move - 1]
    before = await host.state_at(match, version - 1)
    after, events = advance(host.rules(match.game), before, [entry], first=move)
    heard = [e for e in events if e.is_public or (seat is not None and e.audience and seat in e.audience)]
    return Moment(move, len(kept), after, tuple(sentence(e) for e in told(heard)))


def moment_in(
    rules: GameRules[Any, Any],
    frames: Sequence[Frame],
    kept: Sequence[tuple[int, LoggedAction]],
    move: int,
    seat: int | None = None,
) -> Moment:
    """``moment`` from a match's replayed ``frames`` and the kept log ``kept`` they were replayed from
    (see ``replayed_frames``), with no store at hand: the state after ``move`` (clamped to the moves
    there are) and what that move said to everyone (and to ``seat``, if any)."""
    move = max(0, min(move, len(kept), len(frames) - 1))
    if move == 0:
        return Moment(0, len(kept), frames[0].state, ())
    after, events = advance(rules, frames[move - 1].state, [kept[move - 1][1]], first=move)
    heard = [e for e in events if e.is_public or (seat is not None and e.audience and seat in e.audience)]
    return Moment(move, len(kept), after, tuple(sentence(e) for e in told(heard)))
