"""The animated GIF of a match, move by move, as the final post and ``/replay export`` send it.

Drawing one costs a second or more of processor time, so the latest few are kept by match and version,
and people asking for the same one at once share one drawing. A drawing that failed is remembered the
same way, so that asking again for the same version answers at once instead of drawing it again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from engine.core.errors import CorruptRecord, EngineError
from engine.host.history import kept_log, unreadable
from engine.host.ports import MatchRecord
from engine.host.recent import Recent
from engine.host.text import HOST
from lang import t
from render.animation import MAX_BYTES, Animation, DoesNotFit, Shows
from render.pool import DrawingStopped

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)

# Animations kept at hand; each is at most 8 MB, most are well under one.
KEPT = 4
# Failures remembered, by match and version; each is a line of text.
FAILURES_KEPT = 64


class NoAnimation(EngineError):
    """A match's animation could not be drawn (see the log for why); asking again does not redraw it."""

    code = "no_animation"


def shortened_note(locale: str, animation: Animation) -> str | None:
    """What a person reads beside an animation that shows less than every move (None when it shows
    them all): the whole match did not fit in one file Discord takes."""
    if animation.shows is Shows.TURNS:
        return t(
            locale,
            "The whole match does not fit in one animation, so this one shows the board at the end of "
            "each turn.",
        )
    if animation.shows is Shows.HIGHLIGHTS:
        return t(
            locale,
            "The whole match does not fit in one animation, so this one shows its scorings and some of "
            "its turns; /replay shows every move.",
        )
    return None


class Animations:
    """Builds (off the event loop, see ``RenderPool.animate_match``) and keeps matches' animations."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._kept: Recent[tuple[int, int], Animation] = Recent(KEPT)
        self._failed: Recent[tuple[int, int], EngineError] = Recent(FAILURES_KEPT)
        self._drawing: dict[tuple[int, int], asyncio.Future[Animation]] = {}
        self.drawn = 0
        self.max_bytes = MAX_BYTES  # Discord's limit for an attachment

    async def of(self, match: MatchRecord) -> Animation:
        """The public board after every move of ``match`` as it stands, animated (or as much of it as
        fits, see ``render.animation``). Raises as ``kept_log`` (a match not started), ``CorruptRecord``
        for an unreadable log, and ``NoAnimation`` when it cannot be drawn; a failure stays until the
        match changes."""
        key = (match.id, match.version)
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        failed = self._failed.get(key)
        if failed is not None:
            raise failed
        drawing = self._drawing.get(key)
        if drawing is not None:
            return await asyncio.shield(drawing)
        future: asyncio.Future[Animation] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            animation = await self._draw(match)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            if isinstance(exc, CorruptRecord | NoAnimation):
                self._failed.keep(key, exc)
            future.set_exception(exc)
            # Seen here, so an error nobody else waits for is not reported as "never retrieved".
            future.exception()
            raise
        else:
            future.set_result(animation)
            self._kept.keep(key, animation)
            return animation
        finally:
            del self._drawing[key]

    async def _draw(self, match: MatchRecord) -> Animation:
        kept = await kept_log(self.bot.host, match)
        self.drawn += 1
        try:
            return await self.bot.renderer.animate_match(match, kept, self.max_bytes)
        except CorruptRecord as exc:
            raise unreadable(match, exc) from None
        except Exception as exc:
            if isinstance(exc, DoesNotFit | DrawingStopped):
                log.warning("match %s: no animation of version %s (%s)", match.id, match.version, exc)
            else:
                log.exception("match %s: the animation of version %s failed", match.id, match.version)
            raise NoAnimation(
                HOST.say(
                    "the animation of match #{number} could not be drawn; /replay shows every move",
                    number=match.id,
                )
            ) from exc
