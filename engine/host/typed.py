"""Moves typed with ``/move``: the moves offered while a person types (their menu labels, each carrying the
board it was offered for), or one sentence saying why there is nothing to offer; and reading an offered
move back.

An offered move's value is "<notation> @<version>", binding a move chosen from an old list to the board
the person saw (see ``GameHost.act``); a notation too long for a value is offered by its place among the
legal moves, "#<index> @<version>", which holds only on that very board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import lang
from engine.core.say import Say
from engine.host.menus import clip
from engine.host.move_words import labelled, read_typed
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost
from lang.says import Namer

SEEN_SUFFIX = re.compile(r" @(?P<version>[0-9]{1,18})$")
OFFERED_INDEX = re.compile(r"#(?P<index>[0-9]{1,6})")
# A choice's value and label: Discord's autocomplete takes 100 characters, and a web page no fewer.
CHOICE_LIMIT = 100
MOST_OFFERED = 25


def with_seen_version(notation: str, index: int, version: int, limit: int = CHOICE_LIMIT) -> str:
    """The value of an offered move: its notation (else its ``index`` among the legal moves) and the
    version it was offered at."""
    value = f"{notation} @{version}"
    return value if len(value) <= limit else f"#{index} @{version}"


def split_seen_version(text: str) -> tuple[str, int | None]:
    """A typed or offered move and the version it carries, if any."""
    found = SEEN_SUFFIX.search(text)
    if found is None:
        return text, None
    return text[: found.start()], int(found["version"])


@dataclass(frozen=True, slots=True)
class Typed:
    """A move as typed or offered: a text to read, or an offered move's place among the legal moves of
    the board ``bound`` (None for a text); ``seen``, the board the person saw, when the text says."""

    move: str | int
    seen: int | None = None
    bound: int | None = None


def read_offered(text: str) -> Typed:
    """What ``/move`` was given: an offered value or a text typed by hand."""
    typed, seen = split_seen_version(text)
    index = OFFERED_INDEX.fullmatch(typed.strip())
    if index is not None and seen is not None:
        return Typed(int(index["index"]), bound=seen)
    return Typed(typed, seen)


@dataclass(frozen=True, slots=True)
class Offer:
    """What to offer someone typing a move: (label, value) pairs, or ``refusal`` (named by ``name``),
    why there is nothing to offer, as the one entry to show."""

    choices: tuple[tuple[str, str], ...] = ()
    refusal: Say | None = None
    name: Namer | None = None


async def offer_moves(
    host: GameHost,
    match: MatchRecord,
    user_id: int,
    typed: str,
    locale: str = lang.DEFAULT,
    most: int = MOST_OFFERED,
) -> Offer:
    """``user_id``'s legal moves in ``match`` that what they ``typed`` so far fits (at most ``most``),
    labelled in ``locale``: every typed word starts a word of the label (in ``locale`` or English), or the
    text is part of the notation; each carries the version of the board it was offered for. Nothing for
    someone who does not play there or a match not under way."""
    table = await host.table(match, user_id)
    if table.seat is None or match.status is not MatchStatus.ACTIVE:
        return Offer()
    if table.refusal is not None:
        return Offer(refusal=table.refusal, name=table.name)
    wanted = split_seen_version(typed)[0]
    rules, state = host.rules(match.game), host.state_of(match)
    legal = rules.legal_actions(state, table.seat)
    notations = [rules.notation(action) for action in legal]
    # The moves alone, labelled once per language: the menu's shortcuts are not offered here.
    moves = labelled(
        host.presentation(match.game), state, table.seat, legal, locale, host.namer(match, state)
    )
    fitting = {move.index for move in read_typed(wanted, moves).fitting} if wanted.strip() else None
    folded_typed = wanted.strip().lower()
    offered = [
        (clip(moves[i].labels[0]), with_seen_version(notation, i, match.version))
        for i, notation in enumerate(notations)
        if fitting is None or i in fitting or (folded_typed and folded_typed in notation.lower())
    ]
    return Offer(tuple(offered[:most]))
