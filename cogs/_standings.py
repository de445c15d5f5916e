"""A tournament's standings, as a table of text and as an image, and what their columns mean."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from engine.host.text import HOST
from engine.host.tournaments import (
    TournamentRecord,
)
from lang import t, tn
from lang.says import render
from render.standings import render_standings

if TYPE_CHECKING:
    from cogs._bot import Bot


# The standings' columns, as their headings read; ``standings_legend`` says what each one means.
STANDING_COLUMNS = {
    "player": HOST.word("player", "standings column"),
    "points": HOST.word("points", "standings column"),
    "score": HOST.word("score", "standings column"),
    "opponents": HOST.word("opp.", "standings column"),
    "games": HOST.word("games", "standings column"),
}
DROPPED = HOST.word("dropped", "standings")
CONTENT_LIMIT = 2000


def column(locale: str, key: str) -> str:
    """A standings column's heading in ``locale``."""
    return render(locale, STANDING_COLUMNS[key])


def standings_rows(
    bot: Bot, record: TournamentRecord, locale: str, after_round: int | None = None
) -> list[str]:
    """The standings as a fixed-width table, headings first: rank, player, points, game score,
    opponents' strength and games played (now, or as they stood after ``after_round``)."""
    keys = ("points", "score", "opponents", "games")
    heads = [column(locale, key) for key in keys]
    widths = [max(6, len(head)) for head in heads]
    rows = [
        "  # "
        + f"{column(locale, 'player'):<16}"
        + "".join(f" {head:>{width}}" for head, width in zip(heads, widths, strict=True))
    ]
    for s in bot.tournaments.standings(record, after_round):
        figures = (f"{s.points:.2f}", str(s.game_score), f"{s.opponents_strength:.2f}", str(s.played))
        # The note goes last, so a long name never cuts it off.
        note = f" ({render(locale, DROPPED)})" if s.dropped else ""
        rows.append(
            f"{s.rank:>3} {record.name_of(s.player)[:16]:<16}"
            + "".join(f" {figure:>{width}}" for figure, width in zip(figures, widths, strict=True))
            + note
        )
    return rows


def standings_legend(locale: str, record: TournamentRecord) -> str:
    """What the standings' columns mean and how ties are broken, in ``locale``."""
    legend = t(
        locale,
        "{points}: tournament points for your places at the tables (a bye counts as a middle place). "
        "Ties go to the higher {score}, the sum of your own game scores, then to the higher {opp}, the "
        "average points of the opponents you met, then to a coin tossed when the tournament began. "
        "{games}: games played.",
        points=column(locale, "points"),
        score=column(locale, "score"),
        opp=column(locale, "opponents"),
        games=column(locale, "games"),
    )
    if record.config.format == "elimination":
        legend += " " + t(
            locale, "In an elimination, the round a player reached counts before everything else."
        )
    return "ℹ️ " + legend


def standings_message(head: str, rows: list[str], legend: str, locale: str) -> str:
    """``head``, the table ``rows`` in a code block and the ``legend``, within one message: when the
    table is too long, its last rows give way to a note of how many were left out."""
    room = CONTENT_LIMIT - len(head) - len(legend) - len("\n```\n\n```\n") - 40
    kept: list[str] = []
    for row in rows:
        if sum(len(r) + 1 for r in kept) + len(row) + 1 > room:
            break
        kept.append(row)
    if len(kept) < len(rows):
        kept.append(tn(locale, "… and {count} more", "… and {count} more", len(rows) - len(kept)))
    body = "\n".join(kept)
    return f"{head}\n```\n{body}\n```\n{legend}"[:CONTENT_LIMIT]


def standings_file(
    bot: Bot, record: TournamentRecord, subtitle: str, locale: str, after_round: int | None = None
) -> discord.File:
    rows = [
        (
            s.rank,
            record.name_of(s.player),
            s.points,
            s.game_score,
            s.opponents_strength,
            render(locale, DROPPED) if s.dropped else "",
        )
        for s in bot.tournaments.standings(record, after_round)
    ]
    headings = ("#", *(column(locale, key) for key in ("player", "points", "score", "opponents")))
    png = render_standings(record.name, subtitle, rows, headings)
    return discord.File(io.BytesIO(png), filename="standings.png")
