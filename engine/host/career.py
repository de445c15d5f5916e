"""A person's career per game, as ``/profile`` shows it: matches finished, wins, average place and the
median time of their own turns, and over every game their reliability (``engine.host.reliability``).

Places are those the rating counts (whoever resigned is last, see ``places_as_rated``); a shared first
place is a win. Times come from the moves' commit times (``engine.host.log_turns``)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence

from pydantic import ValidationError

from engine.core.contract import Outcome
from engine.core.model import Frozen
from engine.host.log_turns import own_turns, turns_of
from engine.host.ports import MatchRecord, MatchStore, TimedAction
from engine.host.ratings import places_as_rated
from engine.host.reliability import RELIABILITY_MATCHES, latest_finished, person_turns

# How many of a person's latest finished matches their career figures count.
CAREER_MATCHES = 300


class GameCareer(Frozen):
    """A person's figures in one game."""

    game: str
    matches: int
    wins: int
    average_place: float
    turn_median_s: float | None = None  # over their latest matches (see ``RELIABILITY_MATCHES``)


class Career(Frozen):
    """A person's figures per game (most played first) and the share of their turns played in time
    (None: no turn to judge by)."""

    games: tuple[GameCareer, ...] = ()
    reliability: float | None = None


def career_of(user_id: int, matches: Sequence[MatchRecord], logs: dict[int, list[TimedAction]]) -> Career:
    """``user_id``'s career from their finished ``matches`` (the last to end first) and the timed logs
    of the latest of them (``logs``, by match id: those the times and the reliability count)."""
    places: dict[str, list[int]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    for match in matches:
        seat = match.seat_of(user_id)
        if seat is None or match.result_json is None:
            continue
        try:
            outcome = Outcome.model_validate_json(match.result_json)
        except ValidationError:
            continue  # a result that cannot be read counts for nothing here
        places[match.game].append(places_as_rated(match, outcome).places[seat])
        if match.id in logs:
            for turn in own_turns(turns_of(logs[match.id]), seat):
                if (took := turn.took) is not None:
                    times[match.game].append(took.total_seconds())
    games = [
        GameCareer(
            game=game,
            matches=len(found),
            wins=sum(1 for place in found if place == 1),
            average_place=round(sum(found) / len(found), 2),
            turn_median_s=round(statistics.median(times[game]), 3) if times[game] else None,
        )
        for game, found in places.items()
    ]
    games.sort(key=lambda g: (-g.matches, g.game))
    timed = [match for match in matches if match.id in logs]
    return Career(games=tuple(games), reliability=person_turns(user_id, timed, logs).share)


async def career(store: MatchStore, user_id: int, guild_id: int | None = None) -> Career:
    """``user_id``'s career over their latest finished matches (on ``guild_id`` only, when given)."""
    matches = await latest_finished(store, user_id, guild_id, CAREER_MATCHES)
    logs = await store.timed_logs([m.id for m in matches[:RELIABILITY_MATCHES]])
    return career_of(user_id, matches, logs)
