"""``PostgresRatings``: the ratings of ``data.ratings`` on PostgreSQL, the same queries renumbered."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from data import db as dbmod
from data.postgres.db import Conn, PgDatabase
from data.postgres.sql import numbered
from data.ratings import (
    HISTORY_COLUMNS,
    INSERT_HISTORY,
    SELECT_RATINGS,
    UPSERT_RATING,
    history_rows,
    leader_rows,
    leaderboard_query,
    profile_of,
    profile_queries,
    rating_change_of_row,
    rating_inputs,
    rating_of_row,
)
from engine.core.contract import Outcome
from engine.core.errors import MatchNotFound
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.ratings import LeaderRow, Profile, Rating, RatingChange, rate_match


class PostgresRatings:
    """Ratings on the matches' PostgreSQL database; every call is one transaction. See
    ``data.ratings.SqliteRatings`` for what each call does and raises."""

    def __init__(self, database: PgDatabase, *, clock: Callable[[], str] = dbmod.utc_now) -> None:
        self._db = database
        self._clock = clock

    async def record(self, match: MatchRecord, outcome: Outcome | None = None) -> bool:
        seats, outcome = rating_inputs(match, outcome)
        now = self._clock()

        async def body(conn: Conn) -> bool:
            status = await conn.fetchval("SELECT status FROM matches WHERE id = $1 FOR UPDATE", match.id)
            if status is None:
                raise MatchNotFound(f"there is no match {match.id}")
            if status != MatchStatus.FINISHED.value:
                raise ValueError(
                    f"match {match.id} is {status} in the database; only finished matches are rated"
                )
            if await conn.fetchval("SELECT 1 FROM rated_matches WHERE match_id = $1", match.id):
                return False
            users = [user_id for user_id in seats if user_id is not None]
            current = await _read_ratings(conn, match.game, users) if outcome is not None else {}
            updated = rate_match(current, seats, outcome) if outcome is not None else {}
            await conn.execute(
                "INSERT INTO rated_matches (match_id, game, rated, rated_at) VALUES ($1, $2, $3, $4)",
                match.id,
                match.game,
                len(updated),
                now,
            )
            if not updated or outcome is None:
                return False
            await conn.executemany(
                numbered(UPSERT_RATING),
                [(match.game, u, r.mu, r.sigma, r.games, r.wins, now) for u, r in updated.items()],
            )
            await conn.executemany(
                numbered(INSERT_HISTORY), history_rows(match, seats, outcome, current, updated, now)
            )
            return True

        return await self._db.write(body)

    async def ratings(self, game: str, user_ids: Sequence[int]) -> dict[int, Rating]:
        wanted = list(dict.fromkeys(user_ids))
        found = await self._db.read(lambda conn: _read_ratings(conn, game, wanted))
        return {user_id: found.get(user_id, Rating()) for user_id in wanted}

    async def changes(self, match_id: int) -> list[RatingChange]:
        sql = f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE match_id = $1 ORDER BY seat"
        rows = await self._db.read(lambda conn: conn.fetch(sql, match_id))
        return [rating_change_of_row(tuple(row)) for row in rows]

    async def leaderboard(
        self, game: str, limit: int = 10, min_games: int = 1, guild_id: int | None = None
    ) -> list[LeaderRow]:
        sql, params = leaderboard_query(game, limit, min_games, guild_id)
        rows = await self._db.read(lambda conn: conn.fetch(numbered(sql), *params))
        return leader_rows(game, (tuple(row) for row in rows))

    async def profile(
        self, user_id: int, recent: int = 5, guild_id: int | None = None, game: str | None = None
    ) -> Profile:
        (standings_sql, standings_params), (recent_sql, recent_params) = profile_queries(
            user_id, recent, guild_id, game
        )

        async def body(conn: Conn) -> Profile:
            standings = await conn.fetch(numbered(standings_sql), *standings_params)
            latest = await conn.fetch(numbered(recent_sql), *recent_params)
            return profile_of(user_id, map(tuple, standings), map(tuple, latest))

        return await self._db.read(body)


async def _read_ratings(conn: Conn, game: str, user_ids: Sequence[int]) -> dict[int, Rating]:
    if not user_ids:
        return {}
    sql = numbered(SELECT_RATINGS.format(", ".join("?" * len(user_ids))))
    rows: list[Any] = await conn.fetch(sql, game, *user_ids)
    return {row[0]: rating_of_row(game, *row) for row in rows}
