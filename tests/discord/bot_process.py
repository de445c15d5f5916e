"""A Big Apple bot in a process of its own, connected to a fake Discord served by another process, as a
bot runs against Discord: for tests that run several bot processes on one database and kill one with
SIGKILL, and for the throughput bench, whose fake and driver must not share the bot's event loop.

``python -m tests.discord.bot_process PORT TOKEN DATABASE SHARD_IDS SHARD_COUNT DEV_GUILD [options]``

SIGTERM closes the bot as a deployment stops it (its render processes included).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import discord
import yarl

from cogs._client import BigApple
from data.backend import open_stores
from engine.host import event_loop
from engine.host.shards import Shards
from tests.discord.fake import API_PREFIX

# Where the command below runs, so that ``tests`` and the project's packages import.
ROOT = Path(__file__).resolve().parents[2]


def command(
    port: int, token: str, database: str, shard_ids: str, shard_count: int, dev_guild: int, *options: str
) -> list[str]:
    """The command line that starts a bot with this module (from ``ROOT``); ``options`` as ``parse``."""
    return [
        sys.executable,
        "-m",
        "tests.discord.bot_process",
        str(port),
        token,
        database,
        shard_ids,
        str(shard_count),
        str(dev_guild),
        *options,
    ]


def point_at_fake(port: int) -> None:
    """Send discord.py's requests and gateway connection to the fake on ``port`` (loopback)."""
    discord.http.Route.BASE = f"http://127.0.0.1:{port}{API_PREFIX}"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")


def parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.discord.bot_process")
    for name in ("port", "token", "database", "shard_ids", "shard_count", "dev_guild"):
        parser.add_argument(name)
    parser.add_argument(
        "--render-workers",
        default="0",
        help="render processes: a number (0: a thread), or 'auto' (one a core)",
    )
    parser.add_argument("--seed", type=int, default=7, help="the seed of every match")
    parser.add_argument("--retry-seconds", type=float, default=0.2)
    parser.add_argument(
        "--heap-aside", action="store_true", help="set the start-up heap aside, as a deployed bot does"
    )
    return parser.parse_args(argv)


async def serve(options: argparse.Namespace) -> None:
    seed = options.seed
    bot = BigApple(
        options.database,
        open_stores,
        int(options.dev_guild),
        retry_seconds=options.retry_seconds,
        render_workers=None if options.render_workers == "auto" else int(options.render_workers),
        shards=Shards.parse(options.shard_ids, int(options.shard_count)),
        # Every match deals the same way, so a failing run can be played again.
        seed_source=lambda: seed,
        set_heap_aside=options.heap_aside,
    )
    bot._connection.guild_ready_timeout = 0.01  # no 2 s wait for guilds, as the in-process tests do
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(options.token)


def main(argv: Sequence[str]) -> int:
    options = parse(argv)
    point_at_fake(int(options.port))
    event_loop.run(serve(options))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
