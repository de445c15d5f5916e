"""Menus of legal moves grouped the way each game names its levels (every move reachable through menus in
words: tests/engine/test_words.py)."""

from __future__ import annotations

from typing import Any

from engine.host.menus import MAX_OPTIONS, MenuEntry, build_menu, parse_value
from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES
from lang.says import render


def reachable(entries: list[MenuEntry]) -> tuple[set[str], int]:
    """Every notation a player can reach by opening groups and pages, and the deepest level visited."""
    found: set[str] = set()
    todo = [("", 0, 1)]
    seen = set()
    deepest = 0
    while todo:
        prefix, page, level = todo.pop()
        if (prefix, page) in seen:
            continue
        seen.add((prefix, page))
        deepest = max(deepest, level)
        options = build_menu(entries, prefix, page)
        assert 0 < len(options) <= MAX_OPTIONS
        for option in options:
            kind, value, next_page = parse_value(option.value)
            if kind == "play":
                found.add(value)
            else:
                todo.append((value, next_page, level + (value != prefix)))
    return found, deepest


def test_new_york_1901_placements_go_by_tile_then_lot_then_position() -> None:
    rules = GAMES["ny1901"]
    states: list[Any] = []
    for seed in range(1, 4):
        play_match(rules, 3, seed, frozenset(), [POLICIES["ny1901"]["random"]], on_state=states.append)
    # Placements met over several matches, more than one menu holds: the grouping is what is tested here.
    found_in: dict[str, tuple[Any, int, Any]] = {}
    for state in states:
        for seat in rules.to_act(state):
            for action in rules.legal_actions(state, seat):
                if action.kind == "build":
                    found_in.setdefault(rules.notation(action), (state, seat, action))
    builds = [action for _, _, action in found_in.values()]
    assert len(builds) > MAX_OPTIONS and len({a.tile for a in builds}) > 1
    entries = [
        MenuEntry(
            notation=notation,
            label=render("en", rules.describe(state, seat, a)),
            path=tuple((level.key, render("en", level.label)) for level in rules.menu_path(state, seat, a)),
        )
        for notation, (state, seat, a) in found_in.items()
    ]
    first = builds[0]
    assert entries[0].path[0][0] == f"build {first.tile}" and " on lot " in entries[0].path[1][0]
    top = build_menu(entries)
    assert all(o.label.startswith("Build ") and "starting on" not in o.label for o in top)
    crowded = next(o for o in top if o.value.startswith("?"))
    lots = build_menu(entries, parse_value(crowded.value)[1])
    assert all("starting on" in o.label or "off the lots" in o.label for o in lots if o.value.startswith("?"))
    found, deepest = reachable(entries)
    assert found == {e.notation for e in entries} and deepest <= 3
