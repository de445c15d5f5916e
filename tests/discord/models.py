"""The fake Discord's world: users, guilds, channels, messages, interactions and the request log.

Each model knows how to render itself as the JSON payload discord.py parses.  The shapes follow what
discord.py 2.7 reads (see the project's notes on the fake), not Discord's full schema.
"""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from tests.discord.fake import FakeDiscord

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
TEXT_CHANNEL = 0
DM_CHANNEL = 1
CATEGORY_CHANNEL = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({PUBLIC_THREAD, PRIVATE_THREAD})

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Component types that a user can interact with.
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})

ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
# What @everyone gets in a fresh server: enough to chat, use commands and threads, nothing to moderate.
DEFAULT_EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_application_commands=True,
    use_external_emojis=True,
    change_nickname=True,
    create_instant_invite=True,
    connect=True,
    speak=True,
).value


class BotFailure(AssertionError):
    """The bot under test failed: a logged ERROR, a crashed task or connect task, or a fake-side error."""


class FakeTimeout(AssertionError):
    """A bounded wait on the fake ran out before its condition held."""


class NotInvokable(Exception):
    """Discord would not deliver this interaction (unknown command, bad options, missing permissions...)."""


class ApiError(Exception):
    """Raised by a route handler to answer with a Discord-style JSON error."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


def iso_now() -> str:
    """The current time as the ISO-8601 string Discord uses."""
    return datetime.now(UTC).isoformat()


class SnowflakeFactory:
    """Makes unique, strictly increasing snowflakes that encode the current time.

    discord.py derives ``created_at`` from ids and picks delete rate-limit buckets by message age, so the
    ids must look real; the increment keeps them unique when several are made in the same millisecond.
    """

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


# --------------------------------------------------------------------------- people and places


@dataclass(eq=False)
class FakeUser:
    """A Discord user.  ``dms_open=False`` makes DM sends to this user fail with 403 / 50007."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    # The language of the user's Discord client, sent with each of their interactions.
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; the @everyone role shares the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership in one guild."""

    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeGuild:
    """A guild with its roles, channels and members."""

    id: int
    name: str
    owner: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    # What Discord sends as ``guild_locale`` (a community server's chosen language; "en-US" otherwise).
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        return self.roles[0]

    def role(self, name: str) -> FakeRole:
        """The role called ``name``."""
        for role in self.roles:
            if role.name == name:
                return role
        raise KeyError(f"no role {name!r} in guild {self.name!r}")

    def channel(self, name: str) -> FakeChannel:
        """The channel or thread called ``name``."""
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(f"no channel {name!r} in guild {self.name!r}")

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels if c.type == TEXT_CHANNEL]

    @property
    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels if c.type in THREAD_TYPES]

    def member(self, user: FakeUser) -> FakeMember | None:
        return self.members.get(user.id)

    def permissions_for(self, user: FakeUser) -> int:
        """The member's guild-wide permissions as Discord computes them (owner and admins get all)."""
        member = self.members.get(user.id)
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        value = self.everyone.permissions
        if member is not None:
            for role in member.roles:
                value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value


@dataclass(eq=False)
class FakeChannel:
    """A text channel, a thread, or a DM channel, with its message history."""

    id: int
    type: int
    name: str | None = None
    guild: FakeGuild | None = None
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipients: list[FakeUser] = field(default_factory=list)
    topic: str | None = None
    messages: list[FakeMessage] = field(default_factory=list)
    deleted_messages: list[FakeMessage] = field(default_factory=list)
    # Thread-only state.
    auto_archive_duration: int = 1440
    invitable: bool = True
    archived: bool = False
    locked: bool = False
    created_at: str = field(default_factory=iso_now)
    thread_member_ids: set[int] = field(default_factory=set)
    total_message_sent: int = 0
    # Permission overwrites as Discord sends them ({"id", "type": 0 role / 1 member, "allow", "deny"}).
    permission_overwrites: list[JSON] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def last_message_id(self) -> str | None:
        return str(self.messages[-1].id) if self.messages else None

    def thread_metadata(self) -> JSON:
        return {
            "archived": self.archived,
            "auto_archive_duration": self.auto_archive_duration,
            "archive_timestamp": self.created_at,
            "locked": self.locked,
            "invitable": self.invitable,
            "create_timestamp": self.created_at,
        }

    def payload(self, *, bot_id: int | None = None) -> JSON:
        """The channel object; for threads ``bot_id`` adds the bot's thread-member entry when it joined."""
        if self.is_dm:
            return {
                "id": str(self.id),
                "type": DM_CHANNEL,
                "last_message_id": self.last_message_id,
                "recipients": [user.payload() for user in self.recipients],
                "flags": 0,
            }
        assert self.guild is not None
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": self.last_message_id,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=len(self.messages),
                member_count=len(self.thread_member_ids),
                total_message_sent=self.total_message_sent,
                thread_metadata=self.thread_metadata(),
            )
            if bot_id is not None and bot_id in self.thread_member_ids:
                data["member"] = {
                    "id": str(self.id),
                    "user_id": str(bot_id),
                    "join_timestamp": self.created_at,
                    "flags": 0,
                }
        else:
            data.update(topic=self.topic, nsfw=False, permission_overwrites=list(self.permission_overwrites))
        return data

    def __repr__(self) -> str:
        return f"<FakeChannel id={self.id} type={self.type} name={self.name!r}>"


