"""What the game host needs from the outside world, as protocols; ``data/`` implements the store."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from engine.core.contract import Frozen
from engine.core.replay import LoggedAction
from engine.core.say import Say
from engine.host.clock import ClockChange, Pace, SeatClock
from engine.host.watch import MatchVersions

# Judges a person's absences (start, end) as stored and raises to refuse a new one; pure, so a store
# may run it inside its transaction.
AbsenceCheck = Callable[[Sequence[tuple[datetime, datetime]]], None]


class MatchStatus(StrEnum):
    LOBBY = "lobby"  # players join; no state yet
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class Player(Frozen):
    """A participant. Human players have a ``user_id``; computer players have a ``bot`` policy name."""

    user_id: int | None = None
    name: str
    bot: str | None = None
    seat: int | None = None  # assigned when the match starts
    resigned: bool = False  # gave up the seat to a computer: rated last
    absent: bool = False  # a computer keeps the seat after timeouts, until the player returns


class NewMatch(Frozen):
    """Everything needed to open a lobby."""

    game: str
    options: frozenset[str] = frozenset()
    seat_count: int
    seed: int
    creator_id: int | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    origin: str | None = None  # made by the bot for this purpose (e.g. a tournament table), at most once
    pace: Pace = Pace.NONE
    least_reliability: float = 0.0  # the share of turns played in time asked of those who join (0: none)


class MatchRecord(Frozen):
    """A match as stored. ``version`` counts committed changes; buttons carry it to detect staleness."""

    id: int
    game: str
    options: frozenset[str]
    seat_count: int
    seed: int
    status: MatchStatus
    version: int
    creator_id: int | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    players: tuple[Player, ...] = ()
    state_json: str | None = None  # latest snapshot; None in the lobby
    result_json: str | None = None  # the Outcome once finished
    created_at: str
    updated_at: str
    pace: Pace = Pace.NONE
    least_reliability: float = 0.0  # the share of turns played in time asked of those who join (0: none)

    def seat_of(self, user_id: int) -> int | None:
        for player in self.players:
            if player.user_id == user_id:
                return player.seat
        return None

    def player_at(self, seat: int) -> Player | None:
        for player in self.players:
            if player.seat == seat:
                return player
        return None

    def seat_names(self) -> list[str]:
        """The players' names in seat order ("S3" for an empty seat)."""
        return [p.name if (p := self.player_at(s)) else f"S{s + 1}" for s in range(self.seat_count)]


class TimedAction(Frozen):
    """One kept action of a match as stored, with the version it made and when it was committed."""

    version: int
    action: LoggedAction
    at: datetime


class SeatResult(Frozen):
    """A person's seat in a match, with the match's stored result (None until it is finished) and the
    seats whose players resigned."""

    match_id: int
    game: str
    seat: int
    result_json: str | None = None
    resigned: frozenset[int] = frozenset()


class TurnLines(Frozen):
    """One earlier turn's post: the seats it called to act and its lines."""

    seats: tuple[int, ...]
    lines: tuple[str, ...]


class LivePost(Frozen):
    """The thread post showing a match's current turn: edited in place while ``to_act`` keeps acting."""

    match_id: int
    channel_id: int
    message_id: int
    to_act: tuple[int, ...]  # empty once no later notice may continue the post (a start or a final post)
    lines: tuple[str, ...]  # the body lines shown so far
    version: int
    # The latest earlier turns, oldest first: who was to act and what their post said; for the recap a
    # player gets of the moves made since their own last turn.
    history: tuple[TurnLines, ...] = ()


class LivePrivate(Frozen):
    """A seat's living private message about a match: its hand, edited in place as it changes, with the
    turn's controls while ``turn``; ``text`` is what it says, for the edit that takes the controls off."""

    match_id: int
    seat: int
    channel_id: int
    message_id: int
    version: int
    turn: bool
    text: str
    image: bool = False  # it shows the hand's image (a call to play sent on its own does not)
    # Whom it was sent to: a seat that changed hands starts a message of its own for its new person, even
    # should a send to the one who left it finish after the change (None: sent before this was kept).
    user_id: int | None = None


class MatchSummary(Frozen):
    """Who a match belongs to, readable even when the rest of its row is not (see ``MatchStore``)."""

    id: int
    guild_id: int | None = None
    creator_id: int | None = None
    version: int
    status: str
    user_ids: frozenset[int] = frozenset()


