"""``bot.py stats``: the statistics of a finished match as one JSON object, and clear refusals."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import bot
from data.store import SqliteMatchStore
from engine.core.contract import Outcome
from engine.host.ports import NewMatch, Player


@pytest.fixture(autouse=True)
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")


async def stored(database: Path) -> tuple[Outcome, int]:
    """The demo match's result, and a second match left in its lobby."""
    async with await SqliteMatchStore.open(database) as store:
        match = await store.get_match(1)
        assert match.result_json is not None
        lobby = await store.create_match(
            NewMatch(game="ny_henn", seat_count=3, seed=1), Player(user_id=5, name="ann")
        )
        return Outcome.model_validate_json(match.result_json), lobby.id


def test_stats_prints_the_numbers_of_a_finished_match_and_refuses_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo = tmp_path / "demo"
    assert bot.main(["demo", "--game", "ny_henn", "--players", "3", "--seed", "2", "--out", str(demo)]) == 0
    capsys.readouterr()
    database = str(demo / "bigapple.db")
    assert bot.main(["stats", "--db", database, "--match", "1", "--json"]) == 0
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 1
    stats = json.loads(out)
    outcome, lobby = asyncio.run(stored(demo / "bigapple.db"))
    assert [s["place"] for s in stats["seats"]] == list(outcome.places)
    assert [s["score"] for s in stats["seats"]] == list(outcome.scores)
    assert stats["track"] == "points" and stats["figure"] == "buildings"
    for seat in stats["seats"]:
        assert {
            "name",
            "turn_median_s",
            "turn_total_s",
            "turns",
            "stand_in_turns",
            "track",
            "scorings",
        } <= set(seat)
        assert seat["track"][-1] == seat["score"] == sum(seat["scorings"])
        assert seat["turns"] > 0 and seat["stand_in_turns"] == 0
    for number, said in ((lobby, "has not ended"), (99, "no match")):
        assert bot.main(["stats", "--db", database, "--match", str(number), "--json"]) == 1
        error = capsys.readouterr().err
        assert said in error and len(error.strip().splitlines()) == 1
    assert bot.main(["stats", "--db", str(tmp_path / "none.db"), "--match", "1", "--json"]) == 1
    assert "no database" in capsys.readouterr().err


def test_stats_of_a_file_that_is_no_database_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    garbage = tmp_path / "notes.db"
    garbage.write_text("these are notes, not a database\n" * 100)
    assert bot.main(["stats", "--db", str(garbage), "--match", "1", "--json"]) == 1
    error = capsys.readouterr().err.strip()
    assert "not a database" in error and len(error.splitlines()) == 1
