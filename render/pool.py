"""Rendering off the event loop: worker processes, one per core, so that boards render side by side
(see ``engine.host.workers``); the picture is the same byte for byte in a process or a thread."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Sequence

from pydantic import BaseModel

import lang
from engine.core.replay import LoggedAction
from engine.host.history import replayed_frames
from engine.host.ports import MatchRecord
from engine.host.workers import WorkerPool, lowest_priority
from engine.registry import get_game
from render import canvas
from render.animation import animate_frames, animate_match, board_palette, frame, looked_at
from render.registry import RENDERERS, render_view
from render.replay import ReplayStep, replay_step
from render.since import Since

# How many processes render when nothing says otherwise; 0 renders in a thread.
WORKERS_VARIABLE = "BIGAPPLE_RENDER_WORKERS"


def warm() -> None:
    """Run in each new worker before its first job: importing this module (to find this function) has
    loaded every renderer; the two fonts are opened here too. All that lives as long as the worker, so
    it is set aside from the collector, whose full collections would otherwise scan it again each time."""
    canvas.font(18)
    canvas.font(18, bold=True)
    gc.collect()
    gc.freeze()


def warm_for_animations() -> None:
    """``warm`` for the process that draws finished matches' animations, which runs at the lowest
    priority: an animation is a second or more of drawing that nobody waits for, so the boards that
    players wait for always come first."""
    lowest_priority()
    warm()


class AnimationPool(WorkerPool):
    """One process at the lowest priority (or none, when the boards render in a thread) that draws
    whole animations."""

    what = "animation"

    def __init__(self, workers: int) -> None:
        super().__init__(min(1, workers), initializer=warm_for_animations)


class RenderPool(WorkerPool):
    """Where a bot's images are rendered: ``workers`` processes (None: ``BIGAPPLE_RENDER_WORKERS``, else
    one per core), or a thread when that is 0 or processes cannot run; animations in ``animations``.
    Call ``close`` when the bot stops."""

    variable = WORKERS_VARIABLE
    what = "render"

    def __init__(self, workers: int | None = None) -> None:
        super().__init__(workers, initializer=warm)
        self.animations = AnimationPool(self.workers)
        self._waited_for = 0  # images someone waits for, asked for and not yet drawn
        self._nobody_waits = asyncio.Event()
        self._nobody_waits.set()

    async def render(
        self,
        game: str,
        view: BaseModel,
        names: Sequence[str] = (),
        locale: str = lang.DEFAULT,
        since: Since | None = None,
    ) -> bytes | None:
        """``render_view(game, view, names, locale, since)`` without holding up the event loop."""
        self._waited_for += 1
        self._nobody_waits.clear()
        try:
            return await self.run(render_view, game, view, tuple(names), locale, since)
        finally:
            self._waited_for -= 1
            if not self._waited_for:
                self._nobody_waits.set()

    async def replay_step(
        self,
        match: MatchRecord,
        kept: Sequence[tuple[int, LoggedAction]],
        move: int,
        seat: int | None,
        locale: str = lang.DEFAULT,
    ) -> ReplayStep:
        """``render.replay.replay_step`` without holding up the event loop: replayed and drawn where the
        boards are, as a board someone waits for."""
        self._waited_for += 1
        self._nobody_waits.clear()
        try:
            return await self.run(replay_step, match, list(kept), move, seat, match.seat_names(), locale)
        finally:
            self._waited_for -= 1
            if not self._waited_for:
                self._nobody_waits.set()

    async def close(self) -> None:
        """Stop the render processes and the animation process, once they finish what they draw."""
        await self.animations.close()
        await super().close()

    async def animate_match(self, match: MatchRecord, kept: Sequence[tuple[int, LoggedAction]]) -> bytes:
        """The animated GIF of ``match`` from its kept log (see ``render.animation.animate_match``),
        drawn so that it hardly delays the boards players wait for: in the animation process, at the
        lowest priority, which replays the match too, so that the bot's own process only reads the log;
        without processes, a board at a time between the other images (see ``animation``). Raises
        ``CorruptRecord`` when the log cannot be replayed, and as ``animation``."""
        names = match.seat_names()
        if self.animations.uses_processes:
            return await self.animations.run(animate_match, match, list(kept), names)
        rules = get_game(match.game)
        frames = await asyncio.to_thread(replayed_frames, rules, match, kept)
        return await self.animation(
            match.game, [(rules.view(f.state, None), f.turn_ends) for f in frames], names
        )

    async def animation(
        self, game: str, frames: Sequence[tuple[BaseModel, bool]], names: Sequence[str]
    ) -> bytes:
        """The animated GIF of ``frames`` (a view and whether its move ended a turn, in order; see
        ``render.animation``), drawn here a board at a time, each only while no image that someone is
        waiting for is being drawn (at 24 moves/s, one drawn alongside the moves took their p95 from
        about 80 to 250 ms; drawn between them, to 115-150 ms); under a load that never eases it waits.
        Raises ``ValueError`` as ``animate_frames``, and for a game without boards."""
        if game not in RENDERERS or not frames:
            raise ValueError(f"there is no board of {game} to animate")
        seats = tuple(names)
        await self._nobody_waits.wait()
        palette = await self.run(board_palette, game, [view for view, _ in looked_at(frames)], seats)
        drawn = []
        for view, turn_ends in frames:
            await self._nobody_waits.wait()
            drawn.append(await self.run(frame, game, view, seats, palette, turn_ends))
        await self._nobody_waits.wait()
        return await self.run(animate_frames, drawn, palette)
