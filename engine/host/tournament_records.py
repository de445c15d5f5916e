"""A tournament's records and what can be worked out from a record alone: its entrants, rounds and
tables, what ending a round now would do, and the store that keeps tournaments (``TournamentStore``)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from engine.core.contract import Frozen
from engine.core.errors import LobbyError, SetupError, StaleVersion
from engine.core.say import Say
from engine.host.clock import Pace, reminder_times
from engine.host.ports import MatchRecord
from engine.host.text import HOST
from engine.tournament import PlayedRound, Round, TableResult, TournamentConfig


class TournamentStatus(StrEnum):
    DRAFT = "draft"  # created, registration not open yet
    REGISTRATION = "registration"
    CLOSED = "closed"  # registration closed, not started
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


# A tournament's status as people read it.
TOURNAMENT_STATUS = {
    TournamentStatus.DRAFT: HOST.word("being prepared", "tournament"),
    TournamentStatus.REGISTRATION: HOST.word("open for registration", "tournament"),
    TournamentStatus.CLOSED: HOST.word("closed for registration", "tournament"),
    TournamentStatus.RUNNING: HOST.word("running", "tournament"),
    TournamentStatus.FINISHED: HOST.word("finished", "tournament"),
    TournamentStatus.CANCELLED: HOST.word("cancelled", "tournament"),
}


class Entrant(Frozen):
    """A tournament player. ``key`` is what pairings and standings see; it never changes."""

    key: str
    name: str
    user_id: int | None = None
    bot: str | None = None
    dropped: bool = False


class TableRecord(Frozen):
    number: int
    players: tuple[str, ...]  # entrant keys in seat order of the match
    match_id: int | None = None
    result: TableResult | None = None
    decided_by: str | None = None  # "play", "award" (an admin's decision)


class RoundRecord(Frozen):
    round: Round
    tables: tuple[TableRecord, ...]
    started_at: datetime | None = None


class TournamentDraft(Frozen):
    name: str
    game: str
    options: frozenset[str] = frozenset()
    config: TournamentConfig
    seed: int
    rated: bool = True
    deadline_hours: float | None = None
    pace: Pace = Pace.NONE  # the clock of the tables' matches
    guild_id: int | None = None
    channel_id: int | None = None
    creator_id: int | None = None


class TournamentRecord(TournamentDraft):
    id: int
    status: TournamentStatus = TournamentStatus.DRAFT
    version: int = 0
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[RoundRecord, ...] = ()
    # The announcements already posted (see ``TournamentHost.due_announcements``); None in records
    # written before announcements were recorded, whose past was announced as it happened.
    announced: tuple[str, ...] | None = None

    def entrant(self, key: str) -> Entrant:
        for entrant in self.entrants:
            if entrant.key == key:
                return entrant
        raise LobbyError(
            HOST.say("{player} is not in the tournament “{name}”", player=key, name=self.name),
            [e.name for e in self.entrants],
        )

    def entrant_of_user(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def keys(self) -> list[str]:
        return [e.key for e in self.entrants]

    @property
    def dropped(self) -> frozenset[str]:
        return frozenset(e.key for e in self.entrants if e.dropped)

    def history(self) -> list[PlayedRound]:
        """The rounds as the pure formats see them."""
        return [
            PlayedRound(round=r.round, results=tuple(t.result for t in r.tables if t.result is not None))
            for r in self.rounds
        ]

    def name_of(self, key: str) -> str:
        return next((e.name for e in self.entrants if e.key == key), key)

    def table_of_match(self, match_id: int) -> tuple[int, TableRecord] | None:
        """The round number and table whose match is ``match_id``; None when no table plays it."""
        for rnd in self.rounds:
            for table in rnd.tables:
                if table.match_id == match_id:
                    return rnd.round.number, table
        return None

    def deadline(self, rnd: RoundRecord) -> datetime | None:
        """When round ``rnd`` is due to end; None without a deadline."""
        if self.deadline_hours is None or rnd.started_at is None:
            return None
        return rnd.started_at + timedelta(hours=self.deadline_hours)


class OpenTable(Frozen):
    """A table of the current round still playing, and the people a computer would replace there."""

    number: int
    match_id: int | None = None
    people: tuple[str, ...] = ()  # entrant keys of the people still seated, in seat order


class AdvancePlan(Frozen):
    """What ending the current round now would do (see ``TournamentHost.advance_plan``)."""

    tournament_id: int
    round: int
    deadline: datetime | None = None
    deadline_passed: bool = False
    open_tables: tuple[OpenTable, ...] = ()

    @property
    def takes_seats(self) -> bool:
        """Whether ending the round now takes any person's seat."""
        return any(table.people for table in self.open_tables)

    @property
    def fingerprint(self) -> str:
        """A short digest of the round and of who would lose their seat: a confirmation given for one
        plan is refused once the tables change, so nobody is replaced on the strength of an old list."""
        tables = ";".join(f"{t.number}:{t.match_id}:{','.join(t.people)}" for t in self.open_tables)
        text = f"{self.tournament_id}/{self.round}/{tables}"
        return hashlib.sha256(text.encode()).hexdigest()[:10]

    def check(self, round_number: int, fingerprint: str, name: str) -> None:
        """Raise ``StaleVersion`` unless this is the plan of round ``round_number`` that ``fingerprint``
        was taken from: an organiser confirmed what they read, and nothing else."""
        if round_number != self.round:
            raise StaleVersion(
                HOST.say(
                    "round {number} of “{name}” is already over; ask again with /tournament advance",
                    number=round_number,
                    name=name,
                )
            )
        if fingerprint != self.fingerprint:
            raise StaleVersion(
                HOST.say(
                    "the tables of round {number} changed since you asked; "
                    "ask again with /tournament advance",
                    number=round_number,
                )
            )


