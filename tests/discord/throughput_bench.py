"""Sustained throughput for ``python bot.py bench --full``: how many moves a second one bot carries through
the fake Discord while its board posts still arrive within ``LIMIT_MS`` (at the 95th percentile).

One bot (the real client, its store, its renderer as configured, and the local fake Discord) hosts
``matches`` matches at once across the games, made the way people make them (``/game new``, Join,
Start). Moves are then offered on a fixed schedule, ``rate`` a second (open loop: the schedule does not
wait for the bot), each a ``/move`` typed by the player to act in a match whose last board post has
arrived. A move's latency runs from its injection to the board post (or the edit of the turn's post)
that shows it. Each rate is held for a short warm-up and then a timed window; the search raises the
rate while the window's p95 stays within the limit, then bisects between the best rate that held and
the first that did not.

A rate holds when the p95 of its window is within the limit and the schedule was kept: nearly every
offer found a match ready to move (``MAX_MISSED``).

The bot runs in a process of its own (``tests.discord.bot_process``), as it runs against Discord: the
fake and this driver are not on its event loop, but they share the machine's cores with it, so what
they cost still weighs on the figure. The driver reads the matches from the bot's database file
through a read-only connection of its own.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import sqlite3
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from data.store import read_match
from engine.core.contract import load_state
from engine.host.ports import MatchRecord, MatchStatus
from engine.registry import GAMES, get_game
from tests.discord import bot_process
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeChannel, FakeMessage, FakeUser, NotInvokable, Upload

LIMIT_MS = 300.0
# A rate is not sustained when more than this share of its offers found no match ready to move.
MAX_MISSED = 0.05
# A move whose post has not come after this long counts as lost (its latency is this).
LOST_AFTER_S = 10.0
# Board posts carry the match and its version in the Play button; a finished match's last post
# carries the Rematch button instead.
PLAY = re.compile(r"^ba:play:(?P<match>[0-9]+):(?P<version>[0-9]+)$")
REMATCH = re.compile(r"^ba:rematch:(?P<match>[0-9]+)$")
FINISHED = 1 << 62  # the version a finished match's last post stands for
MIN_RATE = 0.5  # the search gives up below this many moves a second
WINDOW_S = 4.0  # the longest a rate is timed
# How long the bot's process may take to start (imports, login, commands synced) and to stop.
START_S = 60.0
STOP_S = 30.0


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest rank, as the other bench figures: the value at index ``int(fraction * n)``; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class PostWatch(FakeDiscord):
    """A fake Discord that notes when each match's board post (or its edit) for a version arrives."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board_version: dict[int, int] = {}  # match id -> latest version its thread shows
        self._waiting: dict[int, list[tuple[int, asyncio.Future[float]]]] = {}

    def _seen(self, message: FakeMessage) -> None:
        if message.ephemeral or not message.channel.is_thread:
            return  # a DM carries Play buttons too, but it is not the board post
        now = time.perf_counter()
        for button in message.buttons:
            custom_id = button.get("custom_id") or ""
            if found := PLAY.match(custom_id):
                self._arrived(int(found["match"]), int(found["version"]), now)
            elif found := REMATCH.match(custom_id):
                self._arrived(int(found["match"]), FINISHED, now)

    def _arrived(self, match_id: int, version: int, now: float) -> None:
        if version <= self.board_version.get(match_id, -1):
            return
        self.board_version[match_id] = version
        still = []
        for wanted, future in self._waiting.pop(match_id, []):
            if version >= wanted:
                if not future.done():
                    future.set_result(now)
            else:
                still.append((wanted, future))
        if still:
            self._waiting[match_id] = still

    def post_of(self, match_id: int, version: int) -> asyncio.Future[float]:
        """A future set to the moment the thread of ``match_id`` first shows ``version`` or later."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.board_version.get(match_id, -1) >= version:
            future.set_result(time.perf_counter())
        else:
            self._waiting.setdefault(match_id, []).append((version, future))
        return future

    async def _store_message(self, message: FakeMessage) -> None:
        self._seen(message)
        await super()._store_message(message)

    async def _edit_message(
        self, message: FakeMessage, body: dict[str, Any], files: Sequence[Upload], *, fill: bool = False
    ) -> None:
        await super()._edit_message(message, body, files, fill=fill)
        self._seen(message)


@dataclass
class Offer:
    """A move ready to be typed: the match, its thread, who types it, what, and the version it makes."""

    match_id: int
    thread: FakeChannel
    user: FakeUser
    notation: str
    version: int


@dataclass
class Level:
    """One rate held for a window: the latencies of the moves offered in it, and the offers missed."""

    rate: float
    samples: list[float] = field(default_factory=list)
    offered: int = 0
    missed: int = 0
    lost: int = 0
    aborted: bool = False
    window_s: float = 0.0
    cpu_s: float | None = None  # the bot's process's CPU time during the window, when known
    render_cpu_s: float | None = None  # its render processes' CPU time during the window, when known
    driver_cpu_s: float = 0.0  # this process's CPU time during the window (the fake and the driver)

    @property
    def p95(self) -> float:
        return percentile(self.samples, 0.95)

    @property
    def held(self) -> bool:
        return (
            not self.aborted
            and bool(self.samples)
            and self.p95 <= LIMIT_MS
            and self.missed <= MAX_MISSED * max(1, self.offered)
        )


class MatchReader:
    """The bot's matches as its database file holds them, read through a read-only connection of the
    driver's own (the bot's process holds the file's lock, and writes as it reads)."""

    def __init__(self, database: Path) -> None:
        self._raw = sqlite3.connect(f"file:{database}?mode=ro", uri=True, isolation_level=None)

    def match(self, match_id: int) -> MatchRecord:
        return read_match(self._raw, match_id)

    def versions(self) -> int:
        """How many actions the matches hold, all together."""
        return int(self._raw.execute("SELECT COALESCE(SUM(version), 0) FROM matches").fetchone()[0])

    def close(self) -> None:
        self._raw.close()


