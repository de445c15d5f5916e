"""The New York Series league of each server: its seasons (a month unless its admins choose otherwise),
which matches count (tournaments', casual ones or both, as the admins choose), each season's table with
the best of each game, and the post that closes a season. The points are ``engine.host.league``'s."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from engine.core.contract import Outcome
from engine.core.errors import LobbyError
from engine.host.league import LeagueRow, best_by_game, season_table
from engine.host.ports import ListedSettings, MatchRecord, MatchStatus
from engine.host.service import GameHost
from engine.host.text import HOST

SEASON_DAYS = 30
# The most finished matches of a server one season's table reads.
SEASON_MATCHES = 5_000
START, DAYS, ERAS, COUNTS, CHANNEL, CLOSED = (
    "league_start",
    "league_days",
    "league_eras",
    "league_counts",
    "league_channel",
    "league_closed",
)


class Counted(StrEnum):
    """Which finished matches of a server count in its league."""

    ALL = "all"
    CASUAL = "casual"
    TOURNAMENTS = "tournaments"


@dataclass(frozen=True)
class Season:
    """Season ``number`` (from 1) of a server's league: from ``starts`` until ``ends``."""

    number: int
    starts: datetime
    ends: datetime


@dataclass(frozen=True)
class SeasonTable:
    """A season's table, and for each game played the person with the most points in it."""

    season: Season
    rows: tuple[LeagueRow, ...]
    best_by_game: tuple[tuple[str, LeagueRow], ...]


@dataclass(frozen=True)
class Era:
    """From season ``first`` on, seasons of ``days`` days, the first of them from ``starts``."""

    first: int
    starts: datetime
    days: int


