"""``SqlRatings``: the ``RatingStore`` port on the match store's database, SQLite or PostgreSQL.

The rating arithmetic lives in ``engine.host.ratings``; this module only reads and writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Self

from pydantic import ValidationError

from data import db as dbmod
from data import sql
from data.sql import Program, SqliteTransactions, Transactions
from data.sql_store.core import KEPT
from data.sql_store.offers import OFFER_COLUMNS, offer_of_row
from data.store import SqliteMatchStore
from engine.core.contract import Outcome
from engine.core.errors import CorruptRecord, MatchNotFound
from engine.host.ports import MatchRecord, MatchStatus, SeatOffer
from engine.host.ratings import (
    ORDINAL_Z,
    GameStanding,
    LeaderRow,
    Profile,
    RatedPerson,
    Rating,
    RatingChange,
    display_rating,
    rate_people,
    rated_people,
)


def _ordinal_sql(table: str = "") -> str:
    """The leaderboard's sort key ``mu - 3 * sigma`` (``engine.host.ratings.ordinal``) as SQL, for the
    columns of ``table`` (an alias) if given."""
    prefix = f"{table}." if table else ""
    return f"({prefix}mu - {ORDINAL_Z!r} * {prefix}sigma)"


SELECT_RATINGS = "SELECT user_id, mu, sigma, games, wins FROM ratings WHERE game = ? AND user_id IN ({})"
UPSERT_RATING = (
    "INSERT INTO ratings (game, user_id, mu, sigma, games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
    "games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at"
)
INSERT_HISTORY = (
    "INSERT INTO rating_history (match_id, game, user_id, seat, seats, place, score, mu_before, "
    "sigma_before, mu_after, sigma_after, rated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# Players of a game who played a rated match of it on the server ``?`` (a server's leaderboard lists only
# them, so it never names people who play elsewhere); ``{table}`` is the ratings row being tested.
_ON_SERVER = (
    "{table}user_id IN (SELECT h.user_id FROM rating_history AS h JOIN matches AS m ON m.id = h.match_id "
    "WHERE h.game = {table}game AND m.guild_id = ?)"
)
HISTORY_COLUMNS = (
    "match_id, game, user_id, seat, seats, place, score, mu_before, sigma_before, mu_after, sigma_after, "
    "rated_at"
)


class SqlRatings:
    """Ratings stored next to the matches (see ``engine.host.ratings.RatingStore``), on SQLite or
    PostgreSQL.

    It does not own the connection; closing the match store closes it. Reads raise ``CorruptRecord`` for
    rows that cannot be read; ``record`` raises as documented there.
    """

    def __init__(self, transactions: Transactions, *, clock: Callable[[], str] = dbmod.utc_now) -> None:
        """Work on the database of ``transactions``; ``clock`` gives the ``*_at`` timestamps."""
        self._transactions = transactions
        self._clock = clock

    # ---------------------------------------------------------------------------------------- write

    async def record(self, match: MatchRecord, outcome: Outcome | None = None) -> bool:
        """Rate a finished match once, in one transaction: read the humans' ratings, compute the new ones
        (``engine.host.ratings.rate_match``), write them with their history and mark the match rated.

        ``outcome`` defaults to the match's stored ``result_json``. Returns True when ratings changed;
        False when the match was recorded before, or has nothing to rate (fewer than two human players,
        or no result), in which case it is marked so that it is never looked at again.

        Raises ``ValueError`` unless ``match`` is FINISHED (here and in the database) or when the
        outcome does not cover its seats, ``MatchNotFound`` when the match is not in the database, and
        ``CorruptRecord`` when ``result_json`` is not an ``Outcome``.
        """
        outcome = rating_inputs(match, outcome)
        now = self._clock()
        # Where writers run side by side, the match's row is held so that it is rated once.
        status_sql = "SELECT status FROM matches WHERE id = ?" + (
            " FOR UPDATE" if self._transactions.dialect.locks_rows else ""
        )

        def body() -> Program[bool]:
            status = yield sql.value(status_sql, match.id)
            if status is None:
                raise MatchNotFound(f"there is no match {match.id}")
            if status != MatchStatus.FINISHED.value:
                raise ValueError(
                    f"match {match.id} is {status} in the database; only finished matches are rated"
                )
            if (yield sql.value("SELECT 1 FROM rated_matches WHERE match_id = ?", match.id)):
                return False
            people = (yield from _rated_people(match, outcome)) if outcome is not None else []
            users = [person.user_id for person in people]
            current = (yield from _read_ratings(match.game, users)) if outcome is not None else {}
            updated = rate_people(current, people) if outcome is not None else {}
            yield sql.count(
                "INSERT INTO rated_matches (match_id, game, rated, rated_at) VALUES (?, ?, ?, ?)",
                match.id,
                match.game,
                len(updated),
                now,
            )
            if not updated or outcome is None:
                return False
            yield sql.each(
                UPSERT_RATING,
                [(match.game, u, r.mu, r.sigma, r.games, r.wins, now) for u, r in updated.items()],
            )
            yield sql.each(INSERT_HISTORY, history_rows(match, people, outcome, current, updated, now))
            return True

        return await self._transactions.write(body)

    # ----------------------------------------------------------------------------------------- read

    async def ratings(self, game: str, user_ids: Sequence[int]) -> dict[int, Rating]:
        """The rating of each of ``user_ids`` in ``game``; the default ``Rating()`` for unrated users.

        Raises ``CorruptRecord``.
        """
        wanted = list(dict.fromkeys(user_ids))
        found = await self._transactions.read(lambda: _read_ratings(game, wanted))
        return {user_id: found.get(user_id, Rating()) for user_id in wanted}

    async def changes(self, match_id: int) -> list[RatingChange]:
        """What rating ``match_id`` did to each rated player, in seat order (empty if it changed nothing
        or was never recorded). Raises ``CorruptRecord``."""

        def body() -> Program[list[RatingChange]]:
            found = yield sql.rows(
                f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE match_id = ? ORDER BY seat", match_id
            )
            return [rating_change_of_row(tuple(row)) for row in found]

        return await self._transactions.read(body)

    async def leaderboard(
        self, game: str, limit: int = 10, min_games: int = 1, guild_id: int | None = None
    ) -> list[LeaderRow]:
        """The best ``limit`` players of ``game`` with at least ``min_games`` rated matches, best first;
        with ``guild_id``, only players who played a rated match of it on that server.

        Ordered by the conservative ordinal (the display rating before rounding), then by more games,
        then by user id; players with the same ordinal share a rank. Raises ``CorruptRecord``.
        """
        statement, params = leaderboard_query(game, limit, min_games, guild_id)

        def body() -> Program[list[LeaderRow]]:
            return leader_rows(game, (tuple(row) for row in (yield sql.rows(statement, *params))))

        return await self._transactions.read(body)

    async def profile(
        self, user_id: int, recent: int = 5, guild_id: int | None = None, game: str | None = None
    ) -> Profile:
        """``user_id``'s rating and leaderboard rank in every game they were rated in (by game name) and
        their ``recent`` latest rated matches (of ``game`` only, if given), newest first. With
        ``guild_id``, as that server sees it: only the games and matches they played there, ranked on
        that server's leaderboard. A user never rated gets an empty profile, whose ``standing(game)`` is
        the default rating. Raises ``CorruptRecord``.
        """
        (standings_sql, standings_params), (recent_sql, recent_params) = profile_queries(
            user_id, recent, guild_id, game
        )

        def body() -> Program[Profile]:
            standings = yield sql.rows(standings_sql, *standings_params)
            latest = yield sql.rows(recent_sql, *recent_params)
            return profile_of(user_id, map(tuple, standings), map(tuple, latest))

        return await self._transactions.read(body)


class SqliteRatings(SqlRatings):
    """Ratings in the matches' SQLite file (tables from ``0002_ratings.sql``), on the match store's
    ``data.db.Database``, so every call is one transaction on the same connection and never interleaves
    with the store's. Build it with ``SqliteRatings.from_store(store)``."""

    def __init__(self, db: dbmod.Database, *, clock: Callable[[], str] = dbmod.utc_now) -> None:
        """Work on an open, migrated ``data.db.Database``; ``clock`` gives the ``*_at`` timestamps."""
        super().__init__(SqliteTransactions(db), clock=clock)

    @classmethod
    def from_store(cls, store: SqliteMatchStore, *, clock: Callable[[], str] | None = None) -> Self:
        """Ratings on the same database (and by default the same clock) as ``store``."""
        return cls(store._db, clock=store._clock if clock is None else clock)


