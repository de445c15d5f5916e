"""Requests taken a few at each turn of the event loop. When a move is told, every page following the
match asks for itself again within a moment; taken all in one turn, a crowd of them would hold the loop
the Discord side shares (its buttons must be answered within three seconds, its moves at once). Past
``AT_ONCE`` in a turn, a request waits for the next turns, in the order it came."""

from __future__ import annotations

import asyncio
from collections import deque

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

# Requests begun in one turn of the event loop; a page takes about a millisecond.
AT_ONCE = 8


class Turnstile:
    """Lets ``at_once`` callers through per turn of the event loop; the others wait, first come first."""

    def __init__(self, at_once: int = AT_ONCE) -> None:
        self.at_once = at_once
        self._passed = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._next_turn_due = False

    async def turn(self) -> None:
        """Return in this turn if there is room, else in a later one."""
        if self._passed < self.at_once and not self._waiting:
            self._passed += 1
        else:
            ticket = asyncio.get_running_loop().create_future()
            self._waiting.append(ticket)
            await ticket
        self._expect_next_turn()

    def _expect_next_turn(self) -> None:
        if not self._next_turn_due:
            self._next_turn_due = True
            asyncio.get_running_loop().call_soon(self._next_turn)

    def _next_turn(self) -> None:
        self._next_turn_due = False
        self._passed = 0
        while self._waiting and self._passed < self.at_once:
            ticket = self._waiting.popleft()
            if not ticket.done():  # its visitor left
                ticket.set_result(None)
                self._passed += 1
        if self._waiting:
            self._expect_next_turn()


def turnstile_middleware(turnstile: Turnstile) -> Middleware:
    """The middleware that takes each request through ``turnstile``."""

    @web.middleware
    async def taking_turns(request: web.Request, handler: Handler) -> web.StreamResponse:
        await turnstile.turn()
        return await handler(request)

    return taking_turns
