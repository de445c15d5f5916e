"""Answering an interaction with what the host said: a sentence in the reader's language, a text, or a
whole message with its controls and image, in the answer itself or as a follow-up once deferred."""

from __future__ import annotations

import io
from typing import Any

import discord

from cogs._components import view_of
from cogs._lang import reader_locale
from engine.core.say import Say
from engine.host.outgoing import Outgoing
from lang.says import render

CONTENT_LIMIT = 2000


async def reply(
    interaction: discord.Interaction[Any],
    said: Say | str | Outgoing,
    ephemeral: bool = True,
    edit: bool = False,
) -> None:
    """Answer ``interaction`` with ``said``, to the reader only unless not ``ephemeral``; ``edit``
    replaces the message the pressed control is on (its controls with the message's own, if any)."""
    if isinstance(said, Say):
        said = render(await reader_locale(interaction), said)
    message = said if isinstance(said, Outgoing) else Outgoing(said)
    content = message.text[:CONTENT_LIMIT]
    view = view_of(message.controls) if message.controls else None
    files = [discord.File(io.BytesIO(message.image), filename=message.filename)] if message.image else []
    done = interaction.response.is_done()
    if edit and done:
        await interaction.edit_original_response(content=content, view=view, attachments=files)
    elif edit:
        await interaction.response.edit_message(content=content, view=view, attachments=files)
    else:
        sent: dict[str, Any] = {"ephemeral": ephemeral}
        if view is not None:
            sent["view"] = view
        if files:
            sent["files"] = files
        if done:
            await interaction.followup.send(content, **sent)
        else:
            await interaction.response.send_message(content, **sent)
