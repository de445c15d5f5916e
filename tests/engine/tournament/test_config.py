"""Configuration and field checks: impossible setups are refused with what would work."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import SetupError
from engine.tournament import TournamentConfig, check_field, pair_round, total_rounds

from .helpers import field


def test_defaults() -> None:
    config = TournamentConfig(format="swiss", min_size=3, max_size=4)
    assert config.preferred == 4
    assert TournamentConfig(format="swiss", min_size=3, max_size=4, preferred_size=3).preferred == 3


@pytest.mark.parametrize(
    ("fields", "allowed"),
    [
        ({"min_size": 1, "max_size": 4}, ("2",)),
        ({"min_size": 4, "max_size": 3}, ("4", "5", "6", "7", "8")),
        ({"min_size": 3, "max_size": 4, "preferred_size": 5}, ("3", "4")),
        ({"min_size": 3, "max_size": 4, "rounds": 0}, ()),
        ({"min_size": 3, "max_size": 4, "advance": 2}, ()),  # advance is for elimination only
        ({"min_size": 3, "max_size": 4, "points": {4: (3.0, 2.0, 1.0)}}, ()),
        ({"min_size": 3, "max_size": 4, "points": {4: (1.0, 2.0, 0.0, 0.0)}}, ()),
        ({"min_size": 3, "max_size": 4, "points": {5: (4.0, 3.0, 2.0, 1.0, 0.0)}}, ("3", "4")),
        ({"min_size": 3, "max_size": 4, "bye_points": float("nan")}, ()),
    ],
)
def test_bad_swiss_configs(fields: dict[str, Any], allowed: tuple[str, ...]) -> None:
    with pytest.raises(SetupError) as info:
        TournamentConfig(format="swiss", **fields)
    assert info.value.allowed == allowed


def test_format_specific_fields() -> None:
    with pytest.raises(SetupError):
        TournamentConfig(format="roundrobin", min_size=2, max_size=2, rounds=3)
    with pytest.raises(SetupError):
        TournamentConfig(format="elimination", min_size=2, max_size=2, rounds=3)
    with pytest.raises(SetupError) as info:
        TournamentConfig(format="elimination", min_size=3, max_size=4, advance=4)
    assert info.value.allowed == ("1", "2", "3")
    assert TournamentConfig(format="elimination", min_size=3, max_size=4, advance=3).advance == 3


def test_too_few_players() -> None:
    config = TournamentConfig(format="swiss", min_size=3, max_size=4)
    with pytest.raises(SetupError) as info:
        check_field(config, 2)
    assert "at least 3" in info.value.message
    with pytest.raises(SetupError):
        pair_round(config, field(2), [], seed=1)
    check_field(config, 3)


def test_round_robin_field_limit() -> None:
    config = TournamentConfig(format="roundrobin", min_size=2, max_size=4)
    check_field(config, 16)
    with pytest.raises(SetupError) as info:
        total_rounds(config, 17)
    assert info.value.allowed[-1] == "16"


def test_every_elimination_field_works() -> None:
    # Lucky losers make even rigid setups (tables of exactly 4, one going on) reach a legal final.
    for lo, hi, advance in [(4, 4, None), (4, 4, 1), (3, 3, None), (5, 6, None), (2, 2, None), (6, 6, 5)]:
        config = TournamentConfig(format="elimination", min_size=lo, max_size=hi, advance=advance)
        for n in range(lo, 65):
            assert total_rounds(config, n) >= 1


def test_swiss_rounds() -> None:
    pairs = TournamentConfig(format="swiss", min_size=2, max_size=2)
    assert [total_rounds(pairs, n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 64)] == [1, 2, 2, 3, 3, 4, 4, 5, 6]
    fours = TournamentConfig(format="swiss", min_size=3, max_size=4)
    assert [total_rounds(fours, n) for n in (3, 4, 5, 16, 17, 64)] == [2, 2, 3, 3, 4, 4]
    fixed = TournamentConfig(format="swiss", min_size=3, max_size=4, rounds=7)
    assert total_rounds(fixed, 10) == 7


def test_inconsistent_input_is_a_value_error() -> None:
    config = TournamentConfig(format="swiss", min_size=2, max_size=2)
    with pytest.raises(ValueError, match="twice"):
        pair_round(config, ["a", "a", "b"], [], seed=0)
    with pytest.raises(ValueError, match="never entered"):
        pair_round(config, ["a", "b"], [], {"c"}, seed=0)
