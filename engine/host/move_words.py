"""Reading a move a person typed in words: the menu's label of a move, in their language or in English,
with accents, case, spacing and punctuation ignored, or enough of its words to tell it from the others.

Notation still works for those who type it (``GameHost.act`` tries it when no label matches); these
functions only compare texts, so any front end can offer the same reading.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

import lang
from engine.core.contract import GameRules
from engine.core.errors import IllegalAction, NotationError
from engine.core.notation import quote
from engine.core.presentation import GamePresentation
from engine.core.say import items
from engine.host.names import seat_namer
from engine.host.ports import MatchRecord
from engine.host.text import HOST
from lang.says import Namer, render

log = logging.getLogger(__name__)

# How many of the moves a typed text could mean a refusal lists; more than that is a question for the
# menu, not for a sentence.
MOST_SUGGESTED = 5


def folded(text: str) -> str:
    """``text`` as it is compared: no accents, lower case, words of letters and digits one space apart."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join("".join(c if c.isalnum() else " " for c in plain).split())


@dataclass(frozen=True, slots=True)
class Labelled:
    """A legal move: the index of its action among the seat's legal actions, and its labels (one per
    language it is read in)."""

    index: int
    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reading:
    """What a typed text means: the move whose label it is (``exact``), else the moves whose labels have
    all its words (``fitting``: their indexes and labels in the reader's language), possibly none."""

    exact: int | None = None
    fitting: tuple[Labelled, ...] = ()

    @property
    def only_fitting(self) -> int | None:
        """The one move the typed words fit, if only one does."""
        return self.fitting[0].index if len(self.fitting) == 1 else None


def read_typed(typed: str, moves: Sequence[Labelled]) -> Reading:
    """The move whose label ``typed`` is, else the moves whose labels have every typed word (each word
    whole or as the start of one of the label's words)."""
    wanted = folded(typed)
    if not wanted:
        return Reading()
    exact = {move.index for move in moves if wanted in map(folded, move.labels)}
    words = wanted.split()
    fitting = tuple(
        move for move in moves if any(_has_every_word(words, folded(label)) for label in move.labels)
    )
    return Reading(exact.pop() if len(exact) == 1 else None, fitting)


def _has_every_word(words: Sequence[str], label: str) -> bool:
    label_words = label.split()
    return all(any(own.startswith(word) for own in label_words) for word in words)


def labelled(
    presentation: GamePresentation[Any, Any],
    state: BaseModel,
    seat: int,
    legal: Sequence[Any],
    locale: str,
    name: Namer,
) -> list[Labelled]:
    """The seat's ``legal`` actions with their labels in ``locale`` and, after it, in English."""
    languages = dict.fromkeys((locale, lang.DEFAULT))
    return [
        Labelled(
            i,
            tuple(
                render(language, presentation.describe(state, seat, action), name) for language in languages
            ),
        )
        for i, action in enumerate(legal)
    ]


YOUR_MOVES_IN_THE_MENU = HOST.say(
    "Your moves are in the menu: press Play under the board, or send /move with nothing typed."
)


def typed_action(
    rules: GameRules[Any, Any],
    presentation: GamePresentation[Any, Any],
    state: BaseModel,
    seat: int,
    typed: str,
    locale: str,
    name: Namer,
) -> Any:
    """The legal action ``typed`` names for ``seat``: a menu label in ``locale`` or English, else notation,
    else the one move whose label has every typed word (see ``read_typed``). Raises ``NotationError`` (in
    words, with the moves it could mean) when it names none; an action read from notation may still be
    illegal (``apply`` says why)."""
    legal = list(rules.legal_actions(state, seat))
    moves = labelled(presentation, state, seat, legal, locale, name)
    reading = read_typed(typed, moves)
    if reading.exact is not None:
        return legal[reading.exact]
    try:
        return rules.parse(typed)
    except NotationError as unreadable:
        if reading.only_fitting is not None:
            return legal[reading.only_fitting]
        said = HOST.say("“{typed}” is not one of your moves", typed=quote(typed.strip()))
        candidates = [move.labels[0] for move in reading.fitting]
        if candidates:
            hint = HOST.say(
                "It could be: {moves}. Type more of its words, or choose it in the menu (Play under the "
                "board).",
                moves=items(candidates[:MOST_SUGGESTED], "or"),
            )
            if len(candidates) > MOST_SUGGESTED:
                hint = HOST.say(
                    "It could be one of {count} moves. Type more of its words, or choose it in the menu "
                    "(Play under the board).",
                    count=len(candidates),
                )
        else:
            hint = YOUR_MOVES_IN_THE_MENU
        raise NotationError(said, unreadable.allowed, hint=hint) from None


def with_menu_hint(refused: IllegalAction) -> IllegalAction:
    """``refused`` (a move the rules do not allow) telling the person where their moves are."""
    return IllegalAction(refused.say or refused.message, refused.allowed, hint=YOUR_MOVES_IN_THE_MENU)


def move_label(
    match: MatchRecord,
    rules: GameRules[Any, Any],
    presentation: GamePresentation[Any, Any],
    state: BaseModel,
    seat: int,
    action: Any,
    locale: str,
) -> str:
    """The move as the player reads it; its notation if the words fail (the move itself stands)."""
    try:
        return render(
            locale, presentation.describe(state, seat, action), seat_namer(match, presentation, state)
        )
    except Exception:
        log.exception("match %s: no words for %s", match.id, rules.notation(action))
        return rules.notation(action)
