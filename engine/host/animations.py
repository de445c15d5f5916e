"""The animated GIF of a match, move by move, as a front end posts it under the final post and sends it on
request, kept and shared the same way for every front end.

Drawing one costs a second or more of processor time, so the latest few are kept by match and version,
and people asking for the same one at once share one drawing. A drawing that failed is remembered the
same way, so that asking again for the same version answers at once instead of drawing it again. The
drawing itself is given by the front end (``render``'s, which the host does not import).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

from engine.core.errors import CorruptRecord, EngineError
from engine.core.replay import LoggedAction
from engine.host.history import kept_log, unreadable
from engine.host.ports import MatchRecord
from engine.host.recent import Recent
from engine.host.service import GameHost
from engine.host.text import HOST
from lang import t

log = logging.getLogger(__name__)

# Animations kept at hand; each is at most 8 MB, most are well under one.
KEPT = 4
# Failures remembered, by match and version; each is a line of text.
FAILURES_KEPT = 64

A = TypeVar("A")
# Draws a match from its kept log within a number of bytes.
Draw = Callable[[MatchRecord, Sequence[tuple[int, LoggedAction]], int], Awaitable[A]]


class NoAnimation(EngineError):
    """A match's animation could not be drawn (see the log for why); asking again does not redraw it."""

    code = "no_animation"


def shortened_note(locale: str, shows: str) -> str | None:
    """What a person reads beside an animation that shows less than every move (None when it shows
    them all): the whole match did not fit in one file. ``shows``: ``"turns"`` (the board at the end of
    each turn), ``"highlights"`` (the scorings and some turns) or ``"moves"``."""
    if shows == "turns":
        return t(
            locale,
            "The whole match does not fit in one animation, so this one shows the board at the end of "
            "each turn.",
        )
    if shows == "highlights":
        return t(
            locale,
            "The whole match does not fit in one animation, so this one shows its scorings and some of "
            "its turns; /replay shows every move.",
        )
    return None


class Animations(Generic[A]):
    """Builds (with ``draw``) and keeps matches' animations of at most ``max_bytes``. A failure of one of
    the ``expected`` kinds (too big, drawing stopped) is logged as a warning, any other with its trace."""

    def __init__(
        self,
        host: GameHost,
        draw: Draw[A],
        max_bytes: int,
        expected: tuple[type[Exception], ...] = (),
    ) -> None:
        self.host = host
        self.draw = draw
        self.expected = expected
        self._kept: Recent[tuple[int, int], A] = Recent(KEPT)
        self._failed: Recent[tuple[int, int], EngineError] = Recent(FAILURES_KEPT)
        self._drawing: dict[tuple[int, int], asyncio.Future[A]] = {}
        self.drawn = 0
        self.max_bytes = max_bytes

    async def of(self, match: MatchRecord) -> A:
        """The public board after every move of ``match`` as it stands, animated (or as much of it as
        fits). Raises as ``kept_log`` (a match not started), ``CorruptRecord`` for an unreadable log, and
        ``NoAnimation`` when it cannot be drawn; a failure stays until the match changes."""
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
        future: asyncio.Future[A] = asyncio.get_running_loop().create_future()
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

    async def _draw(self, match: MatchRecord) -> A:
        kept = await kept_log(self.host, match)
        self.drawn += 1
        try:
            return await self.draw(match, kept, self.max_bytes)
        except CorruptRecord as exc:
            raise unreadable(match, exc) from None
        except Exception as exc:
            if isinstance(exc, self.expected):
                log.warning("match %s: no animation of version %s (%s)", match.id, match.version, exc)
            else:
                log.exception("match %s: the animation of version %s failed", match.id, match.version)
            raise NoAnimation(
                HOST.say(
                    "the animation of match #{number} could not be drawn; /replay shows every move",
                    number=match.id,
                )
            ) from exc
