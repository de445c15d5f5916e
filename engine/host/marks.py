"""How a front end writes what is not words: a person, a day, a place to go, emphasis. The host builds
its texts with a front end's ``Marks``, so that a sentence reads the same in every front end while a
person is a mention on Discord and a plain name elsewhere."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class Marks(Protocol):
    def person(self, user_id: int) -> str:
        """A person, by their account."""
        ...

    def day(self, at: datetime) -> str:
        """The day of ``at``, shown in the reader's own time zone where the front end can."""
        ...

    def place(self, thread_id: int) -> str:
        """A link to the thread (or page) of a match."""
        ...

    def strong(self, text: str) -> str:
        """``text`` set apart, as a heading or a title."""
        ...

    def text(self, text: str) -> str:
        """``text`` that came from people (a display name), made safe to show as it is."""
        ...


class PlainMarks:
    """Marks for plain text (the command line, logs, tests): people by number, days as dates."""

    def person(self, user_id: int) -> str:
        return f"@{user_id}"

    def day(self, at: datetime) -> str:
        return at.date().isoformat()

    def place(self, thread_id: int) -> str:
        return f"#{thread_id}"

    def strong(self, text: str) -> str:
        return text

    def text(self, text: str) -> str:
        return text
