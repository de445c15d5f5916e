"""Reading matches and their states from the store: who may see a match, and its board at any version,
with the states read or committed lately kept at hand."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.core.contract import GameRules, load_state
from engine.core.errors import CorruptRecord, MatchClosed, MatchNotFound
from engine.core.notation import quote
from engine.core.replay import advance
from engine.host.ports import MatchRecord, MatchStore, MatchSummary, Scope
from engine.host.recent import Recent
from engine.host.refusals import ADMIN_CAN_ABANDON, no_such_match
from engine.host.text import HOST

# How many states of recent versions the host keeps at hand (a few KB each).
RECENT_STATES = 512
# How many matches' latest snapshots the host keeps read, with the text they were read from.
PARSED_STATES = 64
# Public views kept (see ``view_at``): the boards of the latest turn ends a next post marks changes against.
RECENT_VIEWS = 128
# Match ids are signed 64-bit in the store; anything else cannot name a match.
STORABLE_IDS = range(1, 2**63)


class MatchReader:
    """Reads the matches of a store, for the games in ``games`` (``rules`` gives each one's rules)."""

    def __init__(
        self, store: MatchStore, games: Collection[str], rules: Callable[[str], GameRules[Any, Any]]
    ) -> None:
        self.store = store
        self.games = games
        self.rules = rules
        # States this host committed or rebuilt lately, by (match id, version): the notices of a burst
        # of moves are drawn at their own versions, which the store keeps only as checkpoints.
        self._recent: Recent[tuple[int, int], BaseModel] = Recent(RECENT_STATES)
        # The latest snapshots read, by (match id, version), with their stored text: a move reads its
        # match's snapshot several times over (the move, the names, the board), and parsing it is most of
        # that work. Only the very same text is answered from here.
        self._parsed: Recent[tuple[int, int], tuple[str, BaseModel]] = Recent(PARSED_STATES)
        self._public_views: Recent[tuple[int, int], BaseModel] = Recent(RECENT_VIEWS)

    async def match(self, match_id: int, scope: Scope | None = None) -> MatchRecord:
        """The match numbered ``match_id``; with a ``scope``, only if a request from there may see it.

        Raises ``MatchNotFound`` with the same words whether the match does not exist or belongs to
        another server (or, from direct messages, to other players), so nobody learns which;
        ``CorruptRecord`` for a row that cannot be read.
        """
        if match_id not in STORABLE_IDS:
            raise no_such_match(match_id)
        try:
            record = await self.store.get_match(match_id)
        except MatchNotFound:
            raise no_such_match(match_id) from None
        except CorruptRecord as exc:
            # Quarantined: only those who may see the match learn that it cannot be read.
            summary = await self.store.match_summary(match_id)
            if scope is not None and not scope.admits(summary):
                raise no_such_match(match_id) from None
            raise CorruptRecord(
                f"match #{match_id} cannot be read ({exc.message.removesuffix('; nothing was changed')}); "
                f"{ADMIN_CAN_ABANDON}"
            ) from None
        if scope is not None and not scope.admits(record):
            raise no_such_match(match_id)
        return self.known_game(record)

    def known_game(self, record: MatchRecord) -> MatchRecord:
        """``record``, if its stored game is one this host plays; ``CorruptRecord`` otherwise (a record
        naming a game is not a player asking for one)."""
        if record.game not in self.games:
            raise CorruptRecord(
                f"match #{record.id} cannot be read (it is stored as a game of {quote(record.game, 40)!r}, "
                f"which this bot does not have); {ADMIN_CAN_ABANDON}"
            )
        return record

    async def summary(self, match_id: int, scope: Scope | None = None) -> MatchSummary:
        """Who a match belongs to, for readable and unreadable matches alike; scoped like ``match``."""
        if match_id not in STORABLE_IDS:
            raise no_such_match(match_id)
        try:
            summary = await self.store.match_summary(match_id)
        except MatchNotFound:
            raise no_such_match(match_id) from None
        if scope is not None and not scope.admits(summary):
            raise no_such_match(match_id)
        return summary

    def state_of(self, match: MatchRecord) -> BaseModel:
        """The latest snapshot of a started match; raises ``MatchClosed`` in the lobby."""
        if match.state_json is None:
            raise MatchClosed(HOST.say("match #{number} has not started yet", number=match.id), ["start"])
        key = (match.id, match.version)
        parsed = self._parsed.get(key)
        if parsed is not None and parsed[0] == match.state_json:
            return parsed[1]
        state = self._load(match, match.state_json)
        self._parsed.keep(key, (match.state_json, state))
        return state

    def _load(self, match: MatchRecord, data: str) -> BaseModel:
        try:
            return load_state(self.rules(match.game), data)
        except ValidationError as exc:
            raise CorruptRecord(
                f"the stored state of match {match.id} cannot be read ({exc.error_count()} problems); "
                "nothing was changed"
            ) from exc

    async def state_at(self, match: MatchRecord, version: int) -> BaseModel:
        """The state of ``match`` as it stood at ``version``: the latest state, one this host committed
        lately, or the nearest stored checkpoint plus a replay of the actions after it (off the event
        loop). Raises ``MatchNotFound`` for a version with no board, ``CorruptRecord``."""
        if version == match.version and match.state_json is not None:
            return self.state_of(match)
        recent = self._recent.get((match.id, version))
        if recent is not None:
            return recent
        board = await self.store.board_at(match.id, version)
        state = self._load(match, board.state_json)
        if board.then:
            try:
                state, _ = await asyncio.to_thread(
                    advance, self.rules(match.game), state, board.then, board.version + 1
                )
            except CorruptRecord as exc:
                raise CorruptRecord(
                    f"match #{match.id} cannot be read ({exc.message}); {ADMIN_CAN_ABANDON}"
                ) from None
        self._recent.keep((match.id, version), state)
        return state

    async def view_at(self, match: MatchRecord, version: int, seat: int | None = None) -> BaseModel:
        """``seat``'s view of ``match`` as it stood at ``version`` (None: the public view); raises as
        ``state_at``. Public views are kept a while: the board a post shows is, turns later, the one the
        next post of the same player marks its changes against."""
        if seat is None and (kept := self._public_views.get((match.id, version))) is not None:
            return kept
        view = self.rules(match.game).view(await self.state_at(match, version), seat)
        if seat is None:
            self._public_views.keep((match.id, version), view)
        return view

    def remember(self, match: MatchRecord, snapshot: str, state: BaseModel) -> None:
        """Keep ``state``, just committed as ``match`` with its stored text ``snapshot``, at hand."""
        key = (match.id, match.version)
        self._recent.keep(key, state)
        self._parsed.keep(key, (snapshot, state))
