"""What ``/leaderboard`` and ``/profile`` say: a game's best players and a person's ratings, career
figures per game, reliability and latest rated matches, in the reader's language, written with the
front end's ``Marks``."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from babel.numbers import format_decimal, format_percent

from engine.core.errors import EngineError, LobbyError
from engine.host.career import Career, GameCareer, career
from engine.host.marks import Marks
from engine.host.matchmaking import usual_hours
from engine.host.posts import duration
from engine.host.ratings import RatingChange, RatingStore
from engine.host.reliability import RELIABILITY_MATCHES
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


def career_line(locale: str, title: str, figures: GameCareer) -> str:
    """ "New York: 12 games, 5 wins, average place 1.8, 3 h per turn (median)" in ``locale``."""
    line = t(
        locale,
        "{game}: {record}, average place {place}",
        game=title,
        record=record_words(locale, figures.matches, figures.wins),
        place=format_decimal(figures.average_place, format="0.#", locale=locale),
    )
    if figures.turn_median_s is not None:
        took = duration(locale, timedelta(seconds=figures.turn_median_s))
        line += ", " + t(locale, "{time} per turn (median)", time=took)
    return line


def reliability_line(locale: str, share: float) -> str:
    """ "Turns played in time: 96% (latest 50 matches)" in ``locale``."""
    return t(
        locale,
        "Turns played in time: {share} (latest {count} matches)",
        share=format_percent(share, locale=locale),
        count=RELIABILITY_MATCHES,
    )


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
        """``user_id``'s ratings (in ``game`` only, when given), latest rated matches, figures per game
        played, share of turns played in time and turns lost to the clock. On a server, only what was
        played there; in direct messages, one's own whole record."""
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
        lines += self._career(locale, await career(self.host.store, user_id, guild_id), game)
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

    def _career(self, locale: str, figures: Career, game: str | None) -> list[str]:
        """The career lines of a profile: one per game played (``game`` only, when given), then the
        share of turns played in time."""
        shown = [g for g in figures.games if game is None or g.game == game]
        lines = [t(locale, "Finished matches:")] if shown else []
        lines += [career_line(locale, self.title(locale, g.game), g) for g in shown]
        if figures.reliability is not None:
            lines.append(reliability_line(locale, figures.reliability))
        hours = usual_hours(figures.rhythm)
        if hours is not None:
            lines.append(self._usual_hours(locale, *hours))
        return lines

    def _usual_hours(self, locale: str, first: int, span: int) -> str:
        """When a person usually moves, as the reader's clock shows it (``Marks.moment``'s times)."""
        day = self.host.clock().replace(minute=0, second=0, microsecond=0)
        start = day.replace(hour=first)
        return t(
            locale,
            "Usually moves between {start} and {end}",
            start=self.marks.moment(start, "time"),
            end=self.marks.moment(start + timedelta(hours=span), "time"),
        )

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
