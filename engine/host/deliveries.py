"""The outbox's deliveries as messages, for any front end: a board post in the match's thread, edited in
place while the same players keep acting, and a player's private message with their hand.

The host decides and words everything; the front end draws the images, sends and edits (``Front`` and
the ``Sender``). A private message that the front end cannot deliver (closed direct messages) is replaced
by one note in the thread, without any of the hand, and the player reads it behind "My hand" instead.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from engine.host import controls
from engine.host.clock_words import clock_notes
from engine.host.images import digest, new_image
from engine.host.languages import recipient_locale
from engine.host.ledgers import BOARD_IMAGE_SEAT, PostLedger
from engine.host.living import LivingMessages
from engine.host.marks import Marks
from engine.host.outgoing import Outgoing, Refused, Sender, Sent
from engine.host.pings import TurnPings
from engine.host.ports import Delivery, LivePost, MatchRecord, Notice, SettingsStore
from engine.host.post_words import board_post_text
from engine.host.private import call_list, heading_of, private_message, private_reader, seat_names
from engine.host.service import GameHost
from engine.host.web_links import WebLinks
from lang.says import Namer

log = logging.getLogger(__name__)


class Front(Protocol):
    """What delivering needs of a front end besides sending: drawing, editing a post, and what follows
    a match's final post."""

    async def draw(
        self, match: MatchRecord, version: int, seat: int | None, locale: str, since_seat: int | None = None
    ) -> bytes | None:
        """The board (``seat`` None) or a seat's hand as of ``version``; with ``since_seat``, the board
        marks what changed since that player's previous turn."""
        ...

    async def post(self, match: MatchRecord, message: Outgoing) -> Sent | None:
        """Post ``message`` in the match's thread; when the thread is out of reach, go on in a new one
        (or the channel) and say so there. ``DestinationGone`` when the match has nowhere left; None
        for a match this front end does not show."""
        ...

    async def edit(self, where: Sent, message: Outgoing) -> bool:
        """Show ``message`` on the message sent ``where`` (a post or a private message; its image only
        when it has one, its controls or none); False when that message is gone."""
        ...

    async def strip(self, live: LivePost) -> None:
        """Take the controls off a post that no longer shows the current turn (best effort)."""
        ...

    def finished(self, match: MatchRecord, where: Sent, locale: str) -> None:
        """The final post of ``match`` went out at ``where``."""
        ...


def nonce_of(delivery: Delivery) -> str:
    """The nonce of a delivery's message: the same on every try, so the front end keeps one message even
    when a post went through but the bot died before marking it sent."""
    return f"ba-{delivery.id}"


