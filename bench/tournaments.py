"""``tournaments.move_p95_ms`` for ``python bot.py bench --full``: what a person's move costs while a
thousand tournaments run in the same store.

The field: ``count`` Swiss tournaments over the five games, each of four entrants (three people and a
computer) at tables of two, started, so that each has two matches in play and a deadline on its round
(the clock the bot watches for every running tournament). Then people play ``moves`` moves in matches
of those tournaments, and each is timed with what it sets off in the bot: the move itself (the
computers' answers included), the tournament step after a match ends (rating it, collecting the
result, pairing and making the next round when the round is over), and the outbox's tournament pass
(``TournamentHost.tick``) that follows every move. The first pass over all of them, which the bot makes
once at start, is timed on its own (``first_tick_ms``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from engine.core.rng import bot_rng
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost
from engine.host.tournaments import Entrant, TournamentHost, TournamentStatus
from engine.registry import GAMES

ENTRANTS = 4  # three people and a computer: two tables of two, never two computers at one table
PEOPLE = 3
DEADLINE_HOURS = 48.0
MAX_ROUND_MOVES = 5000  # a round played to its end stops after this many moves whatever happens
USER_BASE = 10_000_000  # user ids of the bench's people: USER_BASE + 10 * tournament number + entrant


def percentile(values: list[float], fraction: float) -> float:
    """Nearest rank (the value at index ``int(fraction * n)`` of the sorted values); 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def create_field(tournaments: TournamentHost, count: int, seed: int = 1, at_once: int = 8) -> list[int]:
    """``count`` running tournaments as described above, ``at_once`` made side by side (each waits for
    the store in turn, and the others meanwhile do their Python work); their ids, in order."""
    games = sorted(GAMES)

    async def one(number: int) -> int:
        record = await tournaments.create(
            f"Bench cup {number + 1}",
            games[number % len(games)],
            "swiss",
            table_size=2,
            rounds=2,
            deadline_hours=DEADLINE_HOURS,
            seed=seed + number,
        )
        people = tuple(
            Entrant(key=f"u{user}", name=f"Player {user}", user_id=user)
            for user in (USER_BASE + 10 * number + k for k in range(PEOPLE))
        )
        computers = tuple(
            Entrant(key=f"c{k + 1}", name=f"Computer {k + 1}", bot="greedy") for k in range(ENTRANTS - PEOPLE)
        )
        # The entrants join in one write: registration itself is not what is measured.
        record = await tournaments.store.save_tournament(
            record.model_copy(update={"entrants": people + computers}), record.version
        )
        await tournaments.start(record.id)
        return record.id

    ids: list[int] = []
    for first in range(0, count, at_once):
        ids += await asyncio.gather(*(one(n) for n in range(first, min(count, first + at_once))))
    return ids


async def open_matches(tournaments: TournamentHost, tournament_id: int) -> list[int]:
    """The matches of ``tournament_id``'s current round still in play."""
    record = await tournaments.get(tournament_id)
    if record.status is not TournamentStatus.RUNNING or not record.rounds:
        return []
    return [t.match_id for t in record.rounds[-1].tables if t.match_id is not None and t.result is None]


class Mover:
    """Plays a person's move in a match and times it with the tournament work it sets off in the bot."""

    def __init__(
        self,
        host: GameHost,
        tournaments: TournamentHost,
        rate: Callable[[MatchRecord], Awaitable[Any]] | None,
    ) -> None:
        self.host = host
        self.tournaments = tournaments
        self.rate = rate
        self.ended: list[MatchRecord] = []
        self.rounds_started = 0

    async def on_finish(self, match: MatchRecord) -> None:
        self.ended.append(match)  # handled after the move, as the bot's task does once the match is unlocked

    async def move(self, match_id: int) -> tuple[float, bool] | None:
        """Milliseconds for one move of the person to act in ``match_id`` and what follows
        it (a finished match rated and its tournament moved on, then the tournament pass), and whether it
        ended the match; None when no person is to act there (the match is over)."""
        host = self.host
        match = await host.match(match_id)
        if match.status is not MatchStatus.ACTIVE:
            return None
        rules = host.rules(match.game)
        state = host.state_of(match)
        people = [s for s in sorted(rules.to_act(state)) if (p := match.player_at(s)) and p.bot is None]
        if not people:
            return None
        seat = people[0]
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        # People play as the greedy computer would (random moves make some games ten times as long).
        legal = rules.legal_actions(state, seat)
        action = host.policy(match.game, "greedy").choose(
            rules, state, seat, legal, bot_rng(match.seed, match.version)
        )
        notation = rules.notation(action)
        self.ended.clear()
        start = time.perf_counter()
        await host.act(match_id, player.user_id, notation)
        for finished in list(self.ended):
            tournament_id = await self.tournaments.store.tournament_of_match(finished.id)
            record = await self.tournaments.get(tournament_id) if tournament_id is not None else None
            if self.rate is not None and (record is None or record.rated):
                await self.rate(finished)
            for report in await self.tournaments.on_match_finished(finished.id):
                self.rounds_started += len(report.started_rounds)
        await self.tournaments.tick()
        return (time.perf_counter() - start) * 1000, bool(self.ended)


