"""Which boards a front end draws for a post, beyond the board as it stands: the board as a player left
it at the end of their previous turn, against which a new turn's post marks what changed since."""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.errors import MatchNotFound
from engine.host.ports import MatchRecord
from engine.host.service import GameHost


async def board_before_turn(host: GameHost, match: MatchRecord, version: int, seat: int) -> BaseModel | None:
    """The public board as ``seat`` left it at the end of their previous turn, as of ``version``; None
    before they acted, or when that board is no longer kept."""
    base = await host.turn_began(match, version, seat)
    if base is None:
        return None
    try:
        return await host.view_at(match, base)
    except MatchNotFound:
        return None
