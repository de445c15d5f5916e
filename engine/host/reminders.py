"""What the bot tells a player of its own accord, worded in their language and sent through the front end's
``Sender``: that it is their turn (a mention in the match's thread with a link to the turn's post, or a
private message with the board's controls), that their time runs short on a match clock, and, once per
match, that their direct messages are closed so their hand waits behind the "My hand" button.

When to say it is for ``engine.host.pings`` and ``engine.host.herald`` to decide; how a person, a link
or a moment is written is the front end's (its ``Marks``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from engine.core.say import Say, Who
from engine.host import controls
from engine.host.clock import Reminder
from engine.host.clock_words import reminder_of
from engine.host.languages import recipient_locale
from engine.host.ledgers import PostLedger
from engine.host.living import LivingMessages
from engine.host.marks import Marks
from engine.host.outbox import DestinationGone
from engine.host.outgoing import Outgoing, Refused, Sender
from engine.host.ports import MatchRecord, Notice, SettingsStore
from engine.host.private import dm_closed, private_message
from engine.host.service import GameHost
from engine.host.text import HOST
from engine.host.web_links import WebLinks
from lang.says import render

log = logging.getLogger(__name__)

# What begins a clock's reminder, wherever it is said.
HOURGLASS = "⏳"


def your_turn(seat: int) -> Say:
    """The reminder said in the thread to the player of ``seat``, named as the front end calls them."""
    return HOST.say("{player}, it is your turn.", player=Who(seat=seat))


class Reminders:
    """The reminders of ``host``'s matches, sent with ``sender`` and written with ``marks``. Each send
    raises the ``Sender``'s ``Refused`` or ``TryLater`` when it fails."""

    def __init__(
        self,
        host: GameHost,
        settings: SettingsStore,
        posts: PostLedger,
        sender: Sender,
        marks: Marks,
        web: WebLinks | None = None,
    ) -> None:
        """``web``: the links to the web table that private messages offer (none by default)."""
        self.host = host
        self.settings = settings
        self.web = web or WebLinks(settings)
        self.posts = posts
        self.sender = sender
        self.marks = marks
        self.living = LivingMessages(posts, sender, settings)

    async def locale(self, match: MatchRecord, user_id: int) -> str:
        return await recipient_locale(self.settings, user_id, match.guild_id)

    async def turn_in_thread(self, match: MatchRecord, seat: int, user_id: int) -> None:
        """Call the player of ``seat`` in the match's thread, with a link to the post of the turn."""
        locale = await self.locale(match, user_id)
        text = render(locale, your_turn(seat), lambda _: self.marks.person(user_id))
        live = await self.posts.live_post(match.id)
        if live is not None:
            address = self.marks.post_address(match.guild_id, live.channel_id, live.message_id)
            if address is not None:
                text += f" {address}"
        await self.sender.to_match(match, Outgoing(text, mentions=(user_id,)))

    async def turn_by_message(self, match: MatchRecord, seat: int, user_id: int) -> None:
        """Tell the player of ``seat`` privately that it is their turn, with the board's controls."""
        locale = await self.locale(match, user_id)
        text = private_message(self.host, match, seat, Notice(to_act=(seat,)), locale, self.marks)
        shown = await self.web.board(match, match.version, locale)
        await self.living.send(match, seat, user_id, Outgoing(text, shown), match.version, turn=True)

    async def clock_by_message(
        self, match: MatchRecord, user_id: int, reminder: Reminder, left: timedelta
    ) -> None:
        """Tell the player privately that their time runs short (``left`` to go), with the board's
        controls."""
        locale = await self.locale(match, user_id)
        said = reminder_of(self.host, match, reminder, left, locale)
        text = f"{HOURGLASS} {said[:1].upper()}{said[1:]}"
        shown = await self.web.board(match, match.version, locale)
        seat = match.seat_of(user_id)
        if seat is None:
            await self.sender.to_person(user_id, Outgoing(text, shown))
            return
        await self.living.send(match, seat, user_id, Outgoing(text, shown), match.version, turn=True)

    async def clock_in_thread(
        self, match: MatchRecord, user_id: int, reminder: Reminder, left: timedelta
    ) -> None:
        """Call the player in the match's thread: their time runs short (``left`` to go)."""
        locale = await self.locale(match, user_id)
        said = reminder_of(self.host, match, reminder, left, locale)
        text = f"{HOURGLASS} {self.marks.person(user_id)}, {said}"
        await self.sender.to_match(match, Outgoing(text, mentions=(user_id,)))

    async def dm_closed(self, match: MatchRecord, user_id: int) -> None:
        """Say once per match, in its thread and calling them, that this player's direct messages are
        closed, so their hand waits behind "My hand"; the store remembers it, so a restart does not say
        it again. Raises ``DestinationGone`` when the match has nowhere left to post."""
        if await self.posts.dm_refused(match.id, user_id):
            return
        locale = await self.locale(match, user_id)
        text = render(locale, dm_closed(self.marks.person(user_id)))
        shown = (controls.hand(match.id, locale), *await self.web.beside_hand(match, locale))
        note = Outgoing(text, shown, mentions=(user_id,))
        try:
            await self.sender.to_match(match, note)
        except Refused as exc:
            if exc.gone:
                raise DestinationGone(f"match {match.id} has nowhere left to post: {exc}") from exc
            log.info(
                "match %s: the note that DMs are closed for user %s was refused: %s", match.id, user_id, exc
            )
            return
        await self.posts.remember_dm_refused(match.id, user_id)
        log.info("match %s: DMs closed for user %s; told them in the thread", match.id, user_id)
