"""``loop.max_stall_ms`` for ``python bot.py bench``: the longest the event loop goes unanswered while
people's moves set off bursts of computer moves (each person plays against three computers).

The bench chooses the person's moves itself, on the loop; in the bot those come from Discord, so the
time spent choosing them is not counted as the bot's."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from engine.core.rng import bot_rng
from engine.host.ports import MatchRecord, MatchStatus, MatchStore, Player
from engine.host.service import GameHost

# How often the watcher asks the loop for a turn; a stall is the time beyond this that it waited.
TICK_S = 0.001


class LoopWatch:
    """Asks the running event loop for a turn every ``TICK_S`` from ``start`` to ``stop`` and keeps the
    longest wait beyond that (``longest``, seconds), less the time spent in the spans of ``excluded``
    (work of the bench's own, not of the bot); and the most processor time the loop's thread used
    between two turns (``longest_busy``), which other processes on a busy machine do not inflate."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.waits: list[float] = []  # every wait beyond the tick, seconds
        self.longest_busy = 0.0
        self.excluded: list[tuple[float, float]] = []  # perf_counter spans, in order
        self._running = False
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        while self._running:
            start, worked = time.perf_counter(), time.thread_time()
            await asyncio.sleep(TICK_S)
            end, busy = time.perf_counter(), time.thread_time() - worked
            own = sum(max(0.0, min(end, until) - max(start, since)) for since, until in self.excluded[-2:])
            wait = end - start - TICK_S - own
            self.waits.append(wait)
            self.longest = max(self.longest, wait)
            self.longest_busy = max(self.longest_busy, busy - own)

    def start(self) -> None:
        self._running = True
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> float:
        """Stop watching; the longest stall seen, in milliseconds."""
        self._running = False
        if self._task is not None:
            await self._task
        return round(self.longest * 1000, 1)

    def p99_ms(self) -> float:
        """The wait that 99 in 100 turns did not exceed, in milliseconds."""
        if not self.waits:
            return 0.0
        ordered = sorted(self.waits)
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 1)


async def idle_floor(seconds: float) -> dict[str, float]:
    """The stalls of an event loop that does nothing for ``seconds``: what the machine itself adds to
    every figure the watcher takes (a virtual machine whose processor is shared shows hundreds of
    milliseconds here), to be read beside them."""
    watch = LoopWatch()
    watch.start()
    await asyncio.sleep(seconds)
    longest = await watch.stop()
    return {"max_stall_ms_idle": longest, "p99_stall_ms_idle": watch.p99_ms()}


async def against_computers(host: GameHost, game: str, person: Player) -> MatchRecord:
    """A started match of ``game`` for ``person`` and greedy computer players, up to four seats."""
    seats = max(n for n in host.rules(game).seat_counts if n <= 4)
    match = await host.create_match(game, seats, creator=person)
    for _ in range(seats - 1):
        match = await host.add_computer(match.id, "greedy")
    return (await host.start(match.id)).match


async def play_as(
    host: GameHost,
    match: MatchRecord,
    person: Player,
    moves: int,
    watch: LoopWatch,
    after: Callable[[MatchRecord], Awaitable[None]] | None = None,
) -> int:
    """Up to ``moves`` moves of ``person`` in ``match``, the greedy one each time (its choice is the
    bench's own work, left out of ``watch``), the computers answering each; ``after`` is awaited after
    each move. The number played (fewer when the match ends or waits for someone else)."""
    rules = host.rules(match.game)
    policy = host.policy(match.game, "greedy")
    played = 0
    for _ in range(moves):
        if match.status is not MatchStatus.ACTIVE:
            break
        state = host.state_of(match)
        seat = match.seat_of(person.user_id or 0)
        if seat is None or seat not in rules.to_act(state):
            break
        began = time.perf_counter()
        legal = rules.legal_actions(state, seat)
        action = policy.choose(rules, state, seat, legal, bot_rng(match.seed, match.version))
        watch.excluded.append((began, time.perf_counter()))
        match = (await host.act(match.id, person.user_id or 0, rules.notation(action))).match
        played += 1
        if after is not None:
            await after(match)
    return played


async def measure_stall(store: MatchStore, games: list[str], moves: int = 30) -> dict[str, Any]:
    """Play ``moves`` moves of one person in a match of each game in ``games`` (the computers answering
    each), while a watcher on the loop records the longest wait for its next turn."""
    host = GameHost(store, seed_source=lambda: 5)
    watch = LoopWatch()

    for game in games:  # loaded before the watch begins, as a running bot has them
        host.policy(game, "greedy")
    watch.start()
    person = Player(user_id=1, name="person")
    played = 0
    try:
        for game in games:
            match = await against_computers(host, game, person)
            played += await play_as(host, match, person, moves, watch)
    finally:
        stall_ms = await watch.stop()
    return {"max_stall_ms": stall_ms, "moves": played}
