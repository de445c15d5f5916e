"""``web`` for ``python bot.py bench --full``: the web table followed live by ``SPECTATORS`` spectators of
one match while a person plays it against computers, in each game.

* ``update_p95_ms``: from the moment a move's write is committed (the store tells its version) to the
  moment each spectator receives that version's event, over every move (a computer's too) and spectator;
  ``page_p95_ms``: to the moment each has fetched the page again, as the page's script does, and its board.
* ``page_bytes``: the HTML, CSS and scripts of a match page without the board, the largest of the matches
  played (their logs are whole, never cut).
* ``loop``: the longest the event loop of the table's process went unanswered while the person's moves
  were played through the host, as the Discord side plays them, with the spectators connected
  (``bench.stall``'s watcher; the bench's own choosing of moves left out), beside what an idle loop
  waits on this machine.

The spectators run in a process of their own (``bench.spectators``), so that their work is not counted
as the table's; each move waits until every one of them has the new page, as people's moves wait on
people.
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bench.stall import LoopWatch, against_computers, idle_floor, play_as
from data.backend import open_stores
from data.db import utc_now
from engine.host.heap import restore_heap, set_heap_aside
from engine.host.ports import MatchRecord, Player
from engine.host.service import GameHost
from engine.host.watch import MatchVersions
from web.app import create_app
from web.live import LIVE

SPECTATORS = 200
MOVES = 20  # the person's moves per game; the computers answer each
ROOT = Path(__file__).resolve().parents[1]
# Longest wait for the spectators to connect or to catch up with a move, in seconds.
PATIENCE_S = 120.0


class StampedVersions(MatchVersions):
    """``MatchVersions`` noting when each version was first told: the moment its write was committed."""

    def __init__(self) -> None:
        super().__init__()
        self.stamps: dict[tuple[int, int], float] = {}

    def publish(self, match_id: int, version: int) -> None:
        self.stamps.setdefault((match_id, version), time.monotonic())
        super().publish(match_id, version)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def delays(stamps: dict[int, float], seen: list[dict[str, float]]) -> list[float]:
    """For each version committed (``stamps``) and each spectator, how long until it saw that version
    or a later one (moves committed together are told together), in milliseconds."""
    found = []
    for times in seen:
        received = sorted((int(v), t) for v, t in times.items())
        for version, committed in stamps.items():
            after = [t for v, t in received if v >= version]
            if after:
                found.append((min(after) - committed) * 1000)
    return found


class Crowd:
    """The spectators' process, and what it says."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.reached = -1

    @classmethod
    async def watching(cls, base: str, match_id: int, count: int) -> Crowd:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.spectators",
            base,
            str(match_id),
            str(count),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=ROOT,
            limit=2**28,
        )
        crowd = cls(process)
        said = await crowd._line()
        crowd.reached = int(said["version"])
        return crowd

    async def _line(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        async with asyncio.timeout(PATIENCE_S):
            line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError("the spectators' process ended early")
        found: dict[str, Any] = json.loads(line)
        return found

    async def reach(self, version: int) -> None:
        """Wait until every spectator has the page of ``version``."""
        while self.reached < version:
            self.reached = int((await self._line())["reached"])

    async def leave(self) -> dict[str, Any]:
        """Stop the spectators; what each saw and when."""
        assert self.process.stdin is not None
        self.process.stdin.write(b"stop\n")
        await self.process.stdin.drain()
        self.process.stdin.close()
        report = await self._line()
        await self.process.wait()
        return report


async def page_bytes(base: str, match_id: int) -> int:
    """The bytes of match ``match_id``'s page, its style sheet and its scripts, as a browser loads them
    (images aside)."""
    async with aiohttp.ClientSession() as browser:
        async with browser.get(f"{base}/m/{match_id}") as answer:
            html = await answer.text()
        total = len(html.encode())
        for asset in ("/static/web.css", "/static/live.js"):
            if asset in html:
                async with browser.get(f"{base}{asset}") as answer:
                    total += len(await answer.read())
    return total


async def _play(
    host: GameHost, match: MatchRecord, person: Player, moves: int, watch: LoopWatch, crowd: Crowd
) -> int:
    """The person's moves in ``match``, each followed until every spectator has heard of it."""

    async def heard(after: MatchRecord) -> None:
        await crowd.reach(after.version)

    return await play_as(host, match, person, moves, watch, heard)


async def measure_web(
    folder: Path, games: Sequence[str], moves: int = MOVES, spectators: int = SPECTATORS
) -> dict[str, Any]:
    """The ``web`` figures, on a new store in ``folder``: ``spectators`` follow a match of each of
    ``games`` while its person plays ``moves`` moves."""
    stores = await open_stores(folder / "web.db", clock=utc_now)
    versions = stores.matches.versions = StampedVersions()
    host = GameHost(stores.matches, seed_source=lambda: 5)
    for game in games:  # loaded before the watch begins, as a running table has them
        host.policy(game, "greedy")
    app = create_app(host, stores.settings)
    # The spectators stand for people at as many addresses, though they all come from this one.
    app[LIVE].streams_per_address = spectators
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    # What start-up built is set aside from the collector, as the bot's process does once it is ready.
    thresholds = set_heap_aside()
    update: list[float] = []
    page: list[float] = []
    sizes: dict[str, int] = {}
    watch = LoopWatch()
    played = 0
    try:
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
        base = f"http://127.0.0.1:{port}"
        person = Player(user_id=1, name="person")
        for game in games:
            match = await against_computers(host, game, person)
            await page_bytes(base, match.id)  # its templates read, as a running table has them
            crowd = await Crowd.watching(base, match.id, spectators)
            first = crowd.reached
            # What the setting up left behind is collected now, as ``bench.stall`` does, so that it
            # cannot fall due during the watch; what the spectators make is the watch's own.
            gc.collect()
            watch.start()
            try:
                played += await _play(host, match, person, moves, watch, crowd)
            finally:
                await watch.stop()
                seen = await crowd.leave()
            stamps = {v: t for (m, v), t in versions.stamps.items() if m == match.id and v > first}
            update += delays(stamps, seen["events"])
            page += delays(stamps, seen["pages"])
            sizes[game] = await page_bytes(base, match.id)
        floor = await idle_floor(2.0)
    finally:
        restore_heap(thresholds)
        await runner.cleanup()
        await stores.close()
    return {
        "spectators": spectators,
        "moves": played,
        "update_p95_ms": round(percentile(update, 0.95), 1),
        "update_median_ms": round(statistics.median(update), 1) if update else 0.0,
        "update_max_ms": round(max(update, default=0.0), 1),
        "page_p95_ms": round(percentile(page, 0.95), 1),
        "page_bytes": max(sizes.values(), default=0),
        "page_bytes_by_game": sizes,
        "loop": {
            "max_stall_ms": round(watch.longest * 1000, 1),
            "p99_stall_ms": watch.p99_ms(),
            "max_busy_ms": round(watch.longest_busy * 1000, 1),
            **floor,
        },
    }
