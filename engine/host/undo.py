"""Taking a move back, by Board Game Arena's policy: a player may undo their own latest move (a step of
their turn, or the move that ended it) while nobody else has acted since, unless it revealed something
or a computer played it for them (their time ran out, or it held their seat).
The rules decide what a move revealed (``GameRules.revealed``); this module decides whose move is the
latest and commits the undo.

An undo never deletes: the actions taken back are marked void in the store, and the new version's
snapshot is the state replayed from the seed and the actions that stay, so replaying the log still
reproduces the match exactly.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from engine.core.contract import Event, GameRules, Reveal, dump_state
from engine.core.errors import CannotUndo, CorruptRecord, EngineError
from engine.core.replay import LoggedAction, replay
from engine.core.say import Say, who
from engine.host.clock import ClockChange
from engine.host.ports import DeliveryDraft, MatchRecord, MatchStatus, MatchStore, Notice, payload
from engine.host.recent import Recent
from engine.host.text import HOST
from lang.says import Namer

# How many of the latest actions a board post reads to know who may take a move back: a log read whole
# grew with the match, and the latest chosen move is nearly always among these.
UNDO_TAIL = 16

# Why a move that revealed something stays played, by what it revealed.
REASONS: dict[Reveal, Say] = {
    "card": HOST.say("that move drew a card, so it cannot be taken back"),
    "tile": HOST.say("that move drew a tile from the bag, so it cannot be taken back"),
    "chance": HOST.say("that move had a random outcome, so it cannot be taken back"),
    "secret": HOST.say("that move showed something hidden, so it cannot be taken back"),
}

# Why a move a computer played for its seat's person stays played: taking it back would hand them the
# turn their time already ran out on.
STAND_IN = HOST.say("a computer played your last move for you, so it cannot be taken back")


@dataclass(frozen=True, slots=True)
class Taken:
    """One action an undo takes back: its version, what was played, and what it revealed."""

    version: int
    action: LoggedAction
    revealed: Reveal | None
    told: frozenset[int]  # seats it sent a private event to (their hands change back)


@dataclass(frozen=True, slots=True)
class Plan:
    """What undoing ``seat``'s latest move takes back (in the order played) and the log that stays."""

    seat: int
    taken: tuple[Taken, ...]
    kept: tuple[LoggedAction, ...]

    @property
    def refusal(self) -> Say | None:
        """Why the move cannot be taken back, if one of the actions revealed something."""
        for step in self.taken:
            if step.revealed is not None:
                return REASONS[step.revealed]
        return None


class UndoingHost(Protocol):
    """What taking a move back needs of the host: its store, its games, the states it keeps and the
    clocks."""

    store: MatchStore
    # What the moves the host committed lately revealed, by (match id, version).
    judged: Recent[tuple[int, int], Taken]

    def rules(self, game: str) -> GameRules[Any, Any]: ...

    def namer(self, match: MatchRecord, state: BaseModel | None = None) -> Namer: ...

    def state_of(self, match: MatchRecord) -> BaseModel: ...

    async def state_at(self, match: MatchRecord, version: int) -> BaseModel: ...

    async def clock_change(
        self,
        match: MatchRecord,
        before: Collection[int],
        after: Collection[int],
        timed_out: Collection[int] = (),
        undone: bool = False,
    ) -> ClockChange | None: ...


# The kept log (version, action), the index in it of the latest chosen move, and the states before.
Latest = tuple[list[tuple[int, LoggedAction]], int, dict[int, BaseModel]]