# ----------------------------------------------------------------------------------- row helpers
Query = tuple[str, tuple[Any, ...]]


def leaderboard_query(game: str, limit: int, min_games: int, guild_id: int | None) -> Query:
    """The SQL and parameters of ``leaderboard``: rows of user, mu, sigma, games, wins, ordinal."""
    server = f" AND {_ON_SERVER.format(table='ratings.')}" if guild_id is not None else ""
    params: tuple[Any, ...] = (game, min_games, *((guild_id,) if guild_id is not None else ()))
    return (
        f"SELECT user_id, mu, sigma, games, wins, {_ordinal_sql()} AS ord FROM ratings "
        f"WHERE game = ? AND games >= ?{server} ORDER BY ord DESC, games DESC, user_id LIMIT ?",
        (*params, max(0, limit)),
    )


def leader_rows(game: str, rows: Iterable[Sequence[Any]]) -> list[LeaderRow]:
    """The leaderboard of ``leaderboard_query``'s rows, ranked."""
    board: list[LeaderRow] = []
    previous: Any = None
    for position, (user_id, mu, sigma, games, wins, key) in enumerate(rows, start=1):
        rating = rating_of_row(game, user_id, mu, sigma, games, wins)
        # Competition ranking: every better player is listed above, so a tie takes the rank of the
        # first of the tied players.
        rank = board[-1].rank if board and key == previous else position
        previous = key
        board.append(LeaderRow(rank=rank, user_id=user_id, rating=rating.display, games=games, wins=wins))
    return board


