"""Delivering the line of ``/replay export`` requests (``engine.host.exports``) on Discord: the line
decides who waits and when an answer comes too late; this sends its words and files.

A person who asks while others wait is told their place in it, gets the file in the interaction's answer
when it is ready, or by direct message when that answer would come too late (or Discord refuses it as
expired).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from cogs._reply import reply
from cogs._sender import DiscordSender
from cogs.errors import error_text
from engine.host.exports import ANSWER_WITHIN, MOST_IN_LINE, STOPPING, Answer, Export, SentExports
from engine.host.outgoing import Outgoing
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)

# Discord's answer to a followup sent with an interaction token that has expired.
INVALID_WEBHOOK_TOKEN = 50027
# How long a stop waits to tell the people still in line that their animation will not come.
TELL_ON_STOP_S = 2.0


class Exports(SentExports):
    """The line of exports of a bot: each answered by followup while its interaction is in time, else by
    direct message."""

    def __init__(self, bot: Bot, most: int = MOST_IN_LINE, answer_within: timedelta = ANSWER_WITHIN) -> None:
        super().__init__(bot.clock, self._answer, DiscordSender(bot), error_text, most, answer_within)

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

    async def _answer(self, export: Export, message: Outgoing) -> bool:
        """``message`` by followup; False when Discord says the interaction's token has expired."""
        try:
            await reply(export.reply, message)
        except discord.HTTPException as exc:
            if exc.code != INVALID_WEBHOOK_TOKEN:
                raise
            return False
        return True

    async def stop(self) -> None:
        """Stop drawing; the people still in line are told, briefly, to ask again after the restart."""
        left = await self.close()
        if left:
            told = (self._tell(export.reply, render(export.locale, STOPPING)) for export in left)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*told), TELL_ON_STOP_S)
