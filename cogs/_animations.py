"""The animated GIF of a match on Discord: the host keeps and shares the drawings
(``engine.host.animations``), drawn in the bot's render processes within Discord's attachment limit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.host.animations import Animations, NoAnimation
from render.animation import MAX_BYTES, Animation, DoesNotFit
from render.pool import DrawingStopped

if TYPE_CHECKING:
    from engine.host.service import GameHost
    from render.pool import RenderPool

__all__ = ["NoAnimation", "animator"]


def animator(host: GameHost, renderer: RenderPool) -> Animations[Animation]:
    """The bot's animations, drawn off the event loop (see ``RenderPool.animate_match``), each at most
    Discord's limit for an attachment."""
    return Animations(host, renderer.animate_match, MAX_BYTES, expected=(DoesNotFit, DrawingStopped))
