"""Which language a person reads: a reply in the language they chose, else the one their app speaks,
else their server's; a post or a message they did not ask for (which has no app language to go by) in
the one they chose, else their server's, else English."""

from __future__ import annotations

import lang
from engine.host.ports import SettingsStore

LANGUAGE = "language"


async def reader_locale(
    settings: SettingsStore, user_id: int, guild_id: int | None, spoken: str | None = None
) -> str:
    """The language of an answer to ``user_id``, whose app is set to ``spoken`` (a locale such as
    "it" or "en-GB", when the front end knows it)."""
    chosen = await settings.get("user", user_id, LANGUAGE)
    server = await settings.get("guild", guild_id, LANGUAGE) if guild_id else None
    understood = spoken if spoken and spoken.split("-")[0] in lang.SUPPORTED else None
    return lang.pick(chosen, understood, server)


async def recipient_locale(settings: SettingsStore, user_id: int | None, guild_id: int | None) -> str:
    """The language of a post or message for ``user_id`` (None: for everyone) on ``guild_id``."""
    chosen = await settings.get("user", user_id, LANGUAGE) if user_id else None
    server = await settings.get("guild", guild_id, LANGUAGE) if guild_id else None
    return lang.pick(chosen, server)
