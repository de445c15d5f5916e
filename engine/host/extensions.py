"""``/game extend``: a player adds ``EXTENSION`` (24 hours) to their own running turn, once per match, as
Diplicity and webDiplomacy give their players a set number of extensions.

The host judges the request (a match on a clock, the player's own running turn, their extension not yet
used), moves the deadline and the next reminder with it (``engine.host.clock.with_extension``), and
writes the seat's clock at a new version of the match with a line for its thread, whose post then says
until when the turn runs. A front end only passes the request on and lays out the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.core.errors import LobbyError, NotYourTurn
from engine.host.clock import EXTENSION, ClockChange, Pace, with_extension
from engine.host.lobby import judged_afresh, unless_moved
from engine.host.marks import Dated, Marks, PlainMarks
from engine.host.ports import DeliveryDraft, MatchRecord, Notice, Scope, payload
from engine.host.posts import duration
from engine.host.refusals import require_active, require_seat
from engine.host.service import GameHost
from engine.host.text import HOST
from lang import t


class ExtensionUsed(LobbyError, Dated):
    """A second extension asked for in the same match; the turn runs until ``deadline``."""

    def __init__(self, match_id: int, deadline: datetime) -> None:
        super().__init__(
            HOST.say(
                "you already used your extension in match #{number}: each player has one a match. "
                "Your turn runs until {when}.",
                number=match_id,
                when=PlainMarks().moment(deadline, "full"),
            )
        )
        self.moments = {"when": deadline}


@dataclass(frozen=True, slots=True)
class Extended:
    """A turn extended: the match as written, and the turn's new deadline."""

    match: MatchRecord
    deadline: datetime
    by: timedelta


async def extend(host: GameHost, match_id: int, user_id: int, scope: Scope | None = None) -> Extended:
    """Add ``EXTENSION`` to ``user_id``'s running turn in ``match_id``. Raises ``MatchNotFound``,
    ``NotSeated``, ``MatchClosed``, ``LobbyError`` (the match has no clock), ``NotYourTurn`` (no turn of
    theirs runs) or ``ExtensionUsed``; nothing is written then."""
    return await judged_afresh(lambda: _extend(host, match_id, user_id, scope))


async def _extend(host: GameHost, match_id: int, user_id: int, scope: Scope | None) -> Extended:
    async with host.clocks.locks(match_id):
        match = await host.match(match_id, scope)
        require_active(match)
        seat = require_seat(match, user_id)
        if match.pace is Pace.NONE:
            raise LobbyError(
                HOST.say(
                    "match #{number} has no clock, so it has no deadline to extend: extensions are for "
                    "matches played on a clock",
                    number=match.id,
                )
            )
        clock = (await host.clocks.by_seat(match)).get(seat)
        if seat not in host.to_act(match) or clock is None or not clock.running:
            raise NotYourTurn(
                HOST.say(
                    "it is not your turn in match #{number}: you can extend only your own turn, while "
                    "it runs",
                    number=match.id,
                )
            )
        assert clock.deadline is not None
        if clock.extension_used:
            raise ExtensionUsed(match.id, clock.deadline)
        longer = with_extension(clock, EXTENSION)
        assert longer.deadline is not None
        player = match.player_at(seat)
        assert player is not None
        said = HOST.say_n(
            "{player} used their extension: {count} more hour for this turn",
            "{player} used their extension: {count} more hours for this turn",
            EXTENSION // timedelta(hours=1),
            player=player.name,
        )
        notice = Notice(says=(said,), to_act=host.to_act(match))
        # The seat and its player stay as they are: the write is the clock, at a new version whose
        # post shows the new deadline.
        written = await unless_moved(
            host.store.replace_player(
                match.id,
                match.version,
                seat,
                player,
                deliveries=[DeliveryDraft(payload=payload(notice))],
                clocks=ClockChange(clocks=(longer,)),
            )
        )
        return Extended(written, longer.deadline, EXTENSION)


def extended_text(locale: str, done: Extended, marks: Marks) -> str:
    """The answer to a player whose turn was extended: until when it runs now."""
    return t(
        locale,
        "Your turn in match #{number} now runs until {when} (extended by {time}). That was your one "
        "extension of this match.",
        number=done.match.id,
        when=marks.moment(done.deadline, "full"),
        time=duration(locale, done.by),
    )