def cpu_seconds(pid: int) -> tuple[float, float] | None:
    """CPU seconds used so far by process ``pid`` (all its threads) and by its children, such as its
    render processes (Linux only; None elsewhere, or once it has gone)."""
    own, children = 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    try:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # a process that ended meanwhile
            seconds = (int(fields[11]) + int(fields[12])) / tick
            if int(entry.name) == pid:
                own = seconds
            elif int(fields[1]) == pid:
                children += seconds
    except (OSError, ValueError):
        return None
    return (own, children) if own else None


class BotProcess:
    """The bot under test, in a process of its own on ``database``, logged in to ``fake``; what it
    prints goes to ``log``."""

    def __init__(
        self, fake: FakeDiscord, database: Path, seed: int, render_workers: int | None, log: Path
    ) -> None:
        self.fake = fake
        self.database = database
        self.seed = seed
        self.render_workers = render_workers
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        """Start it and wait until it is on the gateway with its commands synced."""
        fake = self.fake
        workers = "auto" if self.render_workers is None else str(self.render_workers)
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                bot_process.command(
                    fake.port,
                    fake.token,
                    str(self.database),
                    "0",
                    1,
                    fake.guild.id,
                    *("--render-workers", workers, "--seed", str(self.seed), "--heap-aside"),
                ),
                cwd=bot_process.ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        process = self.process

        def ready() -> bool | None:
            if process.poll() is not None:
                raise RuntimeError(f"the bot's process stopped as it started:\n{self.tail()}")
            return (bool(fake.identify_payloads) and bool(fake.commands.get(fake.guild.id))) or None

        await fake.wait_until(ready, timeout=START_S, what="the bot's process on the gateway")

    def cpu(self) -> tuple[float, float] | None:
        """CPU seconds so far: the bot's process, and its render processes."""
        return cpu_seconds(self.process.pid) if self.process is not None else None

    def tail(self, lines: int = 40) -> str:
        """The last lines the bot's process printed."""
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    async def stop(self) -> None:
        """Stop it as a deployment does (SIGTERM: it closes, its render processes with it)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.to_thread(process.wait, STOP_S)
        except subprocess.TimeoutExpired:
            process.kill()
            await asyncio.to_thread(process.wait, STOP_S)


class Driver:
    """Keeps the matches and their next moves, and plays them at a given rate."""

    def __init__(self, bot: BotProcess, reader: MatchReader, fake: PostWatch, seed: int) -> None:
        self.bot = bot
        self.reader = reader
        self.fake = fake
        self.chooser = random.Random(seed)
        self.users: dict[int, FakeUser] = {}
        self.threads: dict[int, FakeChannel] = {}
        self.ready: deque[Offer] = deque()
        self.busy: set[asyncio.Task[None]] = set()
        self.tables: dict[int, tuple[str, list[FakeUser]]] = {}  # match id -> its game and players
        self.finished: list[int] = []  # matches that ended, to be replaced between rates
        self.replaced = 0
        self.stuck = 0
        self.played = 0  # moves whose board post arrived, warm-ups included
        self.refused = 0  # moves the fake would not send

    async def add_match(self, game: str, players: list[FakeUser]) -> int:
        """A match of ``game`` made, joined and started through the commands and buttons."""
        fake = self.fake
        known = {t.id for t in fake.threads(fake.general)}
        await (
            await fake.slash("game new", {"game": game, "players": len(players)}, user=players[0])
        ).response()
        thread = await fake.wait_until(
            lambda: next((t for t in fake.threads(fake.general) if t.id not in known), None), timeout=10
        )
        lobby = await fake.wait_for_message(thread, timeout=10)
        for joiner in players[1:]:
            join = _button(lobby, "ba:lobby:join:")
            lobby = await (await fake.click(lobby, join, user=joiner)).response()
        start = _button(lobby, "ba:lobby:start:")
        match_id = int(start.rsplit(":", 1)[1])
        await (await fake.click(lobby, start, user=players[0])).response()
        self.threads[match_id] = thread
        self.tables[match_id] = (game, players)
        self.users.update((u.id, u) for u in players)
        await self.prepare(match_id)
        return match_id

    async def prepare(self, match_id: int, shown: int | None = None) -> None:
        """Once the match's board post shows its latest version, queue a move of the player to act.
        ``shown``: a version whose post has arrived already (the usual case then reads the match once)."""
        for _ in range(100):
            match = self.reader.match(match_id)
            if match.status is not MatchStatus.ACTIVE or match.state_json is None:
                self.finished.append(match_id)
                return
            if match.version == shown:
                break
            await asyncio.wait_for(self.fake.post_of(match_id, match.version), LOST_AFTER_S)
            shown = match.version
        assert match.state_json is not None  # checked in the loop
        rules = get_game(match.game)
        state = load_state(rules, match.state_json)
        seat = min(rules.to_act(state))
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        notation = rules.notation(self.chooser.choice(rules.legal_actions(state, seat)))
        self.ready.append(
            Offer(match_id, self.threads[match_id], self.users[player.user_id], notation, match.version + 1)
        )

    async def _play(self, offer: Offer, level: Level | None) -> None:
        began = time.perf_counter()
        posted = self.fake.post_of(offer.match_id, offer.version)
        try:
            await self.fake.slash("move", {"notation": offer.notation}, user=offer.user, channel=offer.thread)
        except NotInvokable:
            # Discord would not send this /move (a notation longer than the option allows): not a move.
            self.refused += 1
            posted.cancel()
            await self.prepare(offer.match_id)
            return
        shown: int | None = None
        try:
            arrived = await asyncio.wait_for(posted, LOST_AFTER_S)
        except TimeoutError:
            arrived = began + LOST_AFTER_S
            if level is not None:
                level.lost += 1
        else:
            self.played += 1
            shown = offer.version
        if level is not None:
            level.samples.append(round((arrived - began) * 1000, 2))
        try:
            await self.prepare(offer.match_id, shown)
        except TimeoutError:
            self.stuck += 1  # its post never came: the match leaves the pool

    def _late(self, level: Level, started: dict[asyncio.Task[None], float], now: float) -> int:
        """Moves of the window that are over the limit already: answered late, or still unanswered."""
        waiting = sum(1 for task, at in started.items() if not task.done() and now - at > LIMIT_MS / 1000)
        return sum(1 for s in level.samples if s > LIMIT_MS) + waiting

    async def run(self, rate: float, window: float, warmup: float) -> Level:
        """Offer ``rate`` moves a second for ``warmup`` then ``window`` seconds; the window is timed.
        The level stops early once more than 5% of the window's moves (as planned) are over the limit."""
        level = Level(rate)
        interval = 1.0 / rate
        start = time.perf_counter()
        timed_from = start + warmup
        end = timed_from + window
        allowed_late = 0.05 * rate * window
        started: dict[asyncio.Task[None], float] = {}
        driver_cpu = 0.0
        bot_cpu: tuple[float, float] | None = None
        window_open = False
        n = 0
        while (at := start + n * interval) < end:
            delay = at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            n += 1
            timed = at >= timed_from
            if timed and not window_open:
                window_open = True
                driver_cpu, bot_cpu = time.process_time(), self.bot.cpu()
            if timed and self._late(level, started, time.perf_counter()) > allowed_late:
                level.aborted = True
                break
            if timed:
                level.offered += 1
            if not self.ready:
                level.missed += timed
                continue
            task = asyncio.create_task(self._play(self.ready.popleft(), level if timed else None))
            self.busy.add(task)
            task.add_done_callback(self.busy.discard)
            if timed:
                started[task] = time.perf_counter()
        level.window_s = max(0.0, min(time.perf_counter(), end) - timed_from)
        level.driver_cpu_s = time.process_time() - driver_cpu if window_open else 0.0
        after = self.bot.cpu()
        if bot_cpu is not None and after is not None:
            level.cpu_s, level.render_cpu_s = after[0] - bot_cpu[0], after[1] - bot_cpu[1]
        await self.settle()
        return level

    async def settle(self) -> None:
        """Wait for the moves in flight and their posts, then replace the matches that ended, so that
        every rate is offered to as many matches."""
        if self.busy:
            await asyncio.wait(set(self.busy), timeout=2 * LOST_AFTER_S)
        while self.finished:
            game, players = self.tables[self.finished.pop()]
            await self.add_match(game, players)
            self.replaced += 1


