"""Sending a match's outbox: the deliveries committed with the moves, each destination in its own order.

Each destination (a match's thread, one seat's messages) is its own ordered stream, with at most one
sender at a time, alongside the others: a failure holds back only the later notices of that destination,
which then waits out its back-off while the others carry on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from pydantic import ValidationError

from engine.core.errors import EngineError
from engine.host.outbox import Backoff, DestinationGone
from engine.host.ports import Delivery, MatchRecord, MatchStore, Notice, Notifier

log = logging.getLogger(__name__)

# How many destinations the outbox sends to at once.
PARALLEL_DESTINATIONS = 8

# A match's thread, or one seat's messages (the match id and the seat).
Destination = tuple[int, int | None]


class Sender:
    """Sends the pending deliveries of a ``MatchStore`` through a ``Notifier``, destination by destination."""

    def __init__(
        self,
        store: MatchStore,
        backoff: Backoff[Destination],
        read_match: Callable[[int], Awaitable[MatchRecord]],
    ) -> None:
        """``read_match`` reads the match a delivery belongs to (``EngineError`` when it cannot be read);
        ``backoff`` paces retries of each destination that failed."""
        self.store = store
        self.backoff = backoff
        self.read_match = read_match
        # The destination each running sender sends to (see ``dispatch``), and the cap on how many send
        # at once.
        self._senders: dict[Destination, asyncio.Task[int]] = {}
        self._sending = asyncio.Semaphore(PARALLEL_DESTINATIONS)

    async def flush(self, notifier: Notifier, destinations: int = 50) -> int:
        """Send pending deliveries and wait until they are sent; returns how many were sent (see
        ``dispatch``)."""
        return sum(await asyncio.gather(*await self.dispatch(notifier, destinations=destinations)))

    async def dispatch(
        self,
        notifier: Notifier,
        when_sent: Callable[[], object] = lambda: None,
        destinations: int = 50,
    ) -> list[asyncio.Task[int]]:
        """Start sending the pending deliveries of every destination that nobody is sending to yet;
        returns the senders started (tasks that say how many they sent), which go on after this returns.

        Each destination (a match's thread, one seat's messages) is its own ordered stream, with at most
        one sender at a time, alongside the others: a failure holds back only the later notices of that
        destination, which then waits out its back-off while the others carry on. A destination that is
        gone (``DestinationGone``) and a notice that cannot be read are settled at once, not retried.
        ``when_sent`` is called as a sender ends with its batch settled (sent, or set aside as
        unreadable or gone): its destination may have more notices by then, which the next ``dispatch``
        starts. A destination that failed waits out its back-off instead.
        """
        busy = self.backoff.waiting() | frozenset(self._senders)
        batches = await self.store.pending_by_destination(destinations, skip=busy)
        started = []
        for batch in batches:
            destination = (batch[0].match_id, batch[0].seat)
            sender = asyncio.create_task(
                self._send(notifier, destination, batch, when_sent), name=f"send-{destination}"
            )
            self._senders[destination] = sender
            started.append(sender)
        return started

    async def stop(self) -> None:
        """Cancel the senders still running (the bot is stopping): what they had not sent stays pending."""
        senders = list(self._senders.values())
        for sender in senders:
            sender.cancel()
        await asyncio.gather(*senders, return_exceptions=True)

    async def _send(
        self,
        notifier: Notifier,
        destination: Destination,
        batch: Sequence[Delivery],
        when_sent: Callable[[], object],
    ) -> int:
        """One sender: ``batch`` in order, once one of the PARALLEL_DESTINATIONS places is free."""
        try:
            async with self._sending:
                sent = await self._deliver_in_order(notifier, batch)
        except Exception:
            log.exception("sending the notices of %s failed; they are tried again", destination)
            return 0
        finally:
            del self._senders[destination]
        if self.backoff.ready(destination):
            when_sent()
        return sent

    async def _deliver_in_order(self, notifier: Notifier, batch: Sequence[Delivery]) -> int:
        """Send one destination's deliveries in order until one fails; returns how many were sent."""
        sent = 0
        for delivery in batch:
            destination = (delivery.match_id, delivery.seat)
            try:
                match = await self.read_match(delivery.match_id)
                notice = Notice.model_validate_json(delivery.payload)
            except (EngineError, ValidationError) as exc:
                # A notice's payload may hold a hand: say what is wrong, never what it holds.
                problem = exc.message if isinstance(exc, EngineError) else f"its notice is not {exc.title}"
                log.warning(
                    "delivery %s of match %s cannot be read: %s", delivery.id, delivery.match_id, problem
                )
                await self.store.mark_undeliverable(delivery.id, f"unreadable: {problem}")
                continue
            try:
                await notifier.deliver(match, delivery, notice)
            except DestinationGone as exc:
                log.warning("delivery %s of match %s has nowhere to go: %s", delivery.id, match.id, exc)
                await self.store.mark_undeliverable(delivery.id, f"gone: {exc}")
                continue
            except Exception as exc:
                wait = self.backoff.failed(destination)
                log.warning(
                    "delivery %s of match %s failed (retried in %.0f s): %s", delivery.id, match.id, wait, exc
                )
                await self.store.mark_failed(delivery.id, f"{type(exc).__name__}: {exc}")
                return sent  # the later notices of this destination wait, so nothing overtakes it
            await self.store.mark_delivered(delivery.id)
            self.backoff.succeeded(destination)
            sent += 1
        return sent
