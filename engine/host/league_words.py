"""What ``/league`` and a season's closing post say, in the reader's language, people and moments
written with the front end's ``Marks``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from functools import partial

from babel.dates import format_date
from babel.numbers import format_decimal

from engine.host.languages import recipient_locale
from engine.host.league import RANKED_AFTER, LeagueRow
from engine.host.league_desk import Counted, League, LeagueDesk, SeasonTable
from engine.host.lobby_words import first_up
from engine.host.marks import Marks
from engine.host.outgoing import Outgoing, Refused, Sender, TryLater
from engine.host.service import GameHost
from lang import N_, t, tn

log = logging.getLogger(__name__)

# Draws a season's table (``render.league.render_season``, given by the front end): title, subtitle,
# headings, rows (place or None, name, points, matches, wins), the heading of the rows not ranked yet,
# the best of each game (game, name), its heading, and the words for rows left out.
DrawSeason = Callable[
    [
        str,
        str,
        Sequence[str],
        Sequence[tuple[int | None, str, str, str, str]],
        str,
        Sequence[tuple[str, str]],
        str,
        str,
    ],
    bytes,
]
SEASON_FILE = "season.png"

# Rows a season's table shows in a message (the rest are counted).
SHOWN_ROWS = 15
COUNTED_WORDS = {
    Counted.ALL: N_("every match counts, casual and tournament"),
    Counted.CASUAL: N_("casual matches count, tournament tables do not"),
    Counted.TOURNAMENTS: N_("only tournament tables count"),
}
NO_LEAGUE = N_("This server has no league yet: an admin starts one with /league setup.")


def no_league(locale: str) -> str:
    return t(locale, NO_LEAGUE)


def points_words(locale: str, points: float) -> str:
    return format_decimal(points, format="0.#", locale=locale)


def row_line(locale: str, rank: int | None, row: LeagueRow, marks: Marks) -> str:
    """One row of a table: the place (when ranked), the person, the points, matches and wins."""
    figures = t(
        locale,
        "{points} points ({matches}, {wins})",
        points=points_words(locale, row.points),
        matches=tn(locale, "{count} match", "{count} matches", row.matches),
        wins=tn(locale, "{count} win", "{count} wins", row.wins),
    )
    who = marks.person(row.user_id)
    return f"{rank}. {who} · {figures}" if rank is not None else f"{who} · {figures}"


def table_text(host: GameHost, league: League, table: SeasonTable, locale: str, marks: Marks) -> str:
    """A season's table: its dates and what counts, the ranked, those not ranked yet, and the best of
    each game."""
    season = table.season
    lines = [
        marks.strong(
            t(
                locale,
                "New York Series, season {number}: {starts} to {ends}",
                number=season.number,
                starts=marks.moment(season.starts, "date"),
                ends=marks.moment(season.ends, "date"),
            )
        ),
        first_up(t(locale, COUNTED_WORDS[league.counts])) + ".",
    ]
    ranked = [r for r in table.rows if r.ranked]
    others = [r for r in table.rows if not r.ranked]
    if not table.rows:
        lines.append(t(locale, "No match has ended in this season yet."))
        return "\n".join(lines)
    lines += [row_line(locale, n, r, marks) for n, r in enumerate(ranked[:SHOWN_ROWS], start=1)]
    if len(ranked) > SHOWN_ROWS:
        lines.append(tn(locale, "…and {count} more.", "…and {count} more.", len(ranked) - SHOWN_ROWS))
    if others:
        lines.append(
            tn(
                locale,
                "Not ranked yet (fewer than {count} match):",
                "Not ranked yet (fewer than {count} matches):",
                RANKED_AFTER,
            )
        )
        lines += [row_line(locale, None, r, marks) for r in others[:SHOWN_ROWS]]
    if table.best_by_game:
        lines.append(t(locale, "The best of each game:"))
        lines += [
            f"{t(locale, host.rules(game).title)}: {marks.person(row.user_id)}"
            for game, row in table.best_by_game
        ]
    return "\n".join(lines)


def game_title(host: GameHost, game: str) -> str:
    return host.rules(game).title


def season_picture(
    title_of: Callable[[str], str], league: League, table: SeasonTable, locale: str, draw: DrawSeason
) -> bytes:
    """A season's table as an image, in ``locale``: people by name (an image mentions nobody), games by
    their titles (``title_of``)."""
    season = table.season
    dates = " – ".join(format_date(d.date(), "medium", locale=locale) for d in (season.starts, season.ends))
    ranked = [r for r in table.rows if r.ranked]
    others = [r for r in table.rows if not r.ranked]
    rows: list[tuple[int | None, str, str, str, str]] = [
        (n, r.name, points_words(locale, r.points), str(r.matches), str(r.wins))
        for n, r in enumerate(ranked, start=1)
    ]
    rows += [(None, r.name, points_words(locale, r.points), str(r.matches), str(r.wins)) for r in others]
    return draw(
        t(locale, "New York Series, season {number}", number=season.number),
        f"{dates} · {first_up(t(locale, COUNTED_WORDS[league.counts]))}",
        ("#", t(locale, "player"), t(locale, "points"), t(locale, "matches"), t(locale, "wins")),
        rows,
        tn(
            locale,
            "Not ranked yet (fewer than {count} match):",
            "Not ranked yet (fewer than {count} matches):",
            RANKED_AFTER,
        ),
        [(t(locale, title_of(game)), row.name) for game, row in table.best_by_game],
        t(locale, "The best of each game:"),
        t(locale, "The whole table: /league table"),
    )


def closing_text(host: GameHost, league: League, table: SeasonTable, locale: str, marks: Marks) -> str:
    """The post that closes a season: its champion, then its whole table."""
    ranked = [r for r in table.rows if r.ranked]
    if ranked:
        head = t(
            locale,
            "🏆 Season {number} of the New York Series is over: {champion} is the champion with "
            "{points} points!",
            number=table.season.number,
            champion=marks.person(ranked[0].user_id),
            points=points_words(locale, ranked[0].points),
        )
    else:
        head = t(
            locale,
            "Season {number} of the New York Series is over, with nobody ranked: play {count} matches "
            "in a season to be ranked.",
            number=table.season.number,
            count=RANKED_AFTER,
        )
    return f"{head}\n\n{table_text(host, league, table, locale, marks)}"


def set_up_text(league: League, locale: str, marks: Marks) -> str:
    """What ``/league setup`` did: the season running, its length, what counts and where it closes."""
    season = league.season_at(league.starts)
    said = [
        t(
            locale,
            "The New York Series runs on this server: seasons of {days} days, the first from {starts}.",
            days=league.days,
            starts=marks.moment(season.starts, "date"),
        ),
        first_up(t(locale, COUNTED_WORDS[league.counts])) + ".",
    ]
    if league.channel_id is not None:
        said.append(
            t(
                locale,
                "Each season closes with its table in {channel}.",
                channel=marks.thread(league.channel_id),
            )
        )
    else:
        said.append(
            t(locale, "Name a channel with /league setup channel: for the post that closes each season.")
        )
    return "\n".join(said)


class SeasonCloser:
    """Posts the closing table of each season that ended, in its server's league channel and language,
    once (a server with no channel named, or whose channel refuses the post, keeps its tables for
    ``/league``)."""

    def __init__(self, desk: LeagueDesk, sender: Sender, marks: Marks, draw: DrawSeason) -> None:
        self.desk, self.sender, self.marks, self.draw = desk, sender, marks, draw
        # One look at the leagues at a time: two that overlap would both find a season due.
        self._looking = asyncio.Lock()

    async def close_seasons(self) -> int:
        """Post the closings due on every server; how many were posted. One server's failure stops no
        other; a closing that could not be posted is tried again at the next look."""
        async with self._looking:
            return await self._close_all()

    async def _close_all(self) -> int:
        posted = 0
        for guild_id in await self.desk.servers():
            try:
                posted += await self._close(guild_id)
            except TryLater as exc:
                log.info("the league of server %s could not close a season yet: %s", guild_id, exc)
            except Exception:
                log.exception("the league of server %s could not close its season", guild_id)
        return posted

    async def _close(self, guild_id: int) -> int:
        league = await self.desk.league(guild_id)
        if league is None:
            return 0
        posted = 0
        for season in await self.desk.closings_due(guild_id):
            # Marked closed before it is posted, by whichever look at the leagues (of this process or of
            # another sharing the store) gets there first: a season is never posted twice (should the
            # post wait for the service, the mark is taken back and the next look tries again).
            if not await self.desk.claim_closing(guild_id, season):
                break
            if league.channel_id is None:
                continue
            table = await self.desk.table(league, season)
            locale = await recipient_locale(self.desk.settings, None, guild_id)
            text = closing_text(self.desk.host, league, table, locale, self.marks)
            # Drawing takes a while: off the event loop.
            title_of = partial(game_title, self.desk.host)
            png = await asyncio.to_thread(season_picture, title_of, league, table, locale, self.draw)
            try:
                await self.sender.to_channel(
                    league.channel_id, Outgoing(text, image=png, filename=SEASON_FILE)
                )
                posted += 1
            except Refused as exc:  # the channel is gone or closed: /league still shows the table
                log.info("season %s of server %s closed unposted: %s", season.number, guild_id, exc)
            except TryLater:
                await self.desk.reopen(guild_id, season)
                raise
        return posted