def profile_queries(
    user_id: int, recent: int, guild_id: int | None, game: str | None = None
) -> tuple[Query, Query]:
    """The SQL and parameters of ``profile``: the standings (game, mu, sigma, games, wins, rank) and
    the latest rating changes (``HISTORY_COLUMNS``), of ``game`` only if given."""
    on_server = guild_id is not None
    # The rank is the one ``leaderboard(game, guild_id=...)`` shows with its default ``min_games`` of 1.
    standings_sql = (
        "SELECT game, mu, sigma, games, wins, 1 + (SELECT COUNT(*) FROM ratings AS other "
        f"WHERE other.game = mine.game AND other.games >= 1 AND {_ordinal_sql('other')} > "
        f"{_ordinal_sql('mine')}"
        + (f" AND {_ON_SERVER.format(table='other.')}" if on_server else "")
        + ") FROM ratings AS mine WHERE user_id = ?"
        + (f" AND {_ON_SERVER.format(table='mine.')}" if on_server else "")
        + " ORDER BY game"
    )
    standings_params = (guild_id, user_id, guild_id) if on_server else (user_id,)
    recent_sql = (
        f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE user_id = ?"
        + (" AND match_id IN (SELECT id FROM matches WHERE guild_id = ?)" if on_server else "")
        + (" AND game = ?" if game is not None else "")
        + " ORDER BY id DESC LIMIT ?"
    )
    recent_params = (
        user_id,
        *((guild_id,) if on_server else ()),
        *((game,) if game is not None else ()),
        max(0, recent),
    )
    return (standings_sql, standings_params), (recent_sql, recent_params)


def profile_of(user_id: int, standings: Iterable[Sequence[Any]], recent: Iterable[Sequence[Any]]) -> Profile:
    """The profile of ``profile_queries``' rows."""
    games = []
    for game, mu, sigma, played, wins, rank in standings:
        rating = rating_of_row(game, user_id, mu, sigma, played, wins)
        games.append(GameStanding(game=game, rating=rating, rank=rank if played >= 1 else None))
    return Profile(user_id=user_id, games=tuple(games), recent=tuple(rating_change_of_row(r) for r in recent))


