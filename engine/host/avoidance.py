"""Each person's private list of people they would rather not play with: the queue (``/game find``) never
seats two people at one table when either lists the other. The list lives in its owner's settings and is
shown to nobody else; the person listed is never told."""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.core.errors import LobbyError
from engine.host.ports import SettingsStore
from engine.host.text import HOST

AVOID = "queue_avoid"
# The most people one list holds: a list of a whole server would keep its owner from ever being seated.
AVOID_LIMIT = 50


@dataclass(frozen=True)
class AvoidChange:
    """What ``/game avoid`` did: ``other`` is now on the list (``listed``) or off it, of ``count``."""

    other: int
    listed: bool
    count: int


async def avoided(settings: SettingsStore, user_id: int) -> frozenset[int]:
    """The people ``user_id`` would rather not be seated with (a list that cannot be read: nobody)."""
    kept = await settings.get("user", user_id, AVOID)
    try:
        return frozenset(int(other) for other in json.loads(kept)) if kept else frozenset()
    except (ValueError, TypeError):
        return frozenset()


async def toggle(settings: SettingsStore, user_id: int, other: int, other_is_bot: bool) -> AvoidChange:
    """Put ``other`` on ``user_id``'s list, or take them off it when they are on it. Raises
    ``LobbyError`` for oneself, a bot (the queue seats people only) and a list already full."""
    if other == user_id:
        raise LobbyError(HOST.say("you cannot avoid yourself: name someone else"))
    if other_is_bot:
        raise LobbyError(HOST.say("the queue seats only people: a bot is never at your table through it"))
    listed = set(await avoided(settings, user_id))
    if other in listed:
        listed.discard(other)
    elif len(listed) >= AVOID_LIMIT:
        raise LobbyError(
            HOST.say(
                "your list holds {count} people already, the most it can: take someone off it first",
                count=AVOID_LIMIT,
            )
        )
    else:
        listed.add(other)
    await settings.set("user", user_id, AVOID, json.dumps(sorted(listed)) if listed else None)
    return AvoidChange(other, other in listed, len(listed))
