"""Golden playthroughs: stored matches whose final scores were checked by hand, replayed and compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.replay import LoggedAction, replay
from engine.registry import GAMES

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_match_replays_to_its_checked_result(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    rules = GAMES[record["game"]]
    log = [LoggedAction(seat=seat, notation=text) for seat, text in record["log"]]
    state, _ = replay(rules, record["seats"], record["seed"], frozenset(record["options"]), log)
    outcome = rules.outcome(state)
    assert outcome is not None
    assert list(outcome.scores) == record["scores"]
    assert list(outcome.places) == record["places"]
    assert list(outcome.details) == record["details"]
    assert record["checked_by_hand"]


def test_every_game_has_a_golden_match() -> None:
    assert {json.loads(p.read_text())["game"] for p in GOLDEN} == set(GAMES)