def per_move(seconds: float | None, level: Level) -> float | None:
    """``seconds`` of CPU as milliseconds per move timed in ``level`` (None when unknown)."""
    return None if seconds is None else round(1000 * seconds / max(1, len(level.samples)), 2)


def _button(message: FakeMessage, prefix: str) -> str:
    return next(b["custom_id"] for b in message.buttons if b["custom_id"].startswith(prefix))


def next_rate(
    tried: dict[float, bool], start: float, factor: float = 1.5, resolution: float = 0.08
) -> float | None:
    """The next rate to try, given the rates tried so far (rate -> whether it held): ``start`` first;
    up by ``factor`` from the best that held while none has failed; down by half while none has held;
    then halfway between the best that held and the lowest that failed above it, until the two are
    within ``resolution`` of each other (relative). None when the search is over."""
    if not tried:
        return start
    held = [rate for rate, ok in tried.items() if ok]
    failed = [rate for rate, ok in tried.items() if not ok]
    if not failed:
        return round(max(held) * factor, 1)
    lowest_failed = min(failed)
    below = [rate for rate in held if rate < lowest_failed]
    if not below:
        lower = round(lowest_failed / 2, 1)
        return lower if lower >= MIN_RATE and lower not in tried else None
    best = max(below)
    if (lowest_failed - best) / best <= resolution:
        return None
    middle = round((best + lowest_failed) / 2, 1)
    return None if middle in tried else middle


