"""Big Apple: a Discord host for five New York board games.

``python bot.py [run|sync|demo|transcript|selfplay|bench|tournament-sim|web|web-link|...]``: the exact
contract is in the project's CLI notes.
Settings come from the environment or a ``.env`` file next to this script.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import logging
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine.core.errors import EngineError
from engine.core.options import parse_options

if TYPE_CHECKING:
    from cogs._client import WebSide

HERE = Path(__file__).resolve().parent

NO_TOKEN_MESSAGE = """\
No Discord token is configured, so the bot cannot connect.
To run it on Discord: create an application at https://discord.com/developers/applications,
add a bot user, copy its token, and put DISCORD_TOKEN=<token> in the environment or in a .env
file next to bot.py (invite the bot with the "bot" and "applications.commands" scopes).
Without a token, `python bot.py demo` plays a whole match offline."""


class Settings(BaseSettings):
    """Runtime settings: environment variables, or a ``.env`` file next to ``bot.py``."""

    model_config = SettingsConfigDict(env_file=HERE / ".env", extra="ignore")

    discord_token: SecretStr | None = None
    # A SQLite file, or a postgresql:// URL for several processes on one database.
    bigapple_db: str = str(HERE / "bigapple.db")
    # The Discord shards this process runs (e.g. 0-3) out of BIGAPPLE_SHARD_COUNT; unset: all of them.
    bigapple_shard_ids: str | None = None
    bigapple_shard_count: int | None = None
    bigapple_dev_guild: int | None = None
    bigapple_render_workers: int | None = None  # processes that draw images; default one per core, 0 a thread
    bigapple_think_workers: int | None = None  # processes where strong computers think; likewise
    bigapple_retention_days: float = 30.0  # sent notices older than this are deleted
    bigapple_web_url: str | None = None  # the web table's public address, which its links point to
    bigapple_web_secret: SecretStr | None = None  # signs private links; unset: one kept in the database
    # Where the bot serves the web table in its own process; BIGAPPLE_WEB_SERVE=0: it does not (the table
    # runs as processes of its own, `python bot.py web`).
    bigapple_web_host: str = "127.0.0.1"
    bigapple_web_port: int = 8080
    bigapple_web_serve: bool = True
    log_level: str | None = None  # default: INFO for the bot, WARNING for the offline commands

    @property
    def has_token(self) -> bool:
        return self.discord_token is not None and bool(self.discord_token.get_secret_value().strip())


# --------------------------------------------------------------------------- commands


def cmd_run(settings: Settings, sync_only: bool = False) -> int:
    """Run the Discord bot until it is stopped (or, with ``sync_only``, push the commands and exit)."""
    if not settings.has_token or settings.discord_token is None:
        print(NO_TOKEN_MESSAGE, file=sys.stderr)
        return 2
    from cogs._client import BigApple
    from data.backend import open_stores
    from engine.host.shards import Shards

    try:
        shards = Shards.parse(settings.bigapple_shard_ids, settings.bigapple_shard_count)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    token = settings.discord_token.get_secret_value().strip()
    web_side = beside_the_bot(settings, serve=not sync_only)
    bot = BigApple(
        settings.bigapple_db,
        open_stores,
        settings.bigapple_dev_guild,
        render_workers=settings.bigapple_render_workers,
        think_workers=settings.bigapple_think_workers,
        retention=timedelta(days=settings.bigapple_retention_days),
        shards=shards,
        set_heap_aside=True,
        web=web_side,
    )

    async def sync() -> None:
        async with bot:
            await bot.login(token)
            count = await bot.sync_commands()
            scope = f"guild {settings.bigapple_dev_guild}" if settings.bigapple_dev_guild else "all servers"
            print(f"synced {count} slash commands to {scope}")

    async def serve() -> None:
        async with bot:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, lambda: asyncio.ensure_future(bot.close()))
            await bot.start(token)

    from engine.host import event_loop

    event_loop.run(sync() if sync_only else serve())
    return 0


def beside_the_bot(settings: Settings, serve: bool = True) -> WebSide:
    """The web table beside the bot: its links in Discord once ``BIGAPPLE_WEB_URL`` is set, and, unless
    ``BIGAPPLE_WEB_SERVE`` is 0 (or not ``serve``), the table served in the bot's process on
    ``BIGAPPLE_WEB_HOST``:``BIGAPPLE_WEB_PORT``, on the bot's host and stores, its moves told to the
    bot's outbox."""
    from cogs._client import BigApple, WebSide
    from web.links import pass_for
    from web.serving import Beside, serve_beside

    async def serve_in(bot: BigApple) -> Beside | None:
        return await serve_beside(
            bot.host,
            bot.settings,
            host=settings.bigapple_web_host,
            port=settings.bigapple_web_port,
            secret=bot.web_links.secret.decode() or None,
            clock=bot.clock,
            draw=bot.renderer.render,
            on_move=bot.kick_outbox,
        )

    return WebSide(
        url=settings.bigapple_web_url,
        secret=web_secret(settings),
        sign=pass_for,
        serve=serve_in if serve and settings.bigapple_web_serve else None,
    )


