"""A server's month of finding games, for ``python bot.py league-sim``: people (computer players of varied
levels, each active some hours of the day, each with two favourite games and a patience of their own)
queue for games with ``/game find`` as the host serves it,
on a real SQLite file and a virtual clock; they move when they are active, a while after their turn
comes; the queue seats them; the season's league table counts every finished match.

One JSON line per day (matches opened and finished that day, people waiting at its end), then the
summary: matches finished, the queue waits (hours, from joining to being seated), the spread of the
ratings, and the league table."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from data.backend import open_stores
from engine.core.rng import bot_rng
from engine.host.clock import Pace
from engine.host.league import season_table
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.queue_desk import QueueDesk
from engine.host.service import GameHost
from engine.registry import GAMES, POLICIES

START = datetime(2026, 11, 2, 0, 0, tzinfo=UTC)
STEP = timedelta(minutes=15)
GUILD = 1
# How many matches a person keeps going at once, counting the queues they wait in.
AT_ONCE = 2
# The levels people play at (the strong player thinks too long for a month in two minutes).
LEVELS = ("random", "greedy")
# A person answers their turn this many minutes after it comes, when active.
ANSWER_MINUTES = (5, 90)
# The most moves a person makes in one sitting (a turn of several steps), as a guard.
SITTING = 60


class VirtualClock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def iso(self) -> str:
        return self.now.isoformat(timespec="milliseconds")


@dataclass
class Person:
    """One simulated person: who they are, how they play, when they are active, and their matches."""

    player: Player
    level: str
    first_hour: int
    active_hours: int
    allows_computers: bool
    favourites: tuple[str, ...]  # the games they queue for
    patience: timedelta  # how long they wait before computers fill their table
    running: set[int] = field(default_factory=set)
    waiting: dict[str, datetime] = field(default_factory=dict)  # game -> since
    joins_at: datetime = START

    def active(self, moment: datetime) -> bool:
        return (moment.hour - self.first_hour) % 24 < self.active_hours

    def plan_next_join(self, day: datetime, rng: random.Random) -> None:
        """Next time they look for a game: at a random moment of their active hours, the day after ``day``."""
        minutes = rng.randrange(self.active_hours * 60)
        start = (day + timedelta(days=1)).replace(hour=0, minute=0) + timedelta(hours=self.first_hour)
        self.joins_at = start + timedelta(minutes=minutes)


def people_of(count: int, rng: random.Random) -> list[Person]:
    people = []
    for number in range(1, count + 1):
        person = Person(
            player=Player(user_id=number, name=f"Player {number:02d}"),
            level=rng.choice(LEVELS),
            first_hour=rng.randrange(24),
            active_hours=rng.randrange(6, 13),
            allows_computers=rng.random() < 0.7,
            favourites=tuple(rng.sample(sorted(GAMES), 2)),
            patience=timedelta(hours=rng.randrange(3, 13)),
        )
        person.joins_at = START + timedelta(hours=person.first_hour, minutes=rng.randrange(60))
        people.append(person)
    return people


@dataclass
class Day:
    opened: int = 0
    finished: int = 0


async def simulate(
    folder: Path, players: int, days: int, seed: int, print_line: Callable[[dict[str, Any]], None]
) -> dict[str, Any]:
    """Run the month (``days``) of ``players`` people on a new store in ``folder``; each day's line is
    given to ``print_line``; the summary is returned."""
    rng = random.Random(seed)
    clock = VirtualClock(START)
    stores = await open_stores(folder / "league.db", clock=clock.iso)
    host = GameHost(stores.matches, clock=clock, seed_source=lambda: rng.randrange(2**31))
    host.finish_listeners.append(stores.ratings.record)
    desk = QueueDesk(host, stores.queue, stores.ratings, stores.settings, clock)
    people = people_of(players, rng)
    by_id = {p.player.user_id or 0: p for p in people}
    running: dict[int, MatchRecord] = {}
    ready: dict[tuple[int, int], datetime] = {}  # (match, user) -> when they answer their turn
    waits: list[float] = []
    finished: list[MatchRecord] = []
    day = Day()
    end = START + timedelta(days=days)

    def seated(match: MatchRecord) -> None:
        running[match.id] = match
        for player in match.players:
            person = by_id.get(player.user_id or 0)
            if person is None:
                continue
            since = person.waiting.pop(match.game, None)
            if since is not None:
                waits.append((clock.now - since) / timedelta(hours=1))
            person.running.add(match.id)
        day.opened += 1

    try:
        while clock.now < end:
            now = clock.now
            for person in people:
                if person.joins_at > now:
                    continue
                person.plan_next_join(now, rng)
                if len(person.running) + len(person.waiting) >= AT_ONCE:
                    continue
                choices = [g for g in person.favourites if g not in person.waiting]
                if not choices:
                    continue
                game = rng.choice(choices)
                person.waiting[game] = now
                found = await desk.find(
                    GUILD,
                    None,
                    person.player,
                    game,
                    players=rng.choice([None, 3]),
                    pace=Pace.DAILY,
                    computers="greedy" if person.allows_computers else None,
                    patience=person.patience,
                )
                if found.seated is not None:
                    seated(found.seated)
            if any(p.waiting for p in people):
                for match in await desk.open_tables(GUILD):
                    seated(match)
            for match_id in list(running):
                match = running[match_id]
                match = await _sitting(host, match, by_id, ready, rng, now)
                running[match_id] = match
                if match.status is not MatchStatus.ACTIVE:
                    del running[match_id]
                    finished.append(match)
                    day.finished += 1
                    for player in match.players:
                        if player.user_id in by_id:
                            by_id[player.user_id].running.discard(match_id)
            clock.now += STEP
            if clock.now.hour == 0 and clock.now.minute == 0:
                waiting = sum(len(p.waiting) for p in people)
                number = (clock.now - START).days
                print_line(
                    {"day": number, "opened": day.opened, "finished": day.finished, "waiting": waiting}
                )
                day = Day()
        ratings = await _spread(stores.ratings, people, finished)
    finally:
        await stores.close()
    outcomes = [(m, o) for m in finished if (o := host.outcome(m)) is not None]
    table = season_table(outcomes)
    return {
        "matches": len(finished),
        "queue_wait_h": {
            "p50": round(statistics.median(waits), 2) if waits else 0.0,
            "p95": round(sorted(waits)[int(len(waits) * 0.95)] if waits else 0.0, 2),
        },
        "rating_spread": ratings,
        "table": [{"player": r.name, "points": r.points, "matches": r.matches} for r in table],
    }


async def _sitting(
    host: GameHost,
    match: MatchRecord,
    people: dict[int, Person],
    ready: dict[tuple[int, int], datetime],
    rng: random.Random,
    now: datetime,
) -> MatchRecord:
    """The moves of the people whose turn it is in ``match`` and who sit down to play now: active, and a
    while after their turn came."""
    rules = host.rules(match.game)
    for _ in range(SITTING):
        if match.status is not MatchStatus.ACTIVE:
            return match
        state = host.state_of(match)
        movers = [
            (seat, player)
            for seat in sorted(rules.to_act(state))
            if (player := match.player_at(seat)) is not None and player.user_id in people
        ]
        if not movers:
            return match
        seat, player = movers[0]
        person = people[player.user_id or 0]
        key = (match.id, person.player.user_id or 0)
        if key not in ready:
            ready[key] = now + timedelta(minutes=rng.randrange(*ANSWER_MINUTES))
        if ready[key] > now or not person.active(now):
            return match
        policy = POLICIES[match.game][person.level]
        legal = rules.legal_actions(state, seat)
        action = policy.choose(rules, state, seat, legal, bot_rng(match.seed, match.version))
        # By its number in the list of legal moves, as a menu sends it: no words to read back.
        match = (await host.act(match.id, person.player.user_id or 0, legal.index(action))).match
        state = host.state_of(match) if match.status is MatchStatus.ACTIVE else state
        if match.status is not MatchStatus.ACTIVE or seat not in rules.to_act(state):
            del ready[key]  # the turn is over: the next one comes later
    return match


async def _spread(ratings: Any, people: list[Person], finished: list[MatchRecord]) -> float:
    """The spread (highest less lowest) of the ratings people have in the game they played most."""
    played: dict[int, dict[str, int]] = {}
    for match in finished:
        for player in match.players:
            if player.user_id is not None:
                counts = played.setdefault(player.user_id, {})
                counts[match.game] = counts.get(match.game, 0) + 1
    shown = []
    for person in people:
        mine = played.get(person.player.user_id or 0)
        if not mine:
            continue
        game = max(mine, key=lambda g: mine[g])
        found = await ratings.ratings(game, [person.player.user_id])
        if person.player.user_id in found:
            shown.append(found[person.player.user_id].display)
    return float(max(shown) - min(shown)) if shown else 0.0