@dataclass(frozen=True)
class League:
    """A server's league as its admins set it up: each change of the seasons' length begins an era, so
    the seasons before it keep their dates (and their tables)."""

    guild_id: int
    eras: tuple[Era, ...]  # oldest first, at least one
    counts: Counted
    channel_id: int | None

    @property
    def starts(self) -> datetime:
        """When the league's first season began."""
        return self.eras[0].starts

    @property
    def days(self) -> int:
        """How long a season lasts now."""
        return self.eras[-1].days

    def season_at(self, moment: datetime) -> Season:
        """The season running at ``moment`` (the first, before the league began)."""
        era = next((e for e in reversed(self.eras) if e.starts <= moment), self.eras[0])
        passed = max(0, (moment - era.starts) // timedelta(days=era.days))
        return self.season(era.first + passed)

    def season(self, number: int) -> Season:
        era = next((e for e in reversed(self.eras) if e.first <= number), self.eras[0])
        length = timedelta(days=era.days)
        starts = era.starts + (number - era.first) * length
        return Season(number, starts, starts + length)

    def with_length(self, days: int, now: datetime) -> tuple[Era, ...]:
        """The eras once seasons last ``days``: the season running at ``now`` keeps its start and takes
        the new length (ending at once, should it be over by then); the seasons before it keep theirs."""
        running = self.season_at(now)
        kept = tuple(e for e in self.eras if e.first < running.number)
        return (*kept, Era(running.number, running.starts, days))


def eras_text(eras: tuple[Era, ...]) -> str:
    """``eras`` as the server's settings keep them."""
    return json.dumps([[e.first, e.starts.isoformat(), e.days] for e in eras])


def eras_of(text: str) -> tuple[Era, ...]:
    """The eras the server's settings keep (see ``eras_text``)."""
    return tuple(
        Era(int(first), datetime.fromisoformat(starts), int(days)) for first, starts, days in json.loads(text)
    )


class LeagueDesk:
    """The leagues of every server on ``host``'s store; ``in_tournament`` tells whether a match is a
    tournament's table."""

    def __init__(
        self,
        host: GameHost,
        settings: ListedSettings,
        in_tournament: Callable[[int], Awaitable[bool]],
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.host, self.settings, self.in_tournament = host, settings, in_tournament
        self.clock = clock or host.clock

    async def league(self, guild_id: int) -> League | None:
        """The server's league; None until its admins set one up."""
        starts = await self.settings.get("guild", guild_id, START)
        if starts is None:
            return None
        days = await self.settings.get("guild", guild_id, DAYS)
        eras = await self.settings.get("guild", guild_id, ERAS)
        counts = await self.settings.get("guild", guild_id, COUNTS)
        channel = await self.settings.get("guild", guild_id, CHANNEL)
        first = Era(1, datetime.fromisoformat(starts), int(days) if days else SEASON_DAYS)
        return League(
            guild_id,
            eras_of(eras) if eras else (first,),
            Counted(counts) if counts else Counted.ALL,
            int(channel) if channel else None,
        )

    async def set_up(
        self,
        guild_id: int,
        admin: bool,
        days: int | None = None,
        counts: Counted | None = None,
        channel_id: int | None = None,
    ) -> League:
        """Start the server's league now (its first season), or change how it runs: a new length applies
        to the running season at once (from its start), the seasons before it keeping their dates.
        Refused to anyone but the server's admins."""
        if not admin:
            raise LobbyError(HOST.say("only a server admin can set up the league"))
        if days is not None and not 7 <= days <= 365:
            raise LobbyError(HOST.say("a season lasts from 7 to 365 days"))
        league = await self.league(guild_id)
        now = self.clock()
        if league is None:
            await self.settings.set("guild", guild_id, START, now.isoformat())
            await self.settings.set("guild", guild_id, CLOSED, "0")
        elif days is not None and days != league.days:
            await self.settings.set("guild", guild_id, ERAS, eras_text(league.with_length(days, now)))
        if days is not None:
            await self.settings.set("guild", guild_id, DAYS, str(days))
        if counts is not None:
            await self.settings.set("guild", guild_id, COUNTS, counts.value)
        if channel_id is not None:
            await self.settings.set("guild", guild_id, CHANNEL, str(channel_id))
        found = await self.league(guild_id)
        assert found is not None
        return found

    async def table(self, league: League, season: Season) -> SeasonTable:
        """The table of ``season``: the finished matches of the server that ended in it and count."""
        finished = await self.host.store.survey_matches(
            guild_id=league.guild_id, limit=SEASON_MATCHES, finished_by_end=True
        )
        counted: list[tuple[MatchRecord, Outcome]] = []
        for match in finished.matches:
            ended = datetime.fromisoformat(match.updated_at)
            if match.status is not MatchStatus.FINISHED or not season.starts <= ended < season.ends:
                continue
            if league.counts is not Counted.ALL:
                tournament = await self.in_tournament(match.id)
                if tournament != (league.counts is Counted.TOURNAMENTS):
                    continue
            outcome = self.host.outcome(match)
            if outcome is not None:
                counted.append((match, outcome))
        rows = season_table(counted)
        return SeasonTable(season, tuple(rows), tuple(best_by_game(rows)))

    async def servers(self) -> list[int]:
        """The servers that have a league."""
        return await self.settings.owners_with("guild", START)

    async def closings_due(self, guild_id: int) -> list[Season]:
        """The seasons of the server that ended and whose closing post is not made yet, oldest first."""
        league = await self.league(guild_id)
        if league is None:
            return []
        closed = int(await self.settings.get("guild", guild_id, CLOSED) or 0)
        running = league.season_at(self.clock())
        return [league.season(n) for n in range(closed + 1, running.number)]

    async def claim_closing(self, guild_id: int, season: Season) -> bool:
        """Note that ``season`` is closed (its closing post under way), unless another look at the
        leagues (in this process or another sharing the store) did so first; whether this one did."""
        before = str(season.number - 1)
        return await self.settings.swap("guild", guild_id, CLOSED, before, str(season.number))

    async def reopen(self, guild_id: int, season: Season) -> None:
        """Take back the closing of ``season``, whose post could not go out yet."""
        before = str(season.number - 1)
        await self.settings.swap("guild", guild_id, CLOSED, str(season.number), before)
