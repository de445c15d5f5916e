"""The host's refusals of a request that does not fit a match's state: who may play, and when."""

from __future__ import annotations

from engine.core.errors import LobbyError, MatchClosed, MatchNotFound, NotSeated
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.text import HOST

ADMIN_CAN_ABANDON = "an admin can abandon it with /game abandon"

# A match's status as people read it.
STATUS_SAID = {
    MatchStatus.LOBBY: HOST.word("still in the lobby", "match"),
    MatchStatus.ACTIVE: HOST.word("being played", "match"),
    MatchStatus.FINISHED: HOST.word("over", "match"),
    MatchStatus.ABANDONED: HOST.word("abandoned", "match"),
}


def no_such_match(match_id: int) -> MatchNotFound:
    return MatchNotFound(HOST.say("there is no match #{number} here", number=match_id))


def require_lobby(match: MatchRecord) -> None:
    if match.status is not MatchStatus.LOBBY:
        raise LobbyError(
            HOST.say(
                "match #{number} is {status}; the lobby is closed",
                number=match.id,
                status=STATUS_SAID[match.status],
            )
        )


def require_active(match: MatchRecord) -> None:
    if match.status is not MatchStatus.ACTIVE:
        allowed = ["start"] if match.status is MatchStatus.LOBBY else []
        if match.status is MatchStatus.LOBBY:
            said = HOST.say("match #{number} has not started yet: no moves until it starts", number=match.id)
        else:
            said = HOST.say(
                "match #{number} is {status}: no more moves can be made",
                number=match.id,
                status=STATUS_SAID[match.status],
            )
        raise MatchClosed(said, allowed)


def require_seat(match: MatchRecord, user_id: int) -> int:
    """``user_id``'s seat in ``match``, unless they have none or a computer has taken it over."""
    seat = match.seat_of(user_id)
    if seat is None:
        raise NotSeated(HOST.say("you are not playing in match #{number}", number=match.id))
    player = match.player_at(seat)
    if player is not None and player.bot is not None:
        raise NotSeated(
            HOST.say("a computer player has taken over your seat in match #{number}", number=match.id)
        )
    return seat
