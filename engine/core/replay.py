"""Rebuild a match from what is stored: seat count, seed, options and the action log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from engine.core.contract import Event, Frozen, GameRules
from engine.core.errors import CorruptRecord, EngineError
from engine.core.notation import quote


class LoggedAction(Frozen):
    """One accepted action as stored: who played it and its canonical notation. ``stand_in``: a computer
    played it for the person of that seat (their time ran out, it kept or took over their seat)."""

    seat: int
    notation: str
    stand_in: bool = False


def replay(
    rules: GameRules[Any, Any],
    seats: int,
    seed: int,
    options: frozenset[str],
    log: Iterable[LoggedAction],
) -> tuple[BaseModel, list[Event]]:
    """The state reached by applying ``log`` from the opening position, and every event produced.

    Raises ``CorruptRecord`` naming the first entry that does not parse or is not legal where it stands
    (a stored log is never a player's typing, so its faults are faults of the record).
    """
    return advance(rules, rules.setup(seats, seed, options), log)


def advance(
    rules: GameRules[Any, Any], state: BaseModel, log: Iterable[LoggedAction], first: int = 1
) -> tuple[BaseModel, list[Event]]:
    """The state reached by applying ``log`` to ``state``, and every event produced; ``first`` is the
    number the complaints give the first entry. Raises ``CorruptRecord`` as ``replay`` does."""
    events: list[Event] = []
    for number, entry in enumerate(log, start=first):
        try:
            step = rules.apply(state, entry.seat, rules.parse(entry.notation))
        except EngineError as exc:
            raise CorruptRecord(
                f"the stored move {number} ({quote(entry.notation, 40)!r} by seat {entry.seat + 1}) "
                f"cannot be replayed: {exc.message}"
            ) from None
        state = step.state
        events.extend(step.events)
    return state, events
