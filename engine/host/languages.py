"""Which language a person reads: a reply in the language they chose, else the one their app speaks,
else their server's; a post or a message they did not ask for (which has no app language to go by) in
the one they chose, else the one their app spoke when they last used a command, else their server's.

A server's language is the one its admins chose, else the one Discord says the server prefers (learned
from the commands people use there), else English.
"""

from __future__ import annotations

import lang
from engine.host.ports import SettingsStore

LANGUAGE = "language"
# The language a person's app, or a server's preference, last spoke to us (only those we speak).
SPOKEN = "spoken_language"


def understood(spoken: str | None) -> str | None:
    """The language of ``spoken`` (a locale such as "it" or "en-GB"), if we speak it."""
    if not spoken:
        return None
    language = spoken.split("-")[0].split("_")[0].lower()
    return language if language in lang.SUPPORTED else None


async def reader_locale(
    settings: SettingsStore,
    user_id: int,
    guild_id: int | None,
    spoken: str | None = None,
    server_spoken: str | None = None,
) -> str:
    """The language of an answer to ``user_id``, whose app is set to ``spoken`` on a server that prefers
    ``server_spoken`` (locales, when the front end knows them); both are remembered for the messages
    that person and that server are sent later."""
    heard = understood(spoken)
    await _remember(settings, "user", user_id, heard)
    if guild_id:
        await _remember(settings, "guild", guild_id, understood(server_spoken))
    chosen = await settings.get("user", user_id, LANGUAGE)
    return lang.pick(chosen, heard, await server_locale(settings, guild_id))


async def recipient_locale(settings: SettingsStore, user_id: int | None, guild_id: int | None) -> str:
    """The language of a post or message for ``user_id`` (None: for everyone) on ``guild_id``."""
    chosen = await settings.get("user", user_id, LANGUAGE) if user_id else None
    heard = await settings.get("user", user_id, SPOKEN) if user_id else None
    return lang.pick(chosen, heard, await server_locale(settings, guild_id))


async def chosen_language(settings: SettingsStore, user_id: int | None) -> str | None:
    """The language ``user_id`` chose with ``/settings language``, if any (None: nobody, or no choice)."""
    return await settings.get("user", user_id, LANGUAGE) if user_id else None


async def server_locale(settings: SettingsStore, guild_id: int | None) -> str | None:
    """The language of ``guild_id``: its admins' choice, else the one Discord says it prefers."""
    if not guild_id:
        return None
    return await settings.get("guild", guild_id, LANGUAGE) or await settings.get("guild", guild_id, SPOKEN)


async def _remember(settings: SettingsStore, scope: str, owner: int, language: str | None) -> None:
    if language is not None and await settings.get(scope, owner, SPOKEN) != language:
        await settings.set(scope, owner, SPOKEN, language)
