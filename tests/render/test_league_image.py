"""A league season's table as an image: legible on a phone in both languages, nothing running off its
edge, the ranked and the not ranked yet apart, the best of each game, and a long table cut with a word."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image

from engine.host.league import LeagueRow
from engine.host.league_desk import Counted, Era, League, SeasonTable
from engine.host.league_words import season_picture
from engine.registry import GAMES
from render.canvas import recording
from render.league import DRAWN_ROWS, render_season

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "league"
T0 = datetime(2026, 11, 1, tzinfo=UTC)


def title_of(game: str) -> str:
    return GAMES[game].title


def table_of(people: int) -> tuple[League, SeasonTable]:
    league = League(guild_id=1, eras=(Era(1, T0, 30),), counts=Counted.ALL, channel_id=None)
    rows = tuple(
        LeagueRow(
            n,
            f"Player {n:02d}" if n % 3 else "Annunziata Bellavista-Castelfranco",
            100 - n * 3.5,
            6 if n < people - 2 else 2,
            max(0, 5 - n),
            "ny1901",
        )
        for n in range(1, people + 1)
    )
    return league, SeasonTable(league.season(1), rows, (("ny1901", rows[0]), ("skyline", rows[1])))


@pytest.mark.parametrize("locale", ["en", "it"])
def test_a_seasons_table_reads_on_a_phone(locale: str, tmp_path: Path) -> None:
    league, table = table_of(8)
    with recording() as log:
        png = season_picture(title_of, league, table, locale, render_season)
    with Image.open(io.BytesIO(png)) as image:
        width = image.width
        SHOTS.mkdir(parents=True, exist_ok=True)
        image.save(SHOTS / f"season-{locale}.png")
    assert log.smallest * 50 >= width
    assert not log.overflowing
    drawn = "\n".join(log.drawn)
    assert ("New York Series, season 1" if locale == "en" else "New York Series, stagione 1") in drawn
    ranked = [r for r in table.rows if r.ranked]
    assert all(r.name in drawn or r.name[:10] in drawn for r in table.rows)
    assert ("Not ranked yet" if locale == "en" else "Non ancora in classifica") in drawn
    assert ("The best of each game:" if locale == "en" else "I migliori di ogni gioco:") in drawn
    assert str(len(ranked)) in log.drawn  # the last place is numbered


def test_a_long_table_is_cut_with_a_word() -> None:
    league, table = table_of(DRAWN_ROWS + 7)
    with recording() as log:
        season_picture(title_of, league, table, "en", render_season)
    assert "The whole table: /league table" in log.drawn
    assert "Player 26" not in "\n".join(log.drawn)
