"""How much the first seat matters: the measurement, its command and the table shipped with the project."""

from __future__ import annotations

import json

import pytest

import bot
from engine.core.errors import SetupError
from engine.host.seat_advantage import (
    from_firsts,
    measure,
    strongest_policy,
    wilson_interval,
)
from engine.host.selfplay import play_match
from engine.registry import GAMES, get_policy

# The quickest game to play between strong computers, for the tests that play.
QUICK = ("ny1901", 2)


@pytest.fixture(autouse=True)
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "")


def test_wilson_interval_matches_the_textbook_figures() -> None:
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    low, high = wilson_interval(380, 1000)
    assert low < 0.38 < high and high - low < 0.07


def test_a_shared_first_place_counts_for_every_seat_sharing_it() -> None:
    figures = from_firsts("skyline", 3, (), 1, "strong", [(0,), (0, 1), (2,), (0,)])
    assert figures.matches == 4
    assert figures.first_rate_by_seat == (0.75, 0.25, 0.25)  # 1.25 in all: one match had two winners
    assert figures.ci95[0] == pytest.approx(wilson_interval(3, 4), abs=1e-4)
    assert figures.ci95[1] == figures.ci95[2] == pytest.approx(wilson_interval(1, 4), abs=1e-4)


def test_a_measurement_counts_the_first_places_of_the_strongest_player_in_every_seat() -> None:
    game, players = QUICK
    figures = measure(game, players, 3, seed=11)
    assert figures.policy == strongest_policy(game) == "strong"
    rules = GAMES[game]
    expected = []
    for seed in (11, 12, 13):
        outcome = play_match(rules, players, seed, frozenset(), [get_policy(game, "strong")]).outcome
        assert outcome is not None
        expected.append(tuple(seat for seat, place in enumerate(outcome.places) if place == 1))
    assert figures.firsts == tuple(expected)
    wins = [sum(seat in match for match in expected) for seat in range(players)]
    assert figures.first_rate_by_seat == tuple(round(w / 3, 4) for w in wins)


def test_a_measurement_is_the_same_on_one_process_or_two() -> None:
    game, players = QUICK
    assert measure(game, players, 2, seed=3, workers=2) == measure(game, players, 2, seed=3)


@pytest.mark.parametrize(
    ("game", "players", "matches", "refusal"),
    [
        ("chess", 2, 5, "unknown game"),
        ("skyline", 5, 5, "2, 3, 4 players, not 5"),
        ("ny1901", 2, 0, "at least 1"),
    ],
)
def test_a_measurement_refuses_what_cannot_be_played(
    game: str, players: int, matches: int, refusal: str
) -> None:
    with pytest.raises(SetupError, match=refusal):
        measure(game, players, matches)


def test_the_command_prints_one_line_of_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    game, players = QUICK
    args = ["seat-advantage", "--game", game, "--players", str(players), "--matches", "2", "--seed", "4"]
    assert bot.main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert set(line) == {"game", "players", "matches", "first_rate_by_seat", "ci95"}
    assert line == measure(game, players, 2, seed=4).line()
    assert line["game"] == game and line["players"] == players and line["matches"] == 2
    assert len(line["first_rate_by_seat"]) == len(line["ci95"]) == players
    for rate, (low, high) in zip(line["first_rate_by_seat"], line["ci95"], strict=True):
        assert 0 <= low <= rate <= high <= 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--game", "chess", "--players", "3", "--matches", "2"], "unknown game"),
        (["--game", "skyline", "--players", "6", "--matches", "2"], "not 6"),
        (["--game", "skyline", "--players", "3", "--matches", "0"], "at least 1"),
    ],
)
def test_the_command_refuses_in_one_line(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bot.main(["seat-advantage", *args]) != 0
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and said in err
