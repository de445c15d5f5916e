"""GameHost: the game-agnostic master that turns player commands into committed, announced moves.

It knows nothing of Discord or SQL: it talks to a ``MatchStore`` and, when asked to flush the outbox, to
a ``Notifier``. Every accepted action is committed together with the notices it causes; notices are
sent only after the commit, so nothing is ever announced for an unsaved move.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

import lang
from engine.core.contract import Event, GameRules, Outcome, Policy, Step, dump_state, load_state
from engine.core.errors import (
    AbsencesChanged,
    AlreadyPlayed,
    CorruptRecord,
    EngineError,
    IllegalAction,
    LobbyError,
    MatchClosed,
    MatchNotFound,
    NotSeated,
    NotYourTurn,
    StaleVersion,
)
from engine.core.notation import quote
from engine.core.presentation import GamePresentation, MultiSelect
from engine.core.replay import LoggedAction, advance, replay
from engine.core.rng import SEAT_STREAM, Rng, bot_rng
from engine.core.say import SILENT, Say, items, who
from engine.host import absence
from engine.host import undo as undoing
from engine.host.clock import (
    ALLOWANCES,
    TIMEOUTS_TO_KEEP,
    AbsencesSeen,
    ClockChange,
    Pace,
    SeatClock,
    begin_turn,
    clocks_after,
    end_turn,
)
from engine.host.locks import MatchLocks
from engine.host.menus import MenuEntry
from engine.host.names import computer_name, seat_namer
from engine.host.outbox import Backoff, DestinationGone
from engine.host.ports import (
    Delivery,
    DeliveryDraft,
    LivePost,
    MatchListing,
    MatchRecord,
    MatchStatus,
    MatchStore,
    MatchSummary,
    NewMatch,
    Notice,
    Notifier,
    Player,
    Scope,
    payload,
)
from engine.host.posts import BoardPost, MatchTotals, Mentions, plan_board_post
from engine.host.recent import Recent
from engine.host.shortcuts import shortcut_entries
from engine.host.table import CHOICE_CLOSED, MOVED_ON, NOT_YOUR_TURN, STALE_CHOICE, Table
from engine.host.text import HOST
from engine.host.thinking import IN_PROCESSES, ThinkPool, think, think_registered
from engine.host.turns import previous_turn_end, told_by_latest
from lang.says import Namer, render

log = logging.getLogger(__name__)

T = TypeVar("T")

# A safety net against a rules bug that would let computer players loop forever.
MAX_AUTOMATED_ACTIONS = 10_000
# How many destinations the outbox sends to at once.
PARALLEL_DESTINATIONS = 8
# How many states of recent versions the host keeps at hand (a few KB each).
RECENT_STATES = 512
# How many matches' latest snapshots the host keeps read, with the text they were read from.
PARSED_STATES = 64
# Public views kept (see ``view_at``): the boards of the latest turn ends a next post marks changes against.
RECENT_VIEWS = 128
# How many of the latest actions are read first to find where a player's turn began: enough for almost
# every turn, so that the read does not grow with the match.
TURN_TAIL = 16
# The computer players that stand in for a person whose time ran out, the strongest first.
STRONGEST_FIRST = ("strong", "greedy", "random")
# Match ids are signed 64-bit in the store; anything else cannot name a match.
STORABLE_IDS = range(1, 2**63)


ADMIN_CAN_ABANDON = "an admin can abandon it with /game abandon"

# A match's status as people read it.
STATUS_SAID = {
    MatchStatus.LOBBY: HOST.word("still in the lobby", "match"),
    MatchStatus.ACTIVE: HOST.word("being played", "match"),
    MatchStatus.FINISHED: HOST.word("over", "match"),
    MatchStatus.ABANDONED: HOST.word("abandoned", "match"),
}


def utc_now() -> datetime:
    return datetime.now(UTC)


def sentence(event: Event) -> Say:
    """What a person reads for ``event``: its sentence (an event without one reads as it is stored)."""
    return event.say or HOST.say(event.text)


def told(events: Sequence[Event]) -> list[Event]:
    """The events people read: all but those whose sentence is ``SILENT``."""
    return [e for e in events if e.say != SILENT]


def _no_such_match(match_id: int) -> MatchNotFound:
    return MatchNotFound(HOST.say("there is no match #{number} here", number=match_id))


# How many times a lobby request (or a return to one's seat) is judged again when another process
# changed the match between the request's reading and its write; beyond that, the person is told the
# match moved on.
LOBBY_TRIES = 3

# How many times a move's clocks are worked out when the people whose turn it begins keep going away
# or coming back while it is written (each time the store refuses the clocks, not the move).
_CLOCK_ATTEMPTS = 3


class _LobbyMoved(Exception):
    """Another process wrote the lobby after this request read it (the store's version guard said so)."""

    def __init__(self, stale: StaleVersion) -> None:
        super().__init__(stale.message)
        self.stale = stale


async def _unless_moved(write: Awaitable[MatchRecord]) -> MatchRecord:
    """The lobby as ``write`` leaves it; ``_LobbyMoved`` when its version guard failed."""
    try:
        return await write
    except StaleVersion as stale:
        raise _LobbyMoved(stale) from None


async def _judged_afresh(request: Callable[[], Awaitable[T]]) -> T:
    """``request`` (which reads the lobby, judges it and writes at the version read), made again from a
    fresh reading when another process wrote the lobby in between: of two requests at once, the second
    gets what it would get after the first (joined already, full, started), never both carried out."""
    for _ in range(LOBBY_TRIES - 1):
        try:
            return await request()
        except _LobbyMoved:
            continue
    try:
        return await request()
    except _LobbyMoved as moved:
        raise moved.stale from None


@dataclass(frozen=True, slots=True)
class ActResult:
    """What an accepted command led to: the match as committed and the public lines it produced."""

    match: MatchRecord
    lines: tuple[str, ...]
    notation: str | None = None
    label: str | None = None  # the move as the player read it in the menu, in the language asked for


class GameHost:
    """Creates, runs and resumes matches for every registered game."""

    def __init__(
        self,
        store: MatchStore,
        games: Mapping[str, GameRules[Any, Any]] | None = None,
        policies: Mapping[str, Mapping[str, Policy[Any, Any]]] | None = None,
        seed_source: Callable[[], int] | None = None,
        backoff: Backoff[tuple[int, int | None]] | None = None,
        clock: Callable[[], datetime] = utc_now,
        thinker: ThinkPool | None = None,
        presentations: Mapping[str, GamePresentation[Any, Any]] | None = None,
    ) -> None:
        """``seed_source`` gives the seed of each new match (default: a fresh random one); ``backoff``
        paces retries of each outbox destination that failed (default: ``Backoff()``); ``clock`` tells
        the time that match clocks run on (tests pass a virtual one); ``thinker``: the processes where
        the slow computer players think (None: a thread); ``presentations``: how ``games`` read in chat
        (default: the registry's)."""
        if games is None or policies is None:
            from engine.registry import GAMES, POLICIES

            games = GAMES if games is None else games
            policies = POLICIES if policies is None else policies
        self.store = store
        self.games = games
        if presentations is None:
            from engine.registry import PRESENTATIONS

            presentations = PRESENTATIONS
        self.presentations = presentations
        self.policies = policies
        self._locks = MatchLocks()
        self.backoff: Backoff[tuple[int, int | None]] = backoff or Backoff()
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self.clock = clock
        self.thinker = thinker
        # Awaited after the commit that finishes a match (ratings, tournaments); failures are only logged
        # because each listener can also catch up from the store later.
        self.finish_listeners: list[Callable[[MatchRecord], Awaitable[object]]] = []
        # States this host committed or rebuilt lately, by (match id, version): the notices of a burst
        # of moves are drawn at their own versions, which the store keeps only as checkpoints.
        self._recent: Recent[tuple[int, int], BaseModel] = Recent(RECENT_STATES)
        # The latest snapshots read, by (match id, version), with their stored text: a move reads its
        # match's snapshot several times over (the move, the names, the board), and parsing it is most of
        # that work. Only the very same text is answered from here.
        self._parsed: Recent[tuple[int, int], tuple[str, BaseModel]] = Recent(PARSED_STATES)
        # What the moves this host committed lately revealed, by (match id, version): every board post
        # asks whether its latest move may be taken back, and playing the move again to find out was the
        # larger part of a post's own work.
        self.judged: Recent[tuple[int, int], undoing.Taken] = Recent(RECENT_STATES)
        self._public_views: Recent[tuple[int, int], BaseModel] = Recent(RECENT_VIEWS)
        # The destination each running sender sends to (see ``dispatch``), and the cap on how many send
        # at once.
        self._senders: dict[tuple[int, int | None], asyncio.Task[int]] = {}
        self._sending = asyncio.Semaphore(PARALLEL_DESTINATIONS)

    # ----------------------------------------------------------------- lookups

    def rules(self, game: str) -> GameRules[Any, Any]:
        from engine.registry import get_game

        return self.games[game] if game in self.games else get_game(game)

    def presentation(self, game: str) -> GamePresentation[Any, Any]:
        from engine.registry import get_presentation

        return self.presentations[game] if game in self.presentations else get_presentation(game)

    def policy(self, game: str, name: str) -> Policy[Any, Any]:
        available = self.policies.get(game, {})
        if name not in available:
            raise LobbyError(f"unknown computer player {name!r} for {game}", sorted(available))
        return available[name]

    async def match(self, match_id: int, scope: Scope | None = None) -> MatchRecord:
        """The match numbered ``match_id``; with a ``scope``, only if a request from there may see it.

        Raises ``MatchNotFound`` with the same words whether the match does not exist or belongs to
        another server (or, from direct messages, to other players), so nobody learns which;
        ``CorruptRecord`` for a row that cannot be read.
        """
        if match_id not in STORABLE_IDS:
            raise _no_such_match(match_id)
        try:
            record = await self.store.get_match(match_id)
        except MatchNotFound:
            raise _no_such_match(match_id) from None
        except CorruptRecord as exc:
            # Quarantined: only those who may see the match learn that it cannot be read.
            summary = await self.store.match_summary(match_id)
            if scope is not None and not scope.admits(summary):
                raise _no_such_match(match_id) from None
            raise CorruptRecord(
                f"match #{match_id} cannot be read ({exc.message.removesuffix('; nothing was changed')}); "
                f"{ADMIN_CAN_ABANDON}"
            ) from None
        if scope is not None and not scope.admits(record):
            raise _no_such_match(match_id)
        return self._known_game(record)

    def _known_game(self, record: MatchRecord) -> MatchRecord:
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
            raise _no_such_match(match_id)
        try:
            summary = await self.store.match_summary(match_id)
        except MatchNotFound:
            raise _no_such_match(match_id) from None
        if scope is not None and not scope.admits(summary):
            raise _no_such_match(match_id)
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

    def view(self, match: MatchRecord, seat: int | None, state: BaseModel | None = None) -> BaseModel:
        rules = self.rules(match.game)
        return rules.view(state if state is not None else self.state_of(match), seat)

    async def view_at(self, match: MatchRecord, version: int, seat: int | None = None) -> BaseModel:
        """``seat``'s view of ``match`` as it stood at ``version`` (None: the public view); raises as
        ``state_at``. Public views are kept a while: the board a post shows is, turns later, the one the
        next post of the same player marks its changes against."""
        if seat is None and (kept := self._public_views.get((match.id, version))) is not None:
            return kept
        view = self.view(match, seat, await self.state_at(match, version))
        if seat is None:
            self._public_views.keep((match.id, version), view)
        return view

    def legal_notations(self, match: MatchRecord, seat: int, state: BaseModel | None = None) -> list[str]:
        rules = self.rules(match.game)
        current = state if state is not None else self.state_of(match)
        return [rules.notation(a) for a in rules.legal_actions(current, seat)]

    def legal_menu(self, match: MatchRecord, seat: int, locale: str = lang.DEFAULT) -> list[MenuEntry]:
        """The seat's legal moves as menu entries: notation, label and labelled levels, in ``locale``;
        then the game's shortcuts (runs of moves offered as one choice, see ``engine.host.shortcuts``)."""
        rules = self.rules(match.game)
        presentation = self.presentation(match.game)
        state = self.state_of(match)
        name = seat_namer(match, presentation, state)
        moves = [
            MenuEntry(
                notation=rules.notation(action),
                label=render(locale, presentation.describe(state, seat, action), name),
                path=tuple(
                    (level.key, render(locale, level.label, name))
                    for level in presentation.menu_path(state, seat, action)
                ),
            )
            for action in rules.legal_actions(state, seat)
        ]
        return moves + shortcut_entries(rules, presentation, state, seat, name, locale)

    def namer(self, match: MatchRecord, state: BaseModel | None = None) -> Namer:
        """Names ``match``'s seats the one way the bot names people (see ``engine.host.names``)."""
        if state is None and match.state_json is not None:
            state = self.state_of(match)
        return seat_namer(match, self.presentation(match.game), state)

    def multi_selects(
        self, match: MatchRecord, seat: int, state: BaseModel | None = None
    ) -> list[MultiSelect]:
        current = state if state is not None else self.state_of(match)
        return list(self.presentation(match.game).multi_selects(current, seat))

    def to_act(self, match: MatchRecord) -> tuple[int, ...]:
        """The seats that must act now in ``match``, in order; none unless it is under way."""
        if match.status is not MatchStatus.ACTIVE:
            return ()
        return tuple(sorted(self.rules(match.game).to_act(self.state_of(match))))

    async def table(
        self, match: MatchRecord | int, user_id: int, scope: Scope | None = None, seated: Say | None = None
    ) -> Table:
        """``match`` (a record just read, or an id) as ``user_id`` finds it: their seat, who must act,
        whether they may undo. ``seated``: the refusal for someone who does not play there (None: anyone
        may look)."""
        if isinstance(match, int):
            match = await self.match(match, scope)
        seat = match.seat_of(user_id)
        if seat is None and seated is not None:
            raise NotSeated(seated)
        may_undo = (
            seat is not None and match.status is MatchStatus.ACTIVE and await self.can_undo(match, seat)
        )
        return Table(match, seat, self.to_act(match), may_undo, self.namer(match))

    async def menu(
        self,
        match: MatchRecord | int,
        user_id: int,
        locale: str = lang.DEFAULT,
        version: int | None = None,
        scope: Scope | None = None,
    ) -> Table:
        """``user_id``'s table with the menu of their moves in ``locale``; refused unless they must act
        now. ``version``: the board of the control that asked; an older one still opens the current menu
        for the player to act, and is refused as moved on to anyone else."""
        if isinstance(match, int):
            match = await self.match(match, scope)
        if match.status is not MatchStatus.ACTIVE:
            raise MatchClosed(
                HOST.say(
                    "match #{number} is {status}: there is nothing to play",
                    number=match.id,
                    status=STATUS_SAID[match.status],
                )
            )
        table = await self.table(match, user_id)
        if version is not None and version != match.version and not table.my_turn:
            raise StaleVersion(MOVED_ON)
        seat = self._require_seat(match, user_id)
        if not table.my_turn:
            raise NotYourTurn(NOT_YOUR_TURN)
        return replace(
            table,
            menu=tuple(self.legal_menu(match, seat, locale)),
            choices=tuple(self.multi_selects(match, seat)),
        )

    async def multi_select(
        self, match_id: int, user_id: int, version: int, index: int, scope: Scope | None = None
    ) -> tuple[MultiSelect, Table]:
        """The choice of several items that a control of the board at ``version`` opened, with the
        person's table; refused once the board has moved on or the choice has closed."""
        match = await self.match(match_id, scope)
        if version != match.version:
            raise StaleVersion(MOVED_ON)
        table = await self.menu(match, user_id)
        if not 0 <= index < len(table.choices):
            raise StaleVersion(CHOICE_CLOSED)
        return table.choices[index], table

    async def survey(
        self,
        scope: Scope,
        statuses: Sequence[MatchStatus] = (),
        limit: int = 20,
        finished_by_end: bool = False,
    ) -> MatchListing:
        """The matches ``scope`` may list, newest first (``finished_by_end``: the finished ones, the last
        to end first): a server's own; in direct messages, the person's wherever they are."""
        return await self.store.survey_matches(
            statuses,
            guild_id=scope.guild_id,
            user_id=None if scope.guild_id is not None else scope.user_id,
            limit=limit,
            finished_by_end=finished_by_end,
        )

    async def seat_clocks(self, match: MatchRecord) -> dict[int, SeatClock]:
        """``match``'s seat clocks by seat (none without a clock)."""
        return {clock.seat: clock for clock in await self.store.seat_clocks(match.id)}

    async def moves_by_seat(self, match: MatchRecord) -> Counter[int]:
        """How many moves each seat made, moves taken back not counted."""
        return Counter(seat for _, seat in await self.store.action_seats(match.id))

    async def turn_began(self, match: MatchRecord, version: int, seat: int) -> int | None:
        """The version at which ``seat`` left the board at the end of its previous turn, as of
        ``version`` (see ``engine.host.turns``); None before anyone acted."""
        actions = await self.store.action_seats(match.id, upto=version, latest=TURN_TAIL)
        if len(actions) == TURN_TAIL and not told_by_latest(actions, seat, version):
            actions = await self.store.action_seats(match.id, upto=version)  # their turn began further back
        return previous_turn_end(actions, seat, version)

    async def go_away(self, user_id: int, days: int) -> tuple[datetime, list[SeatClock]]:
        """Pause ``user_id``'s clocks for ``days`` from now (see ``engine.host.absence``): when the absence
        ends, and the clocks it stopped."""
        return await absence.go_away(self.store, user_id, days, self.clock())

    async def come_back(self, user_id: int) -> list[SeatClock]:
        """End ``user_id``'s absence now: the clocks that run again."""
        return await absence.come_back(self.store, user_id, self.clock())

    async def board_post(
        self,
        match: MatchRecord,
        delivery: Delivery,
        notice: Notice,
        live: LivePost | None,
        locale: str,
        name: Namer,
        mentions: Mentions,
    ) -> BoardPost:
        """The plan of ``notice``'s post in ``match``'s thread, whose current turn ``live`` shows, in
        ``locale`` with seats named by ``name`` and called by ``mentions`` (see ``engine.host.posts``)."""
        outcome = self.outcome(await self.match(match.id)) if notice.finished else None
        totals = None
        if outcome is not None:
            clocks = await self.seat_clocks(match)
            used = {seat: clock.used for seat, clock in clocks.items()}
            totals = MatchTotals(moves=await self.moves_by_seat(match), time_used=used)
        may_undo = delivery.version == match.version and await undoing.who_may_undo(self, match) is not None
        return plan_board_post(
            match, delivery, notice, live, locale, name, mentions, outcome, totals, may_undo
        )

    async def timeouts_of(self, user_id: int, guild_id: int | None = None) -> int:
        """How many turns a computer played for ``user_id`` whose time ran out (in ``guild_id`` only)."""
        return await self.store.timeouts_of(user_id, guild_id)

    async def finished_matches(self, limit: int) -> list[MatchRecord]:
        """The latest ``limit`` finished matches of every server."""
        return await self.store.list_matches([MatchStatus.FINISHED], limit=limit)

    def outcome(self, match: MatchRecord) -> Outcome | None:
        if match.result_json is None:
            return None
        return Outcome.model_validate_json(match.result_json)

    async def find_match(
        self,
        scope: Scope,
        match_id: int | None = None,
        thread_id: int | None = None,
        statuses: Sequence[MatchStatus] = (MatchStatus.LOBBY, MatchStatus.ACTIVE),
    ) -> MatchRecord:
        """The match a command from ``scope`` means: the one named, else the one of this thread, else the
        user's only open match there. Raises ``MatchNotFound`` listing the user's open matches when it is
        ambiguous, and for a match the scope may not see (see ``match``)."""
        if match_id is not None:
            return await self.match(match_id, scope)
        if thread_id is not None:
            here = [m for m in await self.store.list_matches(thread_id=thread_id, limit=1) if scope.admits(m)]
            if here:
                return self._known_game(here[0])
        mine = await self.store.list_matches(
            statuses, guild_id=scope.guild_id, user_id=scope.user_id, limit=25
        )
        if len(mine) == 1:
            return self._known_game(mine[0])
        if not mine:
            raise MatchNotFound(
                HOST.say("you are in no open match here; start one with /game new or join one")
            )
        raise MatchNotFound(
            HOST.say("you are in several matches; name one with the match option or use its thread"),
            [f"#{m.id} {self.rules(m.game).title} ({m.status.value})" for m in mine],
        )

    async def public_log(self, match: MatchRecord, limit: int = 20, locale: str | None = None) -> list[str]:
        """The last ``limit`` public log lines, rebuilt by replaying the stored actions: sentences in
        ``locale`` with the players named, or the engine's notation when no locale is given."""
        if match.status is MatchStatus.LOBBY:
            return []
        rules = self.rules(match.game)
        log = await self.store.action_log(match.id)
        try:
            # A long match takes a while to replay: off the event loop.
            state, events = await asyncio.to_thread(
                replay, rules, match.seat_count, match.seed, match.options, log
            )
        except CorruptRecord as exc:
            raise CorruptRecord(
                f"match #{match.id} cannot be read ({exc.message}); {ADMIN_CAN_ABANDON}"
            ) from None
        opening = rules.setup_events(match.seat_count, match.seed, match.options)
        said = [e for e in (*opening, *events) if e.is_public]
        if locale is None:
            lines = [e.text for e in said]
        else:
            name = seat_namer(match, self.presentation(match.game), state)
            lines = [render(locale, sentence(e), name) for e in told(said)]
        return lines[-limit:] if limit else lines

    async def waiting_for(
        self, user_id: int, limit: int = 100
    ) -> tuple[list[MatchRecord], list[MatchRecord]]:
        """The user's running matches on every server: those waiting for them, then those where they
        wait for others, each the longest-waiting first. Unreadable matches are left out."""
        running = await self.store.list_matches([MatchStatus.ACTIVE], user_id=user_id, limit=limit)
        mine: list[MatchRecord] = []
        others: list[MatchRecord] = []
        for match in sorted(running, key=lambda m: m.updated_at):
            if match.game not in self.games:
                continue
            try:
                to_act = self.rules(match.game).to_act(self.state_of(match))
            except EngineError:
                continue
            (mine if match.seat_of(user_id) in to_act else others).append(match)
        return mine, others

    # ------------------------------------------------------------------ lobby

    async def create_match(
        self,
        game: str,
        seat_count: int,
        options: frozenset[str] = frozenset(),
        creator: Player | None = None,
        seed: int | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        origin: str | None = None,
        pace: Pace = Pace.NONE,
    ) -> MatchRecord:
        """Open a lobby after checking the game, seat count and options (``SetupError`` otherwise), on
        the clock ``pace``.

        A match with an ``origin`` (a tournament's table) is made once: asking again returns it."""
        rules = self.rules(game)
        rules.validate_setup(seat_count, options)
        draft = NewMatch(
            game=rules.name,
            options=options,
            seat_count=seat_count,
            seed=self._seed_source() if seed is None else seed,
            creator_id=creator.user_id if creator else None,
            guild_id=guild_id,
            channel_id=channel_id,
            origin=origin,
            pace=pace,
        )
        return await self.store.create_match(draft, creator)

    async def join(self, match_id: int, player: Player, scope: Scope | None = None) -> MatchRecord:
        return await _judged_afresh(lambda: self._seat(match_id, lambda _: player, scope))

    async def add_computer(
        self, match_id: int, policy: str = "greedy", scope: Scope | None = None
    ) -> MatchRecord:
        def computer(match: MatchRecord) -> Player:
            return Player(name=computer_name({p.name for p in match.players}), bot=policy)

        return await _judged_afresh(lambda: self._seat(match_id, computer, scope))

    async def _seat(
        self, match_id: int, newcomer: Callable[[MatchRecord], Player | None], scope: Scope | None
    ) -> MatchRecord:
        """Add to the lobby the player ``newcomer`` makes of it as read (None: nobody, the lobby stays as
        it is)."""
        async with self._locks(match_id):
            match = await self.match(match_id, scope)
            self._require_lobby(match)
            player = newcomer(match)
            if player is None:
                return match
            if player.bot is not None:
                self.policy(match.game, player.bot)
            return await _unless_moved(self.store.add_player(match_id, match.version, player))

    async def leave(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        return await _judged_afresh(lambda: self._leave(match_id, user_id, scope))

    async def _leave(self, match_id: int, user_id: int, scope: Scope | None) -> MatchRecord:
        async with self._locks(match_id):
            match = await self.match(match_id, scope)
            self._require_lobby(match)
            return await _unless_moved(self.store.remove_player(match_id, match.version, user_id))

    async def start(self, match_id: int, by_user: int | None = None, scope: Scope | None = None) -> ActResult:
        """Seat the players (shuffled with the match seed), set the game up and run computer seats."""
        return await _judged_afresh(lambda: self._start(match_id, by_user, scope))

    async def _start(self, match_id: int, by_user: int | None, scope: Scope | None) -> ActResult:
        async with self._locks(match_id):
            match = await self.match(match_id, scope)
            self._require_lobby(match)
            if by_user is not None and match.creator_id not in (None, by_user):
                raise LobbyError(HOST.say("only the player who created the match can start it"))
            if len(match.players) != match.seat_count:
                raise LobbyError(
                    HOST.say_n(
                        "the match needs {count} player and has {seated}",
                        "the match needs {count} players and has {seated}",
                        match.seat_count,
                        seated=len(match.players),
                    ),
                    ["join", "add a computer player"],
                )
            rules = self.rules(match.game)
            order = Rng.from_seed(match.seed, SEAT_STREAM).shuffled(match.players)
            seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(order)]
            state = rules.setup(match.seat_count, match.seed, match.options)
            opening = rules.setup_events(match.seat_count, match.seed, match.options)
            names = ", ".join(f"S{seat + 1} {p.name}" for seat, p in enumerate(order))
            to_act = tuple(sorted(rules.to_act(state)))
            lines = (f"seats: {names}", *(e.text for e in opening if e.is_public))
            seating = HOST.say(
                "Order of play: {players}", players=items(map(who, range(len(order))), "comma")
            )
            begins = Notice(
                headline=f"{rules.title} begins",
                heading=HOST.say("{game} begins", game=HOST.say(rules.title)),
                lines=lines,
                says=(seating, *(sentence(e) for e in told(opening) if e.is_public)),
                to_act=to_act,
                everyone=True,
            )
            notices = [DeliveryDraft(payload=payload(begins))]
            for p in seated:
                assert p.seat is not None
                own = [e for e in opening if e.audience is not None and p.seat in e.audience]
                if not own:
                    continue  # nothing secret was dealt to this seat: no "your hand" message to send
                hand = Notice(
                    headline="your hand",
                    heading=HOST.say("Your hand"),
                    lines=tuple(e.text for e in own),
                    says=tuple(map(sentence, told(own))),
                    to_act=to_act,
                )
                notices.append(DeliveryDraft(seat=p.seat, payload=payload(hand)))
            clocks = await self.clock_change(match.model_copy(update={"players": tuple(seated)}), (), to_act)
            match = await _unless_moved(
                self.store.start_match(
                    match_id, match.version, seated, dump_state(state), notices, clocks=clocks
                )
            )
            played = list(lines)
            match = await self._run_computers(match, state, played)
            return ActResult(match=match, lines=tuple(played))

    async def rematch(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        """A new match of a finished one, asked for by one of its players: the same people and computers
        and the same options, with a new seed (so new seats) and its own thread in the same channel.
        Made once: a second request returns the same rematch."""
        match = await self.match(match_id, scope)
        if match.status is not MatchStatus.FINISHED:
            raise LobbyError(HOST.say("match #{number} is not over yet: finish it first", number=match_id))
        asker = next((p for p in match.players if p.user_id == user_id), None)
        if asker is None:
            raise NotSeated(HOST.say("you are not playing in match #{number}", number=match_id))

        def again(player: Player) -> Player:
            # A person who resigned or was replaced comes back as themselves.
            if player.user_id is not None:
                return Player(user_id=player.user_id, name=player.name.removesuffix(" (computer)"))
            return Player(name=player.name, bot=player.bot)

        rematch = await self.create_match(
            match.game,
            match.seat_count,
            match.options,
            creator=again(asker),
            guild_id=match.guild_id,
            channel_id=match.channel_id,
            origin=f"rematch:{match_id}",
            pace=match.pace,
        )
        if rematch.status is not MatchStatus.LOBBY:
            return rematch

        def key(player: Player) -> int | str:
            return player.user_id if player.user_id is not None else player.name

        wanted = list(map(again, match.players))

        def first_missing(lobby: MatchRecord) -> Player | None:
            # Left out by a cut-short request, or not seated yet.
            return next((p for p in wanted if key(p) not in {key(q) for q in lobby.players}), None)

        rematch_id = rematch.id
        # Each step seats one player or starts; another request for the same rematch (a double tap, or
        # another process) may take any of them first, and then this one reads the rematch again.
        for step in range(2 * len(wanted) + 2):
            if rematch.status is not MatchStatus.LOBBY:
                return rematch
            try:
                if first_missing(rematch) is None:
                    return (await self.start(rematch_id)).match
                rematch = await _judged_afresh(lambda: self._seat(rematch_id, first_missing, None))
            except (LobbyError, StaleVersion):
                if step == 2 * len(wanted) + 1:
                    raise
                rematch = await self.match(rematch.id)
        return rematch

    # ------------------------------------------------------------------- play

    async def act(
        self,
        match_id: int,
        user_id: int,
        move: str | int | None,
        expected_version: int | None = None,
        scope: Scope | None = None,
        seen_version: int | None = None,
        locale: str = lang.DEFAULT,
    ) -> ActResult:
        """Play ``move`` (a notation, the index of a legal action, or None for the seat's only legal move)
        for ``user_id``'s seat; the result's ``label`` reads the move in ``locale``.

        ``expected_version`` binds a button to the exact board it was made for. ``seen_version`` binds
        a typed move to the board the player saw: it is refused when their own seat has moved since
        (a repeated command), while other seats' moves in between do not matter.

        Raises ``MatchNotFound``, ``NotSeated``, ``MatchClosed``, ``StaleVersion`` (the board moved on
        since ``expected_version``, or the seat since ``seen_version``; ``AlreadyPlayed`` when the move
        that moved it on is this very one, pressed twice), ``NotYourTurn``,
        ``NotationError`` or ``IllegalAction``; on any of them nothing is stored.
        """
        async with self._locks(match_id):
            match = await self.match(match_id, scope)
            self._require_active(match)
            seat = self._require_seat(match, user_id)
            if expected_version is not None and expected_version != match.version:
                made = await self.store.action_at(match_id, expected_version + 1)
                if made is not None and made.seat == seat and move in (None, made.notation):
                    raise AlreadyPlayed(HOST.say("you have already played this move"))
                raise StaleVersion(
                    HOST.say(
                        "this board has moved on (it is at move {now}, your button was for move {then}); "
                        "use the latest post",
                        now=match.version,
                        then=expected_version,
                    )
                )
            if seen_version is not None and seen_version < match.version:
                last = await self.store.last_action_version(match_id, seat)
                if last is not None and last > seen_version:
                    raise StaleVersion(
                        HOST.say(
                            "you have already moved since this command was sent (move {move}); nothing "
                            "was played twice. Look at the latest post and move again if you meant to",
                            move=last,
                        )
                    )
            rules = self.rules(match.game)
            state = self.state_of(match)
            to_act = rules.to_act(state)
            if seat not in to_act:
                name = seat_namer(match, self.presentation(match.game), state)
                waiting = items(name(s) for s in sorted(to_act))
                raise NotYourTurn(HOST.say("it is not your turn; waiting for {players}", players=waiting))
            if move is None:
                legal = rules.legal_actions(state, seat)
                if len(legal) != 1:
                    raise StaleVersion(STALE_CHOICE)
                action = legal[0]
            elif isinstance(move, int):
                # Only a numbered choice needs the list: ``apply`` refuses an illegal move on its own.
                legal = rules.legal_actions(state, seat)
                if not 0 <= move < len(legal):
                    raise IllegalAction(
                        HOST.say(
                            "there is no choice number {number}; choose 0 to {last}",
                            number=move,
                            last=len(legal) - 1,
                        ),
                        [rules.notation(a) for a in legal],
                    )
                action = legal[move]
            else:
                action = rules.parse(move)
            step = rules.apply(state, seat, action)
            notation = rules.notation(action)
            label = self._label(match, rules, self.presentation(match.game), state, seat, action, locale)
            match, lines = await self._commit(match, rules, seat, action, state, step.state, step.events)
            match = await self._run_computers(match, step.state, lines)
            return ActResult(match=match, lines=tuple(lines), notation=notation, label=label)

    async def resign(
        self,
        match_id: int,
        user_id: int,
        policy: str | None = None,
        scope: Scope | None = None,
        resigned: bool = False,
        play_on: bool = True,
    ) -> MatchRecord:
        """Hand ``user_id``'s seat to computer player ``policy`` (None: the game's strongest) so the others
        can play on, and say so in the thread. ``resigned``: the player chose to give up, so the rating
        counts them last; otherwise (an organiser's decision) they are not rated. ``play_on``: the
        computers then move until a person must; False leaves that to a later ``run_computers`` (long
        work when only computers are left, which a command must not wait for)."""
        async with self._locks(match_id):
            match = await self.match(match_id, scope)
            seat = self._require_seat(match, user_id)
            self._require_active(match)
            policy = policy or self.strongest_policy(match.game)
            self.policy(match.game, policy)
            player = match.player_at(seat)
            assert player is not None
            replaced = player.model_copy(
                update={"bot": policy, "name": f"{player.name} (computer)", "resigned": resigned}
            )
            rules = self.rules(match.game)
            said = (
                HOST.say("{player} resigned: a computer plays their seat from now on", player=player.name)
                if resigned
                else HOST.say("a computer plays the seat of {player} from now on", player=player.name)
            )
            to_act = tuple(sorted(rules.to_act(self.state_of(match))))
            notice = Notice(lines=(f"P{seat + 1}: computer takes over",), says=(said,), to_act=to_act)
            match = await self.store.replace_player(
                match_id,
                match.version,
                seat,
                replaced,
                deliveries=[DeliveryDraft(payload=payload(notice))],
                clocks=await self._stop_clock(match, seat),
            )
            if not play_on:
                return match
            return await self._run_computers(match, self.state_of(match), [])

    async def expire(self, due: SeatClock) -> MatchRecord | None:
        """The time of ``due``'s seat has run out: a computer plays that turn for its player, who is told,
        and after ``TIMEOUTS_TO_KEEP`` timeouts in a row keeps the seat until they come back (``back``).
        None when the clock moved on since ``due`` was read (the player moved, or it already fired)."""
        async with self._locks(due.match_id):
            match = await self.match(due.match_id)
            if match.status is not MatchStatus.ACTIVE or match.pace is Pace.NONE:
                return None
            current = {c.seat: c for c in await self.store.seat_clocks(match.id)}.get(due.seat)
            now = self.clock()
            if current != due or current.deadline is None or current.deadline > now:
                return None
            player = match.player_at(due.seat)
            rules = self.rules(match.game)
            state = self.state_of(match)
            if player is None or player.bot is not None or due.seat not in rules.to_act(state):
                await self.store.settle_clock(current, end_turn(current, ALLOWANCES[match.pace], now))
                return None
            policy = self.strongest_policy(match.game)
            keep = current.timeouts + 1 >= TIMEOUTS_TO_KEEP
            log.info(
                "match %s: the time of seat %s ran out (timeout %s in a row)",
                match.id,
                due.seat,
                current.timeouts + 1,
            )
            if keep:
                said = HOST.say(
                    "{player} let the time run out twice in a row: a computer plays their seat until they "
                    "come back with /game return",
                    player=player.name,
                )
                ended = end_turn(current, ALLOWANCES[match.pace], now, timed_out=True)
                away = player.model_copy(
                    update={"bot": policy, "name": f"{player.name} (computer)", "absent": True}
                )
                to_act = tuple(sorted(rules.to_act(state)))
                notices = [
                    DeliveryDraft(payload=payload(Notice(says=(said,), to_act=to_act))),
                    DeliveryDraft(
                        seat=due.seat, payload=payload(Notice(says=(said,), to_act=to_act, personal=True))
                    ),
                ]
                match = await self.store.replace_player(
                    match.id,
                    match.version,
                    due.seat,
                    away,
                    deliveries=notices,
                    clocks=ClockChange(clocks=(ended,), timeouts=(ended,)),
                )
                return await self._run_computers(match, state, [])
            said = HOST.say("Time ran out for {player}: a computer played their turn", player=player.name)
            lines: list[str] = []
            preface: tuple[Say, ...] = (said,)
            for _ in range(MAX_AUTOMATED_ACTIONS):
                if match.status is not MatchStatus.ACTIVE or due.seat not in rules.to_act(state):
                    break
                action, step = await self._decide(match, policy, state, due.seat)
                match, new_lines = await self._commit(
                    match, rules, due.seat, action, state, step.state, step.events, {due.seat}, preface
                )
                preface = ()
                lines.extend(new_lines)
                state = step.state
            return await self._run_computers(match, state, lines)

    async def back(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        """Give ``user_id`` back the seat a computer kept after their timeouts (``/game return``)."""
        return await _judged_afresh(lambda: self._back(match_id, user_id, scope))

    async def _back(self, match_id: int, user_id: int, scope: Scope | None) -> MatchRecord:
        async with self._locks(match_id):
            match = await self.match(match_id, scope)
            self._require_active(match)
            seat = match.seat_of(user_id)
            player = match.player_at(seat) if seat is not None else None
            if seat is None or player is None:
                raise NotSeated(HOST.say("you are not playing in match #{number}", number=match_id))
            if not player.absent:
                if player.resigned:
                    raise LobbyError(
                        HOST.say(
                            "you resigned from match #{number}: a computer plays your seat", number=match_id
                        )
                    )
                raise LobbyError(HOST.say("your seat in match #{number} is already yours", number=match_id))
            returned = player.model_copy(
                update={"bot": None, "name": player.name.removesuffix(" (computer)"), "absent": False}
            )
            said = HOST.say("{player} is back and plays their seat again", player=returned.name)
            rules = self.rules(match.game)
            state = self.state_of(match)
            to_act = tuple(sorted(rules.to_act(state)))
            reset = None
            if match.pace is not Pace.NONE:
                rows = {c.seat: c for c in await self.store.seat_clocks(match.id)}
                clock = rows.get(seat) or SeatClock(match_id=match.id, seat=seat, user_id=user_id)
                clock = clock.model_copy(update={"timeouts": 0, "user_id": user_id})
                if seat in to_act and not clock.running:
                    clock = begin_turn(clock, ALLOWANCES[match.pace], self.clock())
                reset = ClockChange(clocks=(clock,))
            notice = Notice(says=(said,), to_act=to_act)
            return await _unless_moved(
                self.store.replace_player(
                    match_id,
                    match.version,
                    seat,
                    returned,
                    deliveries=[DeliveryDraft(payload=payload(notice))],
                    clocks=reset,
                )
            )

    def strongest_policy(self, game: str) -> str:
        """The computer player that stands in for a person (the strongest this game has)."""
        available = self.policies.get(game, {})
        for name in STRONGEST_FIRST:
            if name in available:
                return name
        return next(iter(available))

    async def _stop_clock(self, match: MatchRecord, seat: int) -> ClockChange | None:
        """The seat's clock stopped (a computer takes the seat over), its bank kept."""
        if match.pace is Pace.NONE:
            return None
        rows = {c.seat: c for c in await self.store.seat_clocks(match.id)}
        if seat not in rows or not rows[seat].running:
            return None
        return ClockChange(clocks=(end_turn(rows[seat], ALLOWANCES[match.pace], self.clock()),))

    async def undo(
        self, match_id: int, user_id: int, expected_version: int | None = None, scope: Scope | None = None
    ) -> MatchRecord:
        """Take back ``user_id``'s latest move, by the policy of ``engine.host.undo``, and say so in the
        thread. ``expected_version`` binds a button to the board it was made for.

        Raises ``MatchNotFound``, ``NotSeated``, ``MatchClosed``, ``StaleVersion`` or ``CannotUndo``
        (saying why: someone moved since, or the move revealed something); nothing is stored then.
        """
        async with self._locks(match_id):
            match = await self.match(match_id, scope)
            self._require_active(match)
            seat = self._require_seat(match, user_id)
            if expected_version is not None and expected_version != match.version:
                raise StaleVersion(
                    HOST.say("this board has moved on since that button was made; nothing was taken back")
                )
            match = await undoing.take_back(self, match, seat)
            return await self._run_computers(match, self.state_of(match), [])

    async def can_undo(self, match: MatchRecord, seat: int) -> bool:
        """Whether ``seat`` may take back its latest move of ``match`` as it is now."""
        return await undoing.allowed(self, match, seat)

    async def abandon(
        self, match_id: int, by_user: int | None, is_admin: bool = False, scope: Scope | None = None
    ) -> MatchRecord | MatchSummary:
        """Stop a lobby or a running match for good: its creator, or the server's organisers
        (``is_admin``). A match nobody created (a tournament table) is for organisers only, and so is a
        match whose row cannot be read (quarantined): it is closed by its version alone and its
        summary returned."""
        async with self._locks(match_id):
            try:
                match = await self.match(match_id, scope)
            except CorruptRecord:
                if not is_admin:
                    raise
                summary = await self.summary(match_id, scope)
                await self.store.abandon_unreadable(match_id, summary.version)
                log.warning("match %s could not be read and was abandoned", match_id)
                return await self.store.match_summary(match_id)
            if match.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
                raise MatchClosed(
                    HOST.say(
                        "match #{number} is already {status}",
                        number=match_id,
                        status=STATUS_SAID[match.status],
                    )
                )
            if not is_admin and by_user is not None and match.creator_id != by_user:
                raise LobbyError(HOST.say("only the match's creator or a server admin can abandon it"))
            notice = Notice(headline="match abandoned", heading=HOST.say("Match abandoned"), finished=True)
            return await self.store.close_match(
                match_id,
                match.version,
                MatchStatus.ABANDONED,
                deliveries=[DeliveryDraft(payload=payload(notice))],
            )

    async def resume(self) -> list[MatchRecord]:
        """After a restart: let computer seats of every active match act where it is their turn.

        Match by match: one that cannot be read or whose computers fail is logged and skipped, and
        every other goes on."""
        resumed = []
        for match_id in await self._all_ids([MatchStatus.ACTIVE]):
            try:
                async with self._locks(match_id):
                    fresh = await self.store.get_match(match_id)
                    if fresh.status is MatchStatus.ACTIVE:
                        resumed.append(await self._run_computers(fresh, self.state_of(fresh), []))
            except Exception:
                log.exception("match %s could not be resumed; the others go on", match_id)
        return resumed

    async def run_computers(self, match_id: int) -> MatchRecord:
        """Let the computer seats of one active match act where it is their turn, as ``resume`` does for
        every match (a match left in the middle of its computers' moves by a stop)."""
        async with self._locks(match_id):
            fresh = await self.store.get_match(match_id)
            if fresh.status is not MatchStatus.ACTIVE:
                return fresh
            return await self._run_computers(fresh, self.state_of(fresh), [])

    async def _all_ids(self, statuses: Sequence[MatchStatus], page: int = 1000) -> list[int]:
        """Every id of the matches in ``statuses``, read a page at a time so no count is too large."""
        found: list[int] = []
        while batch := await self.store.match_ids(statuses, page, after=found[-1] if found else 0):
            found += batch
        return found

    async def flush(self, notifier: Notifier, destinations: int = 50) -> int:
        """Send pending deliveries and wait until they are sent; returns how many were sent (see
        ``dispatch``)."""
        return sum(await asyncio.gather(*await self.dispatch(notifier, destinations=destinations)))

    async def dispatch(
        self,
        notifier: Notifier,
        when_sent: Callable[[], object] = lambda: None,
        destinations: int = 50,
    ) -> list[asyncio.Task[int]]:
        """Start sending the pending deliveries of every destination that nobody is sending to yet;
        returns the senders started (tasks that say how many they sent), which go on after this returns.

        Each destination (a match's thread, one seat's messages) is its own ordered stream, with at most
        one sender at a time, alongside the others: a failure holds back only the later notices of that
        destination, which then waits out its back-off while the others carry on. A destination that is
        gone (``DestinationGone``) and a notice that cannot be read are settled at once, not retried.
        ``when_sent`` is called as a sender ends with its batch settled (sent, or set aside as
        unreadable or gone): its destination may have more notices by then, which the next ``dispatch``
        starts. A destination that failed waits out its back-off instead.
        """
        busy = self.backoff.waiting() | frozenset(self._senders)
        batches = await self.store.pending_by_destination(destinations, skip=busy)
        started = []
        for batch in batches:
            destination = (batch[0].match_id, batch[0].seat)
            sender = asyncio.create_task(
                self._send(notifier, destination, batch, when_sent), name=f"send-{destination}"
            )
            self._senders[destination] = sender
            started.append(sender)
        return started

    async def stop_sending(self) -> None:
        """Cancel the senders still running (the bot is stopping): what they had not sent stays pending."""
        senders = list(self._senders.values())
        for sender in senders:
            sender.cancel()
        await asyncio.gather(*senders, return_exceptions=True)

    async def _send(
        self,
        notifier: Notifier,
        destination: tuple[int, int | None],
        batch: Sequence[Delivery],
        when_sent: Callable[[], object],
    ) -> int:
        """One sender: ``batch`` in order, once one of the PARALLEL_DESTINATIONS places is free."""
        try:
            async with self._sending:
                sent = await self._deliver_in_order(notifier, batch)
        except Exception:
            log.exception("sending the notices of %s failed; they are tried again", destination)
            return 0
        finally:
            del self._senders[destination]
        if self.backoff.ready(destination):
            when_sent()
        return sent

    async def _deliver_in_order(self, notifier: Notifier, batch: Sequence[Delivery]) -> int:
        """Send one destination's deliveries in order until one fails; returns how many were sent."""
        sent = 0
        for delivery in batch:
            destination = (delivery.match_id, delivery.seat)
            try:
                match = await self.match(delivery.match_id)
                notice = Notice.model_validate_json(delivery.payload)
            except (EngineError, ValidationError) as exc:
                # A notice's payload may hold a hand: say what is wrong, never what it holds.
                problem = exc.message if isinstance(exc, EngineError) else f"its notice is not {exc.title}"
                log.warning(
                    "delivery %s of match %s cannot be read: %s", delivery.id, delivery.match_id, problem
                )
                await self.store.mark_undeliverable(delivery.id, f"unreadable: {problem}")
                continue
            try:
                await notifier.deliver(match, delivery, notice)
            except DestinationGone as exc:
                log.warning("delivery %s of match %s has nowhere to go: %s", delivery.id, match.id, exc)
                await self.store.mark_undeliverable(delivery.id, f"gone: {exc}")
                continue
            except Exception as exc:
                wait = self.backoff.failed(destination)
                log.warning(
                    "delivery %s of match %s failed (retried in %.0f s): %s", delivery.id, match.id, wait, exc
                )
                await self.store.mark_failed(delivery.id, f"{type(exc).__name__}: {exc}")
                return sent  # the later notices of this destination wait, so nothing overtakes it
            await self.store.mark_delivered(delivery.id)
            self.backoff.succeeded(destination)
            sent += 1
        return sent

    # -------------------------------------------------------------- internals

    async def _run_computers(self, match: MatchRecord, state: BaseModel, lines: list[str]) -> MatchRecord:
        """Let computer seats act, and make the moves the rules make for a person (``automatic``), until
        a person must decide or the match ends."""
        rules = self.rules(match.game)
        computers = {p.seat: p.bot for p in match.players if p.bot is not None and p.seat is not None}
        for _ in range(MAX_AUTOMATED_ACTIONS):
            if match.status is not MatchStatus.ACTIVE:
                return match
            to_act = sorted(rules.to_act(state))
            due = [s for s in to_act if s in computers]
            if due:
                seat = due[0]
                action, step = await self._decide(match, computers[seat] or "random", state, seat)
            else:
                forced = [(s, a) for s in to_act if (a := rules.automatic(state, s)) is not None]
                if not forced:
                    return match
                seat, action = forced[0]
                step = rules.apply(state, seat, action)
            match, new_lines = await self._commit(match, rules, seat, action, state, step.state, step.events)
            lines.extend(new_lines)
            state = step.state
        raise EngineError(f"computer players of match {match.id} did not finish their turns")

    async def _decide(
        self, match: MatchRecord, policy: str, state: BaseModel, seat: int
    ) -> tuple[BaseModel, Step[Any]]:
        """The move of computer player ``policy`` in ``seat`` and the step it leads to. It thinks (and the
        rules apply its move) off the event loop, which keeps answering everyone else meanwhile: in the
        thinking processes when it is slow and the registry's own, else in a thread."""
        from engine.registry import POLICIES

        chosen = self.policy(match.game, policy)
        rules = self.rules(match.game)
        rng = bot_rng(match.seed, match.version)
        registered = POLICIES.get(rules.name, {}).get(policy) is chosen
        if self.thinker is not None and policy in IN_PROCESSES and registered:
            return await self.thinker.run(think_registered, rules.name, policy, state, seat, rng)
        return await asyncio.to_thread(think, rules, chosen, state, seat, rng)

    async def _commit(
        self,
        match: MatchRecord,
        rules: GameRules[Any, Any],
        seat: int,
        action: BaseModel,
        before: BaseModel,
        after: BaseModel,
        events: Sequence[Event],
        timed_out: Collection[int] = (),
        preface: Sequence[Say] = (),
    ) -> tuple[MatchRecord, list[str]]:
        """Store one accepted action with its snapshot, the notices it causes and the clocks it moves,
        in one transaction. ``timed_out``: seats a computer plays because their time ran out; ``preface``:
        sentences for the thread before the move's own."""
        notation = rules.notation(action)
        outcome = rules.outcome(after)
        to_act = tuple(sorted(rules.to_act(after)))
        public_lines = [e.text for e in events if e.is_public]
        headline = heading = None
        if outcome is not None:
            headline = f"game over: {outcome.reason}"
            reason = outcome.reason_say
            heading = HOST.say("Game over: {reason}", reason=reason) if reason else HOST.say("Game over")
        post = Notice(
            lines=tuple(public_lines),
            says=(*preface, *(sentence(e) for e in told(events) if e.is_public)),
            headline=headline,
            heading=heading,
            to_act=to_act,
            finished=outcome is not None,
        )
        notices = [DeliveryDraft(payload=payload(post))]
        if preface:
            # A player whose turn a computer played hears of it in private too.
            notices += [
                DeliveryDraft(seat=s, payload=payload(Notice(says=tuple(preface), to_act=to_act)))
                for s in sorted(timed_out)
            ]
        # Computer seats get private notices too: the notifier decides whether anyone reads them. Once
        # the match is over nothing is secret any more, and the final post says it all.
        for target in range(match.seat_count if outcome is None else 0):
            own = [e for e in events if e.audience is not None and target in e.audience]
            if own:
                secret = Notice(
                    lines=tuple(e.text for e in own), says=tuple(map(sentence, told(own))), to_act=to_act
                )
                notices.append(DeliveryDraft(seat=target, payload=payload(secret)))
        status = MatchStatus.FINISHED if outcome is not None else MatchStatus.ACTIVE
        snapshot = dump_state(after)
        player = match.player_at(seat)
        # A computer playing a person's seat (their time ran out, or it keeps or took over the seat)
        # plays for them: the log remembers it, so the move is never theirs to take back.
        stand_in = seat in timed_out or (
            player is not None and player.user_id is not None and player.bot is not None
        )
        logged = LoggedAction(seat=seat, notation=notation, stand_in=stand_in)
        for attempt in itertools.count(1):
            # Worked out again if a person whose turn this begins went away meanwhile (the store checks).
            clocks = await self.clock_change(
                match, rules.to_act(before), () if outcome is not None else to_act, timed_out
            )
            try:
                committed = await self.store.commit_action(
                    match.id,
                    match.version,
                    logged,
                    snapshot,
                    status=status,
                    result_json=outcome.model_dump_json() if outcome is not None else None,
                    deliveries=notices,
                    clocks=clocks,
                )
                break
            except AbsencesChanged:
                if attempt == _CLOCK_ATTEMPTS:
                    raise
        self._recent.keep((committed.id, committed.version), after)
        self._parsed.keep((committed.id, committed.version), (snapshot, after))
        self.judged.keep(
            (committed.id, committed.version),
            undoing.judged(rules, before, committed.version, logged, action, after, events),
        )
        # A log line names a move only when everyone may know it (the engine says which are secret).
        move = notation if rules.is_public_action(before, seat, action) else "a private move"
        log.info("match %s: seat %s played %s (version %s)", match.id, seat, move, committed.version)
        if committed.status is MatchStatus.FINISHED:
            await self._announce_finish(committed)
        return committed, public_lines

    async def clock_change(
        self,
        match: MatchRecord,
        before: Collection[int],
        after: Collection[int],
        timed_out: Collection[int] = (),
        undone: bool = False,
    ) -> ClockChange | None:
        """The seat clocks that change when the seats to act go from ``before`` to ``after``; None for a
        match without a clock, or when nobody's turn begins or ends. ``undone``: moves taken back made
        the change (see ``engine.host.clock.clocks_after``)."""
        if match.pace is Pace.NONE or (set(before) == set(after) and not timed_out):
            return None
        people = {
            p.seat: p.user_id
            for p in match.players
            if p.user_id is not None and p.bot is None and p.seat is not None
        }
        if not people:
            return None
        now = self.clock()
        beginning = sorted({people[s] for s in after if s in people and s not in before})
        found = await self.store.absences(beginning, now)
        away = {
            user: max(end for start, end in spans if start <= now)
            for user, spans in found.items()
            if any(start <= now for start, _ in spans)
        }
        rows = {c.seat: c for c in await self.store.seat_clocks(match.id)}
        allowance = ALLOWANCES[match.pace]
        changed = clocks_after(
            match.id, rows, people, before, after, allowance, now, away, timed_out, undone=undone
        )
        return ClockChange(
            clocks=tuple(changed),
            timeouts=tuple(c for c in changed if c.seat in timed_out),
            absences_seen=AbsencesSeen(users=tuple(beginning), as_of=now, found=found) if beginning else None,
        )

    async def _announce_finish(self, match: MatchRecord) -> None:
        for listener in self.finish_listeners:
            try:
                await listener(match)
            except Exception:
                log.exception("a listener failed for the end of match %s", match.id)

    @staticmethod
    def _label(
        match: MatchRecord,
        rules: GameRules[Any, Any],
        presentation: GamePresentation[Any, Any],
        state: BaseModel,
        seat: int,
        action: Any,
        locale: str,
    ) -> str:
        """The move as the player reads it; its notation if the words fail (the move itself stands)."""
        try:
            return render(
                locale, presentation.describe(state, seat, action), seat_namer(match, presentation, state)
            )
        except Exception:
            log.exception("match %s: no words for %s", match.id, rules.notation(action))
            return rules.notation(action)

    @staticmethod
    def _require_lobby(match: MatchRecord) -> None:
        if match.status is not MatchStatus.LOBBY:
            raise LobbyError(
                HOST.say(
                    "match #{number} is {status}; the lobby is closed",
                    number=match.id,
                    status=STATUS_SAID[match.status],
                )
            )

    @staticmethod
    def _require_active(match: MatchRecord) -> None:
        if match.status is not MatchStatus.ACTIVE:
            allowed = ["start"] if match.status is MatchStatus.LOBBY else []
            if match.status is MatchStatus.LOBBY:
                said = HOST.say(
                    "match #{number} has not started yet: no moves until it starts", number=match.id
                )
            else:
                said = HOST.say(
                    "match #{number} is {status}: no more moves can be made",
                    number=match.id,
                    status=STATUS_SAID[match.status],
                )
            raise MatchClosed(said, allowed)

    @staticmethod
    def _require_seat(match: MatchRecord, user_id: int) -> int:
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotSeated(HOST.say("you are not playing in match #{number}", number=match.id))
        player = match.player_at(seat)
        if player is not None and player.bot is not None:
            raise NotSeated(
                HOST.say("a computer player has taken over your seat in match #{number}", number=match.id)
            )
        return seat