# The server setting that names the role allowed to run tournaments.
ORGANISER_ROLE_SETTING = "tournament_role"


class TournamentStore(Protocol):
    """Durable tournaments; ``save`` is guarded by the version like match writes (``StaleVersion``)."""

    async def create_tournament(self, draft: TournamentDraft) -> TournamentRecord: ...

    async def get_tournament(self, tournament_id: int) -> TournamentRecord: ...

    async def list_tournaments(
        self, statuses: Sequence[TournamentStatus] = (), guild_id: int | None = None, limit: int = 50
    ) -> list[TournamentRecord]: ...

    async def save_tournament(self, record: TournamentRecord, expected_version: int) -> TournamentRecord: ...

    async def tournament_ids(self, statuses: Sequence[TournamentStatus]) -> list[int]:
        """Ids of the tournaments in ``statuses``, whether or not their records can be read."""
        ...

    async def tournament_of_match(self, match_id: int) -> int | None: ...

    async def setting(self, guild_id: int, key: str) -> str | None:
        """A server's setting (e.g. its organiser role), or None when unset."""
        ...

    async def set_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set (or with None, clear) a server's setting."""
        ...


@dataclass
class RoundReport:
    """What ``process`` did to one tournament, for the front end to announce."""

    tournament: TournamentRecord
    finished_rounds: list[int] = field(default_factory=list)
    started_rounds: list[int] = field(default_factory=list)
    completed: bool = False


def parse_points(text: str) -> dict[int, tuple[float, ...]] | None:
    """``"4=3,2,1,0; 3=2,1,0"`` -> {4: (3, 2, 1, 0), 3: (2, 1, 0)}; empty text -> None (the defaults).

    Raises ``SetupError`` showing the expected form.
    """
    if not text.strip():
        return None
    table: dict[int, tuple[float, ...]] = {}
    try:
        for part in text.split(";"):
            size, _, values = part.partition("=")
            table[int(size)] = tuple(float(v) for v in values.split(","))
    except ValueError:
        raise SetupError(f"cannot read the points {text!r}", ["4=3,2,1,0; 3=2,1,0"]) from None
    return table


def table_size_range(seat_counts: range, table_size: int | None) -> tuple[int, int, int]:
    """(min, max, preferred) table sizes: the game's range, preferring ``table_size`` or else the largest
    seat count up to 4. Raises ``SetupError`` for a size the game does not allow."""
    low, high = min(seat_counts), max(seat_counts)
    if table_size is None:
        table_size = max(n for n in seat_counts if n <= 4) if low <= 4 else low
    if table_size not in seat_counts:
        raise SetupError(
            f"tables of {table_size} are not possible in this game", [str(n) for n in seat_counts]
        )
    return low, high, table_size


