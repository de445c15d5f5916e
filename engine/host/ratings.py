"""Player ratings: openskill's Plackett-Luce model applied to finished matches, per game.

Pure: no I/O, no clock. ``data/ratings.py`` stores what this computes (the ``RatingStore`` port below).

Every human player is rated on their own, by the place their seat finished in:

- Computer players and empty seats are left out of the update, but their places still order the humans
  around them (a human 1st and a human 3rd behind a computer 2nd are rated as 1st and 2nd of two).
- Seats that share a place are a tie. Team games need nothing special: partners share their team's
  place, so they rise or fall together and are tied with each other.
- A match with fewer than two rated humans changes nothing (beating only computers proves nothing
  about a player's standing among people).
- A seat a new person took over (``/game replace``, see ``engine.host.replacement``) rates them with the
  seat's final place, but only if they made at least one move there themselves (taking a seat and
  letting the computer finish it proves nothing); whoever resigned the seat before them is still rated
  last, as if nobody had taken it, and whoever left it after timeouts is not rated, as when a computer
  keeps a seat to the end.

The number players see, ``Rating.display``, is a conservative estimate scaled to Elo-like figures:

    display = max(0, round(1000 + 25 * (mu - 3 * sigma)))

``mu - 3 * sigma`` (openskill's ``ordinal``) is a skill the player very probably (99.7 %) has at least.
A newcomer (mu 25, sigma 25/3) shows exactly 1000. Sigma shrinks as a player plays, so even an average
player climbs while the model gets to know them: in simulated four-player leagues, regulars settle
around 1450, the strongest near 1900 and the weakest near 1150. So a rating rewards both skill and
a track record, which is what a leaderboard should show.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from openskill.models import PlackettLuce
from pydantic import Field

from engine.core.contract import Frozen, Outcome
from engine.host.ports import MatchRecord, SeatOffer

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
# How many standard deviations below the mean the conservative estimate sits (openskill's default).
ORDINAL_Z = 3.0
DISPLAY_BASE = 1000
DISPLAY_SCALE = 25

# openskill's defaults (beta = sigma / 2, tau = mu / 300): tau re-widens sigma a little every match,
# so a rating keeps moving when a player's skill does.
_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate ``mu - 3 * sigma``; leaderboards sort by it."""
    return mu - ORDINAL_Z * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The rating shown to players: ``max(0, round(1000 + 25 * ordinal))`` (see the module docstring)."""
    return max(0, round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(mu, sigma)))


class Rating(Frozen):
    """One player's rating in one game: the skill belief (``mu`` ± ``sigma``) and their record.

    ``games`` counts rated matches; ``wins`` those the player finished first in (a shared first place,
    such as a winning team, counts as a win).
    """

    mu: float = DEFAULT_MU
    sigma: float = Field(default=DEFAULT_SIGMA, gt=0)
    games: int = Field(default=0, ge=0)
    wins: int = Field(default=0, ge=0)

    @property
    def ordinal(self) -> float:
        """``mu - 3 * sigma``: the skill this player very probably has at least."""
        return ordinal(self.mu, self.sigma)

    @property
    def display(self) -> int:
        """The friendly number to show (1000 for a newcomer); see ``display_rating``."""
        return display_rating(self.mu, self.sigma)


def rated_seats(match: MatchRecord) -> list[int | None]:
    """The user id of the human in each seat of ``match`` (``None`` for computer players and empty seats),
    ready for ``rate_match``; a person who resigned keeps their seat here (a computer finished it for
    them). Players without a seat (a match closed in its lobby) are left out."""
    seats: list[int | None] = [None] * match.seat_count
    for player in match.players:
        person = player.bot is None or player.resigned
        if player.user_id is not None and person and player.seat is not None:
            if not 0 <= player.seat < match.seat_count:
                raise ValueError(
                    f"match {match.id} seats {player.name} at {player.seat}, "
                    f"outside its {match.seat_count} seats"
                )
            seats[player.seat] = player.user_id
    return seats


def resigned_seats(match: MatchRecord) -> frozenset[int]:
    """The seats whose players resigned."""
    return frozenset(p.seat for p in match.players if p.resigned and p.seat is not None)


def places_with_resignations(places: Sequence[int], resigned: Collection[int]) -> tuple[int, ...]:
    """The places the rating counts: whoever resigned is last, behind every seat that played on (and
    behind the computers that finished their seats), tied with anyone else who resigned. A resignation
    never scores better than playing the match out, and the order in which people quit says nothing
    of their play."""
    if not resigned:
        return tuple(places)
    stayed = [place for seat, place in enumerate(places) if seat not in resigned]
    last = max(stayed) + 1 if stayed else 1
    return tuple(last if seat in resigned else place for seat, place in enumerate(places))


def places_as_rated(match: MatchRecord, outcome: Outcome) -> Outcome:
    """``outcome`` with the places people read: as the rating counts them (whoever resigned last),
    ranked again from 1, so the winner named is the best of those who played on."""
    counted = places_with_resignations(outcome.places, resigned_seats(match))
    ranked = tuple(1 + sum(other < mine for other in counted) for mine in counted)
    return outcome.model_copy(update={"places": ranked})


class RatedPerson(Frozen):
    """A person a finished match rates: who, for which seat, and the place the rating counts."""

    user_id: int
    seat: int
    place: int


def rated_people(
    match: MatchRecord,
    outcome: Outcome,
    taken: Sequence[SeatOffer] = (),
    own_moves: Collection[tuple[int, int]] = (),
) -> list[RatedPerson]:
    """Every person ``match`` rates, with the place counted for them (``outcome``'s places as stored).

    ``taken``: the offers of its seats that new people took; ``own_moves``: (version, seat) of the
    moves people played themselves (not a computer for them), which tell whether a newcomer moved
    while the seat was theirs. See the module docstring for who counts. A person found twice counts
    once, for the seat they were found in first."""
    resigned = resigned_seats(match)
    counted = places_with_resignations(outcome.places, resigned)
    stayed = [place for seat, place in enumerate(counted) if seat not in resigned]
    last = max(stayed) + 1 if stayed else 1
    handovers: dict[int, list[SeatOffer]] = defaultdict(list)
    for offer in sorted(taken, key=lambda o: o.taken_version or 0):
        if offer.taken_by is not None and offer.taken_version is not None:
            handovers[offer.seat].append(offer)

    def moved(seat: int, since: int, until: int | None) -> bool:
        return any(
            s == seat and since < version and (until is None or version <= until) for version, s in own_moves
        )

    found: list[RatedPerson] = []
    for seat, user_id in enumerate(rated_seats(match)):
        if user_id is None:
            continue
        latest = handovers[seat][-1] if handovers[seat] else None
        if latest is not None and latest.taken_by == user_id:
            assert latest.taken_version is not None
            if not moved(seat, latest.taken_version, None):
                continue
        found.append(RatedPerson(user_id=user_id, seat=seat, place=counted[seat]))
    for seat, offers in sorted(handovers.items()):
        for index, offer in enumerate(offers):
            if offer.leaver_id is None or not offer.leaver_resigned:
                continue
            if index > 0:
                came = offers[index - 1].taken_version
                assert came is not None
                if not moved(seat, came, offer.taken_version):
                    continue
            found.append(RatedPerson(user_id=offer.leaver_id, seat=seat, place=last))
    unique: dict[int, RatedPerson] = {}
    for person in found:
        unique.setdefault(person.user_id, person)
    return list(unique.values())


def rate_people(current: Mapping[int, Rating], people: Sequence[RatedPerson]) -> dict[int, Rating]:
    """``rate_match`` for ``people`` (see ``rated_people``), each rated by their own place."""
    return _rate([(p.user_id, p.place) for p in people], current)


def rate_match(
    current: Mapping[int, Rating], seats: Sequence[int | None], outcome: Outcome
) -> dict[int, Rating]:
    """The new ratings of the humans of a finished match, by user id.

    ``current`` holds the players' ratings before the match (a user missing from it starts from the
    default ``Rating()``); ``seats`` names the human in each seat (``None`` for a computer or an empty
    seat); ``outcome.places`` gives each seat's place (1 = first, ties share a place). Only the humans
    are returned, each with one more game (and one more win if they placed first); with fewer than two
    humans the result is empty, as nothing changes. Raises ``ValueError`` when ``seats`` and the
    outcome's places differ in length or a user holds two seats.
    """
    if len(seats) != len(outcome.places):
        raise ValueError(f"the outcome places {len(outcome.places)} seats but the match has {len(seats)}")
    humans = [
        (user_id, place) for user_id, place in zip(seats, outcome.places, strict=True) if user_id is not None
    ]
    return _rate(humans, current)


def _rate(humans: Sequence[tuple[int, int]], current: Mapping[int, Rating]) -> dict[int, Rating]:
    """The new ratings of ``humans`` (user id, place); see ``rate_match``."""
    users = [user_id for user_id, _ in humans]
    if len(set(users)) != len(users):
        raise ValueError("a player holds two seats, so their places cannot be rated")
    if len(humans) < 2:
        return {}
    before = [current.get(user_id, Rating()) for user_id in users]
    # One openskill "team" per human: each is rated individually; equal ranks are ties. Only the order
    # of the ranks matters to the model, so the gaps left by computer seats need no renumbering.
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = _MODEL.rate(teams, ranks=[float(place) for _, place in humans])
    return {
        user_id: Rating(
            mu=team[0].mu,
            sigma=team[0].sigma,
            games=old.games + 1,
            wins=old.wins + (1 if place == 1 else 0),
        )
        for (user_id, place), old, team in zip(humans, before, after, strict=True)
    }


def win_chances(ratings: Sequence[Rating]) -> list[float]:
    """Each player's chance of finishing first against the others, in order (summing to 1).

    An empty list for no players, ``[1.0]`` for one.
    """
    if len(ratings) < 2:
        return [1.0] * len(ratings)
    return _MODEL.predict_win([[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings])


# ------------------------------------------------------------------------------------ read models


class LeaderRow(Frozen):
    """One line of a game's leaderboard. Players with equal ratings share a rank (1, 2, 2, 4)."""

    rank: int
    user_id: int
    rating: int  # Rating.display
    games: int
    wins: int