async def measure_tournament_moves(
    host: GameHost,
    tournaments: TournamentHost,
    count: int = 1000,
    moves: int = 200,
    playing: int = 20,
    finishing: int = 5,
    seed: int = 1,
    rate: Callable[[MatchRecord], Awaitable[Any]] | None = None,
    before_timing: Callable[[], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """Create the field, then time ``moves`` moves spread over ``playing`` matches at a time, of
    tournaments spread over the field and the games (a match that ends is replaced by one of another
    tournament): ``move_p95_ms`` and ``move_p50_ms``. Then play the first round of ``finishing`` other
    tournaments (of different games, kept out of the timed moves) to its end, timing the moves that end
    a match with all they set off, the next round's pairing and matches included: ``finish_ms`` (p50
    and max over them).

    ``rate`` records a finished match's rating, as the bot does for rated tournaments; ``before_timing``
    runs once the field exists (say, to put the store back to its durable commits after a quicker
    set-up). Also returned: ``tournaments`` (running when the timing began), ``moves``,
    ``first_tick_ms`` (the bot's first pass over every running tournament), ``setup_s``, and
    ``checks``: the samples, the running tournaments counted before and after the timing, the matches
    finished and the rounds started."""
    began = time.perf_counter()
    ids = await create_field(tournaments, count, seed)
    setup_s = time.perf_counter() - began
    if before_timing is not None:
        await before_timing()
    started = time.perf_counter()
    await tournaments.tick()  # the bot's first pass after a start reads every running tournament
    first_tick_ms = (time.perf_counter() - started) * 1000
    running_before = len(await tournaments.store.tournament_ids([TournamentStatus.RUNNING]))
    mover = Mover(host, tournaments, rate)
    host.finish_listeners.append(mover.on_finish)
    # Tournaments spread over the field, consecutive ones of different games.
    step = max(1, len(ids) // max(1, playing))
    spread = list(dict.fromkeys(ids[(n * step + n) % len(ids)] for n in range(len(ids))))
    # Those whose first round is played out at the end are kept out of the timed moves.
    kept, spread = spread[:finishing], spread[finishing:]
    samples: list[float] = []
    ends: list[float] = []
    try:
        pool: list[int] = []
        while len(samples) < moves:
            while len(pool) < playing and spread:
                pool += await open_matches(tournaments, spread.pop(0))
            if not pool:
                break
            match_id = pool[len(samples) % len(pool)]
            played = await mover.move(match_id)
            if played is None:
                pool.remove(match_id)
                continue
            samples.append(round(played[0], 3))
            if played[1]:
                ends.append(played[0])
        # Whole first rounds of tournaments not played above, one per game.
        for tournament_id in kept:
            first = await open_matches(tournaments, tournament_id)
            for _ in range(MAX_ROUND_MOVES):
                pool = [m for m in await open_matches(tournaments, tournament_id) if m in first]
                if not pool:
                    break
                played = await mover.move(pool[0])
                if played is not None and played[1]:
                    ends.append(played[0])
    finally:
        host.finish_listeners.remove(mover.on_finish)
    running_after = len(await tournaments.store.tournament_ids([TournamentStatus.RUNNING]))
    return {
        "move_p95_ms": round(percentile(samples, 0.95), 2),
        "move_p50_ms": round(percentile(samples, 0.5), 2),
        "finish_ms": {"p50": round(percentile(ends, 0.5), 2), "max": round(max(ends, default=0.0), 2)},
        "tournaments": running_before,
        "moves": len(samples),
        "first_tick_ms": round(first_tick_ms, 2),
        "setup_s": round(setup_s, 2),
        "checks": {
            "samples_ms": samples,
            "running_before": running_before,
            "running_after": running_after,
            "finished_matches": len(ends),
            "rounds_started": mover.rounds_started,
        },
    }
