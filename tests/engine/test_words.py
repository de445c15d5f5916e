"""What the rules say, read as a person reads it: every event and every legal action has a sentence, in
Italian and English; labels are short, distinct within a decision and free of notation."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core.contract import GameRules
from engine.core.errors import EngineError
from engine.core.presentation import GamePresentation
from engine.core.rng import bot_rng
from engine.core.say import SILENT, Say
from engine.host.menus import MAX_OPTIONS, MenuEntry, build_menu, parse_value
from engine.registry import GAMES, POLICIES, PRESENTATIONS
from lang.says import render

LOCALES = ("en", "it")
# What notation looks like: key=value words, codes such as B03, GY4 or T15, coordinates such as 1,0. A board
# coordinate such as C4 is what the board image prints along its edges, and reads as such.
NOTATION = re.compile(r"\w=|\b(?:[A-Z]{2,3}\d{1,2}|[A-Z]\d{2})\b|-?\d+,-?\d+")
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")

# (seats, options) per game: every variant that changes what is said.
SETUPS: dict[str, list[tuple[int, frozenset[str]]]] = {
    "ny_henn": [(2, frozenset()), (3, frozenset())],
    "ny1901": [(3, frozenset()), (2, frozenset({"intro"})), (4, frozenset({"expert"}))],
    "ny_piatnik": [(3, frozenset()), (2, frozenset()), (4, frozenset({"team", "events"}))],
    "fifth_avenue": [(3, frozenset()), (2, frozenset())],
    "skyline": [(3, frozenset()), (2, frozenset({"hidden"}))],
}


def name(seat: int) -> str:
    return NAMES[seat]


def playout(
    slug: str, seats: int, options: frozenset[str], seed: int
) -> Iterator[tuple[Any, int, list[Any]]]:
    """Each decision of a greedy-and-random match: (state, seat, legal actions)."""
    rules = GAMES[slug]
    policies = [POLICIES[slug]["greedy"], POLICIES[slug]["random"]]
    state = rules.setup(seats, seed, options)
    for ply in range(600):
        if rules.outcome(state) is not None:
            return
        seat = min(rules.to_act(state))
        legal = list(rules.legal_actions(state, seat))
        yield state, seat, legal
        action = policies[ply % 2].choose(rules, state, seat, legal, bot_rng(seed, ply))
        state = rules.apply(state, seat, action).state


def readable(locale: str, say: Say) -> str:
    text = render(locale, say, name)
    assert text.strip(), say
    assert "{" not in text and "}" not in text, text
    return text


def cases() -> list[Any]:
    return [
        pytest.param(slug, seats, options, id=f"{slug}-{seats}p-{'+'.join(sorted(options)) or 'base'}")
        for slug, setups in SETUPS.items()
        for seats, options in setups
    ]


@pytest.mark.parametrize(("slug", "seats", "options"), cases())
def test_every_legal_action_has_a_short_distinct_label_in_both_languages(
    slug: str, seats: int, options: frozenset[str]
) -> None:
    presentation: GamePresentation[Any, Any] = PRESENTATIONS[slug]
    for state, seat, legal in playout(slug, seats, options, seed=5):
        for locale in LOCALES:
            labels = [readable(locale, presentation.describe(state, seat, a)) for a in legal]
            assert all(len(label) <= 100 for label in labels), max(labels, key=len)
            repeated = {label for label in labels if labels.count(label) > 1}
            assert not repeated, f"two actions read the same: {sorted(repeated)[:3]}"
            notation = [label for label in labels if NOTATION.search(label)]
            assert not notation, f"notation in labels: {notation[:3]}"


@pytest.mark.parametrize(("slug", "seats", "options"), cases())
def test_every_event_is_a_sentence_in_both_languages(slug: str, seats: int, options: frozenset[str]) -> None:
    rules: GameRules[Any, Any] = GAMES[slug]
    events = list(rules.setup_events(seats, 5, options))
    policies = [POLICIES[slug]["greedy"], POLICIES[slug]["random"]]
    state = rules.setup(seats, 5, options)
    for ply in range(600):
        outcome = rules.outcome(state)
        if outcome is not None:
            assert outcome.reason_say is not None and outcome.breakdown
            for locale in LOCALES:
                readable(locale, outcome.reason_say)
                for line in outcome.breakdown:
                    readable(locale, line)
            break
        seat = min(rules.to_act(state))
        legal = rules.legal_actions(state, seat)
        action = policies[ply % 2].choose(rules, state, seat, legal, bot_rng(5, ply))
        step = rules.apply(state, seat, action)
        events.extend(step.events)
        state = step.state
    unsaid = [e.text for e in events if e.say is None]
    assert not unsaid, f"events without a sentence: {unsaid[:5]}"
    told = [e for e in events if e.say != SILENT]
    assert len(told) > len(events) // 2  # SILENT is for a line whose details follow, not a way out
    for event in told:
        assert event.say is not None
        for locale in LOCALES:
            text = readable(locale, event.say)
            assert not re.search(r"\w=", text), text  # a sum "= 12" reads fine, "total=12" does not


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_menus_in_words_reach_every_legal_action(slug: str) -> None:
    rules: GameRules[Any, Any] = GAMES[slug]
    presentation: GamePresentation[Any, Any] = PRESENTATIONS[slug]
    seats, options = SETUPS[slug][0]
    for number, (state, seat, legal) in enumerate(playout(slug, seats, options, seed=7)):
        if number % 4:
            continue
        entries = [
            MenuEntry(
                notation=rules.notation(a),
                label=render("it", presentation.describe(state, seat, a), name),
                path=tuple(
                    (level.key, render("it", level.label, name))
                    for level in presentation.menu_path(state, seat, a)
                ),
            )
            for a in legal
        ]
        found: set[str] = set()
        todo, seen = [("", 0)], set()
        while todo:
            prefix, page = todo.pop()
            if (prefix, page) in seen:
                continue
            seen.add((prefix, page))
            options_shown = build_menu(entries, prefix, page, "it")
            assert 0 < len(options_shown) <= MAX_OPTIONS
            assert all(0 < len(o.label) <= 100 for o in options_shown)
            for option in options_shown:
                kind, value, next_page = parse_value(option.value)
                if kind == "play":
                    found.add(value)
                else:
                    todo.append((value, next_page))
        assert found == {e.notation for e in entries}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_multi_selects_name_their_question_and_items(slug: str) -> None:
    presentation: GamePresentation[Any, Any] = PRESENTATIONS[slug]
    for seats, options in SETUPS[slug]:
        for state, seat, _ in playout(slug, seats, options, seed=3):
            for choice in presentation.multi_selects(state, seat):
                assert choice.title is not None and len(choice.item_labels) == len(choice.items)
                for locale in LOCALES:
                    assert len(readable(locale, choice.title)) <= 150
                    assert all(len(readable(locale, item)) <= 100 for item in choice.item_labels)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_refused_move_says_why_in_both_languages(slug: str) -> None:
    rules: GameRules[Any, Any] = GAMES[slug]
    seats, options = SETUPS[slug][0]
    seen: list[Any] = []
    refused = 0
    for number, (state, seat, legal) in enumerate(playout(slug, seats, options, seed=11)):
        # Moves that were legal earlier (or for another decision) are mostly illegal now: typed by mistake.
        for action in seen[-40:]:
            if action in legal:
                continue
            try:
                rules.apply(state, seat, action)
            except EngineError as error:
                refused += 1
                assert error.say is not None, error.message
                for locale in LOCALES:
                    readable(locale, error.say)
        seen.extend(legal[:: max(1, len(legal) // 5)])
        if number > 120:
            break
    assert refused > 50
