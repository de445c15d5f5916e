"""How Discord writes a person, a day, a place and emphasis in the host's texts (see
``engine.host.marks``)."""

from __future__ import annotations

from datetime import datetime

import discord


class DiscordMarks:
    def person(self, user_id: int) -> str:
        return f"<@{user_id}>"

    def day(self, at: datetime) -> str:
        return discord.utils.format_dt(at, "d")  # in each reader's own time zone

    def place(self, thread_id: int) -> str:
        return f"<#{thread_id}>"

    def strong(self, text: str) -> str:
        return f"**{text}**"

    def text(self, text: str) -> str:
        return discord.utils.escape_markdown(text)


MARKS = DiscordMarks()
