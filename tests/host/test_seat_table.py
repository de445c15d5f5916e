"""The table of seat advantages shipped with the project: it covers every game and seat count, each row
follows from its recorded matches, and the command plays those matches again."""

from __future__ import annotations

import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

import bot
from bench.seat_table import measure_for
from engine.host.seat_advantage import (
    from_firsts,
    measure,
    measured,
    measured_table,
    strongest_policy,
    table_plan,
)
from engine.registry import GAMES

# The quickest game to play between strong computers, whose first matches are played again.
QUICK = ("ny1901", 2)


@pytest.fixture(autouse=True)
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")


def test_the_shipped_table_covers_every_game_and_seat_count_once() -> None:
    covered = [(m.game, m.players) for m in measured_table()]
    assert sorted(covered) == sorted(table_plan())
    assert len(covered) == sum(len(rules.seat_counts) for rules in GAMES.values())


@pytest.mark.parametrize(("game", "players"), table_plan())
def test_each_shipped_row_follows_from_its_matches(game: str, players: int) -> None:
    figures = measured(game, players)
    assert figures is not None
    assert figures.policy == strongest_policy(game) and figures.options == ()
    assert figures.matches == len(figures.firsts) >= 2
    assert all(match and set(match) <= set(range(players)) for match in figures.firsts)
    # The rates and intervals are those of the recorded first places, nothing else.
    again = from_firsts(game, players, (), figures.seed, figures.policy, figures.firsts)
    assert again == figures


def test_the_command_replays_the_start_of_the_quickest_shipped_row(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game, players = QUICK
    figures = measured(game, players)
    assert figures is not None
    args = ["seat-advantage", "--game", game, "--players", str(players), "--matches", "2"]
    assert bot.main([*args, "--seed", str(figures.seed)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line == from_firsts(game, players, (), figures.seed, figures.policy, figures.firsts[:2]).line()


def test_the_table_is_measured_from_the_seed_without_a_gap() -> None:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        row = measure_for(pool, "ny1901", 2, seed=5, seconds=0.0, workers=1)
    # No time at all still plays one match per worker, the matches the command plays first.
    assert row == measure("ny1901", 2, 1, seed=5)
