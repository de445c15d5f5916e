"""The public events of a match's whole log, kept from one version to the next: after a move, the log
in words needs only the moves since it was last worked out, not a replay of the whole match (a page
followed by a crowd asks for it after every move)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from engine.core.contract import Event, GameRules
from engine.core.replay import LoggedAction, advance, replay
from engine.host.ports import MatchRecord
from engine.host.recent import Recent

# Matches whose replayed log is kept (a state and the public events of one match each).
KEPT_MATCHES = 64


@dataclass(frozen=True)
class Replayed:
    """A match replayed from its opening: how it began, the log applied, where it led and what it told."""

    opening: tuple[int, int, frozenset[str]]  # seats, seed, options
    log: tuple[LoggedAction, ...]
    state: BaseModel
    public: tuple[Event, ...]

    def goes_on_to(self, opening: tuple[int, int, frozenset[str]], log: Sequence[LoggedAction]) -> bool:
        """Whether ``log`` from ``opening`` is this log with moves added (none taken back)."""
        kept = len(self.log)
        return opening == self.opening and len(log) >= kept and tuple(log[:kept]) == self.log


def replayed(
    rules: GameRules[Any, Any], match: MatchRecord, log: Sequence[LoggedAction], since: Replayed | None
) -> Replayed:
    """``match`` replayed through ``log``, from ``since`` when ``log`` goes on from it, else from the
    opening. Raises ``CorruptRecord`` as ``replay`` does."""
    opening = (match.seat_count, match.seed, match.options)
    if since is not None and since.goes_on_to(opening, log):
        state, events = advance(rules, since.state, log[len(since.log) :], len(since.log) + 1)
        public = since.public + tuple(e for e in events if e.is_public)
    else:
        state, events = replay(rules, *opening, log)
        told = (*rules.setup_events(*opening), *events)
        public = tuple(e for e in told if e.is_public)
    return Replayed(opening, tuple(log), state, public)


class PublicEvents:
    """The latest replay of each of the ``KEPT_MATCHES`` matches read most recently."""

    def __init__(self, size: int = KEPT_MATCHES) -> None:
        self._kept: Recent[int, Replayed] = Recent(size)

    def last(self, match_id: int) -> Replayed | None:
        return self._kept.get(match_id)

    def keep(self, match_id: int, found: Replayed) -> None:
        self._kept.keep(match_id, found)