class Scope(Frozen):
    """Where a request comes from: a server (``guild_id``) or a user's direct messages (``guild_id``
    None). A server sees only its own matches; direct messages see only the matches the user plays in.
    """

    user_id: int
    guild_id: int | None = None

    def admits(self, match: MatchRecord | MatchSummary) -> bool:
        """Whether a request from here may see or act on ``match``."""
        if self.guild_id is None:
            if isinstance(match, MatchSummary):
                return self.user_id in match.user_ids
            return any(p.user_id == self.user_id for p in match.players)
        return match.guild_id == self.guild_id


class DeliveryDraft(Frozen):
    """A notice to send after a commit. ``seat`` is ``None`` for the match thread (public)."""

    seat: int | None = None
    payload: str  # JSON the notifier understands


class Delivery(DeliveryDraft):
    """A stored notice; ``pending`` until whoever delivered it marks it sent."""

    id: int
    match_id: int
    version: int
    attempts: int = 0


class StoredBoard(Frozen):
    """What a store holds for the state of a match at one version: the state JSON at ``version`` (a
    checkpoint, or the latest state) and the actions that lead from it to the version asked for."""

    version: int
    state_json: str
    then: tuple[LoggedAction, ...] = ()


@dataclass
class MatchListing:
    """A listing of matches, and why each row left out of it cannot be read (by match id)."""

    matches: list[MatchRecord] = field(default_factory=list)
    unreadable: dict[int, str] = field(default_factory=dict)


class SettingsStore(Protocol):
    """People's and servers' settings (language, notifications, …), by key."""

    async def get(self, scope: str, owner: int, key: str) -> str | None:
        """The ``key`` setting of a ``"user"`` or ``"guild"``, or None when unset."""
        ...

    async def set(self, scope: str, owner: int, key: str, value: str | None) -> None:
        """Set (or with None, clear) the ``key`` setting of a ``"user"`` or ``"guild"``."""
        ...


class ListedSettings(SettingsStore, Protocol):
    """Settings that also tell who set a key (the servers with a league, say)."""

    async def owners_with(self, scope: str, key: str) -> list[int]:
        """The users or servers (``scope``) that have set ``key``, in order."""
        ...

    async def swap(self, scope: str, owner: int, key: str, expected: str | None, value: str) -> bool:
        """Set ``key`` to ``value`` only if it holds ``expected`` (None: unset), in one step that no other
        process can come between; whether it did."""
        ...


class SeatOffer(Frozen):
    """A seat a computer holds, offered to a new person (``/game replace``); ``taken_by`` once someone
    took it, at ``taken_version``, from ``leaver`` (who had left the seat, resigning or timing out)."""

    id: int
    match_id: int
    seat: int
    offered_by: int
    offered_version: int
    taken_by: int | None = None
    taken_version: int | None = None
    taken_at: datetime | None = None
    leaver_id: int | None = None
    leaver_name: str | None = None
    leaver_resigned: bool = False