async def measure_throughput(
    matches: int = 12,
    games: Sequence[str] | None = None,
    start_rate: float = 10.0,
    window: float | None = None,
    warmup: float | None = None,
    budget_s: float = 75.0,
    max_levels: int = 10,
    seed: int = 1,
    render_workers: int | None = None,
) -> dict[str, Any]:
    """The throughput figures: ``moves_per_s`` (the best rate that held, 0 when none did), ``p95_ms`` at
    that rate, ``matches`` and ``offered`` ([rate, p95] per rate tried, in order). ``checks`` holds what
    a test or a reader of the figures looks at: per rate tried, its latencies and offers, and the CPU
    time the bot's process, its render processes and the fake with the driver spent, each per move
    timed. ``render_workers``: the bot's render processes (None: one a core). The search stops once
    ``budget_s`` seconds have gone (levels, not set-up). Each rate is timed for ``window`` seconds after
    ``warmup``; by default a fifteenth of the budget (at most 4 s, at least 0.5 s) and a quarter of that."""
    window = window or min(WINDOW_S, max(0.5, budget_s / 15))
    warmup = window / 4 if warmup is None else warmup
    games = list(games or sorted(GAMES))
    fake = PostWatch(ack_deadline=LOST_AFTER_S)
    people = [fake.add_user(f"player{n}") for n in range(3 * matches)]
    await fake.start()
    levels: list[Level] = []
    started = time.perf_counter()
    setup_s = 0.0
    stored = 0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            database = Path(tmp) / "throughput.db"
            bot = BotProcess(fake, database, seed, render_workers, Path(tmp) / "bot.log")
            await bot.start()
            reader = MatchReader(database)
            try:
                driver = Driver(bot, reader, fake, seed)
                for number in range(matches):
                    game = games[number % len(games)]
                    # Every third match has three players (when the game allows), the others two.
                    seats = 3 if number % 3 == 2 and 3 in GAMES[game].seat_counts else 2
                    seated = people[3 * number : 3 * number + seats]
                    await driver.add_match(game, seated)
                setup_s = time.perf_counter() - started
                began = time.perf_counter()
                tried: dict[float, bool] = {}
                # A rate takes its warm-up, its window and about a second to settle.
                while (
                    len(levels) < max_levels and time.perf_counter() - began + warmup + window + 1 <= budget_s
                ):
                    rate = next_rate(tried, start_rate)
                    if rate is None or rate in tried:
                        break
                    level = await driver.run(rate, window, warmup)
                    levels.append(level)
                    tried[rate] = level.held
                await driver.settle()
                stored = reader.versions()
            except BaseException as exc:
                exc.add_note(f"the bot's process printed:\n{bot.tail()}")
                raise
            finally:
                reader.close()
                await bot.stop()
    finally:
        await fake.stop()
    best = max((level for level in levels if level.held), key=lambda level: level.rate, default=None)
    return {
        "moves_per_s": best.rate if best else 0.0,
        "p95_ms": best.p95 if best else None,
        "matches": matches,
        "offered": [[level.rate, level.p95] for level in levels],
        "checks": {
            "levels": [
                {
                    "rate": level.rate,
                    "held": level.held,
                    "p95_ms": level.p95,
                    "samples_ms": level.samples,
                    "offered": level.offered,
                    "missed": level.missed,
                    "lost": level.lost,
                    "aborted": level.aborted,
                    "window_s": round(level.window_s, 3),
                    "cpu_ms_per_move": per_move(level.cpu_s, level),
                    "render_cpu_ms_per_move": per_move(level.render_cpu_s, level),
                    "driver_cpu_ms_per_move": per_move(level.driver_cpu_s, level),
                }
                for level in levels
            ],
            "replaced_matches": driver.replaced,
            "moves_played": driver.played,
            "versions_stored": stored,
            "stuck_matches": driver.stuck,
            "refused_moves": driver.refused,
            "setup_s": round(setup_s, 2),
            "seconds": round(time.perf_counter() - started, 2),
        },
    }
