"""Delivering the line of ``/replay export`` requests (``engine.host.exports``) on Discord: the line
decides who waits and when an answer comes too late; this sends its words and files.

A person who asks while others wait is told their place in it, gets the file in the interaction's answer
when it is ready, or by direct message when that answer would come too late (or Discord refuses it as
expired).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from cogs.errors import error_text
from engine.host.exports import ANSWER_WITHIN, CAME_LATE, MOST_IN_LINE, STOPPING, Answer, Export, ExportLine
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)

# Discord's answer to a followup sent with an interaction token that has expired.
INVALID_WEBHOOK_TOKEN = 50027
# How long a stop waits to tell the people still in line that their animation will not come.
TELL_ON_STOP_S = 2.0
MESSAGE_LIMIT = 2000


def files_of(answer: Answer) -> list[discord.File]:
    """A fresh file to send (a sent one cannot be read again)."""
    return (
        [discord.File(io.BytesIO(answer.data), filename=answer.filename)] if answer.data is not None else []
    )


class Exports(ExportLine):
    """The line of exports of a bot, each answered by followup while in time, else by direct message."""

    def __init__(self, bot: Bot, most: int = MOST_IN_LINE, answer_within: timedelta = ANSWER_WITHIN) -> None:
        super().__init__(bot.clock, self._send, most, answer_within)
        self.sent_by_followup = 0
        self.sent_by_dm = 0

    async def ask_for(
        self, interaction: discord.Interaction[Any], locale: str, make: Callable[[], Awaitable[Answer]]
    ) -> None:
        """Put the export of the person behind ``interaction`` (deferred already) in line, or refuse it in
        words; ``make`` draws its answer when its turn comes."""
        export, said = self.ask(interaction.user.id, locale, make, interaction)
        if said is not None:
            await self._tell(interaction, render(locale, said))
        if export is not None:
            export.told.set()

    async def _tell(self, interaction: discord.Interaction[Any], text: str) -> None:
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not tell user %s about their export: %s", interaction.user.id, exc)

    async def _send(self, export: Export, answer: Answer | Exception, in_time: bool) -> None:
        """``answer`` by followup while the interaction's token is valid, else (or when Discord says it
        has expired) by direct message."""
        if isinstance(answer, Exception):
            answer = Answer(error_text(answer, export.locale)[:MESSAGE_LIMIT])
        interaction: discord.Interaction[Any] = export.reply
        if in_time:
            try:
                await interaction.followup.send(answer.text, files=files_of(answer), ephemeral=True)
            except discord.HTTPException as exc:
                if exc.code != INVALID_WEBHOOK_TOKEN:
                    raise
            else:
                self.sent_by_followup += 1
                return
        late = render(export.locale, CAME_LATE)
        try:
            await interaction.user.send(f"{late}\n{answer.text}"[:MESSAGE_LIMIT], files=files_of(answer))
        except discord.Forbidden:
            log.info("user %s takes no direct messages: their export was not delivered", export.user_id)
        else:
            self.sent_by_dm += 1

    async def stop(self) -> None:
        """Stop drawing; the people still in line are told, briefly, to ask again after the restart."""
        left = await self.close()
        if left:
            told = (self._tell(export.reply, render(export.locale, STOPPING)) for export in left)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*told), TELL_ON_STOP_S)
