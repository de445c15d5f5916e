"""The host's background work, on an injected clock: old notices forgotten at most once an hour, the
reminders and clocks swept on every pass, tournaments' announcements retried until posted, finished
matches rated, and the whole stopped on request."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

from engine.host.background import PRUNE_EVERY, BackgroundWork
from engine.host.outbox import Backoff

NOON = datetime(2026, 11, 29, 12, tzinfo=UTC)


class Fakes:
    """What the background work drives, recording what it was asked."""

    def __init__(self) -> None:
        self.now = NOON
        self.forgotten: list[datetime] = []
        self.swept = 0
        self.fired: list[object] = []
        self.published: list[int] = []
        self.refusing: set[int] = set()
        self.rated: list[int] = []
        self.dispatched = 0

    async def forget_sent(self, before: datetime) -> int:
        self.forgotten.append(before)
        return 0

    async def sweep_pings(self) -> int:
        self.swept += 1
        return 0

    async def sweep_clocks(self) -> list[object]:
        fired, self.fired = self.fired, []
        return fired

    async def publish(self, tournament_id: int) -> bool:
        if tournament_id in self.refusing:
            raise RuntimeError("the channel refuses")
        self.published.append(tournament_id)
        return True

    async def dispatch(self, notifier: object, when_sent: object) -> list[asyncio.Task[int]]:
        self.dispatched += 1
        return []

    async def record(self, match: Any) -> bool:
        self.rated.append(match.id)
        return True

    def work(self) -> BackgroundWork:
        async def nothing(*_: object) -> list[object]:
            return []

        async def none(*_: object) -> None:
            return None

        host = SimpleNamespace(dispatch=self.dispatch, backoff=Backoff(base=5.0), resume=none)
        host.finished_matches = lambda limit: nothing()
        tournaments = SimpleNamespace(
            tick=nothing, play_tables=nothing, reminders_due=set(), of_match=none, ids=lambda _: nothing()
        )
        return BackgroundWork(
            cast(Any, host),
            cast(Any, tournaments),
            cast(Any, SimpleNamespace(sweep=self.sweep_clocks)),
            cast(Any, SimpleNamespace(record=self.record)),
            cast(Any, SimpleNamespace(forget_sent=self.forget_sent)),
            notifier=cast(Any, object()),
            sweep_pings=self.sweep_pings,
            publish=self.publish,
            clock=lambda: self.now,
            retention=timedelta(days=30),
        )


async def test_old_notices_are_looked_for_at_most_once_an_hour_by_the_clock() -> None:
    fakes = Fakes()
    work = fakes.work()
    assert await work.one_pass() is False
    assert fakes.forgotten == [NOON - timedelta(days=30)]
    fakes.now = NOON + PRUNE_EVERY - timedelta(seconds=1)
    await work.one_pass()
    assert len(fakes.forgotten) == 1 and fakes.swept == 2 and fakes.dispatched == 2
    fakes.now = NOON + PRUNE_EVERY
    await work.one_pass()
    assert fakes.forgotten[-1] == NOON + PRUNE_EVERY - timedelta(days=30)


async def test_a_clock_that_fired_ends_the_pass_so_its_notices_go_at_once() -> None:
    fakes = Fakes()
    fakes.fired = ["timeout"]
    work = fakes.work()
    assert await work.one_pass() is True
    assert fakes.forgotten == []  # the next pass gets to it
    assert await work.one_pass() is False and len(fakes.forgotten) == 1


async def test_announcements_are_retried_until_posted_and_one_failure_holds_back_no_other() -> None:
    fakes = Fakes()
    fakes.refusing = {1}
    work = fakes.work()
    work.publish_soon(1)
    work.publish_soon(2)
    await work.outbox_pass()
    assert fakes.published == [2]
    fakes.refusing.clear()
    await work.outbox_pass()
    assert fakes.published == [2, 1]
    await work.outbox_pass()
    assert fakes.published == [2, 1]  # nothing left to post
    await work.stop()


async def test_a_finished_match_outside_tournaments_is_rated_and_the_work_stops_when_asked() -> None:
    fakes = Fakes()
    work = fakes.work()
    await work.match_finished(cast(Any, SimpleNamespace(id=7)))
    assert fakes.rated == [7]
    ready = asyncio.Event()
    work.start(ready.wait)
    ready.set()
    for _ in range(50):  # the first pass runs as soon as the task gets the loop
        await asyncio.sleep(0)
        if fakes.swept:
            break
    assert fakes.swept >= 1 and work.running
    await work.stop()
    assert not work.running
