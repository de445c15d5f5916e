"""The host's work between commands, the same for every front end: sending the outbox, catching up after a
start, the turn reminders and match clocks, the tournaments' steps and announcements, the computers at
tournament tables, rating finished matches and forgetting old notices.

A front end starts it once it can send (``start``) and stops it when it closes (``stop``); it gives what
only it can do: deliver a notice (the outbox's ``Notifier``), send the due turn reminders and post a
tournament's announcements. Time comes from the injected clock, so tests move it on instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

from engine.host.ledgers import PostLedger
from engine.host.ports import MatchRecord, Notifier
from engine.host.queue_desk import QueueDesk
from engine.host.ratings import RatingStore
from engine.host.service import GameHost
from engine.host.timekeeper import Timekeeper
from engine.host.tournaments import TournamentHost, TournamentStatus

log = logging.getLogger(__name__)

# How long sent notices are kept, and how often the old ones are looked for.
RETENTION = timedelta(days=30)
PRUNE_EVERY = timedelta(hours=1)
# How long the outbox waits before retrying deliveries that failed, when nothing new arrives.
RETRY_SECONDS = 5.0
# How often the servers' queues are looked at for tables whose wait is over (a person's own ``/game find``
# opens the tables it completes at once).
QUEUE_EVERY = timedelta(minutes=1)
# How often the leagues are looked at for seasons that ended.
LEAGUE_EVERY = timedelta(hours=1)


class BackgroundWork:
    """Runs the host's background work in one task of its own, woken by ``kick`` (or by a retry coming
    due), and the side tasks it starts (tournament steps, computer tables), all cancelled by ``stop``.

    ``notifier`` delivers the match notices; ``sweep_pings`` sends the turn reminders that are due, and
    ``sweep_digests`` the daily digests;
    ``publish`` posts a tournament's due announcements (True once none is left). Sent notices older than
    ``retention`` are deleted, looked for at most once every ``PRUNE_EVERY``; ``queue``'s tables whose
    wait is over are opened, looked for at most once every ``QUEUE_EVERY``."""

    def __init__(
        self,
        host: GameHost,
        tournaments: TournamentHost,
        timekeeper: Timekeeper,
        ratings: RatingStore,
        posts: PostLedger,
        *,
        notifier: Notifier,
        sweep_pings: Callable[[], Awaitable[object]],
        sweep_digests: Callable[[], Awaitable[object]] | None = None,
        publish: Callable[[int], Awaitable[bool]],
        clock: Callable[[], datetime],
        retry_seconds: float = RETRY_SECONDS,
        retention: timedelta = RETENTION,
        queue: QueueDesk | None = None,
        close_seasons: Callable[[], Awaitable[int]] | None = None,
    ) -> None:
        self.host = host
        self.close_seasons = close_seasons
        self._leagues_looked_at: datetime | None = None
        self.queue = queue
        self._queue_looked_at: datetime | None = None
        self.tournaments = tournaments
        self.timekeeper = timekeeper
        self.ratings = ratings
        self.posts = posts
        self.notifier = notifier
        self.sweep_pings = sweep_pings
        self.sweep_digests = sweep_digests
        self.publish = publish
        self.clock = clock
        self.retry_seconds = retry_seconds
        self.retention = retention
        self._pruned_at: datetime | None = None
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._side: set[asyncio.Task[None]] = set()
        self._stopping = False
        # Tournaments that may have announcements to post (their record says which).
        self._to_publish: set[int] = set()
        # Whether computers at tournament tables may have moves to make (see ``play_tables_soon``).
        self._tables_due = False
        self._tables_task: asyncio.Task[None] | None = None

    def start(self, ready: Callable[[], Awaitable[object]]) -> None:
        """Begin, once ``ready`` returns (the front end can send): catch up, then run the outbox."""
        self._task = asyncio.create_task(self._run(ready), name="bigapple-outbox")

    async def stop(self) -> None:
        """Cancel the side tasks and the outbox; what was not sent stays pending for the next start."""
        self._stopping = True
        for task in list(self._side):
            task.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def running(self) -> bool:
        """Whether the outbox's task was started and has not ended."""
        return self._task is not None and not self._task.done()

    def kick(self) -> None:
        """Ask the outbox to send pending deliveries now."""
        self._wakeup.set()

    def in_background(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """Run ``work`` as a task of its own, cancelled by ``stop``."""
        task = asyncio.create_task(work, name=name)
        self._side.add(task)
        task.add_done_callback(self._side.discard)
        return task

    async def match_finished(self, match: MatchRecord) -> None:
        """Rate the finished match and let its tournament, if any, move on (a host finish listener).

        The tournament step runs as its own task: this is called while the match is locked, and the step
        may start new matches whose computer players finish them at once.
        """
        await self.rate(match)
        self.in_background(self._advance_tournament(match.id), f"tournament-after-{match.id}")
        self.kick()

    async def rate(self, match: MatchRecord) -> None:
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
        self.kick()
        self.play_tables_soon()

    def play_tables_soon(self) -> None:
        """Have the computers' moves at the tournaments' tables made (to the end where only computers
        sit) in a task of their own, never inside a command's answer (see ``TournamentHost.play_tables``);
        a stop cancels it, and the next start carries on from the store."""
        self._tables_due = True
        if self._tables_task is None or self._tables_task.done():
            self._tables_task = self.in_background(self._play_tables(), "bigapple-tournament-tables")

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
            self.kick()

    async def _run(self, ready: Callable[[], Awaitable[object]]) -> None:
        """Resume computer players, then send deliveries whenever kicked, retrying failures."""
        await ready()
        await self.catch_up()
        # At start-up everything pending is sent before the reminders that came due while the front end
        # was down; after that, each pass only starts the senders, which kick the outbox as they finish.
        settle = True
        while not self._stopping:
            self._wakeup.clear()
            fired = await self.one_pass(settle)
            settle = False
            if fired:
                continue  # a timeout queued notices: send them now
            wait = self.retry_seconds
            due = self.host.backoff.next_retry_in()
            if due is not None:
                wait = min(wait, max(due, 0.01))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wakeup.wait()

    async def one_pass(self, settle: bool = False) -> bool:
        """The outbox, the turn reminders, the match clocks and the forgetting of old notices, once;
        whether a clock fired (its notices then wait to be sent at once)."""
        await self.outbox_pass(settle)
        await self._sweep_pings()
        await self._send_digests()
        if await self._sweep_clocks():
            return True
        if await self.open_queue_tables():
            return True
        await self.close_league_seasons()
        await self.forget_old_notices()
        return False

    async def close_league_seasons(self) -> int:
        """At most once every ``LEAGUE_EVERY``, post the closing tables of the seasons that ended; how
        many were posted."""
        now = self.clock()
        looked_lately = self._leagues_looked_at is not None and now - self._leagues_looked_at < LEAGUE_EVERY
        if self.close_seasons is None or looked_lately:
            return 0
        self._leagues_looked_at = now
        try:
            return await self.close_seasons()
        except Exception:
            log.exception("the leagues could not be looked at; trying again later")
            return 0

    async def open_queue_tables(self) -> int:
        """At most once every ``QUEUE_EVERY``, open the tables of the servers' queues that can open now
        (those whose people waited long enough for computers to fill them); how many opened."""
        now = self.clock()
        if self.queue is None or (
            self._queue_looked_at is not None and now - self._queue_looked_at < QUEUE_EVERY
        ):
            return 0
        self._queue_looked_at = now
        try:
            opened = await self.queue.open_tables()
        except Exception:
            log.exception("the queues could not be looked at; trying again later")
            return 0
        return len(opened)

    async def catch_up(self) -> None:
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
                await self.rate(match)
            except Exception:
                log.exception("match %s could not be rated; the others go on", match.id)

    async def outbox_pass(self, settle: bool = False) -> None:
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
            return await self.host.dispatch(self.notifier, when_sent=self.kick)
        except Exception:
            log.exception("sending match notices failed; retrying")
            return []

    async def _sweep_pings(self) -> None:
        try:
            await self.sweep_pings()
        except Exception:
            log.exception("sending turn reminders failed; retrying")

    async def _send_digests(self) -> None:
        if self.sweep_digests is None:
            return
        try:
            await self.sweep_digests()
        except Exception:
            log.exception("sending daily digests failed; retrying")

    async def forget_old_notices(self) -> None:
        """At most once every ``PRUNE_EVERY``, delete the notices sent longer ago than the retention
        period."""
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
                if await self.publish(tournament_id):
                    self._to_publish.discard(tournament_id)
            except Exception:
                log.exception("tournament %s: announcements failed; the others go on", tournament_id)
