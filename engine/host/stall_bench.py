"""``loop.max_stall_ms`` for ``python bot.py bench``: the longest the event loop goes unanswered while
people's moves set off bursts of computer moves (each person plays against three computers)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from engine.core.rng import bot_rng
from engine.host.ports import MatchStatus, MatchStore, Player
from engine.host.service import GameHost

# How often the watcher asks the loop for a turn; a stall is the time beyond this that it waited.
TICK_S = 0.001


async def measure_stall(store: MatchStore, games: list[str], moves: int = 30) -> dict[str, Any]:
    """Play ``moves`` moves of one person in a match of each game in ``games`` (the computers answering
    each), while a watcher on the loop records the longest wait for its next turn."""
    host = GameHost(store, seed_source=lambda: 5)
    longest = 0.0
    running = True

    async def watch() -> None:
        nonlocal longest
        while running:
            start = time.perf_counter()
            await asyncio.sleep(TICK_S)
            longest = max(longest, time.perf_counter() - start - TICK_S)

    watcher = asyncio.create_task(watch())
    person = Player(user_id=1, name="person")
    played = 0
    try:
        for game in games:
            rules = host.rules(game)
            seats = max(n for n in rules.seat_counts if n <= 4)
            match = await host.create_match(game, seats, creator=person)
            for _ in range(seats - 1):
                match = await host.add_computer(match.id, "greedy")
            match = (await host.start(match.id)).match
            policy = host.policy(game, "greedy")
            for _ in range(moves):
                if match.status is not MatchStatus.ACTIVE:
                    break
                state = host.state_of(match)
                seat = match.seat_of(person.user_id or 0)
                if seat is None or seat not in rules.to_act(state):
                    break
                legal = rules.legal_actions(state, seat)
                action = policy.choose(rules, state, seat, legal, bot_rng(match.seed, match.version))
                match = (await host.act(match.id, person.user_id or 0, rules.notation(action))).match
                played += 1
    finally:
        running = False
        await watcher
    return {"max_stall_ms": round(longest * 1000, 1), "moves": played}