def cmd_demo(args: argparse.Namespace) -> int:
    import lang
    from data.store import SqliteMatchStore
    from engine.host.demo import run_demo
    from render.registry import render_view

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def save_image(name: str, data: bytes) -> None:
        (out / name).write_bytes(data)

    async def play() -> int:
        store = await SqliteMatchStore.open(out / "bigapple.db")
        try:
            return await run_demo(
                store,
                args.game,
                args.players,
                parse_options(args.options),
                args.seed,
                print,
                save_image,
                render_view,
                locale=args.locale or lang.from_environment(os.environ),
                notation=args.notation,
            )
        finally:
            await store.close()

    return asyncio.run(play())


def cmd_transcript(args: argparse.Namespace) -> int:
    import tempfile

    import lang
    from data.store import SqliteMatchStore
    from engine.host.transcript import run_transcript
    from render.registry import render_view

    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)

    def save_image(name: str, data: bytes) -> None:
        assert out is not None
        (out / name).write_bytes(data)

    async def play(folder: Path) -> int:
        store = await SqliteMatchStore.open(folder / "bigapple.db")
        try:
            return await run_transcript(
                store,
                args.game,
                args.players,
                parse_options(args.options),
                args.seed,
                lang.pick(args.locale),
                print,
                save_image if out is not None else None,
                render_view if out is not None else None,
            )
        finally:
            await store.close()

    with tempfile.TemporaryDirectory() as scratch:
        return asyncio.run(play(Path(scratch)))


def cmd_selfplay(args: argparse.Namespace) -> int:
    from engine.host.selfplay import play_match
    from engine.registry import get_game, get_policy

    rules = get_game(args.game)
    options = parse_options(args.options)
    rules.validate_setup(args.players, options)
    policies = [get_policy(rules.name, name) for name in args.bots.split(",")]
    finished = failed = total_moves = 0
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        t0 = time.perf_counter()
        result = play_match(rules, args.players, seed, options, policies)
        ms = (time.perf_counter() - t0) * 1000
        line: dict[str, Any] = {
            "game": rules.name,
            "options": sorted(options),
            "seed": seed,
            "players": args.players,
            "moves": result.moves,
            "scores": list(result.outcome.scores) if result.outcome else None,
            "places": list(result.outcome.places) if result.outcome else None,
            "ms": round(ms, 2),
        }
        if result.error:
            line["error"] = result.error
            failed += 1
        else:
            finished += 1
        total_moves += result.moves
        print(json.dumps(line), flush=True)
    elapsed = time.perf_counter() - started
    summary = {
        "games": args.games,
        "finished": finished,
        "failed": failed,
        "mean_moves": round(total_moves / args.games, 2) if args.games else 0,
        "games_per_s": round(args.games / elapsed, 2) if elapsed > 0 else 0,
    }
    print(json.dumps({"summary": summary}))
    return 1 if failed else 0


def cmd_seat_advantage(args: argparse.Namespace) -> int:
    from engine.host.seat_advantage import measure

    figures = measure(
        args.game, args.players, args.matches, args.seed, parse_options(args.options), args.workers
    )
    print(json.dumps(figures.line()))
    return 0


# What each part of ``bench`` takes in full on a quiet two-core machine, in seconds (see ``TimeBudget``).
RENDER_PART_S = 3.0  # a self-play match and its boards timed, per game
STORE_PART_S = 30.0  # per 2,000 moves (a read, a commit with two notices, their sending), three ways
SIZE_PART_S = 0.8  # a whole computer match stored and sent, per game
STALL_PART_S = 0.5  # per game
E2E_START_S = 2.0  # the bot's start and its matches
E2E_MOVE_S = 0.1  # per move timed
STALL_MOVES = 30
REPLAY_PART_S = 20.0  # a long match made, and 40 replay presses in 10 s answered
REPLAY_PRESSES = 40
REPLAY_SECONDS = 10.0
ANIMATION_PART_S = 20.0  # the animation of the longest match, at most LONGEST_MOVES moves of it
LONGEST_MOVES = 200
LONGEST_MATCH = ("skyline", 4, 1)  # a random 4-seat Skyline of 520 moves, the longest selfplay makes cheaply


