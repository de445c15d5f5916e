"""What the host gives a front end to show, and the one port through which everything the bot says on its
own accord goes out.

A message is an ``Outgoing``: its text (already in the reader's language), the controls under it, an
image, whom it calls and whether it should make a sound. A control says what pressing it does by its
``address`` ("play:12:34": the Play button of match 12 at move 34); every front end shows and routes
the same addresses (see ``engine.host.controls``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from engine.host.ports import MatchRecord

Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class Option:
    """One entry of a select: what it reads, the value it sends, a line under it, and whether it is
    the one chosen now."""

    label: str
    value: str
    about: str | None = None
    chosen: bool = False


@dataclass(frozen=True, slots=True)
class Control:
    """A button (``options`` None), a select of ``options`` (``least`` to ``most`` of them chosen), or,
    with ``url``, a link that leaves for another page."""

    address: str
    label: str | None = None
    emoji: str | None = None
    style: Style = "secondary"
    row: int | None = None
    disabled: bool = False
    options: tuple[Option, ...] | None = None
    placeholder: str | None = None
    least: int = 1
    most: int = 1
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message: ``mentions`` are the people it calls (by user id), ``nonce`` makes a retried send
    the same message, ``silent`` sends it without a sound."""

    text: str
    controls: tuple[Control, ...] = ()
    image: bytes | None = None
    filename: str = "board.png"
    mentions: tuple[int, ...] = ()
    silent: bool = False
    nonce: str | None = None


@dataclass(frozen=True, slots=True)
class Sent:
    """Where a message went: the channel (thread, direct messages) and the message."""

    channel_id: int
    message_id: int


class Refused(Exception):
    """A send that will not work if tried again (closed direct messages, a channel gone or closed)."""

    def __init__(self, reason: object = None, gone: bool = False) -> None:
        super().__init__(str(reason) if reason is not None else "refused")
        self.gone = gone


class TryLater(Exception):
    """A send that failed for now (the service busy or unreachable)."""


class Sender(Protocol):
    """Sends messages for the host: ``Refused`` or ``TryLater`` when it cannot."""

    async def to_channel(self, channel_id: int, message: Outgoing) -> Sent:
        """Post ``message`` in a channel or thread."""
        ...

    async def to_person(self, user_id: int, message: Outgoing) -> Sent:
        """Send ``message`` to one person, privately."""
        ...

    async def to_match(self, match: MatchRecord, message: Outgoing) -> Sent:
        """Post ``message`` in the match's thread (opened on first use) or channel."""
        ...

    async def edit(self, where: Sent, message: Outgoing) -> None:
        """Show ``message`` instead of the message sent ``where``: its text and controls (none when it has
        none), its image only when it has one (else the image stays)."""
        ...
