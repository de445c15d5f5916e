"""A person's career per game, as ``/profile`` shows it: matches finished, wins, average place and the
median time of their own turns, and over every game their reliability (``engine.host.reliability``).

Places are those the rating counts (whoever resigned is last, see ``places_as_rated``); a shared first
place is a win. Times come from the moves' commit times (``engine.host.log_turns``)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence

from pydantic import ValidationError

from engine.core.contract import Outcome
from engine.core.model import Frozen
from engine.host.log_turns import own_turns, turns_of
from engine.host.matchmaking import active_hours
from engine.host.ports import MatchStore, SeatResult, TimedAction
from engine.host.ratings import places_with_resignations
from engine.host.reliability import RELIABILITY_MATCHES, person_turns

# How many of a person's latest finished matches their career figures count.
CAREER_MATCHES = 1000


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
    # The share of their own moves in each hour of the day (UTC), over the latest matches; empty when
    # they made none (see ``engine.host.matchmaking.active_hours``).
    rhythm: tuple[float, ...] = ()


def counted_place(held: SeatResult) -> int | None:
    """The place of ``held``'s seat as the rating counts it (whoever resigned is last, see
    ``places_as_rated``); None when its match's result cannot be read."""
    if held.result_json is None:
        return None
    try:
        outcome = Outcome.model_validate_json(held.result_json)
    except ValidationError:
        return None
    if not 0 <= held.seat < len(outcome.places):
        return None
    counted = places_with_resignations(outcome.places, held.resigned)
    return 1 + sum(other < counted[held.seat] for other in counted)


def career_of(
    seats: Sequence[SeatResult], logs: Mapping[int, Sequence[TimedAction]], latest: Sequence[SeatResult]
) -> Career:
    """A person's career from their ``seats`` in finished matches (the last to end first) and their
    ``latest`` seats in matches that started, with the timed ``logs`` (by match id) of the latest
    finished matches (for the times) and of the ``latest`` (for the reliability)."""
    places: dict[str, list[int]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    for held in seats:
        place = counted_place(held)
        if place is None:
            continue  # a result that cannot be read counts for nothing here
        places[held.game].append(place)
        for turn in own_turns(turns_of(logs.get(held.match_id, [])), held.seat):
            if (took := turn.took) is not None:
                times[held.game].append(took.total_seconds())
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
    own = {
        (held.match_id, timed.version): timed.at
        for held in [*seats, *latest]
        for timed in logs.get(held.match_id, [])
        if timed.action.seat == held.seat and not timed.action.stand_in
    }
    return Career(
        games=tuple(games), reliability=person_turns(latest, logs).share, rhythm=active_hours(own.values())
    )


async def career(store: MatchStore, user_id: int, guild_id: int | None = None) -> Career:
    """``user_id``'s career over their latest finished matches (on ``guild_id`` only, when given), and
    their reliability over their latest matches."""
    seats = await store.seat_results(user_id, guild_id, CAREER_MATCHES)
    latest = await store.seat_results(user_id, guild_id, RELIABILITY_MATCHES, started=True)
    timed = {held.match_id for held in [*seats[:RELIABILITY_MATCHES], *latest]}
    logs = await store.timed_logs(sorted(timed))
    return career_of(seats, logs, latest)
