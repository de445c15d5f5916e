"""Telling a player it is their turn the way they chose (their ``NotifyPrefs``), for any front end.

The post that begins a turn asks ``TurnPings.begin`` whom to mention; what is not said at once (a direct
message, a mention held through quiet hours, a "waited" player's message) is a row in the store, written
with the post, that ``sweep`` delivers when it comes due (worded and sent by ``engine.host.reminders``).
Every row is marked sent before its message goes, so a turn pings a player at most once, whatever fails
and whenever the front end restarts. The rules of when and how are ``engine.host.notify``'s.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from pydantic import ValidationError

from engine.core.errors import EngineError
from engine.host.ledgers import PingLedger, PostLedger
from engine.host.notify import Act, Channel, NotifyPrefs, TurnPing, Via, decide, loud_dm
from engine.host.outgoing import Refused, TryLater
from engine.host.ports import Delivery, MatchRecord, Notice, SettingsStore
from engine.host.reminders import Reminders
from engine.host.service import GameHost

log = logging.getLogger(__name__)

# The user setting that holds a person's ``NotifyPrefs`` as JSON.
NOTIFY = "notify"
# How long a reminder that the front end failed to send waits before it is tried again.
RETRY_AFTER = timedelta(minutes=1)
# Preferences kept at hand; past this many the cache starts again.
PREFS_KEPT = 10_000


@dataclass
class TurnStart:
    """What the post beginning a turn does: whom it mentions, and the pings to save with it (None when
    the post carries on a turn already begun)."""

    mention: list[int] = field(default_factory=list)
    pings: list[TurnPing] | None = None


class TurnPings:
    """Each person's choice, and the turn reminders it leads to, on ``clock``."""

    def __init__(
        self,
        host: GameHost,
        settings: SettingsStore,
        ledger: PingLedger,
        posts: PostLedger,
        reminders: Reminders,
        clock: Callable[[], datetime],
    ) -> None:
        self.host = host
        self.settings = settings
        self.ledger = ledger
        self.posts = posts
        self.reminders = reminders
        self.clock = clock
        # Read on every post and private message, changed only through ``save_prefs``.
        self._prefs: dict[int, NotifyPrefs] = {}
        # No held ping is due before this (None: look in the store), so most outbox passes skip the store.
        self._next_due: datetime | None = None

    async def prefs(self, user_id: int) -> NotifyPrefs:
        """The person's choice; the default for anyone who made none (or whose stored one is unreadable)."""
        known = self._prefs.get(user_id)
        if known is not None:
            return known
        stored = await self.settings.get("user", user_id, NOTIFY)
        prefs = NotifyPrefs()
        if stored is not None:
            try:
                prefs = NotifyPrefs.model_validate_json(stored)
            except ValidationError:
                log.warning(
                    "the notification settings of user %s cannot be read; using the defaults", user_id
                )
        if len(self._prefs) > PREFS_KEPT:
            self._prefs.clear()
        self._prefs[user_id] = prefs
        return prefs

    async def save_prefs(self, user_id: int, prefs: NotifyPrefs) -> None:
        default = prefs == NotifyPrefs()
        await self.settings.set("user", user_id, NOTIFY, None if default else prefs.model_dump_json())
        self._prefs[user_id] = prefs
        # What was held for them is decided again under their new choice, at the next sweep.
        await self.ledger.ping_user_now(user_id, self.clock())
        self._next_due = None

    async def begin(
        self,
        match: MatchRecord,
        delivery: Delivery,
        notice: Notice,
        pinged: Iterable[int],
        continuing: bool,
        previous_to_act: Collection[int] = (),
    ) -> TurnStart:
        """Whom a new thread post mentions among the seats ``pinged``, and how the seats it calls to act
        are told of their turn. A post that carries on a turn (its earlier post was lost) mentions nobody:
        the turn's players were told, or will be, when it began. After a move taken back, nobody is
        called again who was told of the turn it ended (``previous_to_act``: who the previous post
        called); the player who took it back is at the table and is not called either."""
        if continuing:
            return TurnStart()
        now = self.clock()
        mention: list[int] = []
        pings: list[TurnPing] = []
        earlier = {p.seat: p for p in await self.ledger.turn_pings(match.id, delivery.version)}
        if not earlier and previous_to_act:
            # Who was told of a turn since taken back is carried on the undo's turn, not among its
            # players: their turn coming back is the one they were told of.
            carried = [p for p in await self.ledger.turn_pings(match.id) if p.seat not in previous_to_act]
            earlier = {p.seat: p.model_copy(update={"turn": delivery.version}) for p in carried if p.sent}
        to_act = set(notice.to_act) if not notice.finished else set()
        for seat in notice.recalled:
            player = match.player_at(seat)
            if seat not in to_act and player is not None and player.user_id is not None:
                pings.append(self._told(match, delivery, seat, player.user_id, now))
        for seat in pinged:
            player = match.player_at(seat)
            if player is None or player.user_id is None or player.bot is not None:
                continue
            if seat == notice.undone_by:
                continue
            prefs = await self.prefs(player.user_id)
            if seat not in to_act:
                # The final post calls everyone (the result is theirs); the first post names every
                # player but calls only who is to act, the others being called on their own turns.
                if notice.finished and decide(prefs, now, now).act is Act.MENTION:
                    mention.append(player.user_id)
                continue
            ping = earlier.get(seat) or TurnPing(
                match_id=match.id,
                turn=delivery.version,
                seat=seat,
                user_id=player.user_id,
                started_at=now,
                due_at=now,
            )
            decision = decide(prefs, now, ping.started_at, told=ping.sent)
            if decision.act is Act.MENTION:
                mention.append(player.user_id)
                ping = ping.model_copy(update={"via": Via.MENTION})
            elif decision.act is Act.DM and await self.posts.has_private_notice(
                match.id, delivery.version, seat
            ):
                ping = ping.model_copy(update={"via": Via.HAND})  # that message says it is their turn
            elif decision.act is Act.HOLD and decision.until is not None:
                ping = ping.model_copy(update={"due_at": decision.until})
            # A message to send now stays held and due: the sweep after this outbox pass sends it.
            pings.append(ping)
        return TurnStart(mention=mention, pings=pings)

    @staticmethod
    def _told(match: MatchRecord, delivery: Delivery, seat: int, user_id: int, now: datetime) -> TurnPing:
        """A seat already told of the turn a move taken back ended, carried on the undo's turn."""
        return TurnPing(
            match_id=match.id,
            turn=delivery.version,
            seat=seat,
            user_id=user_id,
            started_at=now,
            due_at=now,
            via=Via.MENTION,
        )

    def saved(self, pings: Iterable[TurnPing]) -> None:
        """Pings of a new turn are in the store: a sweep looks for them when the first comes due. Called
        after they are saved, so a sweep that ran in between cannot have missed them."""
        for ping in pings:
            if not ping.sent and self._next_due is not None and ping.due_at < self._next_due:
                self._next_due = ping.due_at

    async def loud(self, match: MatchRecord, delivery: Delivery, notice: Notice, user_id: int) -> bool:
        """Whether a private message may notify its reader (see ``engine.host.notify.loud_dm``)."""
        assert delivery.seat is not None
        now = self.clock()
        turn = delivery.seat in notice.to_act
        if not loud_dm(await self.prefs(user_id), now, now, turn):
            return False
        if turn:
            if notice.turn_goes_on:
                return False  # they are playing it and need no call
            # Notices that do not say (undos, timeouts, those stored before moves said it): the thread's
            # post tells, when it has not yet been sent beyond this version.
            live = await self.posts.live_post(match.id)
            if live is not None and live.to_act == notice.to_act and live.version < delivery.version:
                return False
        return True

    async def by_message(self, match_id: int, user_id: int) -> bool:
        """Whether a reminder of the match's clock reaches this person by direct message (else by a
        mention in the thread): they chose messages, and theirs are not known to be closed."""
        if (await self.prefs(user_id)).channel is Channel.THREAD:
            return False
        return not await self.posts.dm_refused(match_id, user_id)

    async def sweep(self) -> int:
        """Deliver the held pings that are due; how many were delivered. Each on its own: one that fails
        is retried later and never holds back the others."""
        now = self.clock()
        if self._next_due is not None and now < self._next_due:
            return 0
        self._next_due = None
        told = 0
        for ping in await self.ledger.due_pings(now):
            try:
                told += await self._fire(ping, now)
            except Exception:
                log.exception("match %s: the turn reminder of seat %s failed", ping.match_id, ping.seat)
        self._next_due = await self.ledger.next_ping_due() or datetime.max.replace(tzinfo=UTC)
        return told

    async def _fire(self, ping: TurnPing, now: datetime) -> bool:
        try:
            match = await self.host.match(ping.match_id)
        except EngineError as exc:
            log.info("match %s: its turn reminders are dropped: %s", ping.match_id, exc.message)
            await self.ledger.drop_pings(ping.match_id)
            return False
        if not await self.still_waiting(match, ping):
            await self.ledger.drop_pings(match.id, before=ping.turn + 1)
            return False
        decision = decide(await self.prefs(ping.user_id), now, ping.started_at)
        if decision.act is Act.HOLD:
            await self.ledger.settle_ping(ping, Via.HELD, due_at=decision.until)
            return False
        via = Via.MENTION if decision.act is Act.MENTION else Via.DM
        if not await self.ledger.settle_ping(ping, via):
            return False  # somebody else told them
        try:
            if via is Via.MENTION:
                await self.reminders.turn_in_thread(match, ping.seat, ping.user_id)
            else:
                await self.reminders.turn_by_message(match, ping.seat, ping.user_id)
        except Refused as exc:
            # Refusals last, so nothing is retried. Closed DMs: the thread says so once, mentioning them,
            # and later turns mention them there instead. (The sender moves a match whose thread is out
            # of reach; one refused even so has nowhere left to post.)
            log.info("match %s: the turn reminder of seat %s was refused: %s", match.id, ping.seat, exc)
            if via is not Via.DM:
                return False
            if await self.posts.dm_refused(match.id, ping.user_id):
                await self.reminders.turn_in_thread(match, ping.seat, ping.user_id)
            else:
                await self.reminders.dm_closed(match, ping.user_id)
        except TryLater:
            await self.ledger.release_ping(ping, now + RETRY_AFTER)
            raise
        return True

    async def still_waiting(self, match: MatchRecord, ping: TurnPing) -> bool:
        """Whether the turn of ``ping`` still waits for its player."""
        if ping.seat not in self.host.to_act(match):
            return False
        latest = await self.ledger.turn_pings(match.id)
        return bool(latest) and latest[0].turn == ping.turn
