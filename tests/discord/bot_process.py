"""A Big Apple bot in a process of its own, connected to a fake Discord served by the test process: for
tests that run several bot processes on one database, and kill one with SIGKILL.

``python -m tests.discord.bot_process PORT TOKEN DATABASE SHARD_IDS SHARD_COUNT DEV_GUILD``
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

import discord
import yarl

from cogs._client import BigApple
from engine.host.shards import Shards
from tests.discord.fake import API_PREFIX


def point_at_fake(port: int) -> None:
    """Send discord.py's requests and gateway connection to the fake on ``port`` (loopback)."""
    discord.http.Route.BASE = f"http://127.0.0.1:{port}{API_PREFIX}"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")


def main(argv: Sequence[str]) -> int:
    port, token, database, shard_ids, shard_count, dev_guild = argv
    point_at_fake(int(port))
    shards = Shards.parse(shard_ids, int(shard_count))
    # Every match deals the same way, so a failing run can be played again.
    bot = BigApple(
        database, int(dev_guild), retry_seconds=0.2, render_workers=0, shards=shards, seed_source=lambda: 7
    )
    bot._connection.guild_ready_timeout = 0.01  # no 2 s wait for guilds, as the in-process tests do
    asyncio.run(bot.start(token))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
