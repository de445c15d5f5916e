"""GameHost: the game-agnostic master that turns player commands into committed, announced moves.

It knows nothing of Discord or SQL: it talks to a ``MatchStore`` and, when asked to flush the outbox, to
a ``Notifier``. Every accepted action is committed together with the notices it causes; notices are
sent only after the commit, so nothing is ever announced for an unsaved move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

import lang
from engine.core.contract import Event, GameRules, Outcome, Policy
from engine.core.errors import (
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
from engine.core.presentation import GamePresentation, MultiSelect
from engine.core.say import Say, items
from engine.host import absence, computers
from engine.host import undo as undoing
from engine.host.clock import ClockChange, Pace, SeatClock
from engine.host.committing import Committer
from engine.host.computers import StandIn
from engine.host.lobby import Lobby
from engine.host.locks import MatchLocks
from engine.host.menus import MenuEntry
from engine.host.move_words import move_label, typed_action, with_menu_hint
from engine.host.names import COMPUTER_SUFFIX, seat_namer
from engine.host.outbox import Backoff
from engine.host.ports import (
    Delivery,
    DeliveryDraft,
    LivePost,
    MatchListing,
    MatchRecord,
    MatchStatus,
    MatchStore,
    MatchSummary,
    Notice,
    Notifier,
    Player,
    Scope,
    payload,
)
from engine.host.posts import BoardPost, MatchTotals, Mentions, plan_board_post
from engine.host.public_events import PublicEvents, Replayed, replayed
from engine.host.ratings import places_as_rated
from engine.host.reading import MatchReader
from engine.host.refusals import (
    ADMIN_CAN_ABANDON,
    CHOOSE_A_LEVEL,
    NO_SUCH_LEVEL,
    STATUS_SAID,
    require_active,
    require_seat,
)
from engine.host.replacement import SeatOffers
from engine.host.results import ActResult
from engine.host.seat_clocks import SeatClocks
from engine.host.sending import Destination, Sender
from engine.host.shortcuts import shortcut_entries
from engine.host.table import CHOICE_CLOSED, MOVED_ON, NOT_YOUR_TURN, STALE_CHOICE, Table
from engine.host.text import HOST, sentence, told
from engine.host.thinking import ThinkPool
from engine.host.turns import previous_turn_end, told_by_latest
from lang.says import Namer, render

log = logging.getLogger(__name__)

# How many of the latest actions are read first to find where a player's turn began: enough for almost
# every turn, so that the read does not grow with the match.
TURN_TAIL = 16
# The computer players that stand in for a person whose time ran out, the strongest first.
STRONGEST_FIRST = ("strong", "greedy", "random")


def utc_now() -> datetime:
    return datetime.now(UTC)


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
        self.clock = clock
        self.thinker = thinker
        # Awaited after the commit that finishes a match (ratings, tournaments); failures are only logged
        # because each listener can also catch up from the store later.
        self.finish_listeners: list[Callable[[MatchRecord], Awaitable[object]]] = []
        # Told of each new version of a match, whoever made it (a web page follows a match through it).
        self.versions = store.versions
        # The seams the host is cut along: the lobby, the seat clocks, reading and committing moves, and
        # sending the outbox.
        self.lobby = Lobby(self, self._locks, seed_source or (lambda: secrets.randbits(63)))
        self.clocks = SeatClocks(self, store, self._locks)
        self.reader = MatchReader(store, games, self.rules)
        self.public_events = PublicEvents()
        self.committer = Committer(store, self.reader, self.clocks, self.finish_listeners)
        self.judged = self.committer.judged
        self.sender = Sender(store, backoff or Backoff(), self.match)
        self.backoff: Backoff[Destination] = self.sender.backoff
        # A new person in a seat a computer holds (``/game replace``).
        self.offers = SeatOffers(self, store, self._locks)

    def hearing_other_processes(self) -> AbstractAsyncContextManager[object]:
        """Within the block, ``versions`` hears too of the versions other processes on the same database
        write (a web table beside the bot processes on PostgreSQL)."""
        return self.store.hearing_others()

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
            raise LobbyError(NO_SUCH_LEVEL, sorted(available), hint=CHOOSE_A_LEVEL)
        return available[name]

    async def match(self, match_id: int, scope: Scope | None = None) -> MatchRecord:
        """See ``MatchReader.match``."""
        return await self.reader.match(match_id, scope)

    async def summary(self, match_id: int, scope: Scope | None = None) -> MatchSummary:
        """Who a match belongs to, for readable and unreadable matches alike; scoped like ``match``."""
        return await self.reader.summary(match_id, scope)

    def state_of(self, match: MatchRecord) -> BaseModel:
        """The latest snapshot of a started match; raises ``MatchClosed`` in the lobby."""
        return self.reader.state_of(match)

    async def state_at(self, match: MatchRecord, version: int) -> BaseModel:
        """See ``MatchReader.state_at``."""
        return await self.reader.state_at(match, version)

    def view(self, match: MatchRecord, seat: int | None, state: BaseModel | None = None) -> BaseModel:
        rules = self.rules(match.game)
        return rules.view(state if state is not None else self.state_of(match), seat)

    async def view_at(self, match: MatchRecord, version: int, seat: int | None = None) -> BaseModel:
        """See ``MatchReader.view_at``."""
        return await self.reader.view_at(match, version, seat)

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
        self,
        match: MatchRecord | int,
        user_id: int,
        scope: Scope | None = None,
        seated: Say | None = None,
        undo: bool = False,
    ) -> Table:
        """``match`` (a record just read, or an id) as ``user_id`` finds it: their seat and who must act;
        with ``undo``, whether they may take back their latest move (it costs a look at the log, which a
        caller that shows no Undo button is spared). ``seated``: the refusal for someone who does not
        play there (None: anyone may look)."""
        if isinstance(match, int):
            match = await self.match(match, scope)
        seat = match.seat_of(user_id)
        if seat is None and seated is not None:
            raise await self.not_playing(match, user_id, seated)
        may_undo = (
            undo
            and seat is not None
            and match.status is MatchStatus.ACTIVE
            and await self.can_undo(match, seat)
        )
        return Table(match, seat, self.to_act(match), may_undo, self.namer(match))

    async def not_playing(self, match: MatchRecord, user_id: int, refusal: Say) -> NotSeated:
        """The refusal of ``user_id``, who has no seat in ``match``: who took over the seat they played
        there, when someone did, else ``refusal``."""
        return NotSeated(await self.offers.taken_from(match, user_id) or refusal)

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
        table = await self.table(match, user_id, undo=True)
        if version is not None and version != match.version and not table.my_turn:
            raise StaleVersion(MOVED_ON)
        seat = require_seat(match, user_id)
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
        return await self.clocks.by_seat(match)

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
        ended = await self.match(match.id) if notice.finished else None
        outcome = places_as_rated(ended, found) if ended and (found := self.outcome(ended)) else None
        totals = None
        if outcome is not None:
            clocks = await self.seat_clocks(match)
            used = {seat: clock.used for seat, clock in clocks.items()}
            totals = MatchTotals(moves=await self.moves_by_seat(match), time_used=used)
        undoer = await undoing.who_may_undo(self, match) if delivery.version == match.version else None
        return plan_board_post(match, delivery, notice, live, locale, name, mentions, outcome, totals, undoer)

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
                return self.reader.known_game(here[0])
        mine = await self.store.list_matches(
            statuses, guild_id=scope.guild_id, user_id=scope.user_id, limit=25
        )
        if len(mine) == 1:
            return self.reader.known_game(mine[0])
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
        presentation = self.presentation(match.game)
        log = await self.store.action_log(match.id)

        since = self.public_events.last(match.id)

        def words() -> tuple[Replayed, list[str]]:
            found = replayed(rules, match, log, since)
            if locale is None:
                return found, [e.text for e in found.public]
            name = seat_namer(match, presentation, found.state)
            return found, [render(locale, sentence(e), name) for e in told(found.public)]

        try:
            # A long match takes a while to replay and to put in words: off the event loop.
            found, lines = await asyncio.to_thread(words)
        except CorruptRecord as exc:
            raise CorruptRecord(
                f"match #{match.id} cannot be read ({exc.message}); {ADMIN_CAN_ABANDON}"
            ) from None
        self.public_events.keep(match.id, found)
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
        least_reliability: float = 0.0,
    ) -> MatchRecord:
        """See ``Lobby.create_match``."""
        return await self.lobby.create_match(
            game, seat_count, options, creator, seed, guild_id, channel_id, origin, pace, least_reliability
        )

    async def join(self, match_id: int, player: Player, scope: Scope | None = None) -> MatchRecord:
        return await self.lobby.join(match_id, player, scope)

    async def add_computer(
        self, match_id: int, policy: str = "greedy", scope: Scope | None = None
    ) -> MatchRecord:
        return await self.lobby.add_computer(match_id, policy, scope)

    async def leave(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        return await self.lobby.leave(match_id, user_id, scope)

    async def start(self, match_id: int, by_user: int | None = None, scope: Scope | None = None) -> ActResult:
        """See ``Lobby.start``."""
        return await self.lobby.start(match_id, by_user, scope)

    async def rematch(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        """See ``Lobby.rematch``."""
        return await self.lobby.rematch(match_id, user_id, scope)

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
        """Play ``move`` (its words or notation, the index of a legal action, or None for the only legal move)
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
            require_active(match)
            seat = require_seat(match, user_id)
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
                name = seat_namer(match, self.presentation(match.game), state)
                action = typed_action(rules, self.presentation(match.game), state, seat, move, locale, name)
            try:
                step = rules.apply(state, seat, action)
            except IllegalAction as refused:
                raise with_menu_hint(refused) from None
            notation = rules.notation(action)
            label = move_label(match, rules, self.presentation(match.game), state, seat, action, locale)
            match, lines = await self.commit(match, rules, seat, action, state, step.state, step.events)
            try:
                match = await self.play_computers(match, step.state, lines)
            except Exception as trouble:  # the move stands: the person is told so, not refused
                return ActResult(match, tuple(lines), notation, label, trouble)
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
            seat = require_seat(match, user_id)
            require_active(match)
            policy = policy or self.strongest_policy(match.game)
            self.policy(match.game, policy)
            player = match.player_at(seat)
            assert player is not None
            replaced = player.model_copy(
                update={"bot": policy, "name": f"{player.name}{COMPUTER_SUFFIX}", "resigned": resigned}
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
                clocks=await self.clocks.stop_clock(match, seat),
            )
            if not play_on:
                return match
            return await self.play_computers(match, self.state_of(match), [])

    async def expire(self, due: SeatClock) -> MatchRecord | None:
        """See ``SeatClocks.expire``."""
        return await self.clocks.expire(due)

    async def back(self, match_id: int, user_id: int, scope: Scope | None = None) -> MatchRecord:
        """See ``SeatClocks.back``."""
        return await self.clocks.back(match_id, user_id, scope)

    def strongest_policy(self, game: str) -> str:
        """The computer player that stands in for a person (the strongest this game has)."""
        available = self.policies.get(game, {})
        for name in STRONGEST_FIRST:
            if name in available:
                return name
        return next(iter(available))

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
            require_active(match)
            seat = require_seat(match, user_id)
            if expected_version is not None and expected_version != match.version:
                raise StaleVersion(
                    HOST.say("this board has moved on since that button was made; nothing was taken back")
                )
            match = await undoing.take_back(self, match, seat)
            return await self.play_computers(match, self.state_of(match), [])

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
                        resumed.append(await self.play_computers(fresh, self.state_of(fresh), []))
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
            return await self.play_computers(fresh, self.state_of(fresh), [])

    async def _all_ids(self, statuses: Sequence[MatchStatus], page: int = 1000) -> list[int]:
        """Every id of the matches in ``statuses``, read a page at a time so no count is too large."""
        found: list[int] = []
        while batch := await self.store.match_ids(statuses, page, after=found[-1] if found else 0):
            found += batch
        return found

    async def flush(self, notifier: Notifier, destinations: int = 50) -> int:
        """See ``Sender.flush``."""
        return await self.sender.flush(notifier, destinations)

    async def dispatch(
        self,
        notifier: Notifier,
        when_sent: Callable[[], object] = lambda: None,
        destinations: int = 50,
    ) -> list[asyncio.Task[int]]:
        """See ``Sender.dispatch``."""
        return await self.sender.dispatch(notifier, when_sent, destinations)

    async def stop_sending(self) -> None:
        """Cancel the senders still running (the bot is stopping): what they had not sent stays pending."""
        await self.sender.stop()

    # -------------------------------------------------------------- internals

    async def play_computers(
        self, match: MatchRecord, state: BaseModel, lines: list[str], stand_in: StandIn | None = None
    ) -> MatchRecord:
        """See ``engine.host.computers.play``."""
        return await computers.play(self, match, state, lines, stand_in)

    async def commit(
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
        """See ``Committer.commit``."""
        return await self.committer.commit(
            match, rules, seat, action, before, after, events, timed_out, preface
        )

    async def clock_change(
        self,
        match: MatchRecord,
        before: Collection[int],
        after: Collection[int],
        timed_out: Collection[int] = (),
        undone: bool = False,
    ) -> ClockChange | None:
        """See ``SeatClocks.clock_change``."""
        return await self.clocks.clock_change(match, before, after, timed_out, undone)
