"""What ``/leaderboard`` and ``/profile`` say: a game's best players and a person's ratings and latest
rated matches, in the reader's language, written with the front end's ``Marks``."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from engine.core.errors import EngineError, LobbyError
from engine.host.marks import Marks
from engine.host.ratings import RatingChange, RatingStore
from lang import join, t, tn

if TYPE_CHECKING:
    from engine.host.service import GameHost

LEADERBOARD_ROWS = 15
PROFILE_MATCHES = 10


def record_words(locale: str, games: int, wins: int) -> str:
    """ "12 games, 5 wins" in ``locale``."""
    played = tn(locale, "{count} game", "{count} games", games)
    won = tn(locale, "{count} win", "{count} wins", wins)
    return f"{played}, {won}"


class Profiles:
    """Ratings read for people, on one server at a time (``guild_id``; None: a person's own DMs)."""

    def __init__(self, host: GameHost, ratings: RatingStore, marks: Marks) -> None:
        self.host, self.ratings, self.marks = host, ratings, marks

    def title(self, locale: str, game: str) -> str:
        return t(locale, self.host.rules(game).title)

    async def leaderboard(self, locale: str, game: str, guild_id: int | None) -> str:
        """The best rated players of ``game`` among those who play on the server, one per line."""
        rows = await self.ratings.leaderboard(game, limit=LEADERBOARD_ROWS, guild_id=guild_id)
        title = self.title(locale, game)
        if not rows:
            return t(locale, "Nobody is rated in {game} yet.", game=title)
        lines = [t(locale, "{game}: the best players", game=self.marks.strong(title))]
        lines += [
            f"{r.rank}. {self.marks.person(r.user_id)} {r.rating} ({record_words(locale, r.games, r.wins)})"
            for r in rows
        ]
        return "\n".join(lines)

    async def profile(
        self,
        locale: str,
        user_id: int,
        display_name: str,
        guild_id: int | None,
        asked_by: int,
        game: str | None = None,
    ) -> str:
        """``user_id``'s ratings (in ``game`` only, when given), latest rated matches and turns lost to
        the clock. On a server, only what was played there; in direct messages, one's own whole record."""
        if guild_id is None and user_id != asked_by:
            raise LobbyError(t(locale, "in direct messages you can see your own profile only"))
        profile = await self.ratings.profile(user_id, PROFILE_MATCHES, guild_id=guild_id, game=game)
        lines = [self.marks.strong(self.marks.text(display_name))]
        for standing in profile.games:
            if game is not None and standing.game != game:
                continue
            rating = standing.rating
            rank = ", " + t(locale, "rank {rank}", rank=standing.rank) if standing.rank else ""
            record = record_words(locale, rating.games, rating.wins)
            lines.append(f"{self.title(locale, standing.game)}: {standing.display}{rank} ({record})")
        if profile.recent:
            lines.append(t(locale, "Latest matches:"))
        for change in profile.recent:
            lines.append(await self._played(locale, change))
        if len(lines) == 1:
            lines.append(t(locale, "No rated matches yet."))
        timeouts = await self.host.timeouts_of(user_id, guild_id)
        if timeouts:
            lines.append(
                tn(
                    locale,
                    "{count} turn played by a computer because the time ran out",
                    "{count} turns played by a computer because the time ran out",
                    timeouts,
                )
            )
        return "\n".join(lines)

    async def _played(self, locale: str, change: RatingChange) -> str:
        """One line of a player's history: when, which game and match, against whom, the place, the
        points, the rating before and after, and where the match was played."""
        sign = "+" if change.delta >= 0 else ""
        place = t(
            locale,
            "match #{number}: {place} of {seats}",
            number=change.match_id,
            place=change.place,
            seats=change.seats,
        )
        points = tn(locale, "{count} point", "{count} points", change.score)
        rating = f"{change.before} → {change.after} ({sign}{change.delta})"
        day = self.marks.moment(datetime.fromisoformat(change.at), "date")
        line = f"{day} · {self.title(locale, change.game)} · {place}, {points}, {rating}"
        try:
            match = await self.host.match(change.match_id)
        except EngineError:
            return line  # the match cannot be read: its rating line still stands
        name = self.host.namer(match)
        others = [
            self.marks.text(name(p.seat))
            for p in match.players
            if p.seat is not None and p.seat != change.seat
        ]
        if others:
            line += " · " + t(locale, "against {players}", players=join(locale, others))
        if match.thread_id:
            line += " · " + t(locale, "in {thread}", thread=self.marks.thread(match.thread_id))
        return line
