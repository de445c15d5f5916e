"""How Discord writes what the host's texts point at (see ``engine.host.marks``): mentions, thread
links, Discord's own timestamps (each reader sees their own time), server names and markdown."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

import discord

from engine.host.marks import Moment
from engine.host.ports import MatchRecord

if TYPE_CHECKING:
    from cogs._bot import Bot


class DiscordMarks:
    STYLES: ClassVar[dict[Moment, discord.utils.TimestampStyle]] = {
        "date": "d",
        "relative": "R",
        "full": "f",
        "time": "t",
    }

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def person(self, user_id: int) -> str:
        return f"<@{user_id}>"

    def thread(self, thread_id: int) -> str:
        return f"<#{thread_id}>"

    def address(self, match: MatchRecord) -> str | None:
        if match.guild_id is None or match.thread_id is None:
            return None
        return self.thread_address(match.guild_id, match.thread_id)

    def thread_address(self, guild_id: int, thread_id: int) -> str | None:
        return f"https://discord.com/channels/{guild_id}/{thread_id}"

    def role(self, role_id: int) -> str:
        return f"<@&{role_id}>"

    def post_address(self, guild_id: int | None, channel_id: int, message_id: int) -> str | None:
        if not guild_id:
            return None
        return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"

    def moment(self, when: datetime, style: Moment) -> str:
        return discord.utils.format_dt(when, self.STYLES[style])

    def server(self, guild_id: int) -> str | None:
        guild = self.bot.get_guild(guild_id)
        return guild.name if guild else None

    def linked(self, text: str, address: str) -> str:
        return f"[{text}]({address})"

    def strong(self, text: str) -> str:
        return f"**{text}**"

    def text(self, text: str) -> str:
        return discord.utils.escape_markdown(text)