def due_announcements(record: TournamentRecord, now: datetime | None = None) -> list[str]:
    """What should have been announced and was not yet, in order: ``r<N>-pairings`` once round N is
    paired, ``r<N>-half`` and ``r<N>-last`` (reminders to its tables still playing, given ``now``)
    once half its time is gone and when a tenth is left, ``r<N>-standings`` once its last result is
    in, and ``final`` once the tournament ends.

    Derived from the record alone, so a crash at any point loses no announcement, and one marked
    with ``mark_announced`` is never due again."""
    due = []
    for rnd in record.rounds:
        number = rnd.round.number
        if all(t.match_id is not None or t.result is not None for t in rnd.tables):
            due.append(f"r{number}-pairings")
        deadline = record.deadline(rnd)
        playing = any(t.result is None for t in rnd.tables)
        if now is not None and deadline is not None and rnd.started_at is not None and playing:
            half, last = reminder_times(rnd.started_at, deadline)
            # A late reminder gives way to the next one: the tables hear once how long is left.
            if half <= now < last:
                due.append(f"r{number}-half")
            elif last <= now < deadline:
                due.append(f"r{number}-last")
        if all(t.result is not None for t in rnd.tables):
            due.append(f"r{number}-standings")
    if record.status is TournamentStatus.FINISHED:
        due.append("final")
    done = set(record.announced or ())
    return [key for key in due if key not in done]


def next_timed(record: TournamentRecord) -> datetime | None:
    """When ``record``'s current round next needs the clock: a reminder to its tables still playing,
    or its deadline; None when nothing will be due."""
    if record.status is not TournamentStatus.RUNNING or not record.rounds:
        return None
    rnd = record.rounds[-1]
    deadline = record.deadline(rnd)
    if deadline is None or rnd.started_at is None or all(t.result is not None for t in rnd.tables):
        return None
    half, last = reminder_times(rnd.started_at, deadline)
    done = set(record.announced or ())
    number = rnd.round.number
    if f"r{number}-last" in done:
        return deadline
    return last if f"r{number}-half" in done else half


def seat_keys(record: TournamentRecord, match: MatchRecord) -> tuple[str, ...]:
    """The entrant keys of a table's match in seat order (the host shuffles seats)."""
    keys = []
    for seat in range(match.seat_count):
        player = match.player_at(seat)
        assert player is not None
        entrant = next(
            e
            for e in record.entrants
            if (player.user_id is not None and e.user_id == player.user_id)
            or (player.user_id is None and e.user_id is None and e.name == player.name)
        )
        keys.append(entrant.key)
    return tuple(keys)


def open_tables(record: TournamentRecord) -> list[TableRecord]:
    """The tables of the current round still without a result (none unless the tournament runs)."""
    if record.status is not TournamentStatus.RUNNING or not record.rounds:
        return []
    return [t for t in record.rounds[-1].tables if t.result is None]


def registration_state(record: TournamentRecord) -> Say:
    """Registration as people read it when it is not open."""
    if record.status is TournamentStatus.DRAFT:
        return HOST.word("not open yet", "registration")
    return HOST.word("closed", "registration")


def opened(record: TournamentRecord) -> TournamentRecord:
    """``record`` open for registration; ``LobbyError`` unless it is a draft or closed."""
    if record.status not in (TournamentStatus.DRAFT, TournamentStatus.CLOSED):
        raise LobbyError(
            HOST.say(
                "“{name}” is {status}; registration cannot open",
                name=record.name,
                status=TOURNAMENT_STATUS[record.status],
            )
        )
    return record.model_copy(update={"status": TournamentStatus.REGISTRATION})


def closed(record: TournamentRecord) -> TournamentRecord:
    """``record`` closed for registration; ``LobbyError`` unless it is open."""
    if record.status is not TournamentStatus.REGISTRATION:
        raise LobbyError(HOST.say("registration for “{name}” is not open", name=record.name))
    return record.model_copy(update={"status": TournamentStatus.CLOSED})
