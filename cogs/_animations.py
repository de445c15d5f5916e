"""The animated GIF of a match, move by move, as the final post and ``/replay export`` send it.

Drawing one costs a second or more of processor time, so the latest few are kept by match and version,
and people asking for the same one at once share one drawing.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from engine.core.errors import CorruptRecord
from engine.host.history import kept_log, unreadable
from engine.host.ports import MatchRecord
from engine.host.recent import Recent

if TYPE_CHECKING:
    from cogs._client import BigApple

# Animations kept at hand; each is at most 8 MB, most are well under one.
KEPT = 4


class Animations:
    """Builds (off the event loop, see ``RenderPool.animate_match``) and keeps matches' animations."""

    def __init__(self, bot: BigApple) -> None:
        self.bot = bot
        self._kept: Recent[tuple[int, int], bytes] = Recent(KEPT)
        self._drawing: dict[tuple[int, int], asyncio.Future[bytes]] = {}
        self.drawn = 0

    async def of(self, match: MatchRecord) -> bytes:
        """The public board after every move of ``match`` as it stands, animated. Raises as
        ``match_frames`` (a match not started, an unreadable log) and ``animate_match`` (too big)."""
        key = (match.id, match.version)
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        drawing = self._drawing.get(key)
        if drawing is not None:
            return await asyncio.shield(drawing)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            gif = await self._draw(match)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            # Seen here, so an error nobody else waits for is not reported as "never retrieved".
            future.exception()
            raise
        else:
            future.set_result(gif)
            self._kept.keep(key, gif)
            return gif
        finally:
            del self._drawing[key]

    async def _draw(self, match: MatchRecord) -> bytes:
        kept = await kept_log(self.bot.host, match)
        self.drawn += 1
        try:
            return await self.bot.renderer.animate_match(match, kept)
        except CorruptRecord as exc:
            raise unreadable(match, exc) from None