# --------------------------------------------------------------------------- messages


def png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, read from its IHDR chunk; None when ``data`` is not a PNG."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    return None


@dataclass(eq=False)
class FakeAttachment:
    """An uploaded file; ``data`` holds its bytes, ``url`` serves them over loopback."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "ephemeral": self.ephemeral,
        }
        if self.description is not None:
            data["description"] = self.description
        if (dimensions := png_size(self.data)) is not None:
            data["width"], data["height"] = dimensions
        return data


def walk_components(components: Sequence[JSON]) -> Iterator[JSON]:
    """Every component in a message or modal tree, depth first (rows, containers, sections, labels)."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


@dataclass(eq=False)
class FakeMessage:
    """A message as stored by the fake.

    It is live: edits update it in place and push the previous payload onto ``revisions``.
    """

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    nonce: str | int | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction: FakeInteraction | None = None
    message_reference: JSON | None = None
    thread: FakeChannel | None = None
    deleted: bool = False
    revisions: list[JSON] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "thinking" message nobody has filled in yet."""
        return bool(self.flags & LOADING)

    @property
    def guild(self) -> FakeGuild | None:
        return self.channel.guild

    @property
    def system(self) -> bool:
        """True for Discord's own notices (e.g. type 18 "started a thread"), False for posts and replies."""
        return self.type not in (0, 19, 20)

    def iter_components(self) -> Iterator[JSON]:
        return walk_components(self.components)

    def component(self, custom_id: str) -> JSON | None:
        """The component with this ``custom_id``, or None."""
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in self.iter_components() if c.get("type") == BUTTON]

    @property
    def links(self) -> list[JSON]:
        """The link buttons (style 5): each opens its ``url`` and sends the bot nothing."""
        return [b for b in self.buttons if b.get("style") == 5]

    @property
    def selects(self) -> list[JSON]:
        return [c for c in self.iter_components() if c.get("type") in SELECT_TYPES]

    def text(self) -> str:
        """Content plus embed titles, descriptions, fields and footers: handy for ``in`` checks."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            for embed_field in embed.get("fields") or []:
                parts += [embed_field.get("name", ""), embed_field.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        for component in self.iter_components():
            if component.get("type") == 10:  # components v2 text display
                parts.append(component.get("content", ""))
        return "\n".join(p for p in parts if p)

    def attachment(self, filename: str) -> FakeAttachment:
        """The attachment called ``filename``."""
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        names = [a.filename for a in self.attachments]
        raise KeyError(f"message {self.id} has no attachment {filename!r} (it has {names})")

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "content": self.content,
            "author": self.author.payload(),
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction.id),
                "type": self.interaction.type,
                "user": self.interaction.user.payload(),
                "authorizing_integration_owners": {},
            }
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        return data

    def __repr__(self) -> str:
        return (
            f"<FakeMessage id={self.id} channel={self.channel.id} author={self.author.username!r}"
            f" content={self.content!r}>"
        )


@dataclass(eq=False)
class FakeModal:
    """A modal the bot opened (callback type 9)."""

    custom_id: str
    title: str
    components: list[JSON]
    source: FakeInteraction | None = None  # the interaction the bot answered with this modal

    @property
    def inputs(self) -> list[JSON]:
        """The modal's fields a user can fill (text inputs and selects)."""
        return [c for c in walk_components(self.components) if c.get("type") in SELECT_TYPES | {TEXT_INPUT}]


# --------------------------------------------------------------------------- requests


@dataclass
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class RecordedRequest:
    """One REST request the client made and what the fake answered."""

    method: str
    route: str  # the matched template, e.g. "/channels/{channel_id}/messages" (no /api/v10 prefix)
    path: str
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[Upload]
    status: int = 0
    response: Any = None
    injected: bool = False

    def param(self, name: str) -> int:
        """A path parameter as an int (ids)."""
        return int(self.params[name])


