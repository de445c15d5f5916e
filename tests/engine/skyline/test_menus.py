"""Skyline's chat menus: builds in lists that fit one select, and the runs of moves that finish a turn."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel

from engine.core.rng import Rng
from engine.host.menus import MAX_OPTIONS, MenuEntry, lay_out
from engine.host.shortcuts import joined, playable, run_through
from engine.registry import GAMES, POLICIES, PRESENTATIONS
from lang.says import render

RULES = GAMES["skyline"]
PRESENTATION = PRESENTATIONS["skyline"]
LOCALES = ("en", "it")


def states(seed: int, moves: int = 150) -> list[tuple[BaseModel, int]]:
    greedy = POLICIES["skyline"]["greedy"]
    state = RULES.setup(3, seed, frozenset())
    out = []
    for number in range(moves):
        if RULES.outcome(state) is not None:
            break
        seat = min(RULES.to_act(state))
        out.append((state, seat))
        action = RULES.automatic(state, seat) or greedy.choose(
            RULES, state, seat, RULES.legal_actions(state, seat), Rng.from_seed(number)
        )
        state = RULES.apply(state, seat, action).state
    return out


def test_every_list_of_builds_fits_one_select() -> None:
    for state, seat in states(1) + states(4):
        builds = [a for a in RULES.legal_actions(state, seat) if a.kind == "build"]
        groups = Counter(PRESENTATION.menu_path(state, seat, a)[0].key for a in builds)
        assert all(size <= MAX_OPTIONS for size in groups.values()), groups


def test_the_finishing_runs_end_the_turn_and_read_apart() -> None:
    offered = 0
    for state, seat in states(2):
        shortcuts = list(PRESENTATION.shortcuts(state, seat))
        assert [s.moves for s in playable(RULES, PRESENTATION, state, seat)] == [s.moves for s in shortcuts]
        for shortcut in shortcuts:
            after = run_through(RULES, state, seat, shortcut.moves)
            assert after is not None and seat not in RULES.to_act(after) and shortcut.moves[-1] == "endturn"
        listed = Counter(s.path[0].key for s in shortcuts if s.path)
        assert all(size <= MAX_OPTIONS for size in listed.values())
        for locale in LOCALES:
            labels = [render(locale, s.label) for s in shortcuts]
            labels += [
                render(locale, PRESENTATION.describe(state, seat, a))
                for a in RULES.legal_actions(state, seat)
            ]
            assert len(labels) == len(set(labels)) and all(len(label) <= 100 for label in labels)
        offered += len(shortcuts)
    assert offered


def test_the_menu_of_a_turn_takes_at_most_five_rows() -> None:
    for state, seat in states(3):
        entries = [
            MenuEntry(RULES.notation(a), render("en", PRESENTATION.describe(state, seat, a)))
            for a in RULES.legal_actions(state, seat)
        ] + [MenuEntry(joined(s.moves), render("en", s.label)) for s in PRESENTATION.shortcuts(state, seat)]
        controls = lay_out(entries, rows=5)
        assert max(c.row for c in controls) < 5 and all(len(c.options) <= MAX_OPTIONS for c in controls)