class GameStanding(Frozen):
    """A player's rating in one game, and their rank on its leaderboard (``None`` if unrated)."""

    game: str
    rating: Rating
    rank: int | None = None

    @property
    def display(self) -> int:
        return self.rating.display


class RatingChange(Frozen):
    """What one rated match did to one player's rating; ``before``/``after`` are display ratings."""

    match_id: int
    game: str
    user_id: int
    seat: int
    seats: int  # the match's seat count, for "2nd of 4"
    place: int
    score: int
    before: int
    after: int
    at: str  # when the match was rated (ISO-8601 UTC)

    @property
    def delta(self) -> int:
        return self.after - self.before


class Profile(Frozen):
    """A player's ratings in every game they were rated in (by game name) and their latest rated
    matches, newest first."""

    user_id: int
    games: tuple[GameStanding, ...] = ()
    recent: tuple[RatingChange, ...] = ()

    def standing(self, game: str) -> GameStanding:
        """The player's standing in ``game``; the default rating, unranked, if they never played it."""
        for standing in self.games:
            if standing.game == game:
                return standing
        return GameStanding(game=game, rating=Rating())


class RatingStore(Protocol):
    """Durable ratings. ``record`` is idempotent per match; unknown players have the default rating."""

    async def record(self, match: MatchRecord, outcome: Outcome | None = None) -> bool:
        """Rate a FINISHED match once; True if ratings changed now."""
        ...

    async def ratings(self, game: str, user_ids: Sequence[int]) -> dict[int, Rating]: ...

    async def changes(self, match_id: int) -> list[RatingChange]: ...

    async def leaderboard(
        self, game: str, limit: int = 10, min_games: int = 1, guild_id: int | None = None
    ) -> list[LeaderRow]:
        """The best ``limit`` players of ``game`` (on the server ``guild_id`` only, when given)."""
        ...

    async def profile(
        self, user_id: int, recent: int = 5, guild_id: int | None = None, game: str | None = None
    ) -> Profile:
        """``user_id``'s standing in every game and their ``recent`` latest rated matches."""
        ...
