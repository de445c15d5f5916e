"""Menus of legal moves grouped the way each game names its levels (every move reachable through menus in
words: tests/engine/test_words.py)."""

from __future__ import annotations

from typing import Any

from engine.host.menus import MAX_OPTIONS, MenuEntry, build_menu, lay_out, parse_value
from engine.host.selfplay import play_match
from engine.registry import GAMES, POLICIES, PRESENTATIONS
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
    presentation = PRESENTATIONS["ny1901"]
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
            label=render("en", presentation.describe(state, seat, a)),
            path=tuple(
                (level.key, render("en", level.label)) for level in presentation.menu_path(state, seat, a)
            ),
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


def reachable_by_controls(entries: list[MenuEntry], rows: int) -> set[str]:
    """Every notation reachable through the controls ``lay_out`` gives at each level, checking on the
    way that each level keeps to Discord's limits and offers no choice twice."""
    found: set[str] = set()
    todo = [("", 0)]
    seen = set()
    while todo:
        prefix, page = todo.pop()
        if (prefix, page) in seen:
            continue
        seen.add((prefix, page))
        controls = lay_out(entries, prefix, page, rows=rows, fits=lambda o: len(o.label) <= 80)
        assert controls and max(c.row for c in controls) < rows
        for row in {c.row for c in controls}:
            on_row = [c for c in controls if c.row == row]
            assert len(on_row) == 1 or all(c.kind == "button" for c in on_row)
            assert len(on_row) <= 5
        values = [o.value for c in controls for o in c.options]
        assert len(values) == len(set(values))
        labels = [o.label for c in controls for o in c.options]
        assert len(labels) == len(set(labels)), labels
        for control in controls:
            assert 0 < len(control.options) <= (1 if control.kind == "button" else MAX_OPTIONS)
            if control.kind == "button":
                assert len(control.options[0].label) <= 80
        for value in values:
            kind, chosen, next_page = parse_value(value)
            if kind == "play":
                found.add(chosen)
            else:
                todo.append((chosen, next_page))
    return found


def test_every_move_is_reachable_through_buttons_and_selects_within_discords_limits() -> None:
    for slug, rules in GAMES.items():
        presentation = PRESENTATIONS[slug]
        states: list[Any] = []
        play_match(rules, 3, 2, frozenset(), [POLICIES[slug]["greedy"]], on_state=states.append)
        for state in states[::5]:
            for seat in rules.to_act(state):
                legal = rules.legal_actions(state, seat)
                name = lambda s: f"P{s}"  # noqa: E731
                entries = [
                    MenuEntry(
                        notation=rules.notation(a),
                        label=render("en", presentation.describe(state, seat, a), name),
                        path=tuple(
                            (level.key, render("en", level.label, name))
                            for level in presentation.menu_path(state, seat, a)
                        ),
                    )
                    for a in legal
                ]
                for rows in (4, 5):  # a multi-select's button takes one row
                    assert reachable_by_controls(entries, rows) == {e.notation for e in entries}, slug


def test_a_short_menu_is_buttons_and_a_group_of_moves_is_a_select_of_its_own() -> None:
    def entry(notation: str, group: str = "") -> MenuEntry:
        path = ((group, f"Group {group}"),) if group else ()
        return MenuEntry(notation=notation, label=f"Move {notation}", path=path)

    short = [entry("a"), entry("b"), entry("c")]
    assert [c.kind for c in lay_out(short)] == ["button"] * 3
    builds = [entry(f"b{n}", "build") for n in range(20)] + [entry(f"s{n}", "sell") for n in range(10)]
    controls = lay_out([*builds, entry("end")])
    assert [(c.kind, c.row, len(c.options)) for c in controls] == [
        ("select", 0, 20),
        ("select", 1, 10),
        ("button", 2, 1),
    ]
    assert controls[0].placeholder.startswith("Group build")
    assert controls[2].options[0].value == "=end"
