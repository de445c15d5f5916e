"""What every game's notation parser shares: the typed text it accepts at all, and how much of it a
refusal may quote back.

Every notation is short, plain ASCII (letters, digits and a few signs). Text that is not (superscript
or Arabic-Indic digits, a paste of thousands of characters) is refused before a game's own parser
sees it, so no parser reaches ``int()`` with something it cannot convert, and no refusal quotes more
than ``QUOTE_LIMIT`` characters of what was typed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TypeVar

from engine.core.errors import NotationError

# Longer than any move of any game (the longest, a Piatnik exchange of a whole hand, is under 150).
MAX_NOTATION = 200
QUOTE_LIMIT = 100
# Every number in a move is small (a coordinate, a value, a count); longer runs of digits are typos.
LONG_NUMBER = re.compile(r"[0-9]{7,}")

A = TypeVar("A")


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a refusal may show it: at most ``limit`` characters, with "…" when cut."""
    return text if len(text) <= limit else text[:limit] + "…"


def readable(text: str) -> str:
    """``text`` stripped, if it can be a notation at all; raises ``NotationError`` otherwise."""
    stripped = text.strip()
    if len(stripped) > MAX_NOTATION:
        raise NotationError(
            f"cannot read {quote(stripped)!r}: at {len(stripped)} characters it is far longer than any move"
        )
    if not (stripped.isascii() and stripped.isprintable()):
        odd = next(c for c in stripped if not (c.isascii() and c.isprintable()))
        raise NotationError(
            f"cannot read {quote(stripped)!r}: {odd!r} is not used in moves; write them with plain "
            "letters, digits and the signs = , . - (e.g. digits 0-9, not ² or ٣)"
        )
    long_number = LONG_NUMBER.search(stripped)
    if long_number:
        raise NotationError(
            f"cannot read {quote(stripped)!r}: {quote(long_number.group(), 12)} is not a number any move "
            "uses (they have at most 6 digits)"
        )
    return stripped


def guarded_parse(parse: Callable[[str], A]) -> Callable[[str], A]:
    """Wrap a game's parser: refuse unreadable text first, and keep any refusal's echo of the input
    within ``QUOTE_LIMIT`` characters."""

    @functools.wraps(parse)
    def guarded(text: str) -> A:
        checked = readable(text)
        try:
            return parse(checked)
        except NotationError as exc:
            if len(checked) <= QUOTE_LIMIT:
                raise
            raise NotationError(_clip_echoes(exc.message, checked), exc.allowed) from None

    return guarded


def _clip_echoes(message: str, text: str) -> str:
    """``message`` with every long piece of ``text`` it repeats cut to ``QUOTE_LIMIT`` characters."""
    pieces = sorted({text, *re.split(r"[\s=,]+", text)}, key=len, reverse=True)
    for piece in pieces:
        if len(piece) > QUOTE_LIMIT and piece in message:
            message = message.replace(piece, quote(piece))
    return message
