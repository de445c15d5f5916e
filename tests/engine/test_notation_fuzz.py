"""Hostile typed moves, for every game: odd digits, huge numbers, long pastes and mutated notations are
refused with the game's own readable messages, never a crash, and a refusal fits a chat message."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core.contract import GameRules
from engine.core.errors import DESCRIBE_BUDGET, EngineError, IllegalAction, NotationError, NotYourTurn
from engine.core.notation import QUOTE_LIMIT
from engine.core.rng import Rng, bot_rng
from engine.registry import GAMES, POLICIES

ODD_DIGITS = ("\u00b2", "\u2085", "\u0663", "\uff13", "\U0001d7d1")  # ² ₅ ٣ ３ 𝟑
DIGITS = re.compile(r"[0-9]+")


def positions(rules: GameRules[Any, Any], plies: int = 120) -> Iterator[tuple[Any, int, list[str]]]:
    """Positions of a random 3-seat match (2 where 3 is not allowed): state, seat to act, its legal moves."""
    seats = 3 if 3 in rules.seat_counts else min(rules.seat_counts)
    state = rules.setup(seats, 5, frozenset())
    policy = POLICIES[rules.name]["random"]
    for ply in range(plies):
        if rules.outcome(state) is not None:
            return
        seat = min(rules.to_act(state))
        legal = list(rules.legal_actions(state, seat))
        if ply % 10 == 0:
            yield state, seat, [rules.notation(a) for a in legal]
        state = rules.apply(state, seat, policy.choose(rules, state, seat, legal, bot_rng(5, ply))).state


def hostile(notation: str, rng: Rng) -> Iterator[str]:
    """Variants of a legal notation a careless or malicious player might type."""
    for run in list(DIGITS.finditer(notation))[:3]:
        for odd in ODD_DIGITS:
            yield notation[: run.start()] + odd + notation[run.start() + 1 :]
        yield notation[: run.start()] + "9" * 5000 + notation[run.end() :]
        yield notation[: run.start()] + "9" * 150 + notation[run.end() :]
        yield notation[: run.start()] + "-" + notation[run.start() :]
    yield notation + " " + "x" * 10_000
    yield notation * 40
    chars = list(notation)
    for _ in range(6):
        mutated = chars[:]
        index = rng.below(len(mutated))
        choice = rng.below(3)
        if choice == 0:
            del mutated[index]
        elif choice == 1:
            mutated.insert(index, "=,.-9 "[rng.below(6)])
        else:
            mutated[index] = mutated[rng.below(len(mutated))]
        yield "".join(mutated)


def check_refusal(error: EngineError, text: str) -> None:
    described = error.describe()
    assert len(described) <= DESCRIBE_BUDGET, len(described)
    if len(text) > QUOTE_LIMIT:
        windows = (text[i : i + QUOTE_LIMIT + 1] for i in range(0, len(text) - QUOTE_LIMIT, 37))
        assert not any(window in described for window in windows), described[:300]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_hostile_moves_are_refused_readably(slug: str) -> None:
    rules = GAMES[slug]
    rng = Rng.from_seed(17)
    tried = 0
    for state, seat, legal in positions(rules):
        for notation in legal[:4]:
            for text in ("", "   ", "x" * 10_000, *hostile(notation, rng)):
                tried += 1
                try:
                    action = rules.parse(text)
                except NotationError as refusal:
                    check_refusal(refusal, text)
                    continue
                try:
                    rules.apply(state, seat, action)
                except (IllegalAction, NotYourTurn) as refusal:
                    check_refusal(refusal, text)
    assert tried > 100


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_odd_digits_get_the_cannot_read_message(slug: str) -> None:
    rules = GAMES[slug]
    numbered = next(n for _, _, legal in positions(rules) for n in legal if DIGITS.search(n))
    for odd in ODD_DIGITS:
        text = DIGITS.sub(odd, numbered, count=1)
        with pytest.raises(NotationError, match="cannot read") as refusal:
            rules.parse(text)
        assert "0-9" in refusal.value.message


def test_a_long_list_of_alternatives_is_cut_to_fit() -> None:
    error = IllegalAction("no such move", [f"place tile=T{n:02} at={n},{n}" for n in range(500)])
    described = error.describe(max_allowed=500)
    assert len(described) <= DESCRIBE_BUDGET and described.endswith("more)")
    assert described.startswith("no such move. Allowed: place tile=T00")
