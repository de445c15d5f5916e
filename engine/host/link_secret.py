"""The secret that signs the links to a player's private page: the one the operator configures, else one
made once and kept in the database, so that links given out stay good across restarts."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from engine.host.ports import SettingsStore

# The installation's own settings are kept as those of server 0, which no Discord server is.
INSTALLATION = ("guild", 0)
KEY = "web_link_secret"


async def link_secret(
    settings: SettingsStore,
    configured: str | None = None,
    make: Callable[[], str] = lambda: secrets.token_hex(32),
) -> bytes:
    """The secret links are signed with: ``configured`` when given (not blank), else the one kept in
    ``settings``, made with ``make`` and kept the first time it is asked for."""
    if configured and configured.strip():
        return configured.strip().encode()
    kept = await settings.get(*INSTALLATION, KEY)
    if kept is None:
        kept = make()
        await settings.set(*INSTALLATION, KEY, kept)
    return kept.encode()