class SeatOfferStore(Protocol):
    """The seats offered to new people, and who took them."""

    async def offer_seat(self, match_id: int, seat: int, offered_by: int, offered_version: int) -> SeatOffer:
        """Record an offer of ``seat``; raises ``MatchNotFound``."""
        ...

    async def seat_offer(self, offer_id: int) -> SeatOffer | None:
        """The offer ``offer_id``, None when there is none."""
        ...

    async def seat_offers(self, match_id: int) -> list[SeatOffer]:
        """Every offer of ``match_id``, in the order they were made."""
        ...

    async def in_tournament(self, match_id: int) -> bool:
        """Whether ``match_id`` is a tournament's table."""
        ...

    async def take_seat(
        self,
        offer: SeatOffer,
        expected_version: int,
        newcomer: Player,
        leaver: Player,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """``newcomer`` takes the offered seat from ``leaver`` in one transaction: the offer is marked
        taken at the new version, the seat's player replaced, the seat's last image forgotten (the
        leaver's living private message stays theirs: see ``LivePrivate.user_id``), ``deliveries`` queued
        and ``clocks`` written. Raises ``StaleVersion`` when the match moved on or the offer was taken
        already, ``LobbyError`` when the newcomer holds another seat, ``MatchClosed`` unless the match is
        active."""
        ...


class MatchStore(SeatOfferStore, Protocol):
    """Durable storage for matches. Every write is one transaction; writes that change a started match
    are guarded by its version and raise ``StaleVersion`` when another write got there first.
    Reads raise ``MatchNotFound`` for an unknown id and ``CorruptRecord`` for rows that cannot be read.
    """

    # Told of each new version of a match once the write that made it is committed.
    versions: MatchVersions

    def hearing_others(self) -> AbstractAsyncContextManager[object]:
        """Within the block, ``versions`` is told as well of the versions other processes write to the
        same database."""
        ...

    async def create_match(self, draft: NewMatch, creator: Player | None = None) -> MatchRecord: ...

    async def get_match(self, match_id: int) -> MatchRecord: ...

    async def list_matches(
        self,
        statuses: Sequence[MatchStatus] = (),
        guild_id: int | None = None,
        limit: int = 50,
        user_id: int | None = None,
        thread_id: int | None = None,
    ) -> list[MatchRecord]:
        """Newest first, filtered by status, guild, a player's user id, or the match thread."""
        ...

    async def survey_matches(
        self,
        statuses: Sequence[MatchStatus] = (),
        guild_id: int | None = None,
        limit: int = 50,
        user_id: int | None = None,
        thread_id: int | None = None,
        finished_by_end: bool = False,
    ) -> MatchListing:
        """Like ``list_matches``, with the problems of the rows that cannot be read, by match id.
        ``finished_by_end``: finished matches only (``statuses`` aside), the last to end first."""
        ...

    async def add_player(self, match_id: int, expected_version: int, player: Player) -> MatchRecord: ...

    async def remove_player(self, match_id: int, expected_version: int, user_id: int) -> MatchRecord: ...

    async def replace_player(
        self,
        match_id: int,
        expected_version: int,
        seat: int,
        player: Player,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """Put ``player`` in ``seat`` of a started match (e.g. a computer taking over); bumps the version,
        queues ``deliveries`` at the new version and writes ``clocks``."""
        ...

    async def set_thread(self, match_id: int, thread_id: int) -> None: ...

    async def start_match(
        self,
        match_id: int,
        expected_version: int,
        players: Sequence[Player],
        state_json: str,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """Seat ``players`` (each with its ``seat``), store the opening snapshot, go ACTIVE and start
        the ``clocks``."""
        ...

    async def commit_action(
        self,
        match_id: int,
        expected_version: int,
        action: LoggedAction,
        state_json: str,
        status: MatchStatus = MatchStatus.ACTIVE,
        result_json: str | None = None,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """Append ``action`` and its resulting snapshot, bump the version, queue ``deliveries``, write
        the ``clocks`` the move changed."""
        ...

    async def close_match(
        self,
        match_id: int,
        expected_version: int,
        status: MatchStatus,
        result_json: str | None = None,
        deliveries: Sequence[DeliveryDraft] = (),
    ) -> MatchRecord:
        """Finish or abandon a match without an action (resign, abandon, admin decision)."""
        ...

    async def abandon_unreadable(self, match_id: int, expected_version: int) -> None:
        """Abandon a match whose row cannot be read in full, by its version alone."""
        ...

    async def action_log(self, match_id: int) -> list[LoggedAction]:
        """The actions not taken back, in the order played: replaying them gives the snapshot."""
        ...

    async def last_action_version(self, match_id: int, seat: int) -> int | None:
        """The version of ``seat``'s latest action not taken back (None: there is none)."""
        ...

    async def action_seats(
        self, match_id: int, upto: int | None = None, latest: int | None = None
    ) -> list[tuple[int, int]]:
        """(version, seat) of the actions not taken back, in order; with ``upto``, those at that version
        or before; with ``latest``, the last ``latest`` of those only."""
        ...

    async def action_at(self, match_id: int, version: int) -> LoggedAction | None:
        """The action that made ``version`` of the match, if an action did and it was not taken back."""
        ...

    async def board_at(self, match_id: int, version: int) -> StoredBoard:
        """The stored state nearest at or before ``version`` and the actions after it up to ``version``."""
        ...

    async def pending_deliveries(self, limit: int = 100) -> list[Delivery]: ...

    async def pending_by_destination(
        self, destinations: int = 50, per_destination: int = 20, skip: Collection[tuple[int, int | None]] = ()
    ) -> list[list[Delivery]]:
        """Pending deliveries grouped by destination (match thread, or one seat), each group in order;
        destinations in ``skip`` are passed over. Unreadable rows are settled as failed."""
        ...

    async def mark_undeliverable(self, delivery_id: int, reason: str) -> None:
        """Give a pending delivery up at once."""
        ...

    async def match_ids(
        self, statuses: Sequence[MatchStatus], limit: int = 100_000, after: int = 0
    ) -> list[int]:
        """Ids above ``after`` of the matches in ``statuses``, oldest first, whether or not their rows can
        be read."""
        ...

    async def match_summary(self, match_id: int) -> MatchSummary:
        """Who a match belongs to, even when its row cannot be read in full; ``MatchNotFound``."""
        ...

    async def mark_delivered(self, delivery_id: int) -> None: ...

    async def mark_failed(self, delivery_id: int, error: str) -> None: ...

    async def seat_clocks(self, match_id: int) -> list[SeatClock]: ...

    async def due_clocks(self, now: datetime, limit: int = 100) -> list[SeatClock]:
        """The seat clocks whose reminder or deadline has fallen by ``now``, the earliest first."""
        ...

    async def next_clock_due(self) -> datetime | None: ...

    async def settle_clock(self, old: SeatClock, new: SeatClock) -> bool:
        """Write ``new`` over ``old`` unless the row changed since ``old`` was read (then False)."""
        ...

    async def timeouts_of(self, user_id: int, guild_id: int | None = None) -> int: ...

    async def absences(
        self, user_ids: Sequence[int], ending_after: datetime
    ) -> dict[int, list[tuple[datetime, datetime]]]: ...

    async def begin_absence(
        self,
        user_id: int,
        starts: datetime,
        ends: datetime,
        check: AbsenceCheck | None = None,
        considering: datetime | None = None,
    ) -> list[SeatClock]:
        """Record an absence and move the user's running turns on by its length, in one transaction
        that no other absence of the user's runs beside; ``check`` is first given the user's absences
        ending after ``considering`` (default ``starts``) and raises to refuse, changing nothing."""
        ...

    async def end_absence(self, user_id: int, now: datetime) -> list[SeatClock] | None: ...

    async def kept_actions(self, match_id: int, latest: int | None = None) -> list[tuple[int, LoggedAction]]:
        """(version, action) of every action not taken back, in the order played; with ``latest``, of
        the last ``latest`` of them only."""
        ...

    async def undo_actions(
        self,
        match_id: int,
        expected_version: int,
        versions: Sequence[int],
        state_json: str,
        deliveries: Sequence[DeliveryDraft] = (),
        clocks: ClockChange | None = None,
    ) -> MatchRecord:
        """Mark the latest actions at ``versions`` void (kept, never deleted) and commit a new version
        whose snapshot is ``state_json``, the state before them; queue ``deliveries`` at it and write
        the ``clocks`` it moves."""
        ...

    async def seat_results(
        self, user_id: int, guild_id: int | None = None, limit: int = 50, started: bool = False
    ) -> list[SeatResult]:
        """``user_id``'s seats in their ``limit`` latest finished matches (with ``started``, every match
        that started: being played, finished or abandoned), on the server ``guild_id`` only when given,
        the last changed first."""
        ...

    async def timed_logs(self, match_ids: Sequence[int]) -> dict[int, list[TimedAction]]:
        """The kept actions of each of ``match_ids`` in the order played, with when each was committed
        (a match unknown or without actions maps to an empty list)."""
        ...


class Notice(Frozen):
    """The payload of a delivery: what to tell the match thread (``seat`` None) or one seat.

    The board or hand to show is the snapshot at the delivery's ``version``, seen through
    ``view(state, seat)``; the notice itself carries only text and who acts next.
    """

    lines: tuple[str, ...] = ()  # the engine's log lines in notation (the CLI demo, older notices)
    headline: str | None = None
    to_act: tuple[int, ...] = ()
    # What a person reads, translated per recipient: the headline and one sentence per line.
    heading: Say | None = None
    says: tuple[Say, ...] = ()
    finished: bool = False
    everyone: bool = False  # mention every player (the first post of a match)
    personal: bool = False  # for the person even while a computer keeps their seat (their timeouts)
    # A move taken back: by whom (they are at the table, so nobody calls them), and who had been called
    # to the turn it ends (they are not called again when it comes back to them).
    undone_by: int | None = None
    recalled: tuple[int, ...] = ()
    # The same players were to act before the move it tells of: their turn goes on, so nobody is called
    # again, whichever of the thread and the private messages is sent first.
    turn_goes_on: bool = False


def payload(notice: Notice) -> str:
    """A notice as the outbox stores it (unset fields left out: sentences nest deeply)."""
    return notice.model_dump_json(exclude_none=True)


class Notifier(Protocol):
    """Sends one stored delivery (thread post or private message); raises on failure."""

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None: ...
