"""The Discord client: opens the store, builds the game host, loads the cogs and starts and stops the host's
background work (``engine.host.background``)."""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

import discord
from discord.ext import commands

from cogs._animations import animator
from cogs._components import Route, Routed
from cogs._lang import CatalogueTranslator
from cogs._marks import DiscordMarks
from cogs._notifier import DiscordNotifier
from cogs._router import ROUTES
from cogs._sender import DiscordSender
from cogs._tournament_posts import publish
from engine.host.animations import Animations
from engine.host.assembly import open_hosts
from engine.host.background import RETENTION, RETRY_SECONDS, BackgroundWork
from engine.host.digests import Digests
from engine.host.heap import Thresholds, restore_heap, set_heap_aside
from engine.host.herald import ClockHerald
from engine.host.league_desk import LeagueDesk
from engine.host.league_words import SeasonCloser
from engine.host.ledgers import PingLedger, PostLedger
from engine.host.link_secret import link_secret
from engine.host.outbox import Backoff
from engine.host.ports import SettingsStore
from engine.host.queue_desk import QueueDesk
from engine.host.queue_words import SeatedHerald
from engine.host.ratings import RatingStore
from engine.host.service import GameHost, utc_now
from engine.host.shards import Shards
from engine.host.storage import MatchLedgers, OpenStores, StoreSet
from engine.host.thinking import ThinkPool
from engine.host.timekeeper import Timekeeper
from engine.host.tournament_records import TournamentStore
from engine.host.tournaments import TournamentHost
from engine.host.web_links import SignPass, WebLinks
from render.animation import Animation
from render.league import render_season
from render.pool import RenderPool

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.errors",
    "cogs.lobby",
    "cogs.play",
    "cogs.mine",
    "cogs.away",
    "cogs.tournaments",
    "cogs.ratings",
    "cogs.stats",
    "cogs.settings",
    "cogs.replay",
    "cogs.league",
)
# Set to 0 to post no animation of finished matches (drawing every move costs processor time).
ANIMATIONS_ENV = "BIGAPPLE_ANIMATIONS"
# A move played within this many seconds is answered in the interaction's own reply; a slower one is
# deferred first, well inside the three seconds Discord gives an interaction's first answer (which also
# cover the trip to Discord and back, and a busy machine's pauses).
ANSWER_WITHIN_S = 1.0
# discord.py logs whole request and event payloads at DEBUG, DM contents included; these loggers stay at
# INFO or above so that no hand ever reaches a log line, whatever the configured level.
PAYLOAD_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook.async_", "discord.state")


def silence_payload_logs() -> None:
    for name in PAYLOAD_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(max(logger.getEffectiveLevel(), logging.INFO))


class Served(Protocol):
    """The web table served in the bot's process: where it listens, and how it stops."""

    @property
    def url(self) -> str: ...

    async def close(self) -> None: ...


# Serves the web table on the bot's host and stores (once they exist) in its process; None when it could
# not start (it said why).
ServeWeb = Callable[["BigApple"], Awaitable[Served | None]]


@dataclass(frozen=True, slots=True)
class WebSide:
    """The web table beside the bot, as whoever starts the bot gives it (the Discord side never imports
    the web package): its public address, which links in Discord point to (None: Discord shows none),
    the operator's signing secret (None: the one kept in the database), how a private link's token is
    signed, and how the table is served in the bot's process (None: elsewhere, or not at all)."""

    url: str | None = None
    secret: str | None = None
    sign: SignPass | None = None
    serve: ServeWeb | None = None


