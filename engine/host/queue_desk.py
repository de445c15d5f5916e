"""Finding a game (``/game find``): a person waits in their server's queue for a game, and the desk
opens a table as soon as enough people wait who suit each other (``engine.host.matchmaking``), seats
them, starts the match and lets its first post call them into its thread; after the wait a person chose,
computers fill the missing seats if they allowed it. The same desk answers where a person stands and
takes them out of a queue."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.core.errors import LobbyError
from engine.host.avoidance import AvoidChange, avoided, toggle
from engine.host.clock import Pace
from engine.host.lobby_words import levels_of
from engine.host.matchmaking import Seeker, Table, active_hours, tables_to_open
from engine.host.ports import MatchRecord, Player, SettingsStore
from engine.host.queue_entries import QueueEntry, QueueStore
from engine.host.ratings import DEFAULT_MU, DISPLAY_BASE, DISPLAY_SCALE, RatingStore
from engine.host.reliability import reliability
from engine.host.service import GameHost
from engine.host.text import HOST

log = logging.getLogger(__name__)

# The moves of a person that tell their active hours: enough for a rhythm, few enough to read at once.
RHYTHM_MOVES = 200
# How long a person waits before computers fill their table, unless they choose.
DEFAULT_PATIENCE = timedelta(hours=24)
# The origin of a match opened from a queue starts so (see ``origin_of``).
ORIGIN = "queue"


@dataclass(frozen=True)
class Waiting:
    """Where a person stands in the queue for one game: their entry, how many others wait for the same
    game and pace, and when computers fill their table (None: people only)."""

    entry: QueueEntry
    others: int
    computers_at: datetime | None


@dataclass(frozen=True)
class Found:
    """What ``/game find`` did: the match the person was seated in now, or where they wait."""

    seated: MatchRecord | None
    waiting: Waiting | None


def origin_of(guild_id: int, table: Table) -> str:
    """What a table opened from the queue is made for, naming its people and since when they waited: a
    table is opened once, whoever (which process) opens it."""
    waited = ",".join(f"{s.user_id}@{s.since.isoformat()}" for s in table.people)
    return f"{ORIGIN}:{guild_id}:{table.game}:{waited}"


class QueueDesk:
    """The queues of every server on ``host``'s store."""

    def __init__(
        self,
        host: GameHost,
        queue: QueueStore,
        ratings: RatingStore,
        settings: SettingsStore,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        """``settings`` keep each person's list of people they would rather not be seated with."""
        self.host = host
        self.queue = queue
        self.ratings = ratings
        self.settings = settings
        self.clock = clock or host.clock
        # Told of each table opened, with who asked for it (None: the background's look at the queues),
        # so that the people seated hear of it.
        self.seated_listeners: list[Callable[[MatchRecord, int | None], Awaitable[None]]] = []

    async def find(
        self,
        guild_id: int,
        channel_id: int | None,
        player: Player,
        game: str,
        players: int | None = None,
        pace: Pace = Pace.DAILY,
        computers: str | None = "greedy",
        patience: timedelta = DEFAULT_PATIENCE,
        least_reliability: float = 0.0,
    ) -> Found:
        """Put ``player`` in the server's queue for ``game`` (keeping their place when they were there
        already), then open the tables that can open; the match they were seated in, or where they wait.
        ``least_reliability``: the share of turns played in time they ask of the others at their table.
        Refused, in words, for a table size the game is not played by or a computer level it lacks."""
        assert player.user_id is not None
        rules = self.host.rules(game)
        if players is not None and players not in rules.seat_counts:
            raise LobbyError(
                HOST.say(
                    "{game} is played by {fewest} to {most} players",
                    game=rules.title,
                    fewest=min(rules.seat_counts),
                    most=max(rules.seat_counts),
                )
            )
        if computers is not None and computers not in levels_of(self.host, game):
            raise LobbyError(HOST.say("that computer level does not play this game"))
        kept = {(e.user_id, e.game): e for e in await self.queue.entries(guild_id)}.get(
            (player.user_id, game)
        )
        entry = QueueEntry(
            guild_id=guild_id,
            user_id=player.user_id,
            game=game,
            name=player.name,
            channel_id=channel_id,
            pace=pace,
            seat_counts=frozenset({players} if players is not None else rules.seat_counts),
            computers=computers,
            patience=patience,
            since=kept.since if kept is not None else self.clock(),
            least_reliability=least_reliability,
        )
        await self.queue.put(entry)
        for match in await self.open_tables(guild_id, asked_by=player.user_id):
            if match.seat_of(player.user_id) is not None:
                return Found(match, None)
        return Found(None, await self.standing(guild_id, player.user_id, game))

    async def avoid(self, user_id: int, other: int, other_is_bot: bool) -> AvoidChange:
        """Put ``other`` on the list of people ``user_id`` would rather not be seated with, or take them
        off it (see ``engine.host.avoidance``)."""
        return await toggle(self.settings, user_id, other, other_is_bot)

    async def avoided(self, user_id: int) -> frozenset[int]:
        """The people on ``user_id``'s list."""
        return await avoided(self.settings, user_id)

    async def standing(self, guild_id: int, user_id: int, game: str) -> Waiting | None:
        """Where the person stands in the server's queue for ``game``; None when they are not in it."""
        entries = await self.queue.entries(guild_id)
        mine = next((e for e in entries if e.user_id == user_id and e.game == game), None)
        if mine is None:
            return None
        others = sum(1 for e in entries if e.game == game and e.pace is mine.pace and e.user_id != user_id)
        computers_at = mine.since + mine.patience if mine.computers is not None else None
        return Waiting(mine, others, computers_at)

    async def queues_of(self, guild_id: int, user_id: int) -> list[Waiting]:
        """Every queue of the server the person waits in, the longest-waiting first."""
        games = [e.game for e in await self.queue.entries(guild_id) if e.user_id == user_id]
        return [w for game in games if (w := await self.standing(guild_id, user_id, game)) is not None]

    async def leave(self, guild_id: int, user_id: int, game: str | None = None) -> int:
        """Take the person out of the server's queue for ``game`` (None: every game); how many entries
        left it."""
        return await self.queue.remove(guild_id, user_id, game)

    async def open_tables(
        self, guild_id: int | None = None, asked_by: int | None = None
    ) -> list[MatchRecord]:
        """Open every table that can open now on a server (None: on every server): each started, its
        people taken out of the queue and the listeners told (``asked_by``: who made it open, if
        someone did). One server's failing table stops no other."""
        now = self.clock()
        by_guild: dict[int, list[QueueEntry]] = defaultdict(list)
        for entry in await self.queue.entries(guild_id):
            by_guild[entry.guild_id].append(entry)
        opened: list[MatchRecord] = []
        for guild, entries in by_guild.items():
            seekers = await self._seekers(entries)
            sizes: dict[str, Sequence[int]] = {
                game: tuple(self.host.rules(game).seat_counts)
                for game in {e.game for e in entries}
                if game in self.host.games
            }
            kept = {(e.user_id, e.game): e for e in entries}
            for table in tables_to_open(seekers, sizes, now):
                try:
                    match = await self._open(guild, table, kept)
                except Exception:
                    log.exception("a table of %s could not open on server %s", table.game, guild)
                    continue
                if match is not None:
                    opened.append(match)
                    await self._tell(match, asked_by)
        return opened

    async def _tell(self, match: MatchRecord, asked_by: int | None) -> None:
        for listener in self.seated_listeners:
            try:
                await listener(match, asked_by)
            except Exception:
                log.exception("the people seated in match %s could not all be told", match.id)

    async def _seekers(self, entries: Sequence[QueueEntry]) -> list[Seeker]:
        """The waiting ``entries`` as matchmaking reads them: each game's ratings read at once, each
        person's rhythm (and reliability) once, however many games they wait for."""
        hosted = [e for e in entries if e.game in self.host.games]  # another game waits until it is hosted
        people = sorted({e.user_id for e in hosted})
        ratings = {
            game: await self.ratings.ratings(game, [e.user_id for e in hosted if e.game == game])
            for game in {e.game for e in hosted}
        }
        rhythms = {u: active_hours(await self.queue.move_moments(u, RHYTHM_MOVES)) for u in people}
        # Reliability takes reading each person's latest matches: only when someone asks for it.
        asked = any(e.least_reliability > 0 for e in hosted)
        kept = {u: await reliability(self.host.store, u) if asked else None for u in people}
        avoids = {u: await avoided(self.settings, u) for u in people}
        seekers = []
        for entry in hosted:
            rating = ratings[entry.game].get(entry.user_id)
            mu = rating.mu if rating is not None else DEFAULT_MU
            seekers.append(
                Seeker(
                    user_id=entry.user_id,
                    name=entry.name,
                    game=entry.game,
                    pace=entry.pace,
                    seat_counts=entry.seat_counts,
                    skill=DISPLAY_BASE + DISPLAY_SCALE * (mu - DEFAULT_MU),
                    since=entry.since,
                    rhythm=rhythms[entry.user_id],
                    computers=entry.computers,
                    patience=entry.patience,
                    reliability=kept[entry.user_id],
                    least_reliability=entry.least_reliability,
                    avoids=avoids[entry.user_id],
                )
            )
        return seekers

    async def _open(
        self, guild_id: int, table: Table, kept: dict[tuple[int, str], QueueEntry]
    ) -> MatchRecord | None:
        """``table`` opened and started; None when one of its people left the queue meanwhile (or another
        process seated them), and then nobody is taken out of it. Should the match fail to open, its
        people are put back in the queue, in their places."""
        ids = [s.user_id for s in table.people]
        if not await self.queue.take(guild_id, table.game, ids):
            return None
        try:
            return await self._started(guild_id, table, kept[(ids[0], table.game)].channel_id)
        except Exception:
            for user_id in ids:
                await self.queue.put(kept[(user_id, table.game)])
            raise

    async def _started(self, guild_id: int, table: Table, channel_id: int | None) -> MatchRecord:
        people = [Player(user_id=s.user_id, name=s.name) for s in table.people]
        match = await self.host.create_match(
            table.game,
            table.seats,
            creator=people[0],
            guild_id=guild_id,
            channel_id=channel_id,
            origin=origin_of(guild_id, table),
            pace=table.pace,
        )
        for person in people[1:]:
            match = await self.host.join(match.id, person)
        for _ in range(table.computer_seats):
            assert table.computers is not None
            match = await self.host.add_computer(match.id, table.computers)
        return (await self.host.start(match.id)).match
