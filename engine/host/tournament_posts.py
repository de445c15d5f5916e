"""What a front end posts about tournaments of its own accord, planned by the host: which announcement a
due key is (pairings, a reminder, standings, the final one) and the nonce that keeps it single, which
tables' matches still need a thread, the tables to remind and whom, who hears their pairings in private
and whom the channel's post must still call. Also the look-ups a command starts from: the tournament a
server means, the entrant a person plays as, the players an organiser named, and whether a person may run
the server's tournaments. A front end only reads its own people and channels and sends what it is given.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from engine.core.errors import EngineError, LobbyError, MatchNotFound
from engine.core.say import Say
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.text import HOST
from engine.host.tournament_records import (
    TOURNAMENT_STATUS,
    Entrant,
    RoundRecord,
    TableRecord,
    TournamentRecord,
    TournamentStatus,
)
from engine.host.tournament_words import table_of
from engine.host.tournaments import TournamentHost

log = logging.getLogger(__name__)

# The longest nonce a message may carry (Discord's).
NONCE_LIMIT = 25


# ------------------------------------------------------------------------------ announcements


@dataclass(frozen=True, slots=True)
class Announcement:
    """One due announcement (see ``TournamentHost.due_announcements``): ``kind`` is "pairings",
    "reminder", "standings" or "final"; ``round`` the round it is about (None for the final one);
    ``nonce`` the same on every try of it, so a post is kept single even when the front end stopped
    between posting it and recording that it did."""

    key: str
    kind: str
    round: int | None
    nonce: str


def announced_round(key: str) -> int:
    """The round an announcement key such as ``r2-pairings`` is about."""
    return int(key.partition("-")[0].removeprefix("r"))


def announcement_nonce(record: TournamentRecord, key: str) -> str:
    """The same on every try of one announcement, within a nonce's length."""
    return f"bt{record.id}-{key}"[:NONCE_LIMIT]


def pairing_nonce(record: TournamentRecord, number: int, user_id: int) -> str:
    """The same on every try of one player's pairing message (see ``announcement_nonce``), within a
    nonce's length."""
    digest = hashlib.sha256(f"{record.id}:{number}:{user_id}".encode()).hexdigest()
    return f"bp{digest[:20]}"


def reminder_nonce(announcement: Announcement, table: int) -> str:
    """The nonce of a reminder's post at one table."""
    return f"{announcement.nonce}-{table}"[:NONCE_LIMIT]


def plan_announcement(record: TournamentRecord, key: str) -> Announcement:
    """What the due announcement ``key`` is."""
    nonce = announcement_nonce(record, key)
    if key == "final":
        return Announcement(key, "final", None, nonce)
    number = announced_round(key)
    if key.endswith(("-half", "-last")):
        kind = "reminder"
    elif key.endswith("-standings"):
        kind = "standings"
    else:
        kind = "pairings"
    return Announcement(key, kind, number, nonce)


def round_of(record: TournamentRecord, number: int) -> RoundRecord:
    """Round ``number`` of ``record``."""
    return next(r for r in record.rounds if r.round.number == number)


class ChannelLost(Exception):
    """The tournament's channel no longer takes the front end's posts: ``deleted``, or a permission
    taken away."""

    def __init__(self, deleted: bool, reason: object = None) -> None:
        super().__init__(str(reason) if reason is not None else "the channel refuses posts")
        self.deleted = deleted


class Announcer(Protocol):
    """What a front end does with the announcements ``publish`` hands it."""

    async def reach(self, record: TournamentRecord) -> None:
        """Find the tournament's channel; ``ChannelLost`` when it is gone or refuses the front end."""
        ...

    async def tell_pairings(self, record: TournamentRecord, rnd: RoundRecord, open_threads: bool) -> set[int]:
        """Tell each person of round ``rnd`` in private where they play (with ``open_threads``, opening the
        tables' threads first so they are linked); returns the user ids reached."""
        ...

    async def announce(self, record: TournamentRecord, announcement: Announcement, reached: set[int]) -> None:
        """Post ``announcement`` in the tournament's channel (a round's pairings calling the people not in
        ``reached``); ``ChannelLost`` when the channel refuses it."""
        ...

    async def channel_lost(self, record: TournamentRecord, lost: ChannelLost) -> None:
        """Tell the tournament's organiser that its channel no longer takes the posts."""
        ...


