"""Where each match posts, for any front end that gives matches threads: the match's thread, opened in its
channel on first use (tournament matches) and joined by its players, and a new place when it is lost.

A lost thread (deleted, or closed to the bot) is replaced by a new thread of the match's channel, or
else by the channel itself, and the new place says so, calling the players. When the channel is out of
reach too, the players are told once, privately, and the match has nowhere left to post.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from engine.host.languages import recipient_locale
from engine.host.ledgers import PostLedger
from engine.host.locks import MatchLocks
from engine.host.marks import Marks
from engine.host.outbox import DestinationGone
from engine.host.outgoing import Outgoing, Refused, Sender, Sent, TryLater
from engine.host.ports import MatchRecord, SettingsStore
from engine.host.private import heading_of, humans, moved_note, nowhere_left
from engine.host.service import GameHost
from lang.says import render

log = logging.getLogger(__name__)


class Channels(Protocol):
    """How a front end opens a thread."""

    async def open_thread(self, channel_id: int, name: str, people: Sequence[int]) -> int | None:
        """A new public thread named ``name`` in the channel, joined by ``people``; None when the channel
        takes no threads. ``Refused`` when none may be opened (``gone`` when the channel is no more)."""
        ...


class Threads:
    def __init__(
        self,
        host: GameHost,
        posts: PostLedger,
        settings: SettingsStore,
        sender: Sender,
        channels: Channels,
        marks: Marks,
        name_of: Callable[[MatchRecord], Awaitable[str]],
    ) -> None:
        self.host, self.posts, self.settings = host, posts, settings
        self.sender, self.channels, self.marks, self.name_of = sender, channels, marks, name_of
        self._opening = MatchLocks()
        # Matches whose players were told that the match has nowhere left to post.
        self._told_nowhere: set[int] = set()

    async def place_of(self, match: MatchRecord) -> int | None:
        """The channel the match posts in: its thread, opened on first use; None for a match made
        outside the front end. ``Refused`` when its channel is out of reach."""
        if match.thread_id is None and match.channel_id is not None:
            # The board's sender, a seat's reminder and a tournament's pairings may all want the thread
            # at once: the first opens it, and the others find it in the record.
            async with self._opening(match.id):
                match = await self.host.match(match.id)
                if match.thread_id is None and match.channel_id is not None:
                    opened = await self._open(match, match.channel_id)
                    return match.channel_id if opened is None else opened
        return match.thread_id or match.channel_id

    async def post(self, match: MatchRecord, message: Outgoing) -> Sent | None:
        """Post ``message`` where the match posts, moving the match when its place is lost (see the
        module); None for a match made outside the front end."""
        try:
            place = await self.place_of(match)
            if place is None:
                return None
            return await self.sender.to_channel(place, message)
        except Refused as lost:
            return await self.sender.to_channel(await self.move(match, lost), message)

    async def _open(self, match: MatchRecord, channel_id: int) -> int | None:
        opened = await self.channels.open_thread(channel_id, await self.name_of(match), humans(match))
        if opened is not None:
            await self.posts.set_thread(match.id, opened)
        return opened

    async def move(self, match: MatchRecord, lost: Refused) -> int:
        """The match's place is ``lost``: go on in a new thread of its channel, or else in the channel
        itself, and say so there. When the channel is out of reach too, tell the players privately and
        raise ``DestinationGone``."""
        log.warning("match %s: its thread is out of reach (%s); moving it", match.id, lost)
        locale = await recipient_locale(self.settings, None, match.guild_id)
        try:
            if match.channel_id is None:
                raise DestinationGone(f"match {match.id} has no channel to move to")
            try:
                opened = await self._open(match, match.channel_id)
                if opened is None:
                    raise DestinationGone(f"the channel of match {match.id} takes no threads")
                await self._say_moved(match, opened, lost, in_channel=False, locale=locale)
                return opened
            except Refused as refused:
                if refused.gone:
                    raise
                # No thread may be opened or written in: the channel itself hosts the match from now on.
                await self.posts.set_thread(match.id, match.channel_id)
                await self._say_moved(match, match.channel_id, lost, in_channel=True, locale=locale)
                return match.channel_id
        except (Refused, DestinationGone) as exc:
            await self._tell_players(match)
            raise DestinationGone(f"match {match.id} has nowhere left to post: {exc}") from exc

    async def _say_moved(
        self, match: MatchRecord, place: int, lost: Refused, in_channel: bool, locale: str
    ) -> None:
        """Say in the match's new place why it is there, calling its players."""
        people = tuple(humans(match))
        call = ", ".join(self.marks.person(user_id) for user_id in people)
        note = render(locale, moved_note(match.id, lost.gone, in_channel))
        await self.sender.to_channel(place, Outgoing(f"{note} {call}", mentions=people))

    async def _tell_players(self, match: MatchRecord) -> None:
        """Tell the players once that the match has no thread or channel left."""
        if match.id in self._told_nowhere:
            return
        self._told_nowhere.add(match.id)
        for user_id in humans(match):
            locale = await recipient_locale(self.settings, user_id, match.guild_id)
            text = nowhere_left(locale, heading_of(self.host, match, locale))
            try:
                await self.sender.to_person(user_id, Outgoing(text))
            except (Refused, TryLater) as exc:
                log.info("match %s: could not tell user %s privately either: %s", match.id, user_id, exc)