@dataclass
class Injection:
    """A pending failure: the next ``remaining`` requests matching method, route and params get ``status``."""

    method: str
    route: str
    params: dict[str, str]
    status: int
    code: int
    message: str
    remaining: int
    retry_after: float
    hits: list[RecordedRequest] = field(default_factory=list)

    def matches(self, method: str, route: str, params: dict[str, str]) -> bool:
        return (
            self.remaining > 0
            and self.method == method
            and self.route == route
            and all(params.get(k) == v for k, v in self.params.items())
        )


@dataclass
class Hold:
    """Requests matching method, route and params that the fake keeps unanswered until ``release``: a
    slow Discord (or a slow network) for those requests only."""

    method: str
    route: str
    params: dict[str, str]
    released: asyncio.Event = field(default_factory=asyncio.Event)
    hits: list[RecordedRequest] = field(default_factory=list)

    def matches(self, method: str, route: str, params: dict[str, str]) -> bool:
        return (
            not self.released.is_set()
            and self.method == method
            and self.route == route
            and all(params.get(k) == v for k, v in self.params.items())
        )

    def release(self) -> None:
        self.released.set()


# --------------------------------------------------------------------------- interactions


@dataclass
class InteractionEvent:
    """Something the bot did in answer to an interaction."""

    kind: str  # "callback", "followup", "edit", "delete"
    callback_type: int | None = None
    message: FakeMessage | None = None


@dataclass(eq=False)
class FakeInteraction:
    """Handle for an injected interaction: await the bot's answers on it.

    ``response()`` is the answer a user sees: the message a type 4/7 callback created or updated, or, after a
    type 5/6 deferral, that message once the bot filled it in (edit of @original or first followup).
    """

    fake: FakeDiscord
    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    data: JSON
    message: FakeMessage | None = None  # the message a component / modal submit came from
    created: float = field(default_factory=time.monotonic)
    callback_type: int | None = None
    callback_data: JSON | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    events: list[InteractionEvent] = field(default_factory=list)
    choices_sent: list[JSON] | None = None
    modal_sent: FakeModal | None = None
    answer: FakeMessage | None = None  # the message a user sees as the answer (see response())

    @property
    def guild(self) -> FakeGuild | None:
        return self.channel.guild

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral

    async def wait_until(
        self, check: Callable[[FakeInteraction], Any], *, timeout: float = 3.0, what: str = ""
    ) -> Any:
        """Wait until ``check(self)`` returns something truthy, and return it."""
        return await self.fake.wait_until(
            lambda: check(self), timeout=timeout, what=what or f"interaction {self.id}"
        )

    async def callback(self, *, timeout: float = 3.0) -> InteractionEvent:
        """The bot's initial callback (type 4, 5, 6, 7, 8 or 9)."""
        return await self.wait_until(
            lambda ix: next((e for e in ix.events if e.kind == "callback"), None),
            timeout=timeout,
            what=f"the callback to {self.describe()}",
        )

    async def response(self, *, timeout: float = 3.0) -> FakeMessage:
        """The message answering this interaction, once it has content (see the class docstring)."""
        event = await self.callback(timeout=timeout)
        if event.callback_type in (AUTOCOMPLETE_RESULT, MODAL):
            raise AssertionError(
                f"{self.describe()} was answered with callback type {event.callback_type}; "
                "use choices() or modal() instead of response()"
            )
        return await self.wait_until(
            lambda ix: ix.answer,
            timeout=timeout,
            what=f"the response to {self.describe()}",
        )

    async def followup(self, index: int = 0, *, timeout: float = 3.0) -> FakeMessage:
        """The ``index``-th followup message (the first one after a defer also fills the original)."""
        return await self.wait_until(
            lambda ix: ix.followups[index] if len(ix.followups) > index else None,
            timeout=timeout,
            what=f"followup #{index} to {self.describe()}",
        )

    async def choices(self, *, timeout: float = 3.0) -> list[JSON]:
        """The autocomplete choices (callback type 8), each ``{"name": ..., "value": ...}``."""
        await self.callback(timeout=timeout)
        if self.choices_sent is None:
            raise AssertionError(f"{self.describe()} was not answered with autocomplete choices")
        return self.choices_sent

    async def modal(self, *, timeout: float = 3.0) -> FakeModal:
        """The modal the bot opened (callback type 9)."""
        await self.callback(timeout=timeout)
        if self.modal_sent is None:
            raise AssertionError(f"{self.describe()} was not answered with a modal")
        return self.modal_sent

    def describe(self) -> str:
        name = self.data.get("name") or self.data.get("custom_id") or "?"
        return f"interaction {self.id} (type {self.type}, {name!r}, by {self.user.username})"