class BigApple(commands.AutoShardedBot):
    """The bot. ``host`` and the ledgers exist once ``setup_hook`` has run."""

    host: GameHost
    stores: StoreSet
    store: MatchLedgers
    # What the bot sent, kept by the match store behind ports of their own (see engine.host.ledgers).
    posts: PostLedger
    ping_ledger: PingLedger
    ratings: RatingStore
    queue_desk: QueueDesk
    league_desk: LeagueDesk
    tournaments: TournamentHost
    tournament_store: TournamentStore
    settings: SettingsStore
    timekeeper: Timekeeper
    digests: Digests
    background: BackgroundWork
    animator: Animations[Animation]
    web_links: WebLinks
    routes: dict[str, Route] = ROUTES

    def __init__(
        self,
        database: str | Path,
        open_stores: OpenStores,
        dev_guild: int | None = None,
        retry_seconds: float = RETRY_SECONDS,
        seed_source: Callable[[], int] | None = None,
        clock: Callable[[], datetime] = utc_now,
        render_workers: int | None = None,
        think_workers: int | None = None,
        retention: timedelta = RETENTION,
        shards: Shards | None = None,
        animations: bool | None = None,
        set_heap_aside: bool = False,
        web: WebSide | None = None,
    ) -> None:
        """``open_stores`` opens the stores of ``database`` (given by whoever starts the bot, so that the
        Discord side never imports them). ``seed_source`` fixes the seeds of new matches (tests); by
        default each is random. ``clock`` tells the time that match clocks and turn reminders run on (tests
        move it on). ``render_workers`` processes draw the images (None: ``BIGAPPLE_RENDER_WORKERS``, else
        one per core; 0: a thread), ``think_workers`` processes run the strong computer players
        (``BIGAPPLE_THINK_WORKERS``, likewise). Sent notices older than ``retention`` are deleted.
        ``shards``: the Discord shards this process runs, when several processes share a PostgreSQL
        database (None: all of them, as many as Discord recommends). ``animations``: post the animation of
        every finished match (None: unless ``BIGAPPLE_ANIMATIONS`` is 0). ``set_heap_aside``: once started,
        set what start-up built aside from the garbage collector (for a process that runs one bot; tests
        run many in one process)."""
        silence_payload_logs()
        sharding: dict[str, Any] = {}
        if shards is not None:
            sharding = {"shard_ids": sorted(shards.ids), "shard_count": shards.count}
        # Slash commands, buttons and DMs need no privileged intent. The bot reads no messages, reactions
        # or typing, so Discord need not send it those events: every post, its own ones included, would
        # come back to it as an event to parse.
        intents = discord.Intents.default()
        intents.messages = intents.reactions = intents.typing = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            **sharding,
        )
        self.shard_range = shards
        self.open_stores = open_stores
        if animations is None:
            animations = os.environ.get(ANIMATIONS_ENV, "1").strip() != "0"
        self.animations = animations
        self.set_heap_aside = set_heap_aside
        self._thresholds: Thresholds | None = None
        # A SQLite file, or a postgresql:// URL (see ``data.backend``).
        self.database = database
        self.dev_guild = dev_guild
        self.retry_seconds = retry_seconds
        self.answer_within = ANSWER_WITHIN_S
        self.seed_source = seed_source
        self.clock = clock
        self.renderer = RenderPool(render_workers)
        self.thinker = ThinkPool(think_workers)
        self.retention = retention
        # Tournaments whose organiser was told that their channel refuses the bot's posts.
        self.organisers_told: set[int] = set()
        self.sync_on_start = dev_guild is not None
        self.web = web or WebSide()
        # The web table while this process serves it.
        self.web_served: Served | None = None

    async def setup_hook(self) -> None:
        hosts = await open_hosts(
            self.database,
            self.open_stores,
            clock=self.clock,
            thinker=self.thinker,
            retry_seconds=self.retry_seconds,
            seed_source=self.seed_source,
            shards=self.shard_range,
        )
        self.stores, self.host, self.tournaments = hosts.stores, hosts.host, hosts.tournaments
        self.store = self.stores.matches
        self.posts = self.ping_ledger = self.store
        self.ratings = self.stores.ratings
        self.tournament_store = self.stores.tournaments
        self.settings = self.stores.settings
        self.queue_desk, self.league_desk = hosts.queue, hosts.league
        self.animator = animator(self.host, self.renderer)
        self.web_links = await self.open_web_links()
        await self.tree.set_translator(CatalogueTranslator())
        self.tournament_backoff = Backoff[int](base=self.retry_seconds)
        self.notifier = DiscordNotifier(self)
        seated = SeatedHerald(
            self.host, self.settings, DiscordSender(self), DiscordMarks(self), self.notifier.threads.place_of
        )
        self.queue_desk.seated_listeners.append(seated.tell)
        closer = SeasonCloser(self.league_desk, DiscordSender(self), DiscordMarks(self), render_season)
        herald = ClockHerald(self.notifier.pings)
        self.timekeeper = Timekeeper(self.host, herald, quiet_of=herald.quiet_of)
        self.digests = Digests(self.host, self.stores.digests, self.notifier.pings, self.clock)
        self.background = BackgroundWork(
            self.host,
            self.tournaments,
            self.timekeeper,
            self.ratings,
            self.posts,
            notifier=self.notifier,
            sweep_pings=self.notifier.pings.sweep,
            sweep_digests=self.digests.sweep,
            publish=lambda tournament_id: publish(self, tournament_id),
            clock=self.clock,
            retry_seconds=self.retry_seconds,
            retention=self.retention,
            queue=self.queue_desk,
            close_seasons=closer.close_seasons,
        )
        self.host.finish_listeners.append(self.background.match_finished)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(Routed)
        if self.sync_on_start and self.dev_guild is not None:
            await self.sync_commands()
        self.background.start(self.wait_until_ready)
        if self.web.serve is not None:
            self.web_served = await self.web.serve(self)
        if self.set_heap_aside:
            self._thresholds = set_heap_aside()

    async def open_web_links(self) -> WebLinks:
        """The links to the web table that Discord offers, signed with the web table's own secret (read,
        or made and kept, before the table serves, so that both sign alike)."""
        if self.web.url is None and self.web.serve is None:
            return WebLinks(self.settings)
        secret = await link_secret(self.settings, self.web.secret)
        return WebLinks(self.settings, self.web.url, secret, self.web.sign, self.clock)

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
        self.background.kick()

    async def close(self) -> None:
        if self.web_served is not None:
            await self.web_served.close()  # first: its pages read the stores closed below
            self.web_served = None
        if self._thresholds is not None:
            restore_heap(self._thresholds)  # what start-up set aside may be collected again
            self._thresholds = None
        if hasattr(self, "background"):
            await self.background.stop()
        if hasattr(self, "host"):
            await self.host.stop_sending()
        await super().close()
        await self.renderer.close()
        await self.thinker.close()
        if hasattr(self, "stores"):
            await self.stores.close()
