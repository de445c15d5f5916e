"""How a front end writes what is not words: a person, a thread, a moment, a link, a server, emphasis.
The host builds its texts with a front end's ``Marks``, so that a sentence reads the same in every front
end while a person is a mention on Discord and a plain name elsewhere."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal, Protocol

from babel.dates import format_date, format_datetime

from engine.host.ports import MatchRecord


class Dated:
    """Part of a refusal whose sentence names moments: ``moments`` holds them by the name of their
    argument, so that each reader's front end writes them its own way (``Marks.moment``, in full); the
    sentence itself holds them as plain dates, for logs and the command line."""

    moments: dict[str, datetime]


# How a moment is written: its date, how long ago it was, or its date and time.
Moment = Literal["date", "relative", "full", "time"]


class Marks(Protocol):
    def person(self, user_id: int) -> str:
        """A person, called by name (a mention)."""
        ...

    def thread(self, thread_id: int) -> str:
        """A match's thread, as a text names it."""
        ...

    def address(self, match: MatchRecord) -> str | None:
        """Where ``match``'s thread is, for a link (None: it has none)."""
        ...

    def post_address(self, guild_id: int | None, channel_id: int, message_id: int) -> str | None:
        """Where one post is, for a link (None: it has no address a reader can follow)."""

    def thread_address(self, guild_id: int, thread_id: int) -> str | None:
        """Where the thread ``thread_id`` of server ``guild_id`` is, for a link read outside the server
        (a private message); None when the front end has no such address."""
        ...

    def role(self, role_id: int) -> str:
        """A server's role, as a text names it."""
        ...

    def moment(self, when: datetime, style: Moment) -> str:
        """``when``, written the ``style`` way in the reader's own time where the front end can."""
        ...

    def server(self, guild_id: int) -> str | None:
        """The name of the server ``guild_id`` (None: unknown here)."""
        ...

    def linked(self, text: str, address: str) -> str:
        """``text`` leading to ``address``."""
        ...

    def strong(self, text: str) -> str:
        """``text`` set apart, as a heading or a title."""
        ...

    def text(self, text: str) -> str:
        """``text`` that came from people (a display name), made safe to show as it is."""
        ...


class PlainMarks:
    """Marks for plain text (the command line, logs, tests): people and threads by number, moments as
    dates."""

    def person(self, user_id: int) -> str:
        return f"@{user_id}"

    def thread(self, thread_id: int) -> str:
        return f"#{thread_id}"

    def address(self, match: MatchRecord) -> str | None:
        return None

    def post_address(self, guild_id: int | None, channel_id: int, message_id: int) -> str | None:
        return None

    def thread_address(self, guild_id: int, thread_id: int) -> str | None:
        return None

    def role(self, role_id: int) -> str:
        return f"@&{role_id}"

    def moment(self, when: datetime, style: Moment) -> str:
        if style == "time":
            return when.strftime("%H:%M")
        return when.date().isoformat() if style == "date" else when.isoformat(" ", "minutes")

    def server(self, guild_id: int) -> str | None:
        return None

    def linked(self, text: str, address: str) -> str:
        return f"{text} ({address})"

    def strong(self, text: str) -> str:
        return text

    def text(self, text: str) -> str:
        return text


class PageMarks(PlainMarks):
    """Marks for a page read in ``locale`` by someone whose time zone it does not know: moments as the
    language writes dates, in UTC, saying so."""

    def __init__(self, locale: str) -> None:
        self.locale = locale

    def moment(self, when: datetime, style: Moment) -> str:
        if style == "date":
            return format_date(when.astimezone(UTC).date(), "medium", locale=self.locale)
        if style == "time":
            return format_datetime(when, "HH:mm", tzinfo=UTC, locale=self.locale) + " UTC"
        return format_datetime(when, "EEE d MMM, HH:mm", tzinfo=UTC, locale=self.locale) + " UTC"
