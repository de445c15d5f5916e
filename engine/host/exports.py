"""The line of exports (a match's animation, say): one at a time per person, a few in all, drawn in the
order asked.

An export takes seconds to minutes to draw, and a front end may have to answer a request within a time
limit (Discord lets an interaction's answer come for 15 minutes only). So the line is short: a person who
asks while others wait is told their place in it, gets the file in the request's answer when it is ready,
or another way (a direct message) when that answer would come too late. Asking again while one's own is
in the line, or when the line is full, is refused in words. The line decides; the front end delivers
(``ExportLine.deliver``), on the clock it is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from engine.core.say import Say
from engine.host.outgoing import Outgoing, Refused, Sender
from engine.host.text import HOST
from lang.says import render

log = logging.getLogger(__name__)

# Exports waiting or being drawn at once: about two minutes each for the longest matches, so the last of
# a full line still arrives within a quarter of an hour.
MOST_IN_LINE = 6
# How long after a request its answer may still be sent with it: Discord's fifteen minutes, less a margin
# for the sending itself.
ANSWER_WITHIN = timedelta(minutes=14)

ALREADY_ASKED = HOST.say(
    "You already asked for an animation: it will reach you as soon as it is drawn. "
    "Ask for another once it has arrived."
)
LINE_FULL = HOST.say("Too many animations are waiting to be drawn right now: try again in a few minutes.")
# Said above an export that comes another way because its request's answer would have come too late.
CAME_LATE = HOST.say(
    "The animation you asked for took longer than Discord lets an answer wait, so here it is."
)
# Said to the people still in line when the line stops.
STOPPING = HOST.say(
    "The bot is restarting, so your animation will not be drawn now: ask for it again in a few minutes."
)


def animation_caption(match: str) -> Say:
    """The words sent with a match's animation, ``match`` its heading."""
    return HOST.say("{match}, move by move: save it or share it.", match=match)


def place_in_line(place: int) -> Say:
    """What a person is told who is number ``place`` in line."""
    return HOST.say(
        "You are number {place} in line for an animation: it will arrive here when it is "
        "drawn, or by direct message if that takes more than a quarter of an hour.",
        place=place,
    )


@dataclass(frozen=True, slots=True)
class Answer:
    """What an export sends: words, and the file when there is one."""

    text: str
    data: bytes | None = None
    filename: str = "animation.gif"


@dataclass(eq=False)
class Export:
    """A person's request: who asked, in which language, when (on the line's clock), how to make its
    answer, and ``reply``, what the front end answers the request through."""

    user_id: int
    locale: str
    asked_at: datetime
    make: Callable[[], Awaitable[Answer]]
    reply: Any = None
    # Set once the person was told their place (or had none to be told): the answer comes after it.
    told: asyncio.Event = field(default_factory=asyncio.Event)


# Delivers an export's answer (or what went wrong making it); ``in_time`` says whether the request's own
# answer may still carry it.
Deliver = Callable[[Export, "Answer | Exception", bool], Awaitable[None]]


class ExportLine:
    """A line of exports, ``most`` in it at once, each answered with its request up to ``answer_within``
    after it was asked (on ``clock``), else another way; ``deliver`` sends the answers."""

    def __init__(
        self,
        clock: Callable[[], datetime],
        deliver: Deliver,
        most: int = MOST_IN_LINE,
        answer_within: timedelta = ANSWER_WITHIN,
    ) -> None:
        self.clock = clock
        self.deliver = deliver
        self.most = most
        self.answer_within = answer_within
        self._waiting: deque[Export] = deque()
        self._drawing: Export | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def in_line(self) -> int:
        """Exports waiting or being drawn."""
        return len(self._waiting) + (self._drawing is not None)

    def has_one(self, user_id: int) -> bool:
        return any(export.user_id == user_id for export in (*self._waiting, self._drawing) if export)

    def ask(
        self, user_id: int, locale: str, make: Callable[[], Awaitable[Answer]], reply: Any = None
    ) -> tuple[Export | None, Say | None]:
        """Put ``user_id``'s export in line: the export (None when refused) and what to tell them now (their
        place, or why not; None: nothing). Once told, ``Export.told`` must be set: the answer waits for it."""
        if self.has_one(user_id):
            return None, ALREADY_ASKED
        if self.in_line >= self.most:
            return None, LINE_FULL
        ahead = self.in_line
        export = Export(user_id, locale, self.clock(), make, reply)
        self._waiting.append(export)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._draw_in_turn(), name="bigapple-exports")
        return export, place_in_line(ahead + 1) if ahead else None

    def in_time(self, export: Export) -> bool:
        """Whether ``export``'s request may still be answered with it."""
        return self.clock() - export.asked_at < self.answer_within

    async def _draw_in_turn(self) -> None:
        while self._waiting:
            export = self._drawing = self._waiting.popleft()
            try:
                answer: Answer | Exception
                try:
                    answer = await export.make()
                except Exception as exc:  # the person reads what went wrong; the line goes on
                    answer = exc
                await export.told.wait()
                await self.deliver(export, answer, self.in_time(export))
            except Exception:
                log.exception("the export of user %s could not be sent", export.user_id)
            finally:
                self._drawing = None

    async def close(self) -> list[Export]:
        """Stop drawing; the exports still in line, whose people should be told (``STOPPING``)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        left = [*([self._drawing] if self._drawing else []), *self._waiting]
        self._waiting.clear()
        self._drawing = None
        return left


class SentExports(ExportLine):
    """A line of exports whose answers go with their requests while in time (``answer``, False when the
    request can no longer be answered), else privately through ``sender``; an answer that failed to be
    made says what went wrong (``describe``)."""

    def __init__(
        self,
        clock: Callable[[], datetime],
        answer: Callable[[Export, Outgoing], Awaitable[bool]],
        sender: Sender,
        describe: Callable[[Exception, str], str],
        most: int = MOST_IN_LINE,
        answer_within: timedelta = ANSWER_WITHIN,
    ) -> None:
        super().__init__(clock, self._send, most, answer_within)
        self.answer, self.sender, self.describe = answer, sender, describe
        self.answered = 0
        self.sent_privately = 0

    async def _send(self, export: Export, answer: Answer | Exception, in_time: bool) -> None:
        if isinstance(answer, Exception):
            answer = Answer(self.describe(answer, export.locale))
        if in_time and await self.answer(
            export, Outgoing(answer.text, image=answer.data, filename=answer.filename)
        ):
            self.answered += 1
            return
        late = f"{render(export.locale, CAME_LATE)}\n{answer.text}"
        try:
            await self.sender.to_person(
                export.user_id, Outgoing(late, image=answer.data, filename=answer.filename)
            )
        except Refused:
            log.info("user %s takes no private messages: their export was not delivered", export.user_id)
        else:
            self.sent_privately += 1
