"""Menus of legal moves grouped the way each game names its levels (every move reachable through menus in
words: tests/engine/test_words.py)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.rng import bot_rng
from engine.host.menus import MAX_OPTIONS, build_menu, parse_value
from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES


def test_new_york_1901_placements_go_by_tile_then_lot_then_position() -> None:
    rules = GAMES["ny1901"]
    states: list[Any] = []
    for seed in range(1, 4):
        play_match(rules, 3, seed, frozenset(), [POLICIES["ny1901"]["random"]], on_state=states.append)
    # Placements met over several matches, more than one menu holds: the grouping is what is tested here.
    builds = {
        rules.notation(a): a
        for s in states
        if rules.to_act(s)
        for a in rules.legal_actions(s, min(rules.to_act(s)))
        if a.kind == "build"
    }
    assert len(builds) > MAX_OPTIONS and len({a.tile for a in builds.values()}) > 1
    notations = list(builds)
    paths = [rules.menu_path(a) for a in builds.values()]
    first = next(iter(builds.values()))
    assert paths[0][0] == f"build {first.tile}" and " on lot " in paths[0][1] and paths[0][2] == notations[0]
    top = build_menu(notations, "", 0, paths)
    assert all(o.label.startswith("build ") and " on lot " not in o.label for o in top)
    crowded = next(o for o in top if o.value.startswith("?"))
    lots = build_menu(notations, parse_value(crowded.value)[1], 0, paths)
    assert all(" on lot " in o.label for o in lots if o.value.startswith("?"))
    found, deepest = reachable(notations, paths)
    assert found == set(notations) and deepest <= 3