def cmd_bench(args: argparse.Namespace) -> int:
    from bench.engine import TimeBudget, bench_engine, greedy_first_rate
    from bench.render import SAMPLES, measure_animation, measure_longest_animation, measure_render
    from bench.store import measure_store
    from bench.store_size import measure_store_size
    from bench.strength import measure_strength
    from engine.host.selfplay import play_match
    from engine.registry import GAMES, POLICIES, get_game, get_policy

    slugs = [get_game(args.game).name] if args.game else sorted(GAMES)
    if args.only == "web":
        web_only = {"web": web_figures(slugs, args.web_moves, args.spectators)}
        print(json.dumps(web_only) if args.json else f"web: {json.dumps(web_only['web'])}")
        return 0
    per_game = args.seconds / max(1, len(slugs))
    parts = {f"engine:{slug}": per_game for slug in slugs}
    parts.update({f"render:{slug}": RENDER_PART_S for slug in slugs})
    parts["store"] = STORE_PART_S * args.store_actions / 2000
    parts["size"] = SIZE_PART_S * len(slugs)
    parts["stall"] = STALL_PART_S * len(slugs)
    parts["replay"] = REPLAY_PART_S
    parts["e2e"] = E2E_MOVE_S * args.e2e_moves
    parts["animation"] = ANIMATION_PART_S
    # Without --full the run must end within 90 s however busy the machine: when it falls behind, the
    # parts still to run sample less.
    budget = TimeBudget(args.budget, parts, fixed={"e2e": E2E_START_S})

    def timed(part: str, started: float, paced: bool = True) -> None:
        budget.spent(part, time.perf_counter() - started, paced)

    games = {}
    for slug in slugs:
        rules = GAMES[slug]
        seats = max(n for n in rules.seat_counts if n <= 4)
        started = time.perf_counter()
        seconds = per_game * budget.share(f"engine:{slug}")
        games[slug] = bench_engine(rules, get_policy(slug, "random"), seats, seconds=seconds)
        timed(f"engine:{slug}", started, paced=False)  # it stops at its time, however fast the machine
        started = time.perf_counter()
        samples = budget.scaled(f"render:{slug}", SAMPLES, least=6)
        views: list[Any] = []
        play_match(rules, seats, 1, frozenset(), [get_policy(slug, "greedy")], on_state=views.append)
        boards = [rules.view(state, None) for state in views]  # the public board only
        names = [f"Player {n + 1}" for n in range(seats)]
        games[slug].update(measure_render(slug, boards, names, samples) or {})
        ends = [True, *(rules.to_act(a) != rules.to_act(b) for a, b in itertools.pairwise(views))]
        games[slug].update(measure_animation(slug, boards, ends, names, samples) or {})
        timed(f"render:{slug}", started)
        if args.winrate:
            greedy, others = get_policy(slug, "greedy"), get_policy(slug, "random")
            games[slug]["greedy_first_rate"] = greedy_first_rate(rules, greedy, others, 3, args.winrate)
            if "strong" in POLICIES[slug]:
                games[slug]["strong"] = measure_strength(slug, args.winrate)
    started = time.perf_counter()
    actions = budget.scaled("store", args.store_actions, least=100)
    with tempfile.TemporaryDirectory() as tmp:
        store = asyncio.run(measure_store(actions=actions, tmp_dir=Path(tmp)))
        timed("store", started)
        started = time.perf_counter()
        # Whole matches are the unit here: one of each game at least, two with --full.
        store.update(asyncio.run(measure_store_size(Path(tmp), slugs, per_game=2 if args.full else 1)))
        timed("size", started, paced=False)
    from bench.stall import idle_floor, measure_stall
    from data.store import SqliteMatchStore

    started = time.perf_counter()
    stall_moves = budget.scaled("stall", STALL_MOVES, least=5)
    # The parts before leave their garbage behind, which a bot's process would not have: collected now,
    # it cannot fall due during the watch.
    gc.collect()

    async def stall(folder: Path) -> dict[str, Any]:
        async with await SqliteMatchStore.open(folder / "stall.db") as stall_store:
            return await measure_stall(stall_store, slugs, moves=stall_moves)

    with tempfile.TemporaryDirectory() as tmp:
        loop_figures = asyncio.run(stall(Path(tmp)))
        loop_figures.pop("moves")
    timed("stall", started)
    from tests.discord.replay_bench import measure_replay_stall

    started = time.perf_counter()
    # Fewer presses when the run is late, at the same rate.
    presses = budget.scaled("replay", REPLAY_PRESSES, least=8)
    replay_seconds = REPLAY_SECONDS * presses / REPLAY_PRESSES
    replay = asyncio.run(measure_replay_stall(presses, replay_seconds))
    loop_figures["max_stall_ms_replay"] = replay["max_stall_ms_replay"]
    loop_figures["p99_stall_ms_replay"] = replay["p99_stall_ms_replay"]
    # The floor, in the same run: what the machine alone makes an idle loop wait over as long.
    loop_figures.update(asyncio.run(idle_floor(replay_seconds)))
    timed("replay", started)
    started = time.perf_counter()
    # The whole match with --full; without, as many of its moves as the time allows (or as asked).
    longest = args.animation_moves
    if longest is None and not args.full:
        longest = budget.scaled("animation", LONGEST_MOVES, least=60)
    animation = measure_longest_animation(*LONGEST_MATCH, moves=longest)
    timed("animation", started)
    from tests.discord.e2e_bench import measure_e2e

    e2e_moves = budget.scaled("e2e", args.e2e_moves, least=len(slugs))
    # Its own check as well: each game takes fewer moves once the run is late (one at least).
    e2e = asyncio.run(measure_e2e(moves=e2e_moves, games=slugs, seconds=max(0.0, budget.left())))
    e2e.pop("samples")
    cut = {part: round(share, 2) for part, share in budget.shares.items() if share < 1}
    if cut:
        print(
            f"bench: the machine ran {budget.pace:.1f} times slower than a quiet one; "
            f"these parts sampled less to end in time: {json.dumps(cut)}",
            file=sys.stderr,
        )
    if args.full:
        from tests.discord.turns_bench import measure_turns

        for slug in slugs:
            turns = asyncio.run(measure_turns(slug, max_moves=args.turn_moves, bob_by_dm=True))
            turns.pop("checks")
            games[slug]["turns"] = turns
    report: dict[str, Any] = {"games": games, "store": store, "e2e_ms": e2e, "loop": loop_figures}
    report["animation"] = animation
    if args.full:
        from tests.discord.throughput_bench import measure_throughput

        throughput = asyncio.run(
            measure_throughput(matches=args.throughput_matches, budget_s=args.throughput_seconds)
        )
        throughput.pop("checks")
        report["throughput"] = throughput
        with tempfile.TemporaryDirectory() as tmp:
            crowded = asyncio.run(tournament_moves(Path(tmp), args.tournaments, args.tournament_moves))
        crowded.pop("checks")
        report["tournaments"] = crowded
        report["web"] = web_figures(slugs, args.web_moves, args.spectators)
    if args.json:
        print(json.dumps(report))
    else:
        for slug, figures in games.items():
            print(f"{slug}: {json.dumps(figures)}")
        print(f"store: {json.dumps(store)}")
        print(f"e2e_ms: {json.dumps(e2e)}")
        print(f"loop: {json.dumps(loop_figures)}")
        print(f"animation: {json.dumps(animation)}")
        for section in ("throughput", "tournaments", "web"):
            if section in report:
                print(f"{section}: {json.dumps(report[section])}")
    return 0


