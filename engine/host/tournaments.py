"""Tournaments over any registered game: entrants, rounds of matches, results and standings.

The pairings and standings are pure (``engine.tournament``); this module keeps a tournament's record,
creates one match per table through the ``GameHost`` and collects results when those matches end.
Results are gathered by ``process``, which reads finished matches from the store, so a crash between a
match ending and its result being recorded loses nothing: the next ``process`` finds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from engine.core.errors import EngineError, LobbyError, MatchClosed, SetupError
from engine.core.rng import Rng
from engine.host.clock import Pace
from engine.host.locks import MatchLocks
from engine.host.names import COMPUTER_SUFFIX
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.seat_rotation import carried_advantage, first_seats, joining_order, measured_edges, seating
from engine.host.service import GameHost
from engine.host.text import HOST
from engine.host.tournament_records import (
    ORGANISER_ROLE_SETTING,
    TOURNAMENT_STATUS,
    AdvancePlan,
    Entrant,
    OpenTable,
    RoundRecord,
    RoundReport,
    TableRecord,
    TournamentDraft,
    TournamentRecord,
    TournamentStatus,
    TournamentStore,
    closed,
    due_announcements,
    next_timed,
    open_tables,
    opened,
    parse_points,
    registration_state,
    seat_keys,
    table_size_range,
)
from engine.host.tournament_words import standings_of
from engine.tournament import (
    FORMATS,
    Standing,
    TableResult,
    TournamentConfig,
    check_field,
    is_finished,
    pair_round,
)

__all__ = [
    "TOURNAMENT_STATUS",
    "AdvancePlan",
    "Entrant",
    "OpenTable",
    "RoundRecord",
    "RoundReport",
    "TableRecord",
    "TournamentDraft",
    "TournamentHost",
    "TournamentRecord",
    "TournamentStatus",
    "TournamentStore",
    "parse_points",
    "table_size_range",
]

log = logging.getLogger(__name__)

MATCH_STREAM = 3  # seeds of a tournament's matches, derived from its own seed


class TournamentHost:
    """Runs tournaments for every game through a ``GameHost``."""

    def __init__(
        self,
        host: GameHost,
        store: TournamentStore,
        seed_source: Callable[[], int] | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._clock = clock
        # Tournaments with a reminder to their tables due, found by ``process`` for the front end to post.
        self.reminders_due: set[int] = set()
        # When each running tournament next needs the clock (see ``tick``); None until a first look at
        # every running tournament.
        self._timers: dict[int, datetime] | None = None
        # Tournaments whose computers' tables failed to play, named in the log once until they play again.
        self._unplayable: set[int] = set()
        self.host = host
        self.store = store
        self._locks = MatchLocks()
        self._seed_source = seed_source or (lambda: secrets.randbits(63))

    # ------------------------------------------------------------------------------ set-up

    async def create(
        self,
        name: str,
        game: str,
        format: str,
        options: frozenset[str] = frozenset(),
        table_size: int | None = None,
        rounds: int | None = None,
        deadline_hours: float | None = None,
        rated: bool = True,
        guild_id: int | None = None,
        channel_id: int | None = None,
        creator_id: int | None = None,
        seed: int | None = None,
        points: dict[int, tuple[float, ...]] | None = None,
        pace: Pace = Pace.NONE,
    ) -> TournamentRecord:
        """A new tournament in draft, its tables' matches on the clock ``pace``. Raises ``SetupError``
        for an unknown game, format, option or size.

        ``points`` overrides the placement points per table size (best place first).
        """
        rules = self.host.rules(game)
        if format not in FORMATS:
            raise SetupError(f"unknown tournament format {format!r}", list(FORMATS))
        low, high, preferred = table_size_range(rules.seat_counts, table_size)
        # Only sizes at which the options are valid can be used (a team game, say, is for 4 only).
        allowed = []
        for size in range(low, high + 1):
            try:
                rules.validate_setup(size, options)
            except SetupError:
                continue
            allowed.append(size)
        if preferred not in allowed:
            rules.validate_setup(preferred, options)  # raises the game's own explanation
        if format == "elimination":
            low = high = preferred  # every table of a knock-out round has the same size
        low, high = max(low, min(allowed)), min(high, max(allowed))
        config = TournamentConfig(
            format=format,  # type: ignore[arg-type]
            min_size=low,
            max_size=high,
            preferred_size=preferred,
            rounds=rounds if format == "swiss" else None,
            points=points,
        )
        draft = TournamentDraft(
            name=name.strip()[:80] or "Tournament",
            game=rules.name,
            options=options,
            config=config,
            seed=self._seed_source() if seed is None else seed,
            rated=rated,
            deadline_hours=deadline_hours,
            pace=pace,
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=creator_id,
        )
        return await self.store.create_tournament(draft)

    async def get(self, tournament_id: int) -> TournamentRecord:
        return await self.store.get_tournament(tournament_id)

    async def of_server(self, guild_id: int | None, limit: int = 25) -> list[TournamentRecord]:
        """The server's tournaments, newest first."""
        return await self.store.list_tournaments(guild_id=guild_id, limit=limit)

    async def ids(self, statuses: Sequence[TournamentStatus]) -> list[int]:
        """The ids of every tournament in ``statuses``, whether or not their records can be read."""
        return await self.store.tournament_ids(statuses)

    async def of_match(self, match_id: int) -> int | None:
        """The tournament ``match_id`` is a table of, if any."""
        return await self.store.tournament_of_match(match_id)

    async def organiser_role(self, guild_id: int) -> int | None:
        """The role whose members may run the server's tournaments (None: admins only)."""
        value = await self.store.setting(guild_id, ORGANISER_ROLE_SETTING)
        return int(value) if value is not None and value.isdigit() else None

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """Set (or with None, clear) the server's organiser role."""
        await self.store.set_setting(
            guild_id, ORGANISER_ROLE_SETTING, None if role_id is None else str(role_id)
        )

    async def open_registration(self, tournament_id: int) -> TournamentRecord:
        return await self._change(tournament_id, opened)

    async def close_registration(self, tournament_id: int) -> TournamentRecord:
        return await self._change(tournament_id, closed)

    async def join(self, tournament_id: int, user_id: int, name: str) -> TournamentRecord:
        def join(record: TournamentRecord) -> TournamentRecord:
            if record.status is not TournamentStatus.REGISTRATION:
                raise LobbyError(
                    HOST.say(
                        "registration for “{name}” is {state}",
                        name=record.name,
                        state=registration_state(record),
                    )
                )
            if record.entrant_of_user(user_id) is not None:
                raise LobbyError(HOST.say("you are already registered for “{name}”", name=record.name))
            entrant = Entrant(key=f"u{user_id}", name=name, user_id=user_id)
            return record.model_copy(update={"entrants": (*record.entrants, entrant)})

        return await self._change(tournament_id, join)

    async def add_computer(self, tournament_id: int, policy: str | None = None) -> TournamentRecord:
        """Enter computer player ``policy`` (None: the game's strongest)."""

        def add(record: TournamentRecord) -> TournamentRecord:
            if record.status not in (
                TournamentStatus.DRAFT,
                TournamentStatus.REGISTRATION,
                TournamentStatus.CLOSED,
            ):
                raise LobbyError(
                    HOST.say("“{name}” has started; computer players join only before", name=record.name)
                )
            chosen = policy or self.host.strongest_policy(record.game)
            self.host.policy(record.game, chosen)
            number = 1 + sum(1 for e in record.entrants if e.bot is not None)
            entrant = Entrant(key=f"c{number}", name=f"Computer {number}", bot=chosen)
            return record.model_copy(update={"entrants": (*record.entrants, entrant)})

        return await self._change(tournament_id, add)

    async def leave(self, tournament_id: int, user_id: int) -> TournamentRecord:
        def leave(record: TournamentRecord) -> TournamentRecord:
            if record.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED):
                raise LobbyError(
                    HOST.say("“{name}” has started; ask an admin to drop you instead", name=record.name)
                )
            entrant = record.entrant_of_user(user_id)
            if entrant is None:
                raise LobbyError(HOST.say("you are not registered for “{name}”", name=record.name))
            return record.model_copy(
                update={"entrants": tuple(e for e in record.entrants if e is not entrant)}
            )

        return await self._change(tournament_id, leave)

    async def start(self, tournament_id: int) -> RoundReport:
        """Close registration and start round 1 (the tables where only computers sit are left to
        ``play_tables``). Raises ``SetupError`` when the field cannot play."""
        async with self._locks(tournament_id):
            record = await self.store.get_tournament(tournament_id)
            if record.status not in (
                TournamentStatus.REGISTRATION,
                TournamentStatus.CLOSED,
                TournamentStatus.DRAFT,
            ):
                raise LobbyError(
                    HOST.say(
                        "“{name}” is {status}; it cannot start again",
                        name=record.name,
                        status=TOURNAMENT_STATUS[record.status],
                    )
                )
            check_field(record.config, len(record.entrants))
            record = await self.store.save_tournament(
                record.model_copy(update={"status": TournamentStatus.RUNNING}), record.version
            )
            report = RoundReport(record)
            await self._start_round(record, report)
            return await self._settle(tournament_id, report)

    async def cancel(self, tournament_id: int) -> TournamentRecord:
        """Stop a tournament for good; its unfinished matches are abandoned."""
        async with self._locks(tournament_id):
            record = await self.store.get_tournament(tournament_id)
            if record.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
                raise MatchClosed(
                    HOST.say(
                        "“{name}” is already {status}",
                        name=record.name,
                        status=TOURNAMENT_STATUS[record.status],
                    )
                )
            # Cancelled first: a crash before the tables are abandoned leaves a cancelled tournament whose
            # tables nothing waits for, never a running one whose tables can no longer finish.
            cancelled = await self.store.save_tournament(
                record.model_copy(update={"status": TournamentStatus.CANCELLED}), record.version
            )
            for table in record.rounds[-1].tables if record.rounds else ():
                if table.match_id is not None and table.result is None:
                    await self._abandon_quietly(table.match_id)
            return cancelled

    # --------------------------------------------------------------------------- running it

    async def process(self, tournament_id: int | None = None) -> list[RoundReport]:
        """Record the results of finished matches and start the next rounds where one is complete.

        Runs for one tournament or for every running one; safe to call at any time and repeatedly. Each
        tournament on its own: one that cannot be read or fails to move on is logged and skipped, and
        the others go on.
        """
        if tournament_id is None:
            ids = await self.store.tournament_ids([TournamentStatus.RUNNING])
            if self._timers is None:
                self._timers = {}  # this pass sees every running tournament
        else:
            ids = [tournament_id]
        reports = []
        for tid in ids:
            try:
                async with self._locks(tid):
                    record = await self.store.get_tournament(tid)
                    if record.status is TournamentStatus.RUNNING:
                        report = await self._settle(tid, RoundReport(record))
                        if report.finished_rounds or report.started_rounds or report.completed:
                            reports.append(report)
                        record = report.tournament
                due = self.due_announcements(record, self._clock())
                if any(key.endswith(("-half", "-last")) for key in due):
                    self.reminders_due.add(tid)
                if self._past_deadline(record) and (await self.advance_plan(tid)).takes_seats:
                    # The round's time is up: computers take the seats of the people still playing (and
                    # ``play_tables`` finishes their tables).
                    log.info("tournament %s: round %s reached its deadline", tid, len(record.rounds))
                    report = await self.advance(tid)
                    reports.append(report)
                    record = report.tournament
                self._watch(record)
            except Exception:
                log.exception("tournament %s could not move on; the others go on", tid)
            if len(ids) > 1:
                # Reads of an idle tournament may never suspend: let everyone else in between two, so
                # that a pass over a thousand of them does not hold the event loop for its whole length.
                await asyncio.sleep(0)
        return reports

    async def play_tables(self) -> list[RoundReport]:
        """Make the computers' moves at the tables of every running tournament (to the end where only
        computers sit), and move each tournament on as they end (results, the next rounds), until every
        table left waits for people; what moved on.

        Long work (a computer-only match is played to its end, round after round): the front end runs
        it in a task of its own, never inside a command's answer. Every move is stored as it is made and
        the tables are found again from the store, so a stop at any point loses nothing and the next
        call (after a restart too) carries on. Each tournament on its own: one that fails is logged and
        the others go on."""
        reports: list[RoundReport] = []
        for tid in await self.store.tournament_ids([TournamentStatus.RUNNING]):
            try:
                reports += await self._play_tables_of(tid)
            except Exception:
                if tid not in self._unplayable:
                    self._unplayable.add(tid)
                    log.exception(
                        "tournament %s: its computers' tables could not be played; the others go on", tid
                    )
            else:
                self._unplayable.discard(tid)
        return reports

    async def _play_tables_of(self, tournament_id: int) -> list[RoundReport]:
        reports: list[RoundReport] = []
        for _ in range(1000):
            # Results first, and the next round paired with its tables made (after a stop too).
            reports += await self.process(tournament_id)
            record = await self.store.get_tournament(tournament_id)
            if record.status is not TournamentStatus.RUNNING or not record.rounds:
                return reports
            played = False
            for table in record.rounds[-1].tables:
                if table.result is not None or table.match_id is None:
                    continue
                match = await self.host.match(table.match_id)
                if match.status is MatchStatus.LOBBY and _computers_only(match):
                    with contextlib.suppress(LobbyError):  # started meanwhile by another pass
                        await self.host.start(match.id)
                    played = True
                elif match.status is MatchStatus.ACTIVE and any(p.bot is not None for p in match.players):
                    # Computers that took seats (an organiser's command, a drop), or a stop that came in
                    # the middle of their moves: they move until a person must, or to the end.
                    moved = await self.host.run_computers(match.id)
                    played = played or moved.version != match.version
            if not played:
                return reports
        raise EngineError(f"the computers' tables of tournament {tournament_id} did not settle")

    async def tick(self) -> list[RoundReport]:
        """Process the tournaments whose clock has something due (a reminder, a deadline): the front end
        calls this on every pass, and it reads no tournament until one is due. The first call looks at
        every running tournament (a deadline may have passed while the bot was down)."""
        if self._timers is None:
            return await self.process()
        now = self._clock()
        due = sorted(tid for tid, at in self._timers.items() if at <= now)
        reports = []
        for tid in due:
            reports += await self.process(tid)
        return reports

    @staticmethod
    def next_timed(record: TournamentRecord) -> datetime | None:
        """See ``engine.host.tournament_records.next_timed``."""
        return next_timed(record)

    def _watch(self, record: TournamentRecord) -> None:
        if self._timers is None:
            return
        at = self.next_timed(record)
        if at is None:
            self._timers.pop(record.id, None)
        else:
            self._timers[record.id] = at

    def _past_deadline(self, record: TournamentRecord) -> bool:
        """Whether ``record``'s current round has passed its deadline with tables still playing."""
        if record.status is not TournamentStatus.RUNNING or not record.rounds:
            return False
        current = record.rounds[-1]
        deadline = record.deadline(current)
        return (
            deadline is not None
            and self._clock() >= deadline
            and any(t.result is None and t.match_id is not None for t in current.tables)
        )

    async def table_of_match(self, match_id: int) -> tuple[TournamentRecord, int, TableRecord] | None:
        """The tournament, round number and table that match ``match_id`` is played at; None for a match
        outside any tournament."""
        tid = await self.store.tournament_of_match(match_id)
        if tid is None:
            return None
        record = await self.store.get_tournament(tid)
        found = record.table_of_match(match_id)
        return None if found is None else (record, *found)

    async def on_match_finished(self, match_id: int) -> list[RoundReport]:
        """Hook for the front end: process the tournament this match belongs to, if any."""
        tid = await self.store.tournament_of_match(match_id)
        return [] if tid is None else await self.process(tid)

    async def drop(self, tournament_id: int, key: str) -> TournamentRecord:
        """Take a player out of future rounds; a computer finishes a match they are playing (its moves
        are made by ``play_tables``, never inside the command)."""
        async with self._locks(tournament_id):
            record = await self.store.get_tournament(tournament_id)
            entrant = record.entrant(key)
            if entrant.dropped:
                raise LobbyError(HOST.say("{player} has already been dropped", player=entrant.name))
            entrants = tuple(
                e.model_copy(update={"dropped": True}) if e.key == key else e for e in record.entrants
            )
            record = await self.store.save_tournament(
                record.model_copy(update={"entrants": entrants}), record.version
            )
            if entrant.user_id is not None:
                for table in open_tables(record):
                    if key in table.players and table.match_id is not None:
                        await self.host.resign(table.match_id, entrant.user_id, play_on=False)
            return record

    async def replace(
        self, tournament_id: int, key: str, user_id: int, name: str, by_user: int | None = None
    ) -> TournamentRecord:
        """Another person takes over ``key``'s place (results so far stay with the place), at the word of
        organiser ``by_user``; at a table still playing, the seat is handed over as ``/game replace``
        hands one over (``SeatOffers.hand_over``)."""
        async with self._locks(tournament_id):
            record = await self.store.get_tournament(tournament_id)
            old = record.entrant(key)
            if record.entrant_of_user(user_id) is not None:
                raise LobbyError(
                    HOST.say("{player} already plays in “{name}”", player=name, name=record.name)
                )
            for table in open_tables(record):
                if key in table.players and table.match_id is not None:
                    match = await self.host.match(table.match_id)
                    if match.status is MatchStatus.ACTIVE:
                        seat = seat_keys(record, match).index(key)
                        newcomer = Player(user_id=user_id, name=name, seat=seat)
                        organiser = by_user if by_user is not None else record.creator_id or 0
                        await self.host.offers.hand_over(match.id, seat, newcomer, organiser)
            new = old.model_copy(update={"user_id": user_id, "name": name, "bot": None, "dropped": False})
            entrants = tuple(new if e.key == key else e for e in record.entrants)
            return await self.store.save_tournament(
                record.model_copy(update={"entrants": entrants}), record.version
            )

    async def seat_computer(
        self, tournament_id: int, key: str, policy: str | None = None
    ) -> TournamentRecord:
        """A computer (``policy``, None: the game's strongest) plays ``key``'s seat at their current table
        (to unstick it; its moves are made by ``play_tables``); they stay entered."""
        async with self._locks(tournament_id):
            record = await self.store.get_tournament(tournament_id)
            entrant = record.entrant(key)
            for table in open_tables(record):
                if key in table.players and table.match_id is not None and entrant.user_id is not None:
                    await self.host.resign(table.match_id, entrant.user_id, policy, play_on=False)
                    break
            else:
                raise LobbyError(
                    HOST.say("{player} has no unfinished table in this round", player=entrant.name)
                )
        await self.process(tournament_id)
        return await self.store.get_tournament(tournament_id)

    async def advance_plan(self, tournament_id: int) -> AdvancePlan:
        """What ``advance`` would do now: the current round's unfinished tables, and at each the people
        whose seats a computer would take. Raises ``MatchClosed`` when the tournament is not running."""
        record = await self.store.get_tournament(tournament_id)
        if record.status is not TournamentStatus.RUNNING or not record.rounds:
            raise MatchClosed(HOST.say("“{name}” is not running", name=record.name))
        current = record.rounds[-1]
        deadline = record.deadline(current)
        tables = []
        for table in current.tables:
            if table.result is not None:
                continue
            people: tuple[str, ...] = ()
            if table.match_id is not None:
                match = await self.host.match(table.match_id)
                if match.status is MatchStatus.ACTIVE:
                    keys = seat_keys(record, match)
                    people = tuple(
                        keys[seat]
                        for seat in range(match.seat_count)
                        if (player := match.player_at(seat)) is not None
                        and player.user_id is not None
                        and player.bot is None
                    )
            tables.append(OpenTable(number=table.number, match_id=table.match_id, people=people))
        return AdvancePlan(
            tournament_id=record.id,
            round=current.round.number,
            deadline=deadline,
            deadline_passed=deadline is not None and self._clock() >= deadline,
            open_tables=tuple(tables),
        )

    async def advance(
        self, tournament_id: int, force: bool = False, confirmed: tuple[int, str] | None = None
    ) -> RoundReport:
        """Finish the current round now: computer players take the seats of people at unfinished tables
        (and ``play_tables`` plays those to their end, after which the next round begins).

        Allowed once the round's deadline has passed, or any time with ``force`` (an organiser's call);
        raises ``LobbyError`` naming the deadline otherwise. ``confirmed`` is the (round number,
        ``AdvancePlan.fingerprint``) an organiser agreed to: if the round or its tables changed since,
        ``StaleVersion`` is raised and nothing changes.
        """
        plan = await self.advance_plan(tournament_id)
        record = await self.store.get_tournament(tournament_id)
        if confirmed is not None:
            plan.check(*confirmed, record.name)
        if plan.deadline is not None and not plan.deadline_passed and not force:
            raise LobbyError(
                HOST.say(
                    "round {number} runs until {due} UTC",
                    number=plan.round,
                    due=f"{plan.deadline:%Y-%m-%d %H:%M}",
                ),
                ["force"],
            )
        for table in plan.open_tables:
            if not table.people or table.match_id is None:
                continue
            match = await self.host.match(table.match_id)
            for player in match.players:
                if player.user_id is not None and player.bot is None and match.status is MatchStatus.ACTIVE:
                    await self.host.resign(match.id, player.user_id, play_on=False)
                    match = await self.host.match(match.id)
        async with self._locks(tournament_id):
            return await self._settle(tournament_id, RoundReport(record))

    async def award(self, tournament_id: int, table_number: int, order: Sequence[str]) -> RoundReport:
        """An admin decides a stuck table: ``order`` lists its players best first (all of them)."""
        async with self._locks(tournament_id):
            record = await self.store.get_tournament(tournament_id)
            if record.status is not TournamentStatus.RUNNING or not record.rounds:
                raise MatchClosed(HOST.say("“{name}” is not running", name=record.name))
            current = record.rounds[-1]
            table = next((t for t in current.tables if t.number == table_number), None)
            if table is None or table.result is not None:
                open_numbers = [str(t.number) for t in current.tables if t.result is None]
                raise LobbyError(
                    HOST.say(
                        "table {table} has no open game in round {number}",
                        table=table_number,
                        number=current.round.number,
                    ),
                    open_numbers,
                )
            if sorted(order) != sorted(table.players):
                names = [record.name_of(k) for k in table.players]
                raise LobbyError(HOST.say("list every player of the table once, best first"), names)
            places = tuple(list(order).index(key) + 1 for key in table.players)
            result = TableResult(
                table=table.number, players=table.players, places=places, scores=(0,) * len(places)
            )
            # The decision is stored first, and ``_settle`` abandons a decided table's match still in play,
            # so a crash between the two never leaves a table without its result.
            record = await self._store_result(record, table.number, result, "award")
            return await self._settle(tournament_id, RoundReport(record))

    def standings(self, record: TournamentRecord, after_round: int | None = None) -> list[Standing]:
        """The standings now, or as they stood after round ``after_round``."""
        return standings_of(record, after_round)

    # ------------------------------------------------------------------------------ announcements

    @staticmethod
    def due_announcements(record: TournamentRecord, now: datetime | None = None) -> list[str]:
        """See ``engine.host.tournament_records.due_announcements``."""
        return due_announcements(record, now)

    async def announcements(self, tournament_id: int) -> tuple[TournamentRecord, list[str]]:
        """The tournament and its due announcements. A record from before announcements were recorded
        takes everything due now as announced (it was, as it happened), so nothing is posted twice."""
        async with self._locks(tournament_id):
            record = await self.store.get_tournament(tournament_id)
            if record.announced is None:
                past = tuple(self.due_announcements(record))
                record = await self.store.save_tournament(
                    record.model_copy(update={"announced": past}), record.version
                )
            return record, self.due_announcements(record, self._clock())

    async def mark_announced(self, tournament_id: int, key: str) -> TournamentRecord:
        """Record that announcement ``key`` went out (or was given up), so it is never due again."""

        def mark(record: TournamentRecord) -> TournamentRecord:
            done = record.announced or ()
            return record if key in done else record.model_copy(update={"announced": (*done, key)})

        return await self._change(tournament_id, mark)

    # ----------------------------------------------------------------------------- internals

    async def _settle(self, tournament_id: int, report: RoundReport) -> RoundReport:
        """Collect finished tables and start rounds until something waits for people, and note when the
        tournament next needs the clock."""
        report = await self._settle_rounds(tournament_id, report)
        self._watch(report.tournament)
        return report

    async def _settle_rounds(self, tournament_id: int, report: RoundReport) -> RoundReport:
        for _ in range(1000):
            record = await self.store.get_tournament(tournament_id)
            report.tournament = record
            if record.status is not TournamentStatus.RUNNING:
                return report
            if not record.rounds:  # stopped between going RUNNING and pairing round 1
                await self._start_round(record, report)
                continue
            record = await self._make_table_matches(record)
            for table in record.rounds[-1].tables:
                if table.decided_by == "award" and table.match_id is not None:
                    await self._abandon_quietly(table.match_id)  # an organiser decided it; play stops
                if table.result is not None or table.match_id is None:
                    continue
                match = await self.host.match(table.match_id)
                if match.status is MatchStatus.LOBBY:
                    if _computers_only(match):
                        continue  # played to its end by ``play_tables``, never inside a command
                    await self.host.start(match.id)
                    match = await self.host.match(match.id)
                outcome = self.host.outcome(match)
                if match.status is MatchStatus.FINISHED and outcome is not None:
                    seats = seat_keys(record, match)
                    result = TableResult.from_outcome(table.number, seats, outcome)
                    record = await self._store_result(record, table.number, result, "play")
            report.tournament = record
            current = record.rounds[-1]
            if any(t.result is None for t in current.tables):
                return report
            report.finished_rounds.append(current.round.number)
            if is_finished(record.config, record.keys, record.history(), record.dropped):
                report.tournament = await self.store.save_tournament(
                    record.model_copy(update={"status": TournamentStatus.FINISHED}), record.version
                )
                report.completed = True
                log.info("tournament %s finished", tournament_id)
                return report
            await self._start_round(record, report)
        raise EngineError(f"tournament {tournament_id} did not settle")

    async def _start_round(self, record: TournamentRecord, report: RoundReport) -> None:
        """Pair the next round and store it; its matches are made by the next ``_settle`` pass.

        The pairing is stored before any match exists, and each table's match is found again by its
        origin if made before a crash, so a restart at any point neither loses a round nor leaves an
        orphan match."""
        pairing = pair_round(record.config, record.keys, record.history(), record.dropped, seed=record.seed)
        tables = tuple(TableRecord(number=t.number, players=t.players) for t in pairing.tables)
        started = RoundRecord(round=pairing, tables=tables, started_at=self._clock())
        rounds = (*record.rounds, started)
        await self.store.save_tournament(record.model_copy(update={"rounds": rounds}), record.version)
        report.started_rounds.append(pairing.number)
        log.info("tournament %s: round %s paired at %s tables", record.id, pairing.number, len(tables))

    async def _make_table_matches(self, record: TournamentRecord) -> TournamentRecord:
        """Make the match of every table of the current round that has none yet, one table at a time."""
        current = record.rounds[-1]
        for table in current.tables:
            if table.match_id is not None or table.result is not None:
                continue
            match_id = await self._create_table_match(
                record, current.round.number, table.number, table.players
            )
            rounds = list(record.rounds)
            rounds[-1] = rounds[-1].model_copy(
                update={
                    "tables": tuple(
                        t.model_copy(update={"match_id": match_id}) if t.number == table.number else t
                        for t in rounds[-1].tables
                    )
                }
            )
            record = await self.store.save_tournament(
                record.model_copy(update={"rounds": tuple(rounds)}), record.version
            )
        return record

    async def _create_table_match(
        self, record: TournamentRecord, round_number: int, table_number: int, players: Sequence[str]
    ) -> int:
        """The table's match, made once: its origin names the table, so a second call (after a crash)
        finds the match already made and only seats whoever is still missing."""
        stream = (MATCH_STREAM << 32) | (round_number << 8) | table_number
        seed = Rng.from_seed(record.seed, stream).next_u64() >> 1
        match = await self.host.create_match(
            record.game,
            len(players),
            record.options,
            seed=seed,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            origin=f"tournament {record.id} round {round_number} table {table_number}",
            pace=record.pace,
        )
        if match.status is not MatchStatus.LOBBY:
            return match.id
        for key in joining_order(self._seated(record, round_number, players), seed):
            entrant = record.entrant(key)
            bot = entrant.bot or (self.host.strongest_policy(record.game) if entrant.dropped else None)
            name = entrant.name if entrant.bot or not entrant.dropped else f"{entrant.name}{COMPUTER_SUFFIX}"
            seated = any(
                (p.user_id is not None and p.user_id == entrant.user_id)
                or (p.user_id is None and entrant.user_id is None and p.name == name)
                for p in match.players
            )
            if not seated:
                match = await self.host.join(match.id, Player(user_id=entrant.user_id, name=name, bot=bot))
        return match.id

    @staticmethod
    def _seated(record: TournamentRecord, round_number: int, players: Sequence[str]) -> tuple[str, ...]:
        """A table's players in the seat order that evens out their seat advantage over the rounds (as
        the pairing gave them where the game's seats were never measured)."""
        edges = measured_edges(record.game)
        table_edges = edges(len(players))
        if table_edges is None:
            return tuple(players)
        earlier = [rnd for rnd in record.rounds if rnd.round.number < round_number]
        return seating(players, table_edges, carried_advantage(earlier, edges), first_seats(earlier))

    async def _store_result(
        self, record: TournamentRecord, number: int, result: TableResult, how: str
    ) -> TournamentRecord:
        rounds = list(record.rounds)
        last = rounds[-1]
        rounds[-1] = last.model_copy(
            update={
                "tables": tuple(
                    t.model_copy(update={"result": result, "decided_by": how}) if t.number == number else t
                    for t in last.tables
                )
            }
        )
        return await self.store.save_tournament(
            record.model_copy(update={"rounds": tuple(rounds)}), record.version
        )

    async def _abandon_quietly(self, match_id: int) -> None:
        with contextlib.suppress(MatchClosed):  # it may have ended on its own meanwhile
            await self.host.abandon(match_id, None, is_admin=True)

    async def _change(
        self, tournament_id: int, change: Callable[[TournamentRecord], TournamentRecord]
    ) -> TournamentRecord:
        async with self._locks(tournament_id):
            record = await self.store.get_tournament(tournament_id)
            return await self.store.save_tournament(change(record), record.version)


def _computers_only(match: MatchRecord) -> bool:
    """Whether only computers play ``match`` (nobody would wait for its moves)."""
    return len(match.players) == match.seat_count and all(p.bot is not None for p in match.players)
