"""/mygames: the matches waiting for me on every server, the longest wait first, and a way to go there."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._clocks import clock_notes
from cogs._lang import reader_locale
from cogs._lobby_ui import game_title
from engine.host.ports import MatchRecord
from lang import t

if TYPE_CHECKING:
    from cogs._bot import Bot

# Each list shows at most this many matches, so the answer fits one message.
SHOWN = 10


def thread_link(match: MatchRecord) -> str | None:
    """The address of the match's thread, if it has one on a server."""
    if match.guild_id is None or match.thread_id is None:
        return None
    return f"https://discord.com/channels/{match.guild_id}/{match.thread_id}"


def since(match: MatchRecord) -> str:
    """Discord's relative time of the match's last move ("3 hours ago", in the reader's language)."""
    try:
        moment = datetime.fromisoformat(match.updated_at)
    except ValueError:
        return "?"
    return f"<t:{int(moment.timestamp())}:R>"


class Mine(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def line(self, match: MatchRecord, locale: str, seat: int | None = None) -> str:
        """One match: where it is, when its last move was, and (``seat``: it is theirs to play) how long
        they have left."""
        guild = self.bot.get_guild(match.guild_id) if match.guild_id else None
        where = " " + t(locale, "on **{server}**", server=guild.name) if guild else ""
        link = thread_link(match)
        title = game_title(self.bot, match.game, locale)
        text = f"#{match.id} {title}{where} · " + t(locale, "last move {when}", when=since(match))
        if seat is not None:
            notes = await clock_notes(self.bot, match, [seat], locale)
            text += "".join(f" · {note}" for note in notes.values())
        return f"• [{text}]({link})" if link else f"• {text}"

    @app_commands.command(
        name="mygames", description="Your matches on every server, those waiting for you first"
    )
    async def mygames(self, interaction: discord.Interaction[Any]) -> None:
        locale = await reader_locale(interaction)
        mine, others = await self.bot.host.waiting_for(interaction.user.id)
        if not mine and not others:
            text = t(locale, "You are in no running match. Start one with `/game new`.")
            await interaction.response.send_message(text, ephemeral=True)
            return
        parts = []
        if mine:
            parts.append("**" + t(locale, "Your turn:") + "**")
            parts += [await self.line(m, locale, m.seat_of(interaction.user.id)) for m in mine[:SHOWN]]
        if others:
            parts.append("**" + t(locale, "Waiting for the others:") + "**")
            parts += [await self.line(m, locale) for m in others[:SHOWN]]
        view = discord.ui.View(timeout=None)
        first = next((link for m in mine if (link := thread_link(m))), None)
        if first is not None:
            # A link button goes straight to the thread, on a phone as on a desktop.
            view.add_item(
                discord.ui.Button(label=t(locale, "Next match waiting for you"), url=first, emoji="▶️")
            )
        await interaction.response.send_message("\n".join(parts)[:2000], view=view, ephemeral=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Mine(bot))
