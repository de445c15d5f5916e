"""What the web table's pages share: the host and stores they read, how they draw, the signing secret,
the limits on moves and wrong links, and the templates."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

import jinja2
from aiohttp import web
from pydantic import BaseModel

from engine.host.page_turns import PageAnswer
from engine.host.ports import SettingsStore
from engine.host.recent import Shared
from engine.host.service import GameHost
from engine.host.sight_memory import SightMemory
from web.board import Layouts
from web.limits import Limiter

# Draws a view of a game (the public board, or a seat's hand) with the seats' names and its words in a
# locale, as PNG bytes; None for a game without a renderer.
Draw = Callable[[str, BaseModel, Sequence[str], str], Awaitable[bytes | None]]


async def draw_in_thread(game: str, view: BaseModel, names: Sequence[str], locale: str) -> bytes | None:
    """The renderers of the Discord posts, off the event loop (the bot hands its render processes instead)."""
    from render.registry import render_view

    return await asyncio.to_thread(render_view, game, view, tuple(names), locale)


# Public pages kept: the latest version of the matches followed at once, in a language or two.
KEPT_PAGES = 64


@dataclass
class WebTable:
    """What the pages need: the host, a clock for the links' expiry, how to draw, whom to tell of a move
    played here (``on_move``: the bot's outbox, when the table is served in the bot's process), and the
    signing secret (set when the application starts)."""

    host: GameHost
    settings: SettingsStore
    configured_secret: str | None
    clock: Callable[[], datetime]
    draw: Draw
    # Told after a move from a page is stored (the bot sends the thread's post then).
    on_move: Callable[[], None] | None = None
    secret: bytes = b""
    # Moves sent from one seat's page: a burst of a turn's several decisions, then two a second.
    moves: Limiter = field(init=False)
    # Links that open nothing, per address: a few typing mistakes, then one try every six seconds.
    guesses: Limiter = field(init=False)

    # What each seat played last from its page, and the board version it left, shown on the page that
    # follows (the same version only: once the board moves on, the log says it).
    played: dict[tuple[int, int], tuple[int, PageAnswer]] = field(default_factory=dict)
    # Each match's public page in words, put together once per version and language for every reader.
    sights: SightMemory = field(default_factory=SightMemory)
    # Each board's places, worked out once per version and language for every reader.
    layouts: Layouts = field(default_factory=Layouts)
    # Public boards as drawn, by size, match, version and language: the same for every spectator.
    boards: Shared[tuple[str, int, int, str], bytes | None] = field(
        default_factory=lambda: Shared(KEPT_PAGES)
    )
    # Public pages as written, by match, version, language and address: the same for every spectator.
    public_pages: Shared[tuple[int, int, str, str], str] = field(default_factory=lambda: Shared(KEPT_PAGES))

    def __post_init__(self) -> None:
        self.moves = Limiter(60, 2.0, self.clock)
        self.guesses = Limiter(20, 1 / 6, self.clock)


TABLE = web.AppKey("table", WebTable)
TEMPLATES = web.AppKey("templates", jinja2.Environment)
