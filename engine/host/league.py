"""The New York Series league of a server: points for each place of each counted match, scaled to the
number of seats, and the season's table. Pure: the matches come from the store, the season's bounds
from its admins."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core.contract import Outcome
from engine.host.ports import MatchRecord
from engine.host.ratings import places_as_rated

# The points of a win, whatever the number of seats; last place scores none.
WIN_POINTS = 10.0
# Counted matches a person needs to be ranked in a season's table (below it, they are listed apart).
RANKED_AFTER = 5


def place_points(place: int, seats: int) -> float:
    """The league points of ``place`` (1 = first; a shared place is the average of the places it spans,
    as ``Outcome.places`` gives its first) at a table of ``seats``: from ``WIN_POINTS`` for the winner
    down to none for the last, evenly."""
    if seats < 2:
        return 0.0
    return WIN_POINTS * (seats - place) / (seats - 1)


def shared_points(places: Sequence[int], seat: int) -> float:
    """``seat``'s points, a tie sharing the points of the places it spans."""
    mine = places[seat]
    tied = sum(1 for p in places if p == mine)
    spanned = [place_points(mine + k, len(places)) for k in range(tied)]
    return sum(spanned) / tied


@dataclass(frozen=True)
class LeagueRow:
    """One person's season so far: their points, matches, wins, their best game (most points), and
    their points in each game they played."""

    user_id: int
    name: str
    points: float
    matches: int
    wins: int
    best_game: str | None
    by_game: tuple[tuple[str, float], ...] = ()

    def points_in(self, game: str) -> float | None:
        """Their points in ``game`` (None: they played none of it)."""
        return dict(self.by_game).get(game)

    @property
    def ranked(self) -> bool:
        return self.matches >= RANKED_AFTER


def season_table(finished: Iterable[tuple[MatchRecord, Outcome]]) -> list[LeagueRow]:
    """The table of a season from its counted finished matches: the ranked first (most points, then most
    wins, then fewest matches), then those with too few matches yet, the same way. Computer players
    score nothing, but their places count (a person behind a computer is not first)."""
    points: dict[int, float] = defaultdict(float)
    matches: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    by_game: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for match, outcome in finished:
        places = places_as_rated(match, outcome).places
        for seat in range(match.seat_count):
            player = match.player_at(seat)
            if player is None or player.user_id is None:
                continue
            earned = shared_points(places, seat)
            points[player.user_id] += earned
            matches[player.user_id] += 1
            wins[player.user_id] += places[seat] == 1
            names[player.user_id] = player.name
            by_game[player.user_id][match.game] += earned
    rows = [
        LeagueRow(
            user_id,
            names[user_id],
            round(points[user_id], 2),
            matches[user_id],
            wins[user_id],
            max(by_game[user_id], key=lambda g: by_game[user_id][g]) if by_game[user_id] else None,
            tuple(sorted(by_game[user_id].items())),
        )
        for user_id in points
    ]
    return sorted(rows, key=lambda r: (not r.ranked, -r.points, -r.wins, r.matches, r.name))


def best_by_game(rows: Sequence[LeagueRow]) -> list[tuple[str, LeagueRow]]:
    """For each game played, the row of the person with the most points in it (then most wins)."""
    best = []
    for game in sorted({game for row in rows for game, _ in row.by_game}):
        played = [(points, r) for r in rows if (points := r.points_in(game)) is not None]
        best.append((game, max(played, key=lambda found: (found[0], found[1].wins, -found[1].user_id))[1]))
    return best