def rating_inputs(match: MatchRecord, outcome: Outcome | None) -> Outcome | None:
    """The outcome to rate ``match`` by, as stored (``outcome`` defaults to the stored one). Raises as
    ``record`` says."""
    if match.status is not MatchStatus.FINISHED:
        raise ValueError(f"match {match.id} is {match.status.value}; only finished matches are rated")
    if outcome is None and match.result_json is not None:
        outcome = _outcome(match)
    if outcome is not None and len(outcome.places) != match.seat_count:
        raise ValueError(
            f"the outcome of match {match.id} places {len(outcome.places)} seats, "
            f"but the match has {match.seat_count}"
        )
    return outcome


def _rated_people(match: MatchRecord, outcome: Outcome) -> Program[list[RatedPerson]]:
    """The people ``match`` rates (``engine.host.ratings.rated_people``), with the seats new people
    took over and the moves they made there read from the store."""
    found = yield sql.rows(
        f"SELECT {OFFER_COLUMNS} FROM seat_offers WHERE match_id = ? AND taken_by IS NOT NULL", match.id
    )
    taken: list[SeatOffer] = [offer_of_row(row) for row in found]
    moves: list[tuple[int, int]] = []
    if taken:
        seats = sorted({offer.seat for offer in taken})
        played = yield sql.rows(
            f"SELECT version, seat FROM actions WHERE match_id = ? AND NOT stand_in AND {KEPT} "
            f"AND seat IN ({sql.marks(len(seats))})",
            match.id,
            *seats,
        )
        moves = [(int(version), int(seat)) for version, seat in played]
    return rated_people(match, outcome, taken, moves)


def history_rows(
    match: MatchRecord,
    people: Sequence[RatedPerson],
    outcome: Outcome,
    current: dict[int, Rating],
    updated: dict[int, Rating],
    now: str,
) -> list[tuple[Any, ...]]:
    """The ``rating_history`` rows (``HISTORY_COLUMNS``) of a rated match, one per rated player."""
    history = []
    for person in people:
        if person.user_id not in updated:
            continue
        old, new = current.get(person.user_id, Rating()), updated[person.user_id]
        seat = person.seat
        history.append(
            (
                match.id,
                match.game,
                person.user_id,
                seat,
                match.seat_count,
                person.place,
                outcome.scores[seat] if seat < len(outcome.scores) else 0,
                old.mu,
                old.sigma,
                new.mu,
                new.sigma,
                now,
            )
        )
    return history


def _outcome(match: MatchRecord) -> Outcome:
    """The match's stored outcome; raises ``CorruptRecord`` if ``result_json`` is not one."""
    try:
        return Outcome.model_validate_json(match.result_json or "")
    except ValidationError as exc:
        raise CorruptRecord(
            f"the result of match {match.id} cannot be read: {exc.errors()[0]['msg']}; nothing was rated"
        ) from None


def _read_ratings(game: str, user_ids: Sequence[int]) -> Program[dict[int, Rating]]:
    """The stored ratings of ``user_ids`` in ``game`` (unrated users are absent)."""
    if not user_ids:
        return {}
    found = yield sql.rows(SELECT_RATINGS.format(sql.marks(len(user_ids))), game, *user_ids)
    return {row[0]: rating_of_row(game, *row) for row in found}


def rating_of_row(game: str, user_id: Any, mu: Any, sigma: Any, games: Any, wins: Any) -> Rating:
    fields = {"mu": mu, "sigma": sigma, "games": games, "wins": wins}
    return dbmod.validated_row(Rating, fields, f"the {game} rating of user {user_id}")


def rating_change_of_row(row: Sequence[Any]) -> RatingChange:
    match_id, game, user_id, seat, seats, place, score, mu0, sigma0, mu1, sigma1, at = row
    what = f"the rating change of user {user_id} in match {match_id}"
    if not all(isinstance(v, float) for v in (mu0, sigma0, mu1, sigma1)) or min(sigma0, sigma1) <= 0:
        raise CorruptRecord(f"{what} cannot be read: its mu and sigma are not positive numbers")
    fields = {
        "match_id": match_id,
        "game": game,
        "user_id": user_id,
        "seat": seat,
        "seats": seats,
        "place": place,
        "score": score,
        "before": display_rating(mu0, sigma0),
        "after": display_rating(mu1, sigma1),
        "at": at,
    }
    return dbmod.validated_row(RatingChange, fields, what)