async def publish(tournaments: TournamentHost, tournament_id: int, announcer: Announcer) -> None:
    """Hand ``announcer`` the tournament's due announcements in order, recording each as it goes out. A
    round's pairings reach its players in private first, so the channel's post calls only the others.

    When the channel is lost, the organiser is told and the announcements are given up, but the players
    still hear their pairings in private; the tournament goes on either way. Any other failure is left to
    the caller, and the announcements not recorded are due again on the next try."""
    record, due = await tournaments.announcements(tournament_id)
    if due and record.channel_id is None:  # made outside a chat: nowhere to post
        for key in due:
            record = await tournaments.mark_announced(tournament_id, key)
        return
    told: set[str] = set()
    try:
        if due:
            await announcer.reach(record)
        for key in due:
            announcement = plan_announcement(record, key)
            reached: set[int] = set()
            if announcement.kind == "pairings":
                assert announcement.round is not None
                reached = await announcer.tell_pairings(record, round_of(record, announcement.round), True)
                told.add(key)
            await announcer.announce(record, announcement, reached)
            record = await tournaments.mark_announced(tournament_id, key)
    except ChannelLost as lost:
        log.warning("tournament %s: its channel refuses posts: %s", record.id, lost)
        await announcer.channel_lost(record, lost)
        for key in tournaments.due_announcements(record):
            if key.endswith("-pairings") and key not in told:  # the players still hear where they play
                await announcer.tell_pairings(record, round_of(record, announced_round(key)), False)
            record = await tournaments.mark_announced(tournament_id, key)


# ------------------------------------------------------------------------------ the tables' threads


async def table_matches(
    tournaments: TournamentHost, rnd: RoundRecord
) -> list[tuple[TableRecord, MatchRecord]]:
    """Each table of round ``rnd`` with its match; a match that cannot be read is left out (it opens its
    thread, or moves to the channel, when its first board is posted)."""
    found = []
    for table in rnd.tables:
        if table.match_id is None:
            continue
        try:
            found.append((table, await tournaments.host.match(table.match_id)))
        except EngineError as exc:
            log.warning("match %s: no thread to link from the pairings: %s", table.match_id, exc)
    return found


async def threadless(tournaments: TournamentHost, rnd: RoundRecord) -> list[MatchRecord]:
    """The matches of round ``rnd``'s tables that have no thread yet, for the front end to open one so
    the pairings can link every table."""
    return [match for _, match in await table_matches(tournaments, rnd) if match.thread_id is None]


async def table_threads(tournaments: TournamentHost, rnd: RoundRecord) -> dict[int, int]:
    """The thread of each table's match, by table number; a table without one is left out."""
    return {
        table.number: match.thread_id
        for table, match in await table_matches(tournaments, rnd)
        if match.thread_id is not None
    }


async def match_threads(tournaments: TournamentHost, match_ids: Sequence[int | None]) -> dict[int, int]:
    """The thread of each of ``match_ids`` that has one, by match id."""
    threads: dict[int, int] = {}
    for match_id in match_ids:
        if match_id is not None and (thread := (await tournaments.host.match(match_id)).thread_id):
            threads[match_id] = thread
    return threads


@dataclass(frozen=True, slots=True)
class Reminder:
    """A table still playing when its round's reminder is due: its thread and the people seated there."""

    table: int
    thread_id: int
    people: tuple[int, ...]


async def tables_to_remind(
    tournaments: TournamentHost, record: TournamentRecord, number: int
) -> tuple[datetime | None, list[Reminder]]:
    """When round ``number`` ends and the tables to remind of it: those with a thread whose match is
    still being played, with the people (user ids) still seated there. None and no table when the
    round has no deadline."""
    rnd = round_of(record, number)
    deadline = record.deadline(rnd)
    if deadline is None:
        return None, []
    threads = await table_threads(tournaments, rnd)
    tables = []
    for table in rnd.tables:
        thread_id = threads.get(table.number)
        if table.result is not None or thread_id is None or table.match_id is None:
            continue
        match = await tournaments.host.match(table.match_id)
        if match.status is not MatchStatus.ACTIVE:
            continue
        people = tuple(p.user_id for p in match.players if p.user_id is not None and p.bot is None)
        tables.append(Reminder(table.number, thread_id, people))
    return deadline, tables


# ------------------------------------------------------------------------------ the pairings


def pairing_recipients(
    record: TournamentRecord, rnd: RoundRecord
) -> list[tuple[Entrant, TableRecord | None]]:
    """The people told their pairings of round ``rnd`` in private, with their table (None: a bye): every
    person still in the tournament who plays the round or sits it out with a bye."""
    told = []
    for entrant in record.entrants:
        if entrant.user_id is None or entrant.bot is not None or entrant.dropped:
            continue
        table = table_of(rnd, entrant.key)
        if table is None and entrant.key not in rnd.round.byes:
            continue
        told.append((entrant, table))
    return told


def unreached(record: TournamentRecord, rnd: RoundRecord, reached: Collection[int]) -> list[int]:
    """The people of round ``rnd`` (user ids) whom no private message reached: the channel's post calls
    them instead, so nobody is called twice."""
    playing = {key for table in rnd.tables for key in table.players} | set(rnd.round.byes)
    return [
        e.user_id
        for e in record.entrants
        if e.key in playing and e.user_id is not None and e.bot is None and e.user_id not in reached
    ]