async def _latest(host: UndoingHost, match: MatchRecord, tail: int | None = None) -> Latest:
    """The kept log of ``match`` (with ``tail``, its last ``tail`` actions only), the index in it of
    the latest move a seat chose (-1: none), and the state before each action from there on. The moves
    the host made for people without asking them (``GameRules.automatic``) after it belong to it; a
    computer's move is a choice, and so is one it played for a person (``LoggedAction.stand_in``)."""
    rules = host.rules(match.game)
    entries = await host.store.kept_actions(match.id, tail)
    computers = {p.seat for p in match.players if p.bot is not None}
    befores: dict[int, BaseModel] = {}
    index = len(entries) - 1
    while index >= 0:
        version, entry = entries[index]
        before = befores[version] = await host.state_at(match, version - 1)
        if entry.stand_in or entry.seat in computers or not _forced(rules, before, entry):
            break
        index -= 1
    return entries, index, befores


async def plan(host: UndoingHost, match: MatchRecord, seat: int) -> Plan:
    """What undoing ``seat``'s latest move of the running ``match`` would take back: that move, with
    the moves the rules then made for people without asking them.

    Raises ``CannotUndo`` when ``seat`` has no move to take back or someone else has moved since.
    """
    return await _plan_from(host, match, seat, await _latest(host, match))


async def _plan_from(
    host: UndoingHost,
    match: MatchRecord,
    seat: int,
    latest: Latest,
) -> Plan:
    """``plan`` from what ``_latest`` found of ``match``."""
    rules = host.rules(match.game)
    entries, index, befores = latest
    if index < 0 or all(entry.seat != seat for _, entry in entries):
        raise CannotUndo(HOST.say("you have no move to take back in match #{number}", number=match.id))
    if entries[index][1].stand_in and entries[index][1].seat == seat:
        raise CannotUndo(STAND_IN)
    if entries[index][1].seat != seat:
        # An error is read without the seat names of a notice, so the name goes in as it reads.
        name = host.namer(match)(entries[index][1].seat)
        raise CannotUndo(
            HOST.say(
                "{player} has moved since your last move, so it can no longer be taken back", player=name
            )
        )
    taken = []
    for number in range(index, len(entries)):
        version, entry = entries[number]
        known = host.judged.get((match.id, version))
        if known is not None and known.action == entry:
            taken.append(known)  # judged as it was committed: no need to play it again
            continue
        after = (
            await host.state_at(match, entries[number + 1][0] - 1)
            if number + 1 < len(entries)
            else host.state_of(match)
        )
        taken.append(_judge(rules, befores[version], version, entry, after))
    return Plan(seat=seat, taken=tuple(taken), kept=tuple(e for _, e in entries[:index]))


def _forced(rules: GameRules[Any, Any], before: BaseModel, entry: LoggedAction) -> bool:
    """Whether ``entry`` is the move the rules make for its seat without asking in ``before``."""
    forced = rules.automatic(before, entry.seat)
    return forced is not None and rules.notation(forced) == entry.notation


def _judge(
    rules: GameRules[Any, Any], before: BaseModel, version: int, entry: LoggedAction, after: BaseModel
) -> Taken:
    """``entry`` played again from ``before``, and what the rules say it revealed. The stored ``after``
    must be what it gives: anything else is a fault of the record."""
    try:
        action = rules.parse(entry.notation)
        step = rules.apply(before, entry.seat, action)
    except EngineError as exc:
        raise CorruptRecord(
            f"the stored move at version {version} cannot be played again: {exc.message}"
        ) from None
    if step.state != after:
        raise CorruptRecord(f"the stored move at version {version} does not lead to the stored board")
    return judged(rules, before, version, entry, action, after, step.events)


def judged(
    rules: GameRules[Any, Any],
    before: BaseModel,
    version: int,
    entry: LoggedAction,
    action: BaseModel,
    after: BaseModel,
    events: Sequence[Event],
) -> Taken:
    """What ``entry`` (``action`` played from ``before``, giving ``after`` and ``events``) revealed, and
    the seats it told something in private."""
    told = frozenset(s for e in events if e.audience is not None for s in e.audience)
    return Taken(version, entry, rules.revealed(before, entry.seat, action, after, events), told)


