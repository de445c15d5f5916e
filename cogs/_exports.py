"""The line of ``/replay export`` requests: one at a time per person, a few in all, drawn in the order asked.

An animation takes seconds to minutes to draw, and Discord lets an interaction's answer come for 15
minutes only. So the line is short: a person who asks while others wait is told their place in it, gets
the file in the interaction's answer when it is ready, or by direct message when that answer would come
too late (or Discord refuses it as expired). Asking again while one's own is in the line, or when the
line is full, is refused in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord

from cogs.errors import error_text
from lang import t

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)

# Exports waiting or being drawn at once, across the bot: about two minutes each for the longest
# matches, so the last of a full line still arrives within the interaction's fifteen minutes.
MOST_IN_LINE = 6
# How long after an interaction its answer may still be sent by followup: Discord's fifteen minutes,
# less a margin for the sending itself.
ANSWER_WITHIN = timedelta(minutes=14)
# Discord's answer to a followup sent with an interaction token that has expired.
INVALID_WEBHOOK_TOKEN = 50027
# How long a stop waits to tell the people still in line that their animation will not come.
TELL_ON_STOP_S = 2.0
MESSAGE_LIMIT = 2000


@dataclass(frozen=True, slots=True)
class Answer:
    """What an export sends: words, and the file when there is one."""

    text: str
    data: bytes | None = None
    filename: str = "animation.gif"

    def file(self) -> list[discord.File]:
        """A fresh file to send (a sent one cannot be read again)."""
        return [discord.File(io.BytesIO(self.data), filename=self.filename)] if self.data is not None else []


@dataclass(eq=False)
class Export:
    """A person's request: their deferred ``interaction``, their language, when it was asked (on the
    bot's clock) and how to make its answer."""

    interaction: discord.Interaction[Any]
    locale: str
    asked_at: datetime
    make: Callable[[], Awaitable[Answer]]
    # Set once the person was told their place (or had none to be told): the answer comes after it.
    told: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def user_id(self) -> int:
        return self.interaction.user.id


class Exports:
    """The line of exports of a bot; ``most`` in it at once, each answered by followup up to
    ``answer_within`` after it was asked, else by direct message."""

    def __init__(self, bot: Bot, most: int = MOST_IN_LINE, answer_within: timedelta = ANSWER_WITHIN) -> None:
        self.bot = bot
        self.most = most
        self.answer_within = answer_within
        self._waiting: deque[Export] = deque()
        self._drawing: Export | None = None
        self._task: asyncio.Task[None] | None = None
        self.sent_by_followup = 0
        self.sent_by_dm = 0

    @property
    def in_line(self) -> int:
        """Exports waiting or being drawn."""
        return len(self._waiting) + (self._drawing is not None)

    def _has_one(self, user_id: int) -> bool:
        return any(export.user_id == user_id for export in (*self._waiting, self._drawing) if export)

    async def ask(
        self, interaction: discord.Interaction[Any], locale: str, make: Callable[[], Awaitable[Answer]]
    ) -> None:
        """Put the export of the person behind ``interaction`` (deferred already) in line, or refuse it in
        words; ``make`` draws its answer when its turn comes."""
        if self._has_one(interaction.user.id):
            await self._tell(
                interaction,
                t(
                    locale,
                    "You already asked for an animation: it will reach you as soon as it is drawn. "
                    "Ask for another once it has arrived.",
                ),
            )
            return
        if self.in_line >= self.most:
            await self._tell(
                interaction,
                t(
                    locale,
                    "Too many animations are waiting to be drawn right now: try again in a few minutes.",
                ),
            )
            return
        ahead = self.in_line
        export = Export(interaction, locale, self.bot.clock(), make)
        self._waiting.append(export)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._draw_in_turn(), name="bigapple-exports")
        if ahead:
            await self._tell(
                interaction,
                t(
                    locale,
                    "You are number {place} in line for an animation: it will arrive here when it is "
                    "drawn, or by direct message if that takes more than a quarter of an hour.",
                    place=ahead + 1,
                ),
            )
        export.told.set()

    async def _tell(self, interaction: discord.Interaction[Any], text: str) -> None:
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not tell user %s about their export: %s", interaction.user.id, exc)

    async def _draw_in_turn(self) -> None:
        while self._waiting:
            export = self._drawing = self._waiting.popleft()
            try:
                try:
                    answer = await export.make()
                except Exception as exc:  # the person reads what went wrong; the line goes on
                    answer = Answer(error_text(exc, export.locale)[:MESSAGE_LIMIT])
                await self._send(export, answer)
            except Exception:
                log.exception("the export of user %s could not be sent", export.user_id)
            finally:
                self._drawing = None

    async def _send(self, export: Export, answer: Answer) -> None:
        """``answer`` by followup while the interaction's token is valid, else (or when Discord says it
        has expired) by direct message."""
        await export.told.wait()
        if self.bot.clock() - export.asked_at < self.answer_within:
            try:
                await export.interaction.followup.send(answer.text, files=answer.file(), ephemeral=True)
            except discord.HTTPException as exc:
                if exc.code != INVALID_WEBHOOK_TOKEN:
                    raise
            else:
                self.sent_by_followup += 1
                return
        late = t(
            export.locale,
            "The animation you asked for took longer than Discord lets an answer wait, so here it is.",
        )
        try:
            await export.interaction.user.send(f"{late}\n{answer.text}"[:MESSAGE_LIMIT], files=answer.file())
        except discord.Forbidden:
            log.info("user %s takes no direct messages: their export was not delivered", export.user_id)
        else:
            self.sent_by_dm += 1

    async def close(self) -> None:
        """Stop drawing; the people still in line are told, briefly, to ask again after the restart."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        left = [*([self._drawing] if self._drawing else []), *self._waiting]
        self._waiting.clear()
        self._drawing = None
        if left:
            told = (
                self._tell(
                    export.interaction,
                    t(
                        export.locale,
                        "The bot is restarting, so your animation will not be drawn now: ask for it again "
                        "in a few minutes.",
                    ),
                )
                for export in left
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*told), TELL_ON_STOP_S)
