"""The rules' sentences (``engine.core.say``) in the reader's language.

Each sentence is looked up in its game's catalogue, its arguments translated the same way, and every seat
named by the caller (a display name with the seat's colour symbol, see ``engine.host.names``).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.say import Arg, Items, Say, Who
from lang import catalogue, join, join_or, t

Namer = Callable[[int], str]


def _seat(seat: int) -> str:
    return f"#{seat + 1}"


def render(locale: str, say: Say, name: Namer = _seat) -> str:
    """``say`` in ``locale``, seats named by ``name(seat)``."""
    books = catalogue(locale, say.domain)
    if say.plural is not None and say.count is not None:
        template = books.ngettext(say.text, say.plural, say.count)
    elif say.context is not None:
        template = books.pgettext(say.context, say.text)
    else:
        template = books.gettext(say.text)
    if not say.args and say.count is None:
        return template
    values = {key: argument(locale, value, name) for key, value in say.args.items()}
    if say.count is not None:
        values.setdefault("count", str(say.count))
    return template.format(**values)


def argument(locale: str, value: Arg, name: Namer = _seat) -> str:
    """One argument of a sentence in ``locale``."""
    if isinstance(value, Say):
        return render(locale, value, name)
    if isinstance(value, Who):
        return name(value.seat)
    if isinstance(value, Items):
        words = [argument(locale, item, name) for item in value.items]
        if value.joiner == "plus":
            return " + ".join(words)
        if value.joiner == "comma":
            return ", ".join(words)
        if value.joiner == "or":
            return join_or(locale, words)
        return join(locale, words)
    return str(value)


def english(say: Say, name: Namer = _seat) -> str:
    """``say`` in English (the CLI and logs)."""
    return render("en", say, name)


__all__ = ["Namer", "argument", "english", "render", "t"]
