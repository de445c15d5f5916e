"""The Discord client: opens the store, builds the game host, loads the cogs and runs the outbox."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from cogs._animations import Animations
from cogs._clocks import DiscordHerald
from cogs._lang import CatalogueTranslator
from cogs._notifier import DiscordNotifier
from cogs._tournament_posts import publish
from cogs._tournament_ui import TOURNAMENT_ITEMS
from cogs._ui import DYNAMIC_ITEMS
from cogs.replay import JumpSelect, ReplayButton
from engine.host.ledgers import PingLedger, PostLedger
from engine.host.outbox import Backoff
from engine.host.ports import MatchRecord, SettingsStore
from engine.host.ratings import RatingStore
from engine.host.service import GameHost, utc_now
from engine.host.shards import Shards
from engine.host.storage import MatchLedgers, OpenStores, StoreSet
from engine.host.thinking import ThinkPool
from engine.host.timekeeper import Timekeeper
from engine.host.tournament_records import TournamentStore
from engine.host.tournaments import TournamentHost, TournamentStatus
from render.pool import RenderPool

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.errors",
    "cogs.lobby",
    "cogs.play",
    "cogs.hands",
    "cogs.mine",
    "cogs.away",
    "cogs.tournaments",
    "cogs.ratings",
    "cogs.settings",
    "cogs.replay",
)
# Set to 0 to post no animation of finished matches (drawing every move costs processor time).
ANIMATIONS_ENV = "BIGAPPLE_ANIMATIONS"
# New objects the collector lets pile up before it looks at them (in a process that runs one bot). A move
# makes thousands, most freed at once; at Python's default of 700 the collections took 0.5 ms of each move
# (a hundred in 288 moves), at this many 0.2 ms (six, each pausing the loop for about 9 ms).
YOUNG_OBJECTS = 10_000
# How long sent notices are kept, and how often the old ones are looked for.
RETENTION = timedelta(days=30)
PRUNE_EVERY = timedelta(hours=1)
# How long the outbox waits before retrying deliveries that failed, when nothing new arrives.
RETRY_SECONDS = 5.0
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


class BigApple(commands.AutoShardedBot):
    """The bot. ``host`` and the ledgers exist once ``setup_hook`` has run."""

    host: GameHost
    stores: StoreSet
    store: MatchLedgers
    # What the bot sent, kept by the match store behind ports of their own (see engine.host.ledgers).
    posts: PostLedger
    ping_ledger: PingLedger
    ratings: RatingStore
    tournaments: TournamentHost
    tournament_store: TournamentStore
    settings: SettingsStore
    timekeeper: Timekeeper
    component_types: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()

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
        self._thresholds: tuple[int, int, int] = gc.get_threshold()
        # A SQLite file, or a postgresql:// URL (see ``data.backend``).
        self.database = database
        self.dev_guild = dev_guild
        self.retry_seconds = retry_seconds
        self.answer_within = ANSWER_WITHIN_S
        self.seed_source = seed_source
        self.clock = clock
        self.renderer = RenderPool(render_workers)
        self.thinker = ThinkPool(think_workers)
        self.animator = Animations(self)
        self.retention = retention
        self._pruned_at: datetime | None = None
        self._outbox_wakeup = asyncio.Event()
        self._outbox_task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        # Tournaments whose organiser was told that their channel refuses the bot's posts.
        self.organisers_told: set[int] = set()
        # Tournaments that may have announcements to post (their record says which).
        self._to_publish: set[int] = set()
        # Whether computers at tournament tables may have moves to make (see ``play_tables_soon``).
        self._tables_due = False
        self._tables_task: asyncio.Task[None] | None = None
        self.sync_on_start = dev_guild is not None

    async def setup_hook(self) -> None:
        self.stores = await self.open_stores(
            self.database,
            clock=lambda: self.clock().astimezone(UTC).isoformat(timespec="milliseconds"),
            shards=self.shard_range,
        )
        self.store = self.stores.matches
        self.posts = self.ping_ledger = self.store
        self.host = GameHost(
            self.store,
            seed_source=self.seed_source,
            backoff=Backoff(base=self.retry_seconds),
            clock=self.clock,
            thinker=self.thinker,
        )
        self.ratings = self.stores.ratings
        self.tournament_store = self.stores.tournaments
        self.settings = self.stores.settings
        await self.tree.set_translator(CatalogueTranslator())
        self.tournaments = TournamentHost(
            self.host, self.tournament_store, seed_source=self.seed_source, clock=self.clock
        )
        self.tournament_backoff = Backoff[int](base=self.retry_seconds)
        self.host.finish_listeners.append(self._match_finished)
        self.notifier = DiscordNotifier(self)
        herald = DiscordHerald(self)
        self.timekeeper = Timekeeper(self.host, herald, quiet_of=herald.quiet_of)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.component_types = (*DYNAMIC_ITEMS, *TOURNAMENT_ITEMS, ReplayButton, JumpSelect)
        self.add_dynamic_items(*self.component_types)
        if self.sync_on_start and self.dev_guild is not None:
            await self.sync_commands()
        self._outbox_task = asyncio.create_task(self._run_outbox(), name="bigapple-outbox")
        if self.set_heap_aside:
            # What start-up built (modules, schemas, catalogues) lives as long as the bot: set aside from
            # the collector, it is not scanned again by every full collection, which stalled the loop.
            gc.collect()
            gc.freeze()
            self._thresholds = gc.get_threshold()
            gc.set_threshold(YOUNG_OBJECTS, *self._thresholds[1:])

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

    async def _match_finished(self, match: MatchRecord) -> None:
        """Rate the finished match and let its tournament, if any, move on.

        The tournament step runs as its own task: this is called while the match is locked, and the step
        may start new matches whose computer players finish them at once.
        """
        await self._rate(match)
        self.in_background(self._advance_tournament(match.id), f"tournament-after-{match.id}")
        self.kick_outbox()

    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` as a task of its own, cancelled when the bot closes."""
        task = asyncio.create_task(work, name=name)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _rate(self, match: MatchRecord) -> None:
        """Rate a finished match once, unless it belongs to an unrated tournament."""
        tournament_id = await self.tournaments.of_match(match.id)
        tournament = await self.tournaments.get(tournament_id) if tournament_id is not None else None
        if tournament is None or tournament.rated:
            await self.ratings.record(match)

    async def _advance_tournament(self, match_id: int) -> None:
        try:
            reports = await self.tournaments.on_match_finished(match_id)
        except Exception:
            log.exception("the tournament of match %s could not move on; the outbox retries", match_id)
            return
        for report in reports:
            self.publish_soon(report.tournament.id)

    def publish_soon(self, tournament_id: int) -> None:
        """Have the outbox post the tournament's due announcements (and the tables a change left to the
        computers played)."""
        self._to_publish.add(tournament_id)
        self.kick_outbox()
        self.play_tables_soon()

    def play_tables_soon(self) -> None:
        """Have the computers' moves at the tournaments' tables made (to the end where only computers
        sit) in a task of their own, never inside a command's answer (see ``TournamentHost.play_tables``);
        a stop cancels it, and the next start carries on from the store."""
        self._tables_due = True
        if self._tables_task is None or self._tables_task.done():
            self._tables_task = asyncio.create_task(self._play_tables(), name="bigapple-tournament-tables")
            self._background.add(self._tables_task)
            self._tables_task.add_done_callback(self._background.discard)

    async def _play_tables(self) -> None:
        while self._tables_due:
            self._tables_due = False
            try:
                reports = await self.tournaments.play_tables()
            except Exception:
                log.exception(
                    "the tournaments' computer tables could not be played; trying at the next change"
                )
                return
            self._to_publish.update(report.tournament.id for report in reports)
            self.kick_outbox()

    def kick_outbox(self) -> None:
        """Ask the outbox to send pending deliveries now."""
        self._outbox_wakeup.set()

    async def _run_outbox(self) -> None:
        """Resume computer players, then send deliveries whenever kicked, retrying failures."""
        await self.wait_until_ready()
        await self._catch_up()
        # At start-up everything pending is sent before the reminders that came due while the bot was
        # down; after that, each pass only starts the senders, which kick the outbox as they finish.
        settle = True
        while not self.is_closed():
            self._outbox_wakeup.clear()
            await self._outbox_pass(settle)
            settle = False
            await self._sweep_pings()
            if await self._sweep_clocks():
                continue  # a timeout queued notices: send them now
            await self._forget_old_notices()
            wait = self.retry_seconds
            due = self.host.backoff.next_retry_in()
            if due is not None:
                wait = min(wait, max(due, 0.01))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._outbox_wakeup.wait()

    async def _catch_up(self) -> None:
        """After a start: computer seats that were due move, and matches finished just before a crash
        are rated (rating is idempotent). Each match on its own: one failure never stops the others."""
        await self.host.resume()
        self.play_tables_soon()
        # Announcements a stop interrupted are due still; the records say which.
        self._to_publish.update(
            await self.tournaments.ids([TournamentStatus.RUNNING, TournamentStatus.FINISHED])
        )
        for match in await self.host.finished_matches(limit=500):
            try:
                await self._rate(match)
            except Exception:
                log.exception("match %s could not be rated; the others go on", match.id)

    async def _outbox_pass(self, settle: bool = False) -> None:
        """One pass: start sending the match notices, then the tournaments. Each part fails on its own,
        so a broken tournament channel never holds back a board post, nor the other way round; and a
        long backlog of board posts never keeps a tournament waiting. With ``settle``, the match notices
        are sent before the pass ends, with the tournaments' announcements between rounds of them."""
        senders = await self._dispatch_matches()
        await self._tournaments_pass()
        while settle and senders:
            await asyncio.gather(*senders)
            senders = await self._dispatch_matches()
            if self._to_publish:  # a round ended meanwhile: its announcements go out between rounds
                await self._publish_due()

    async def _dispatch_matches(self) -> list[asyncio.Task[int]]:
        """Start sending the pending match notices (see ``GameHost.dispatch``); the senders started."""
        try:
            return await self.host.dispatch(self.notifier, when_sent=self.kick_outbox)
        except Exception:
            log.exception("sending match notices failed; retrying")
            return []

    async def _sweep_pings(self) -> None:
        try:
            await self.notifier.pings.sweep()
        except Exception:
            log.exception("sending turn reminders failed; retrying")

    async def _forget_old_notices(self) -> None:
        """At most once an hour, delete the notices sent longer ago than the retention period."""
        now = self.clock()
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY:
            return
        self._pruned_at = now
        try:
            gone = await self.posts.forget_sent(now - self.retention)
        except Exception:
            log.exception("old notices could not be deleted; trying again later")
            return
        if gone:
            log.info("deleted %d notices sent more than %s ago", gone, self.retention)

    async def _sweep_clocks(self) -> int:
        """Fire the match clocks' reminders and timeouts that are due; how many fired."""
        try:
            fired = await self.timekeeper.sweep()
        except Exception:
            log.exception("match clocks failed; retrying")
            return 0
        return len(fired)

    async def _tournaments_pass(self) -> None:
        try:
            reports = await self.tournaments.tick()
        except Exception:
            log.exception("processing tournaments failed; retrying")
            reports = []
        self._to_publish.update(report.tournament.id for report in reports)
        if reports:  # a new round, or a deadline that handed seats to computers
            self.play_tables_soon()
        self._to_publish.update(self.tournaments.reminders_due)
        self.tournaments.reminders_due.clear()
        await self._publish_due()

    async def _publish_due(self) -> None:
        """Post the announcements of the tournaments that may have some, each on its own."""
        for tournament_id in sorted(self._to_publish):
            try:
                if await publish(self, tournament_id):
                    self._to_publish.discard(tournament_id)
            except Exception:
                log.exception("tournament %s: announcements failed; the others go on", tournament_id)

    async def close(self) -> None:
        if self.set_heap_aside:
            gc.unfreeze()  # what start-up set aside may be collected again once the bot is gone
            gc.set_threshold(*self._thresholds)
        for task in list(self._background):
            task.cancel()
        if self._outbox_task is not None:
            self._outbox_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._outbox_task
        if hasattr(self, "host"):
            await self.host.stop_sending()
        await super().close()
        await self.renderer.close()
        await self.thinker.close()
        if hasattr(self, "stores"):
            await self.stores.close()