# ------------------------------------------------------------------------------ look-ups and guards


async def tournament_here(
    tournaments: TournamentHost, guild_id: int | None, tournament_id: int
) -> TournamentRecord:
    """The tournament numbered ``tournament_id`` if it belongs to server ``guild_id``.

    Raises ``MatchNotFound`` with the same words whether it does not exist or belongs to another
    server, so an admin of one server is nobody on another.
    """
    missing = MatchNotFound(f"there is no tournament #{tournament_id} here")
    if guild_id is None or tournament_id not in range(1, 2**63):
        raise missing
    try:
        record = await tournaments.get(tournament_id)
    except MatchNotFound:
        raise missing from None
    if record.guild_id != guild_id:
        raise missing
    return record


async def find_tournament(
    tournaments: TournamentHost, guild_id: int | None, tournament_id: int | None, finished: bool = False
) -> TournamentRecord:
    """The tournament numbered ``tournament_id`` on server ``guild_id``, else the server's one tournament
    under way. With ``finished``, when none is under way, the one that ended last. ``LobbyError`` naming
    the tournaments under way when there are several."""
    if tournament_id is not None:
        return await tournament_here(tournaments, guild_id, tournament_id)
    if guild_id is None:
        raise LobbyError(HOST.say("tournaments are run on servers; use this command in the server's channel"))
    listed = await tournaments.of_server(guild_id, limit=25)
    live = [r for r in listed if r.status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)]
    if len(live) == 1:
        return live[0]
    ended = [r for r in listed if r.status is TournamentStatus.FINISHED]
    if finished and not live and ended:
        return ended[0]  # listed newest first
    if live:
        raise LobbyError(
            HOST.say("name the tournament with its number"),
            [f"#{r.id} {r.name} ({r.status.value})" for r in live],
        )
    if finished:
        raise LobbyError(HOST.say("there is no tournament on this server yet"))
    raise LobbyError(HOST.say("there is no open tournament on this server"))


async def tournament_choices(
    tournaments: TournamentHost, guild_id: int | None, typed: str
) -> list[tuple[int, Say, str]]:
    """The server's tournaments whose name or number holds what was typed, newest first, at most 25:
    each as its number, its status and "#number name"."""
    if guild_id is None:
        return []
    wanted = typed.strip().lower().lstrip("#")
    choices = []
    for record in await tournaments.of_server(guild_id, limit=50):
        if wanted and wanted not in record.name.lower() and wanted != str(record.id):
            continue
        choices.append((record.id, TOURNAMENT_STATUS[record.status], f"#{record.id} {record.name}"))
    return choices[:25]


def entrant_for(record: TournamentRecord, user_id: int, name: str) -> Entrant:
    """The entrant the person ``user_id`` (called ``name``) plays as; ``LobbyError`` if they are not in
    the tournament."""
    entrant = record.entrant_of_user(user_id)
    if entrant is None:
        raise LobbyError(HOST.say("{name} does not play in {tournament}", name=name, tournament=record.name))
    return entrant


def named_order(record: TournamentRecord, order: str) -> list[str]:
    """The entrant keys of the comma-separated player names ``order`` (any case), in its order;
    ``LobbyError`` listing the players when a name is unknown."""
    by_name = {e.name.lower(): e.key for e in record.entrants}
    names = [n.strip().lower() for n in order.split(",") if n.strip()]
    unknown = [n for n in names if n not in by_name]
    if unknown:
        said = HOST.say(
            "no player of {tournament} is called {names}", tournament=record.name, names=", ".join(unknown)
        )
        raise LobbyError(said, [e.name for e in record.entrants])
    return [by_name[n] for n in names]


async def may_organise(
    tournaments: TournamentHost, guild_id: int | None, admin: bool, roles: Collection[int]
) -> bool:
    """Whether a person may run server ``guild_id``'s tournaments: its admins (``admin``), and members
    holding (among ``roles``) the role the server chose for tournaments."""
    if admin:
        return True
    if guild_id is None:
        return False
    role_id = await tournaments.organiser_role(guild_id)
    return role_id is not None and role_id in roles


async def require_organiser(
    tournaments: TournamentHost, guild_id: int | None, admin: bool, roles: Collection[int]
) -> None:
    """``LobbyError`` unless the person may run the server's tournaments (see ``may_organise``)."""
    if await may_organise(tournaments, guild_id, admin, roles):
        return
    raise LobbyError(
        HOST.say("only server admins or the tournament organiser role can do that"),
        ["/tournament join", "/tournament standings", "/tournament mytable"],
    )


def require_admin(admin: bool) -> None:
    """``LobbyError`` unless the person administers the server (who alone chooses the organiser role)."""
    if not admin:
        raise LobbyError(HOST.say("only server admins can choose the organiser role"))
