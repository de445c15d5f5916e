"""Each player's one living private message about a match: their hand, edited in place as it changes, so a
match leaves one message in their direct messages rather than one per change. A new message goes out only
to call them to play (that one notifies); the previous one then loses its controls and says its turn is
over, as does any message whose turn has passed.

A living message is its person's: once someone else plays the seat (``/game replace``, ``/tournament
replace``) it is never edited with the seat's hand again, and the newcomer's first message takes its
controls off, saying the seat is no longer theirs.
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from engine.host.languages import recipient_locale
from engine.host.ledgers import PostLedger
from engine.host.outgoing import Outgoing, Refused, Sender, Sent, TryLater
from engine.host.ports import LivePrivate, MatchRecord, SettingsStore
from lang import t

log = logging.getLogger(__name__)


def sent_to_another(living: LivePrivate, user_id: int) -> bool:
    """Whether ``living`` went to someone other than ``user_id``: who played its seat before."""
    return living.user_id is not None and living.user_id != user_id


class LivingMessages:
    """The living private messages of a host's matches, remembered in ``posts`` and sent with ``sender``."""

    def __init__(self, posts: PostLedger, sender: Sender, settings: SettingsStore) -> None:
        self.posts, self.sender, self.settings = posts, sender, settings

    async def show(
        self,
        match: MatchRecord,
        seat: int,
        user_id: int,
        message: Outgoing,
        version: int,
        turn: bool,
        image_changed: bool,
    ) -> None:
        """Show ``message`` (about ``match`` at ``version``; with the turn's controls when ``turn``) to the
        player of ``seat``: a loud one as a new message, a quiet one as an edit of the living message
        (its image only when ``image_changed`` or the living message has none). A living message sent to
        someone else (who played the seat before) is never edited: ``user_id`` gets one of their own.
        Raises the ``Sender``'s ``Refused`` or ``TryLater`` when a new message cannot go."""
        living = await self.posts.live_private(match.id, seat)
        mine = living is not None and living.user_id == user_id
        if living is not None and mine and message.silent and living.version <= version:
            image = message.image if image_changed or not living.image else None
            edited = Outgoing(message.text, message.controls, image, message.filename)
            if await self._edit(living, edited):
                update = {"version": version, "turn": turn, "text": message.text}
                if image is not None:
                    update["image"] = True
                await self.posts.save_live_private(living.model_copy(update=update))
                return
        await self.send(match, seat, user_id, message, version, turn)

    async def send(
        self, match: MatchRecord, seat: int, user_id: int, message: Outgoing, version: int, turn: bool
    ) -> Sent:
        """Send ``message`` as the seat's new living message; the previous one loses its controls (at once
        when it was someone else's, even should this one not go)."""
        previous = await self.posts.live_private(match.id, seat)
        if previous is not None and previous.turn and sent_to_another(previous, user_id):
            await self.let_go(previous, match.guild_id)
        sent = await self.sender.to_person(user_id, message)
        living = await self.posts.live_private(match.id, seat)
        if living is not None and living.turn:
            if sent_to_another(living, user_id):
                await self.let_go(living, match.guild_id)
            else:
                await self.close(living, await recipient_locale(self.settings, user_id, match.guild_id))
        await self.posts.save_live_private(
            LivePrivate(
                match_id=match.id,
                seat=seat,
                channel_id=sent.channel_id,
                message_id=sent.message_id,
                version=version,
                turn=turn,
                text=message.text,
                image=message.image is not None,
                user_id=user_id,
            )
        )
        return sent

    async def close_turns(self, match: MatchRecord, to_act: Collection[int]) -> None:
        """Take the controls off the living messages of the seats whose turn has passed."""
        for seat in range(match.seat_count):
            if seat in to_act:
                continue
            living = await self.posts.live_private(match.id, seat)
            if living is None or not living.turn:
                continue
            player = match.player_at(seat)
            reader = living.user_id or (player.user_id if player is not None else None)
            await self.close(living, await recipient_locale(self.settings, reader, match.guild_id))

    async def close(self, living: LivePrivate, locale: str) -> None:
        """``living`` without its controls, saying that its turn is over (best effort: a message that cannot
        be edited keeps buttons that answer that the board has moved on)."""
        await self._close(living, t(locale, "⏹️ This turn is over: the thread shows what followed."))

    async def let_go(self, living: LivePrivate, guild_id: int | None) -> None:
        """``living``, the message of someone who no longer plays its seat, without its controls, saying
        so in their language (best effort, as ``close``)."""
        locale = await recipient_locale(self.settings, living.user_id, guild_id)
        await self._close(living, t(locale, "⏹️ This seat is no longer yours: someone else plays it now."))

    async def _close(self, living: LivePrivate, said: str) -> None:
        text = f"{living.text}\n{said}"
        if await self._edit(living, Outgoing(text)):
            await self.posts.save_live_private(living.model_copy(update={"turn": False, "text": text}))

    async def _edit(self, living: LivePrivate, message: Outgoing) -> bool:
        try:
            await self.sender.edit(Sent(living.channel_id, living.message_id), message)
        except (Refused, TryLater) as exc:
            log.info(
                "match %s: the private message of seat %s stays as it was: %s",
                living.match_id,
                living.seat,
                exc,
            )
            return False
        return True
