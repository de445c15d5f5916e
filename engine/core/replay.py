"""Rebuild a match from what is stored: seat count, seed, options and the action log."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from engine.core.contract import Event, Frozen, GameRules


class LoggedAction(Frozen):
    """One accepted action as stored: who played it and its canonical notation."""

    seat: int
    notation: str


def replay(
    rules: GameRules[Any, Any],
    seats: int,
    seed: int,
    options: frozenset[str],
    log: Iterable[LoggedAction],
) -> tuple[BaseModel, list[Event]]:
    """The state reached by applying ``log`` from the opening position, and every event produced.

    Raises the engine's own errors if an entry is not legal where it stands (a corrupt log).
    """
    state = rules.setup(seats, seed, options)
    events: list[Event] = []
    for entry in log:
        step = rules.apply(state, entry.seat, rules.parse(entry.notation))
        state = step.state
        events.extend(step.events)
    return state, events
