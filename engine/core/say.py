"""Sentences the rules say without speaking any language, in the manner of Board Game Arena's notification
templates: a message id (the English text with named ``{placeholders}``) and its arguments. The edges (host
text helpers, cogs, render) translate them into the reader's language with ``lang.says``.

Each game speaks from its own catalogue (its ``domain``, the game's slug) and makes its sentences with
``Speaker``; ``pybabel extract`` finds them through the keywords ``say``, ``say_n`` and ``word``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal, Union

from pydantic import Field

from engine.core.model import Frozen


class Who(Frozen):
    """A seat, named at the edge by its player's display name (with the seat's colour symbol)."""

    kind: Literal["who"] = "who"
    seat: int


class Items(Frozen):
    """Several arguments read as one list: "a, b and c" (``and``) or "a + b" (``plus``)."""

    kind: Literal["items"] = "items"
    items: tuple[Arg, ...]
    joiner: Literal["and", "or", "plus", "comma"] = "and"


class Say(Frozen):
    """A message id of ``domain``'s catalogue with its arguments.

    A word of the game's vocabulary (a card, a colour, a building) is a ``Say`` with a ``context`` and no
    arguments; a sentence with a count has a ``plural`` form and its ``count``.
    """

    kind: Literal["say"] = "say"
    domain: str
    text: str
    context: str | None = None
    plural: str | None = None
    count: int | None = None
    args: dict[str, Arg] = Field(default_factory=dict)

    def plain(self) -> str:
        """The sentence as its message id reads (English), seats as "#N": for logs and error messages."""
        template = self.plural if self.plural is not None and self.count != 1 else self.text
        if not self.args and self.count is None:
            return template
        values = {key: _plain(value) for key, value in self.args.items()}
        if self.count is not None:
            values.setdefault("count", str(self.count))
        return template.format(**values)


def _plain(value: Arg) -> str:
    if isinstance(value, Say):
        return value.plain()
    if isinstance(value, Who):
        return f"#{value.seat + 1}"
    if isinstance(value, Items):
        words = [_plain(item) for item in value.items]
        if value.joiner == "plus":
            return " + ".join(words)
        if value.joiner == "comma" or len(words) <= 1:
            return ", ".join(words)
        return f"{', '.join(words[:-1])} {value.joiner} {words[-1]}"
    return str(value)


Arg = Union[int, str, Annotated[Union[Say, Who, Items], Field(discriminator="kind")]]  # noqa: UP007

Items.model_rebuild()
Say.model_rebuild()

# The sentence of an event that people need not read: the events after it tell the same in full (a
# bid's notation line, say, followed by "Ann bids grey 5 (total 5)").
SILENT = Say(domain="", text="")


class Speaker:
    """Makes one game's sentences and words: ``say``, ``say_n``, ``word`` and the argument helpers."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def say(self, text: str, /, **args: Arg) -> Say:
        """The sentence ``text`` with its ``{placeholders}`` given as ``args``."""
        return Say(domain=self.domain, text=text, args=args)

    def say_n(self, singular: str, plural: str, count: int, /, **args: Arg) -> Say:
        """The form of ``singular``/``plural`` that ``count`` takes (``{count}`` is filled in)."""
        return Say(domain=self.domain, text=singular, plural=plural, count=count, args=args)

    def word(self, text: str, context: str, /) -> Say:
        """A word of the game (``context`` tells apart words that read the same: "card", "colour")."""
        return Say(domain=self.domain, text=text, context=context)


def who(seat: int) -> Who:
    return Who(seat=seat)


def items(values: Iterable[Arg], joiner: Literal["and", "or", "plus", "comma"] = "and") -> Items:
    return Items(items=tuple(values), joiner=joiner)


class Level(Frozen):
    """One level of a menu: ``key`` groups actions in component payloads, ``label`` is what people read."""

    key: str
    label: Say