def web_figures(games: list[str], moves: int, spectators: int) -> dict[str, Any]:
    """``web`` of ``bench --full``: the web table followed live by ``spectators`` pages while a person
    plays ``moves`` moves of each game (see ``bench.web``), on the event loop the bot runs on."""
    from bench.web import measure_web
    from engine.host import event_loop

    with tempfile.TemporaryDirectory() as tmp:
        return event_loop.run(measure_web(Path(tmp), games, moves=moves, spectators=spectators))


async def tournament_moves(folder: Path, count: int, moves: int) -> dict[str, Any]:
    """``tournaments`` of ``bench --full``: moves timed among ``count`` running tournaments in a new
    store in ``folder`` (see ``bench.tournaments``)."""
    from bench.tournaments import measure_tournament_moves
    from data.ratings import SqliteRatings
    from data.store import SqliteMatchStore
    from data.tournaments import SqliteTournamentStore
    from engine.host.service import GameHost
    from engine.host.tournaments import TournamentHost

    async with await SqliteMatchStore.open(folder / "tournaments.db") as store:
        database = store.database
        durable = await database.on_worker(lambda raw: raw.execute("PRAGMA synchronous").fetchone()[0])
        # The field is made without syncing each commit to disk; the timed moves commit as the bot does.
        await database.on_worker(lambda raw: raw.execute("PRAGMA synchronous = OFF").fetchall())

        async def durable_again() -> None:
            await database.on_worker(
                lambda raw: raw.execute(f"PRAGMA synchronous = {int(durable)}").fetchall()
            )

        host = GameHost(store, seed_source=lambda: 1)
        tournaments = TournamentHost(host, SqliteTournamentStore.beside(store), seed_source=lambda: 1)
        return await measure_tournament_moves(
            host,
            tournaments,
            count=count,
            moves=moves,
            finishing=min(5, max(1, count // 100)),  # first rounds played out: one in a hundred, at most five
            rate=SqliteRatings.from_store(store).record,
            before_timing=durable_again,
        )


def cmd_tournament_sim(args: argparse.Namespace) -> int:
    from bench.tournament_sim import simulate
    from data.store import SqliteMatchStore
    from data.tournaments import SqliteTournamentStore
    from engine.host.service import GameHost
    from engine.host.tournaments import TournamentHost

    async def play(folder: Path) -> list[dict[str, Any]]:
        store = await SqliteMatchStore.open(folder / "tournament.db")
        try:
            host = GameHost(store)
            tournaments = TournamentHost(host, SqliteTournamentStore.beside(store))
            return await simulate(
                tournaments,
                args.game,
                args.players,
                args.format,
                parse_options(args.options),
                args.table_size,
                args.rounds,
                args.seed,
                print,
            )
        finally:
            await store.close()

    try:
        with tempfile.TemporaryDirectory() as tmp:
            rows = asyncio.run(play(Path(tmp)))
    except EngineError:
        raise  # a refused set-up (unknown game, impossible field) is reported by main with exit code 2
    except Exception as exc:  # any failure of the run itself is reported, with exit code 1
        print(f"tournament-sim failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps({"standings": rows}))
    return 0


def cmd_league_sim(args: argparse.Namespace) -> int:
    from bench.league_sim import simulate

    if args.players < 2 or args.days < 1:
        print("league-sim needs at least 2 players and 1 day", file=sys.stderr)
        return 2

    def said(line: dict[str, Any]) -> None:
        print(json.dumps(line), flush=True)

    try:
        # A month of moves written to disk at every commit would spend most of its time waiting for the
        # disk: the store lives in memory when the system has a folder there.
        memory = "/dev/shm" if Path("/dev/shm").is_dir() else None
        with tempfile.TemporaryDirectory(dir=memory) as tmp:
            summary = asyncio.run(simulate(Path(tmp), args.players, args.days, args.seed, said))
    except Exception as exc:  # any failure of the run itself is reported, with exit code 1
        print(f"league-sim failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    said({"summary": summary})
    return 0


def cmd_clock_sim(args: argparse.Namespace) -> int:
    from bench.clock_sim import simulate
    from data.store import SqliteMatchStore
    from engine.host.clock import Pace

    def emit(record: dict[str, Any]) -> None:
        print(json.dumps(record), flush=True)

    async def play(folder: Path) -> dict[str, Any]:
        async with await SqliteMatchStore.open(folder / "clock.db") as store:
            return await simulate(
                store, args.game, args.players, Pace(args.clock), args.silent_seat, args.seed, emit
            )

    try:
        with tempfile.TemporaryDirectory() as tmp:
            summary = asyncio.run(play(Path(tmp)))
    except EngineError:
        raise
    except Exception as exc:
        print(f"clock-sim failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps({"summary": summary}))
    return 0 if summary["finished"] else 1


def web_secret(settings: Settings) -> str | None:
    return settings.bigapple_web_secret.get_secret_value() if settings.bigapple_web_secret else None


def cmd_web(
    args: argparse.Namespace, settings: Settings, announce: Callable[[str], None] | None = None
) -> int:
    """Serve the web table on the store until stopped, after printing its address as one JSON line (or
    telling ``announce``, the newcomer's invitation, with ``--play``)."""
    from data.backend import open_stores
    from engine.host import event_loop
    from web.serving import serve

    def as_json(url: str) -> None:
        print(json.dumps({"web": url}), flush=True)

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await serve(
            args.db or settings.bigapple_db,
            open_stores,
            host=args.host,
            port=args.port,
            secret=web_secret(settings),
            announce=announce or as_json,
            stop=stop,
            guest=args.play,
            any_port=announce is not None,
        )

    try:
        event_loop.run(run())
    except RuntimeError as exc:  # the store refused this process (see data.backend.open_stores)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_web_link(args: argparse.Namespace, settings: Settings) -> int:
    """Print the address of a match's public page, or the signed link of one seat's private page."""
    from data.backend import open_stores
    from data.db import FileInUse
    from engine.core.errors import MatchNotFound
    from web.serving import base_url, link

    if not Path(args.db).is_file():
        print(f"error: there is no database at {args.db}", file=sys.stderr)
        return 1
    base = base_url(settings.bigapple_web_url, args.host, args.port)
    asked = {"match_id": args.match, "seat": args.seat, "base": base, "secret": web_secret(settings)}
    try:
        try:
            url = asyncio.run(link(args.db, open_stores, **asked))
        except FileInUse:
            url = link_beside(args.db, **asked)
    except MatchNotFound as exc:
        print(f"error: {exc.describe()}", file=sys.stderr)
        return 1
    except (ValueError, RuntimeError) as exc:  # a seat the match lacks; a database that cannot be opened
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps({"public" if args.seat is None else "private": url}))
    return 0


def link_beside(database: str, match_id: int, seat: int | None, base: str, secret: str | None) -> str:
    """``web.serving.link`` while the bot or the web table holds the SQLite file: what the link needs
    is read without taking the file, and the signing key is the one the web table keeps there."""
    from data import peek
    from engine.core.errors import MatchNotFound
    from engine.host import link_secret
    from web.serving import signed_link

    seats = peek.seat_count(database, match_id)
    if seats is None:
        raise MatchNotFound(f"there is no match {match_id}")
    kept = secret or peek.setting(database, *link_secret.INSTALLATION, link_secret.KEY)
    if seat is not None and not kept:
        raise RuntimeError(
            "the web table has not made its signing key yet: start `web` once, or set BIGAPPLE_WEB_SECRET"
        )
    key = (kept or "").strip().encode()
    return signed_link(base, match_id, seats, seat, key, datetime.now(UTC))


# ------------------------------------------------------------------------------ parsing


def cmd_replay(args: argparse.Namespace) -> int:
    from data.db import FileInUse
    from data.store import SqliteMatchStore
    from engine.core.errors import MatchNotFound
    from engine.host.history import match_frames
    from engine.host.service import GameHost
    from render.animation import animate_boards
    from render.registry import render_view

    database = Path(args.db)
    if not database.is_file():
        print(f"error: there is no database at {database}", file=sys.stderr)
        return 1

    async def frames() -> tuple[Any, Any, list[Any]]:
        async with await SqliteMatchStore.open(database) as store:
            host = GameHost(store)
            match = await host.match(args.match)
            return host, match, await match_frames(host, match)

    try:
        host, match, shown = asyncio.run(frames())
    except MatchNotFound as exc:
        print(f"error: {exc.describe()}", file=sys.stderr)
        return 1
    except FileInUse as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    rules = host.rules(match.game)
    if args.seat is not None and not 0 <= args.seat < match.seat_count:
        print(
            f"error: match {match.id} has seats 0 to {match.seat_count - 1}, not {args.seat}", file=sys.stderr
        )
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for frame in shown:
        png = render_view(match.game, rules.view(frame.state, args.seat), match.seat_names())
        if png is None:
            print(f"error: {match.game} has no renderer", file=sys.stderr)
            return 2
        (out / f"move-{frame.number:04d}.png").write_bytes(png)
    line: dict[str, Any] = {"match": match.id, "frames": len(shown), "actions": len(shown) - 1}
    if args.animation:
        # The public boards, as the final post carries them, whichever seat's views were written.
        boards = [(rules.view(frame.state, None), frame.turn_ends) for frame in shown]
        animation = animate_boards(match.game, boards, match.seat_names())
        (out / f"match-{match.id}.gif").write_bytes(animation)
        line["animation_bytes"] = len(animation)
    print(json.dumps(line))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    """Print the statistics a finished match's final post draws, as one JSON object."""
    import sqlite3

    from data.db import FileInUse
    from data.store import SqliteMatchStore
    from engine.core.errors import EngineError
    from engine.host.match_stats import stored_match_stats
    from engine.host.service import GameHost

    database = Path(args.db)
    if not database.is_file():
        print(f"error: there is no database at {database}", file=sys.stderr)
        return 1

    async def compute() -> Any:
        async with await SqliteMatchStore.open(database) as store:
            host = GameHost(store)
            return await stored_match_stats(host, await host.match(args.match))

    try:
        stats = asyncio.run(compute())
    except (EngineError, FileInUse) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except sqlite3.DatabaseError as exc:
        print(f"error: {database} is not a database of the bot ({exc})", file=sys.stderr)
        return 1
    print(stats.model_dump_json(indent=2 if not args.json else None))
    return 0


def lang_choices() -> tuple[str, ...]:
    from lang import SUPPORTED

    return SUPPORTED


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bot.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    sub.add_parser("sync", help="sync slash commands and exit")

    demo = sub.add_parser("demo", help="play one whole match offline with computer players")
    demo.add_argument("--game", default="ny_piatnik")
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--options", default="")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--out", default="demo")
    demo.add_argument(
        "--locale",
        choices=lang_choices(),
        default=None,
        help="default: the environment's language if we speak it",
    )
    demo.add_argument(
        "--notation", action="store_true", help="print the engine's log notation instead of words"
    )

    transcript = sub.add_parser("transcript", help="a whole match as its players read it, in one language")
    transcript.add_argument("--game", required=True)
    transcript.add_argument("--players", type=int, default=3)
    transcript.add_argument("--options", default="")
    transcript.add_argument("--seed", type=int, default=1)
    transcript.add_argument("--locale", choices=lang_choices(), default="en")
    transcript.add_argument("--out", default=None)

    selfplay = sub.add_parser("selfplay", help="engine-only matches between computer players, JSON lines")
    selfplay.add_argument("--game", required=True)
    selfplay.add_argument("--players", type=int, required=True)
    selfplay.add_argument("--options", default="")
    selfplay.add_argument("--games", type=int, default=10)
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--bots", default="greedy", help="comma-separated policies, cycled over the seats")

    seats = sub.add_parser(
        "seat-advantage", help="how often each seat finishes first when the strongest computer plays them all"
    )
    seats.add_argument("--game", required=True)
    seats.add_argument("--players", type=int, required=True)
    seats.add_argument("--matches", type=int, required=True)
    seats.add_argument("--seed", type=int, default=1, help="match i (from 0) is dealt with seed S + i")
    seats.add_argument("--options", default="")
    seats.add_argument(
        "--workers", type=int, default=1, help="processes playing the matches (the figures stay the same)"
    )

    sim = sub.add_parser("tournament-sim", help="a whole tournament between computer players")
    sim.add_argument("--game", required=True)
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--format", required=True, choices=["swiss", "elimination", "roundrobin"])
    sim.add_argument("--table-size", type=int)
    sim.add_argument("--rounds", type=int)
    sim.add_argument("--options", default="")
    sim.add_argument("--seed", type=int, default=1)

    league = sub.add_parser("league-sim", help="a server's people finding games for days, on a virtual clock")
    league.add_argument("--players", type=int, required=True)
    league.add_argument("--days", type=int, required=True)
    league.add_argument("--seed", type=int, default=1)

    clock_sim = sub.add_parser("clock-sim", help="a match on a virtual clock where one seat never answers")
    clock_sim.add_argument("--game", required=True)
    clock_sim.add_argument("--players", type=int, default=3)
    clock_sim.add_argument("--clock", choices=["relaxed", "daily", "fast"], default="daily")
    clock_sim.add_argument("--silent-seat", type=int, default=1, help="the seat (from 0) that never answers")
    clock_sim.add_argument("--seed", type=int, default=1)

    replay = sub.add_parser("replay", help="a stored match's board after every move, as PNGs (and a GIF)")
    replay.add_argument("--db", required=True, help="the SQLite database file")
    replay.add_argument("--match", type=int, required=True)
    replay.add_argument("--out", required=True, help="the folder the images are written to")
    replay.add_argument("--seat", type=int, default=None, help="draw this seat's own view (from 0)")
    replay.add_argument("--animation", action="store_true", help="also the animation of the final post")

    stats = sub.add_parser("stats", help="the statistics of a finished match, as JSON")
    stats.add_argument("--db", required=True, help="the SQLite database file")
    stats.add_argument("--match", type=int, required=True)
    stats.add_argument("--json", action="store_true", help="one line of JSON (the default is indented)")

    web = sub.add_parser("web", help="serve the web table on the store, without Discord")
    web.add_argument("--host", default="127.0.0.1")
    web.add_argument("--port", type=int, default=8080)
    web.add_argument("--db", default=None, help="default: BIGAPPLE_DB")
    web.add_argument(
        "--play",
        action="store_true",
        help="also the pages where a newcomer plays against computer players (for a table only this "
        "computer reaches)",
    )

    web_link = sub.add_parser("web-link", help="the address of a match's page, or a seat's private link")
    web_link.add_argument("--db", required=True, help="the database file")
    web_link.add_argument("--match", type=int, required=True)
    web_link.add_argument("--seat", type=int, default=None, help="the seat (from 0) whose private link")
    web_link.add_argument(
        "--host", default="127.0.0.1", help="the web table's host, without BIGAPPLE_WEB_URL"
    )
    web_link.add_argument("--port", type=int, default=8080, help="the web table's port, likewise")

    bench = sub.add_parser("bench", help="speed figures (at most 90 s)")
    bench.add_argument("--game")
    bench.add_argument("--json", action="store_true")
    bench.add_argument("--seconds", type=float, default=20.0, help="time budget for the engine figures")
    bench.add_argument(
        "--budget",
        type=float,
        default=65.0,
        help="seconds the figures without --full aim at (at most 90 s); parts sample less on a slow machine",
    )
    bench.add_argument("--store-actions", type=int, default=500, help="moves timed for the store figures")
    bench.add_argument("--e2e-moves", type=int, default=40, help="moves timed through the fake Discord")
    bench.add_argument(
        "--winrate",
        type=int,
        default=0,
        metavar="N",
        help="also play N 3-player matches: one greedy against random players, one strong against greedy",
    )
    bench.add_argument(
        "--full",
        action="store_true",
        help="also what a turn costs (posts, mentions, requests, bytes and taps), the sustained move rate, "
        "moves among 1,000 running tournaments and the web table followed by 200 spectators",
    )
    bench.add_argument(
        "--turn-moves", type=int, default=150, help="moves played by menus per game with --full"
    )
    bench.add_argument(
        "--animation-moves",
        type=int,
        default=None,
        help="moves of the longest match animated (default: the whole match with --full, else what the "
        "time allows)",
    )
    bench.add_argument(
        "--throughput-matches", type=int, default=12, help="matches played at once for throughput (--full)"
    )
    bench.add_argument(
        "--tournaments", type=int, default=1000, help="tournaments running while moves are timed (--full)"
    )
    bench.add_argument(
        "--tournament-moves", type=int, default=200, help="moves timed among the tournaments (--full)"
    )
    bench.add_argument(
        "--only",
        choices=["web"],
        default=None,
        help="only these figures (web: the web table's, as --full has them)",
    )
    bench.add_argument(
        "--spectators", type=int, default=200, help="pages following a match for the web figures"
    )
    bench.add_argument(
        "--web-moves", type=int, default=20, help="a person's moves per game for the web figures"
    )
    bench.add_argument(
        "--throughput-seconds",
        type=float,
        default=75.0,
        help="time for the search of the sustained move rate (--full)",
    )
    return parser


def invite_newcomer(url: str) -> None:
    """What plain ``python bot.py`` says with no token: where to play in the browser, in the language of
    the environment (no option can set it here)."""
    from lang import from_environment, t

    said = t(
        from_environment(os.environ),
        "No DISCORD_TOKEN configured, so no Discord: open {address} in your browser to play a match "
        "against computer players. Ctrl+C stops the table; `python bot.py demo` plays a whole match here "
        "in the terminal, and `python bot.py run` explains how to connect to Discord.",
        address=f"{url}/",
    )
    print(said, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = Settings()
    fallback = args.command is None and not settings.has_token
    if fallback:
        args = build_parser().parse_args(["web", "--play", "--port", str(settings.bigapple_web_port)])
    default_level = "INFO" if args.command in (None, "run", "sync") else "WARNING"
    logging.basicConfig(
        level=(settings.log_level or default_level).upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        if args.command in (None, "run", "sync"):
            return cmd_run(settings, sync_only=args.command == "sync")
        if fallback:
            return cmd_web(args, settings, invite_newcomer)
        if args.command == "web":
            return cmd_web(args, settings)
        if args.command == "web-link":
            return cmd_web_link(args, settings)
        handlers = {
            "demo": cmd_demo,
            "selfplay": cmd_selfplay,
            "seat-advantage": cmd_seat_advantage,
            "bench": cmd_bench,
            "tournament-sim": cmd_tournament_sim,
            "league-sim": cmd_league_sim,
            "transcript": cmd_transcript,
            "clock-sim": cmd_clock_sim,
            "replay": cmd_replay,
            "stats": cmd_stats,
        }
        handler = handlers[args.command]
        return handler(args)
    except EngineError as exc:
        print(f"error: {exc.describe()}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
