"""The Discord client: opens the store, builds the game host, loads the cogs and runs the outbox."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from pathlib import Path

import discord
from discord.ext import commands

from data.store import SqliteMatchStore
from engine.host.service import GameHost

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.errors", "cogs.lobby", "cogs.play", "cogs.hands")
# How long the outbox waits before retrying deliveries that failed, when nothing new arrives.
RETRY_SECONDS = 5.0
# discord.py logs whole request and event payloads at DEBUG, DM contents included; these loggers stay at
# INFO or above so that no hand ever reaches a log line, whatever the configured level.
PAYLOAD_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook.async_", "discord.state")


def silence_payload_logs() -> None:
    for name in PAYLOAD_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(max(logger.getEffectiveLevel(), logging.INFO))


class BigApple(commands.Bot):
    """The bot. ``host`` and ``store`` exist once ``setup_hook`` has run."""

    host: GameHost
    store: SqliteMatchStore

    def __init__(
        self,
        db_path: Path,
        dev_guild: int | None = None,
        retry_seconds: float = RETRY_SECONDS,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        """``seed_source`` fixes the seeds of new matches (tests); by default each is random."""
        silence_payload_logs()
        # Slash commands, buttons and DMs need no privileged intent.
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.default(), help_command=None
        )
        self.db_path = db_path
        self.dev_guild = dev_guild
        self.retry_seconds = retry_seconds
        self.seed_source = seed_source
        self._outbox_wakeup = asyncio.Event()
        self._outbox_task: asyncio.Task[None] | None = None
        self.sync_on_start = dev_guild is not None

    async def setup_hook(self) -> None:
        from cogs._notifier import DiscordNotifier
        from cogs._ui import DYNAMIC_ITEMS

        self.store = await SqliteMatchStore.open(self.db_path)
        self.host = GameHost(self.store, seed_source=self.seed_source)
        self.notifier = DiscordNotifier(self)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.sync_on_start and self.dev_guild is not None:
            await self.sync_commands()
        self._outbox_task = asyncio.create_task(self._run_outbox(), name="bigapple-outbox")

    async def sync_commands(self) -> int:
        """Push the slash commands to Discord (to the dev guild when set, else globally)."""
        if self.dev_guild is not None:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))
        return len(synced)

    def kick_outbox(self) -> None:
        """Ask the outbox to send pending deliveries now."""
        self._outbox_wakeup.set()

    async def _run_outbox(self) -> None:
        """Resume computer players, then send deliveries whenever kicked, retrying failures."""
        await self.wait_until_ready()
        try:
            await self.host.resume()
        except Exception:
            log.exception("resuming matches failed")
        while not self.is_closed():
            self._outbox_wakeup.clear()
            try:
                while await self.host.flush(self.notifier):
                    pass
            except Exception:
                log.exception("the outbox failed; retrying")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.retry_seconds):
                    await self._outbox_wakeup.wait()

    async def close(self) -> None:
        if self._outbox_task is not None:
            self._outbox_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._outbox_task
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
