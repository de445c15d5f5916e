"""Match clocks on Discord: the time left of the seats a post calls. The words are the host's
(``engine.host.clock_words``); here moments become Discord timestamps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cogs._marks import DiscordMarks
from engine.host import clock_words
from engine.host.ports import MatchRecord

if TYPE_CHECKING:
    from cogs._bot import Bot


async def clock_notes(bot: Bot, match: MatchRecord, seats: Sequence[int], locale: str) -> dict[int, str]:
    """The time left of each of ``seats`` whose clock runs, by seat (none without a clock)."""
    return await clock_words.clock_notes(bot.host, match, seats, locale, DiscordMarks(bot))