class Deliveries:
    """The outbox's ``Notifier``: delivers one stored delivery, raising on failure (``DestinationGone``
    when the match has nowhere left to post)."""

    def __init__(
        self,
        host: GameHost,
        settings: SettingsStore,
        posts: PostLedger,
        pings: TurnPings,
        sender: Sender,
        front: Front,
        marks: Marks,
        web: WebLinks | None = None,
    ) -> None:
        """``web``: the links to the web table that posts and private messages offer (none by default)."""
        self.host, self.settings, self.posts, self.pings = host, settings, posts, pings
        self.sender, self.front, self.marks = sender, front, marks
        self.web = web or WebLinks(settings)
        self.living = LivingMessages(posts, sender, settings)

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        if delivery.seat is None:
            await self.post(match, delivery, notice)
        else:
            await self.tell(match, delivery, notice)

    def namer(self, match: MatchRecord) -> Namer:
        """Seat names as posts show them (see ``private.seat_names``)."""
        return seat_names(self.host, match, self.marks)

    async def post(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        """The board post of a notice, as the host plans it (``engine.host.posts``): the turn's post
        edited in place while the same players keep acting, else a new post with one mention, the
        previous one losing its controls so that only the latest post has them."""
        locale = await recipient_locale(self.settings, None, match.guild_id)
        name = self.namer(match)
        live = await self.posts.live_post(match.id)

        def calls(seats: Sequence[int]) -> str:
            return call_list(match, seats, self.marks.person)  # people mentioned, computers named

        plan = await self.host.board_post(match, delivery, notice, live, locale, name, calls)
        notes = await clock_notes(self.host, match, plan.call, locale, self.marks) if plan.call else {}
        heading = heading_of(self.host, match, locale)
        text = board_post_text(locale, plan, heading, name, calls, notes)
        png = await self.front.draw(match, delivery.version, None, locale, plan.since_seat)
        undoer = None if plan.undo is None else self.host.namer(match)(plan.undo)
        shown = await self.web.board(match, delivery.version, locale, undoer, spectators=True)
        if notice.finished:
            final = controls.final(match.id, locale) if plan.outcome is not None else ()
            shown = (*final, *await self.web.watching(match, locale))
        board_image = digest(png) if png is not None else None
        continuing = live is not None and plan.continuing
        if live is not None and continuing:
            # Only a board that changed is uploaded again; otherwise the post keeps its image.
            fresh = await new_image(self.posts, match.id, BOARD_IMAGE_SEAT, png)
            if await self.front.edit(where_is(live), Outgoing(text, shown, png if fresh else None)):
                where = {"channel_id": live.channel_id, "message_id": live.message_id}
                await self.posts.save_live_post(plan.shown.model_copy(update=where), board_image=board_image)
                return
        pinged = range(match.seat_count) if plan.everyone else notice.to_act
        # Each player's own choice says whether this post mentions them (see engine.host.pings).
        previous = live.to_act if live is not None else ()
        turn = await self.pings.begin(match, delivery, notice, pinged, continuing, previous)
        message = Outgoing(text, shown, png, mentions=tuple(turn.mention), nonce=nonce_of(delivery))
        sent = await self.front.post(match, message)
        if sent is None:
            return
        if live is not None and live.message_id != sent.message_id and live.channel_id == sent.channel_id:
            # (Where the match moved from, nothing can be edited any more.)
            await self.front.strip(live)
        where = {"channel_id": sent.channel_id, "message_id": sent.message_id}
        await self.posts.save_live_post(plan.shown.model_copy(update=where), turn.pings, board_image)
        self.pings.saved(turn.pings or ())
        await self.living.close_turns(match, () if notice.finished else notice.to_act)
        if plan.outcome is not None:
            self.front.finished(match, sent, locale)

    async def tell(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        """A player's private message: one living message per match, edited in place as their hand
        changes (its image only when it changed); a new one, which notifies, only to call them to play
        in the way they chose, the previous one then losing its controls. It carries the board's
        controls while the turn it tells of is still theirs."""
        assert delivery.seat is not None
        seat = delivery.seat
        reader = private_reader(match, seat, notice)
        if reader is None:
            return
        locale = await recipient_locale(self.settings, reader, match.guild_id)
        text = private_message(self.host, match, seat, notice, locale, self.marks)
        png = await self.front.draw(match, delivery.version, seat, locale)
        fresh = await new_image(self.posts, match.id, seat, png)
        # A turn that has already passed (a message sent late) neither calls nor offers controls.
        turn = seat in notice.to_act and seat in self.host.to_act(match)
        # The same controls as the thread's post: a player can take the whole turn from here.
        shown = await self.web.board(match, delivery.version, locale) if turn else ()
        loud = await self.pings.loud(match, delivery, notice, reader) if turn else False
        message = Outgoing(text, shown, png, "hand.png", silent=not loud, nonce=nonce_of(delivery))
        try:
            await self.living.show(match, seat, reader, message, delivery.version, turn, fresh is not None)
        except Refused as exc:
            log.info("match %s: private messages to user %s refused (%s)", match.id, reader, exc)
            # Closed direct messages, a person who blocked the bot or shares no server with it any more:
            # every such refusal lasts, so the hand stays behind the "My hand" button instead.
            await self.pings.reminders.dm_closed(match, reader)
            return
        if fresh:
            await self.posts.remember_sent_image(match.id, seat, fresh)


def where_is(shown: LivePost) -> Sent:
    """Where a remembered post is."""
    return Sent(shown.channel_id, shown.message_id)