async def allowed(host: UndoingHost, match: MatchRecord, seat: int) -> bool:
    """Whether ``seat`` may take back its latest move of ``match`` now."""
    return _may_take_back(match, seat) and await _undoable(host, match, seat, await _latest(host, match))


def _may_take_back(match: MatchRecord, seat: int) -> bool:
    """Whether ``match`` is running and ``seat`` is a person's, so that its moves may be taken back."""
    if match.status is not MatchStatus.ACTIVE or match.state_json is None:
        return False
    player = match.player_at(seat)
    return player is not None and player.user_id is not None and player.bot is None


async def _undoable(
    host: UndoingHost,
    match: MatchRecord,
    seat: int,
    latest: Latest,
) -> bool:
    """Whether the plan to take back ``seat``'s latest move exists and reveals nothing."""
    try:
        return (await _plan_from(host, match, seat, latest)).refusal is None
    except EngineError:
        return False


async def who_may_undo(host: UndoingHost, match: MatchRecord) -> int | None:
    """The seat that may take back its latest move of ``match`` now, if any: only the latest to have
    chosen a move ever may."""
    if match.status is not MatchStatus.ACTIVE:
        return None
    # The end of the log says it: the latest chosen move and the moves made for people after it.
    latest = await _latest(host, match, UNDO_TAIL)
    if latest[1] < 0 and len(latest[0]) == UNDO_TAIL:
        latest = await _latest(host, match)  # all of them made for people: look further back
    entries, index, _ = latest
    if index < 0:
        return None
    seat = entries[index][1].seat
    # What ``allowed`` asks, from the log and states already read: a board post asks this every move.
    return seat if _may_take_back(match, seat) and await _undoable(host, match, seat, latest) else None


async def take_back(host: UndoingHost, match: MatchRecord, seat: int) -> MatchRecord:
    """Undo ``seat``'s latest move of ``match`` (loaded under the match lock): void the actions, store
    the state replayed from the log that stays, and tell everyone that a move was taken back.

    Raises ``CannotUndo`` saying why when the policy refuses; nothing is stored then.
    """

    move = await plan(host, match, seat)
    refusal = move.refusal
    if refusal is not None:
        raise CannotUndo(refusal)
    rules = host.rules(match.game)
    state = _restored(rules, match, move.kept)
    expected = await host.state_at(match, move.taken[0].version - 1)
    if state != expected:
        raise CorruptRecord(f"match #{match.id} does not replay to its stored board; nothing was taken back")
    to_act = tuple(sorted(rules.to_act(state)))
    line = _line(seat, len(move.taken))
    said = (_said(seat),)
    called = tuple(sorted(set(rules.to_act(host.state_of(match))) - {seat}))
    undone = Notice(lines=(line,), says=said, to_act=to_act, undone_by=seat, recalled=called)
    notices = [DeliveryDraft(payload=payload(undone))]
    # Whoever else was told something privately by the moves taken back gets their own view again
    # (the player who took the move back reads their menu in the reply).
    told: set[int] = set().union(*(step.told for step in move.taken))
    for target in sorted(told - {seat}):
        notices.append(DeliveryDraft(seat=target, payload=payload(Notice(says=said, to_act=to_act))))
    # The clocks follow whose turn it is again: a turn the undone moves ended goes on with the time it
    # had, and one they began never happened.
    clocks = await host.clock_change(match, rules.to_act(host.state_of(match)), to_act, undone=True)
    versions = [step.version for step in move.taken]
    return await host.store.undo_actions(
        match.id, match.version, versions, dump_state(state), notices, clocks
    )


def _restored(rules: GameRules[Any, Any], match: MatchRecord, kept: Sequence[LoggedAction]) -> BaseModel:
    state, _ = replay(rules, match.seat_count, match.seed, match.options, kept)
    return state


def _line(seat: int, count: int) -> str:
    """The log line in notation (the CLI, older readers)."""
    return f"P{seat + 1}: undo n={count}"


def _said(seat: int) -> Say:
    return HOST.say("{player} took back a move", player=who(seat))
