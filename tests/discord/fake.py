"""A local fake Discord: REST and gateway on 127.0.0.1 for the real, unmodified discord.py client.

``FakeDiscord.start()`` serves the API on a random loopback port and points discord.py at it by patching
``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``; ``stop()`` restores
both.  Tests inject interactions (``slash``, ``click``, ``select``, ``autocomplete``, ``submit_modal``), then
read what the bot did from the per-channel message store, the interaction handles and the request log.

Only one fake can be active per process, because the two patched attributes are global.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import mimetypes
import re
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar
from urllib.parse import quote

import discord
import yarl
from aiohttp import WSMsgType, web

from tests.discord.forms import form_parts, media_type
from tests.discord.models import (
    ADMINISTRATOR,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    BUTTON,
    CHANNEL_MESSAGE,
    DEFAULT_EVERYONE_PERMISSIONS,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    DM_CHANNEL,
    EPHEMERAL,
    JSON,
    LOADING,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_CHANNEL,
    TEXT_INPUT,
    UPDATE_MESSAGE,
    ApiError,
    BotFailure,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeModal,
    FakeRole,
    FakeTimeout,
    FakeUser,
    Hold,
    Injection,
    InteractionEvent,
    NotInvokable,
    RecordedRequest,
    SnowflakeFactory,
    Upload,
    iso_now,
)
from tests.discord.validation import command_problem, message_problem

__all__ = [
    "BotFailure",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMessage",
    "FakeModal",
    "FakeRole",
    "FakeTimeout",
    "FakeUser",
    "NotInvokable",
    "RecordedRequest",
]

T = TypeVar("T")

API_PREFIX = "/api/v10"
# A form field that carries an attachment: files[n].
_FILE_FIELD = re.compile(r"files\[(\d+)\]")

# Gateway intent bits the fake honours when deciding which events to send.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# What the bot's own managed role may do: chat, manage its threads and messages; deliberately not admin.
BOT_ROLE_PERMISSIONS = (
    DEFAULT_EVERYONE_PERMISSIONS
    | discord.Permissions(manage_messages=True, manage_threads=True, create_private_threads=True).value
)

Handler = Callable[[RecordedRequest], Awaitable[Any]]


@dataclass
class _Route:
    method: str
    template: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool


@dataclass(eq=False)
class _GatewaySession:
    """One gateway connection; the lock keeps sequence numbers and frames in order."""

    ws: web.WebSocketResponse
    session_id: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    seq: int = 0
    intents: int = 0
    identified: bool = False
    # [shard_id, shard_count] from IDENTIFY; None: unsharded (every guild).
    shard: tuple[int, int] | None = None

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id`` (None: direct messages, which
        go to shard 0): guild ``g`` is on shard ``(g >> 22) % shard_count``."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id


def _compile(template: str) -> re.Pattern[str]:
    regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
    return re.compile(f"^{regex}$")


def _json_response(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    # discord.py only decodes JSON when the content type is exactly "application/json"; aiohttp's
    # json_response would append "; charset=utf-8", so the header is set by hand.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class FakeDiscord:
    """An in-process fake of Discord's REST API and gateway, on loopback.

    The default world (``default_world=True``) has one guild, ``guild``, with text channels ``general``
    and ``games``; the owner ``owner``; normal members ``alice`` and ``bob``; and ``admin``, who holds the
    Admin role (administrator).  ``alice`` is the default user for injected interactions.
    """

    _active: ClassVar[FakeDiscord | None] = None

    guild: FakeGuild
    general: FakeChannel
    games: FakeChannel
    owner: FakeUser
    alice: FakeUser
    bob: FakeUser
    admin: FakeUser

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        default_world: bool = True,
        require_synced: bool = True,
        ack_deadline: float = 3.0,
        heartbeat_interval_ms: int = 41250,
        attachment_size_limit: int = 10 * 1024 * 1024,
        token_lifetime: float = 15 * 60,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Build the fake's world; nothing listens until ``start()``.

        ``require_synced``: injected slash commands must match a command the bot registered (as on Discord),
        which also gives option types, ``guild_id`` for guild commands and permission checks.
        ``ack_deadline``: a callback later than this many seconds gets 404 / 10062 Unknown interaction.
        ``token_lifetime``: a followup (or an edit of its messages) later than this many seconds after
        the interaction gets 401 / 50027 Invalid Webhook Token, as Discord's 15 minutes. ``clock`` tells
        the seconds both are measured on (a test moves it on instead of waiting).
        """
        self.token = token
        self.require_synced = require_synced
        self.ack_deadline = ack_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.attachment_size_limit = attachment_size_limit
        self.token_lifetime = token_lifetime
        self.clock = clock
        self.snowflake = SnowflakeFactory()

        self.bot_user = FakeUser(self.snowflake(), "FakeBot", bot=True)
        # Modern applications share their id with their bot user.
        self.application_id = self.bot_user.id
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: list[FakeGuild] = []
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # recipient user id -> DM channel
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.commands: dict[int | None, list[JSON]] = {}  # None = global scope, else guild id
        self._command_ids: dict[tuple[int | None, str, int], int] = {}

        self.requests: list[RecordedRequest] = []
        self.unhandled: list[RecordedRequest] = []
        self.injections: list[Injection] = []
        self.holds: list[Hold] = []
        self.failures: list[str] = []
        self.identify_payloads: list[JSON] = []
        self.resume_payloads: list[JSON] = []
        self.sessions: list[_GatewaySession] = []
        # The shard each session identified with, by session id, so a RESUME gets the same shard.
        self._shards: dict[str, tuple[int, int] | None] = {}
        self.dispatched: list[tuple[str, JSON]] = []

        self._routes: list[_Route] = []
        self._register_routes()
        self._changed_event: asyncio.Event | None = None
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self.port = 0

        self.app_owner = FakeUser(self.snowflake(), "owner")
        if default_world:
            self.owner = self.app_owner
            self.users[self.owner.id] = self.owner
            self.guild = self.add_guild("Fake Guild", owner=self.owner, channels=("general", "games"))
            self.general = self.guild.channel("general")
            self.games = self.guild.channel("games")
            self.alice = self.add_user("alice")
            self.bob = self.add_user("bob")
            self.admin = self.add_user("admin", admin=True)

    # ------------------------------------------------------------------ world building

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def default_user(self) -> FakeUser:
        """The user injected interactions come from when none is given (``alice`` in the default world)."""
        try:
            return self.alice
        except AttributeError:
            raise ValueError("no default user in this world: pass user=...") from None

    def add_user(
        self,
        username: str,
        *,
        guild: FakeGuild | bool | None = True,
        admin: bool = False,
        roles: Sequence[FakeRole] = (),
        dms_open: bool = True,
        bot: bool = False,
    ) -> FakeUser:
        """Create a user; by default a member of the first guild.  ``admin=True`` adds the Admin role."""
        user = FakeUser(self.snowflake(), username, global_name=username.title(), bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        target = self.guilds[0] if guild is True and self.guilds else guild or None
        if isinstance(target, FakeGuild):
            member_roles = list(roles) + ([target.role("Admin")] if admin else [])
            target.members[user.id] = FakeMember(user, member_roles)
        return user

    def add_guild(self, name: str, *, owner: FakeUser, channels: Sequence[str] = ("general",)) -> FakeGuild:
        """Create a guild with @everyone, an Admin role, the given text channels, its owner and the bot.

        Add guilds before the bot connects: they are announced in the IDENTIFY answer.
        """
        guild_id = self.snowflake()
        guild = FakeGuild(guild_id, name, owner)
        guild.roles = [
            FakeRole(guild_id, "@everyone", DEFAULT_EVERYONE_PERMISSIONS, 0),
            FakeRole(self.snowflake(), "Admin", ADMINISTRATOR, 2),
            FakeRole(self.snowflake(), self.bot_user.username, BOT_ROLE_PERMISSIONS, 1),
        ]
        self.users.setdefault(owner.id, owner)
        guild.members[owner.id] = FakeMember(owner)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, [guild.role(self.bot_user.username)])
        self.guilds.append(guild)
        for position, channel_name in enumerate(channels):
            self.add_channel(guild, channel_name, position=position)
        return guild

    def add_channel(self, guild: FakeGuild, name: str, *, position: int | None = None) -> FakeChannel:
        """Create a text channel in ``guild`` (before the bot connects)."""
        channel = FakeChannel(
            self.snowflake(),
            TEXT_CHANNEL,
            name=name,
            guild=guild,
            position=len(guild.channels) if position is None else position,
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def close_dms(self, user: FakeUser, closed: bool = True) -> None:
        """Make DM sends to ``user`` fail with 403 / 50007 "Cannot send messages to this user"."""
        user.dms_open = not closed

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (one per user, created on first use)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.snowflake(), DM_CHANNEL, recipients=[user])
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        """Messages in the bot's DM channel with ``user``, oldest first."""
        channel = self.dm_channels.get(user.id)
        return list(channel.messages) if channel else []

    async def delete_channel(self, channel: FakeChannel) -> None:
        """Delete a text channel (with its threads) or a thread, as a moderator would: later requests to
        it get 404 / 10003 Unknown Channel, and the bot receives CHANNEL_DELETE or THREAD_DELETE."""
        guild = channel.guild
        assert guild is not None, "only guild channels and threads can be deleted"
        doomed = [channel] if channel.is_thread else [*self.threads(channel), channel]
        for gone in doomed:
            self.channels.pop(gone.id, None)
            if gone in guild.channels:
                guild.channels.remove(gone)
            if gone.is_thread:
                payload: JSON = {
                    "id": str(gone.id),
                    "guild_id": str(guild.id),
                    "parent_id": str(gone.parent_id),
                    "type": gone.type,
                }
                await self.dispatch("THREAD_DELETE", payload, INTENT_GUILDS)
            else:
                await self.dispatch("CHANNEL_DELETE", gone.payload(bot_id=self.bot_user.id), INTENT_GUILDS)
        self._changed()

    async def deny_bot(self, channel: FakeChannel, permissions: discord.Permissions) -> None:
        """Add a member overwrite on ``channel`` that denies the bot ``permissions`` (as a moderator
        editing the channel would), and send the bot the CHANNEL_UPDATE. Requests that need a denied
        permission then get 403: 50001 Missing Access without View Channel, else 50013 Missing
        Permissions. Threads follow their parent's overwrites."""
        assert not channel.is_thread and channel.guild is not None, "overwrites live on guild channels"
        overwrite = next(
            (o for o in channel.permission_overwrites if o["id"] == str(self.bot_user.id)),
            None,
        )
        if overwrite is None:
            overwrite = {"id": str(self.bot_user.id), "type": 1, "allow": "0", "deny": "0"}
            channel.permission_overwrites.append(overwrite)
        overwrite["deny"] = str(int(overwrite["deny"]) | permissions.value)
        await self.dispatch("CHANNEL_UPDATE", channel.payload(bot_id=self.bot_user.id), INTENT_GUILDS)
        self._changed()

    def _require(self, channel: FakeChannel, needed: discord.Permissions) -> None:
        """Raise Discord's 403 when an overwrite on ``channel`` (or a thread's parent) denies the bot
        one of ``needed`` or View Channel."""
        holder = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        if holder is None or holder.is_dm:
            return
        denied = 0
        for overwrite in holder.permission_overwrites:
            if overwrite["id"] == str(self.bot_user.id):
                denied |= int(overwrite["deny"])
        if denied & discord.Permissions(view_channel=True).value:
            raise ApiError(403, 50001, "Missing Access")
        if denied & needed.value:
            raise ApiError(403, 50013, "Missing Permissions")

    def threads(self, parent: FakeChannel | None = None) -> list[FakeChannel]:
        """Threads, optionally only those under ``parent``."""
        return [
            c for c in self.channels.values() if c.is_thread and (parent is None or c.parent_id == parent.id)
        ]

    # ------------------------------------------------------------------ error injection

    def fail_next(
        self,
        method: str,
        route: str,
        *,
        status: int = 500,
        code: int = 0,
        message: str | None = None,
        times: int = 1,
        retry_after: float = 0.01,
        **params: int | str,
    ) -> Injection:
        """Make the next ``times`` requests matching ``method`` + ``route`` fail with ``status``.

        ``route`` is a template as in the request log, e.g. ``"/channels/{channel_id}/messages"``;
        keyword ``params`` narrow it (``channel_id=fake.general.id``).  Note that discord.py retries
        500/502/504/524 after sleeping 1 s, 3 s, ... (up to 5 tries), and retries 429 after ``retry_after``
        (the fake sends ``Via`` so it is not taken for a Cloudflare ban); other statuses raise at once.
        """
        if not any(r.template == route and r.method == method.upper() for r in self._routes):
            raise ValueError(f"no fake route {method.upper()} {route}")
        injection = Injection(
            method=method.upper(),
            route=route,
            params={k: str(v) for k, v in params.items()},
            status=status,
            code=code,
            message=message or f"{status}: injected failure",
            remaining=times,
            retry_after=retry_after,
        )
        self.injections.append(injection)
        return injection

    def hold(self, method: str, route: str, **params: int | str) -> Hold:
        """Keep the requests matching ``method`` + ``route`` (and ``params``, as ``fail_next``) waiting for
        their answer until the returned hold is released; they are then answered as usual."""
        if not any(r.template == route and r.method == method.upper() for r in self._routes):
            raise ValueError(f"no fake route {method.upper()} {route}")
        held = Hold(method=method.upper(), route=route, params={k: str(v) for k, v in params.items()})
        self.holds.append(held)
        return held

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen on a random loopback port and point discord.py at it."""
        if FakeDiscord._active is not None:
            raise RuntimeError("another FakeDiscord is active; the patched discord.py attributes are global")
        self._changed_event = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._api)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.base_url + API_PREFIX
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")
        FakeDiscord._active = self

    async def stop(self) -> None:
        """Close gateway sessions, stop serving and restore discord.py's endpoints."""
        for held in self.holds:
            held.release()  # a request still held is answered, so serving can stop
        try:
            for session in list(self.sessions):
                await session.ws.close(code=1001, message=b"fake discord stopping")
            if self._runner is not None:
                await self._runner.cleanup()
        finally:
            if self._saved is not None:
                discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
                self._saved = None
            if FakeDiscord._active is self:
                FakeDiscord._active = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def connected(self) -> bool:
        """True when a client has identified on the gateway."""
        return any(s.identified and not s.ws.closed for s in self.sessions)

    # ------------------------------------------------------------------ waiting and failures

    def _changed(self) -> None:
        # Wake every waiter; each re-checks its own condition.
        if self._changed_event is not None:
            self._changed_event.set()
            self._changed_event = asyncio.Event()

    def report_failure(self, description: str) -> None:
        """Record that the bot (or the fake) failed; pending and future waits raise ``BotFailure``."""
        self.failures.append(description)
        self._changed()

    def raise_failures(self) -> None:
        """Raise ``BotFailure`` if any failure was reported."""
        if self.failures:
            raise BotFailure("\n\n".join(self.failures))

    async def wait_until(
        self, check: Callable[[], T | None], *, timeout: float = 3.0, what: str = "a condition"
    ) -> T:
        """Wait until ``check()`` returns something truthy, and return it.

        Raises ``BotFailure`` as soon as a failure is reported and ``FakeTimeout`` after ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self.raise_failures()
            result = check()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = (
                    "\n".join(f"  {r.method} {r.path} -> {r.status}" for r in self.requests[-8:])
                    or "  (no requests)"
                )
                raise FakeTimeout(f"timed out after {timeout}s waiting for {what}; last requests:\n{recent}")
            event = self._changed_event
            assert event is not None, "FakeDiscord.start() was not called"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    async def wait_for(
        self, predicate: Callable[[RecordedRequest], bool], *, timeout: float = 3.0
    ) -> RecordedRequest:
        """The first logged request (past or future) for which ``predicate`` is true."""
        return await self.wait_until(
            lambda: next((r for r in self.requests if predicate(r)), None),
            timeout=timeout,
            what="a matching request",
        )

    def requests_to(self, method: str, route: str) -> list[RecordedRequest]:
        """Logged requests with this method and route template."""
        return [r for r in self.requests if r.method == method.upper() and r.route == route]

    async def wait_for_message(
        self,
        channel: FakeChannel | None = None,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        timeout: float = 3.0,
    ) -> FakeMessage:
        """The first live, non-ephemeral message (in ``channel`` if given) matching ``predicate``."""

        def check() -> FakeMessage | None:
            pool = channel.messages if channel else [m for m in self.messages.values() if not m.deleted]
            return next((m for m in pool if not m.ephemeral and (predicate is None or predicate(m))), None)

        where = f"channel {channel.name or channel.id}" if channel else "any channel"
        return await self.wait_until(check, timeout=timeout, what=f"a message in {where}")

    async def wait_for_dm(
        self, user: FakeUser, predicate: Callable[[FakeMessage], bool] | None = None, *, timeout: float = 3.0
    ) -> FakeMessage:
        """The first DM to ``user`` matching ``predicate``."""
        return await self.wait_until(
            lambda: next((m for m in self.dm_messages(user) if predicate is None or predicate(m)), None),
            timeout=timeout,
            what=f"a DM to {user.username}",
        )

    async def wait_for_thread(
        self, parent: FakeChannel | None = None, *, name: str | None = None, timeout: float = 3.0
    ) -> FakeChannel:
        """The first thread (under ``parent``, called ``name``) the bot created."""
        return await self.wait_until(
            lambda: next((t for t in self.threads(parent) if name is None or t.name == name), None),
            timeout=timeout,
            what=f"a thread named {name!r}" if name else "a thread",
        )

    async def wait_connected(self, *, timeout: float = 3.0) -> None:
        """Wait until a client has identified on the gateway."""
        await self.wait_until(lambda: self.connected, timeout=timeout, what="a gateway IDENTIFY")

    # ------------------------------------------------------------------ HTTP plumbing

    def _register_routes(self) -> None:
        table: list[tuple[str, str, Handler, bool]] = [
            ("GET", "/users/{user_id}", self._get_user, True),
            ("POST", "/users/@me/channels", self._create_dm, True),
            ("GET", "/oauth2/applications/@me", self._application_info, True),
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("GET", "/applications/{application_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{application_id}/commands", self._put_commands, True),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands, True),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback, False),
            ("POST", "/webhooks/{application_id}/{token}", self._followup, False),
            (
                "GET",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._get_webhook_message,
                False,
            ),
            (
                "PATCH",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._edit_webhook_message,
                False,
            ),
            (
                "DELETE",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self._delete_webhook_message,
                False,
            ),
            ("GET", "/channels/{channel_id}", self._get_channel, True),
            ("GET", "/channels/{channel_id}/messages", self._history, True),
            ("POST", "/channels/{channel_id}/messages", self._post_message, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message_route, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message_route, True),
            ("POST", "/channels/{channel_id}/typing", self._typing, True),
            ("POST", "/channels/{channel_id}/threads", self._start_thread, True),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._start_thread_from_message,
                True,
            ),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self._add_thread_member, True),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self._remove_thread_member, True),
            ("GET", "/guilds/{guild_id}", self._get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member, True),
        ]
        for method, template, handler, auth in table:
            self._routes.append(_Route(method, template, _compile(template), handler, auth))

    def _resolve(self, method: str, path: str) -> tuple[_Route | None, dict[str, str]]:
        for route in self._routes:
            if route.method == method and (match := route.pattern.match(path)):
                return route, match.groupdict()
        return None, {}

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Upload]]:
        """Parse a JSON body, or a multipart body's ``payload_json`` and ``files[n]`` parts."""
        files: list[Upload] = []
        raw = await request.read()
        kind, parameters = media_type(request.headers.get("Content-Type"))
        if kind == "multipart/form-data":
            payload: Any = None
            for part in form_parts(raw, parameters.get("boundary", "")):
                if part.name == "payload_json":
                    payload = json.loads(part.data)
                elif part.name and (match := _FILE_FIELD.fullmatch(part.name)):
                    files.append(Upload(int(match[1]), part.filename or "file", part.data, part.content_type))
            return payload, files
        return (json.loads(raw) if raw else None), files

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        route, params = self._resolve(request.method, path)
        rec = RecordedRequest(
            method=request.method,
            route=route.template if route else path,
            path=path,
            params=params,
            query=dict(request.query),
            json=body,
            files=files,
        )
        headers: dict[str, str] = {}
        try:
            if route is None:
                self.unhandled.append(rec)
                self.report_failure(f"the fake does not implement {request.method} {path} (body: {body!r})")
                raise ApiError(404, 0, "404: Not Found (route not implemented by the fake)")
            if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            held = next((h for h in self.holds if h.matches(rec.method, rec.route, params)), None)
            if held is not None:
                held.hits.append(rec)
                self._changed()
                await held.released.wait()
            injection = next((i for i in self.injections if i.matches(rec.method, rec.route, params)), None)
            if injection is not None:
                injection.remaining -= 1
                injection.hits.append(rec)
                rec.injected = True
                if injection.status == 429:
                    # With "Via" discord.py treats the 429 as Discord's own and retries after retry_after.
                    headers = {"Via": "1.1 google", "Retry-After": str(injection.retry_after)}
                    raise ApiError(429, injection.code, injection.message)
                raise ApiError(injection.status, injection.code, injection.message)
            result = await route.handler(rec)
            status = 200 if result is not None else 204
        except ApiError as error:
            status, result = error.status, {"message": error.message, "code": error.code}
            if error.status == 429:
                result.update(retry_after=float(headers.get("Retry-After", 0.01)), **{"global": False})
        except Exception as error:  # a bug in the fake, or a payload it cannot handle
            self.report_failure(
                f"fake Discord crashed on {request.method} {path}: {error!r}\n{traceback.format_exc()}"
            )
            # 400, not 500: discord.py would sleep and retry a 500.
            status, result = 400, {"message": f"fake internal error: {error!r}", "code": 0}
        rec.status, rec.response = status, result
        self.requests.append(rec)
        self._changed()
        if status == 204:
            return web.Response(status=204)
        return _json_response(result, status, headers)

    async def _serve_attachment(self, request: web.Request) -> web.StreamResponse:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(
            body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
        )

    # ------------------------------------------------------------------ lookups

    def _channel(self, channel_id: str | int) -> FakeChannel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def _guild(self, guild_id: str | int) -> FakeGuild:
        for guild in self.guilds:
            if guild.id == int(guild_id):
                return guild
        raise ApiError(404, 10004, "Unknown Guild")

    def _user(self, user_id: str | int) -> FakeUser:
        user = self.users.get(self.bot_user.id if user_id == "@me" else int(user_id))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return user

    def _message_in(self, channel: FakeChannel, message_id: str | int) -> FakeMessage:
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.channel is not channel:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def _check_app(self, rec: RecordedRequest) -> None:
        if rec.param("application_id") != self.application_id:
            raise ApiError(404, 10002, "Unknown Application")

    # ------------------------------------------------------------------ users, app, gateway info, commands

    async def _get_user(self, rec: RecordedRequest) -> JSON:
        user = self._user(rec.params["user_id"])
        return user.payload()

    async def _application_info(self, rec: RecordedRequest) -> JSON:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.username,
            "description": "A fake application for tests",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.app_owner.payload(),
            "flags": 0,
            "bot": self.bot_user.payload(),
        }

    async def _get_gateway(self, rec: RecordedRequest) -> JSON:
        return {"url": f"ws://127.0.0.1:{self.port}/gateway"}

    async def _get_gateway_bot(self, rec: RecordedRequest) -> JSON:
        return {
            "url": f"ws://127.0.0.1:{self.port}/gateway",
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
        }

    async def _get_commands(self, rec: RecordedRequest) -> list[JSON]:
        self._check_app(rec)
        scope = rec.param("guild_id") if "guild_id" in rec.params else None
        return self.commands.get(scope, [])

    async def _put_commands(self, rec: RecordedRequest) -> list[JSON]:
        """Bulk overwrite, keeping a command's id stable across syncs as Discord does."""
        self._check_app(rec)
        scope = rec.param("guild_id") if "guild_id" in rec.params else None
        if scope is not None:
            self._guild(scope)
        stored: list[JSON] = []
        for command in rec.json or []:
            if (problem := command_problem(command)) is not None:
                raise ApiError(400, 50035, f"Invalid Form Body: {problem}")
            kind = command.get("type", 1)
            key = (scope, command["name"], kind)
            command_id = self._command_ids.setdefault(key, self.snowflake())
            item = {
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                **command,
                "id": str(command_id),
                "application_id": str(self.application_id),
                "version": str(self.snowflake()),
                "type": kind,
            }
            if scope is not None:
                item["guild_id"] = str(scope)
            stored.append(item)
        self.commands[scope] = stored
        return stored

    # ------------------------------------------------------------------ channels and messages

    async def _get_channel(self, rec: RecordedRequest) -> JSON:
        return self._channel(rec.params["channel_id"]).payload(bot_id=self.bot_user.id)

    async def _history(self, rec: RecordedRequest) -> list[JSON]:
        """Channel history, newest first, honouring limit/before/after/around like Discord."""
        channel = self._channel(rec.params["channel_id"])
        limit = max(1, min(100, int(rec.query.get("limit", 50))))
        ordered = list(channel.messages)  # oldest first
        if "before" in rec.query:
            picked = [m for m in ordered if m.id < int(rec.query["before"])][-limit:]
        elif "after" in rec.query:
            picked = [m for m in ordered if m.id > int(rec.query["after"])][:limit]
        elif "around" in rec.query:
            around = int(rec.query["around"])
            older = [m for m in ordered if m.id < around][-(limit // 2) :] if limit > 1 else []
            newer = [m for m in ordered if m.id >= around][: limit - len(older)]
            picked = older + newer
        else:
            picked = ordered[-limit:]
        return [m.payload() for m in reversed(picked)]

    async def _get_message(self, rec: RecordedRequest) -> JSON:
        channel = self._channel(rec.params["channel_id"])
        return self._message_in(channel, rec.params["message_id"]).payload()

    async def _post_message(self, rec: RecordedRequest) -> JSON:
        channel = self._channel(rec.params["channel_id"])
        if channel.is_dm and not channel.recipients[0].dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and (channel.archived or channel.locked):
            raise ApiError(400, 50083, "Thread is archived")
        self._require(
            channel,
            discord.Permissions(send_messages_in_threads=True)
            if channel.is_thread
            else discord.Permissions(send_messages=True),
        )
        body = rec.json or {}
        earlier = self._same_nonce(channel, body)
        if earlier is not None:
            return earlier.payload()
        message = await self._create_message(channel, self.bot_user, body, rec.files)
        return message.payload()

    def _same_nonce(self, channel: FakeChannel, body: JSON) -> FakeMessage | None:
        """With ``enforce_nonce``, Discord answers a repeated nonce of the same author in the same
        channel with the message already created instead of creating another; a repeat of a nonce
        whose message was deleted gets 404."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        for message in channel.messages + channel.deleted_messages:
            if message.author is self.bot_user and str(message.nonce) == str(nonce):
                if message.deleted:
                    raise ApiError(404, 10008, "Unknown Message")
                return message
        return None

    async def _edit_message_route(self, rec: RecordedRequest) -> JSON:
        channel = self._channel(rec.params["channel_id"])
        message = self._message_in(channel, rec.params["message_id"])
        if message.author is not self.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        await self._edit_message(message, rec.json or {}, rec.files)
        return message.payload()

    async def _delete_message_route(self, rec: RecordedRequest) -> None:
        channel = self._channel(rec.params["channel_id"])
        await self._delete_message(self._message_in(channel, rec.params["message_id"]))

    async def _typing(self, rec: RecordedRequest) -> None:
        self._channel(rec.params["channel_id"])

    # ------------------------------------------------------------------ threads

    async def _start_thread(self, rec: RecordedRequest) -> JSON:
        parent = self._channel(rec.params["channel_id"])
        body = rec.json or {}
        thread_type = int(body.get("type", PRIVATE_THREAD))
        self._require(
            parent,
            discord.Permissions(create_public_threads=True)
            if thread_type == PUBLIC_THREAD
            else discord.Permissions(create_private_threads=True),
        )
        thread = await self._create_thread(parent, body, thread_type)
        if thread_type == PUBLIC_THREAD:
            # Discord announces a public thread started without a message in the parent (type 18).
            notice = FakeMessage(
                self.snowflake(),
                parent,
                self.bot_user,
                content=thread.name or "",
                type=18,
                message_reference={"channel_id": str(thread.id), "guild_id": str(thread.guild.id)}
                if thread.guild
                else None,
            )
            await self._store_message(notice)
        return thread.payload(bot_id=self.bot_user.id)

    async def _start_thread_from_message(self, rec: RecordedRequest) -> JSON:
        parent = self._channel(rec.params["channel_id"])
        message = self._message_in(parent, rec.params["message_id"])
        if message.thread is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        # A thread started from a message shares the message's id.
        thread = await self._create_thread(parent, rec.json or {}, PUBLIC_THREAD, thread_id=message.id)
        message.thread = thread
        return thread.payload(bot_id=self.bot_user.id)

    async def _create_thread(
        self, parent: FakeChannel, body: JSON, thread_type: int, *, thread_id: int | None = None
    ) -> FakeChannel:
        if parent.type != TEXT_CHANNEL or parent.guild is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if thread_type not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise ApiError(400, 50035, f"Invalid Form Body: thread type {thread_type}")
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise ApiError(400, 50035, "Invalid Form Body: thread name must be 1-100 characters")
        thread = FakeChannel(
            thread_id or self.snowflake(),
            thread_type,
            name=name,
            guild=parent.guild,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
            thread_member_ids={self.bot_user.id},
        )
        parent.guild.channels.append(thread)
        self.channels[thread.id] = thread
        await self.dispatch(
            "THREAD_CREATE", {**thread.payload(bot_id=self.bot_user.id), "newly_created": True}, INTENT_GUILDS
        )
        self._changed()
        return thread

    def _thread(self, rec: RecordedRequest) -> tuple[FakeChannel, FakeUser]:
        thread = self._channel(rec.params["channel_id"])
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return thread, self._user(rec.params["user_id"])

    async def _add_thread_member(self, rec: RecordedRequest) -> None:
        thread, user = self._thread(rec)
        thread.thread_member_ids.add(user.id)
        self._changed()

    async def _remove_thread_member(self, rec: RecordedRequest) -> None:
        thread, user = self._thread(rec)
        thread.thread_member_ids.discard(user.id)
        self._changed()

    # ------------------------------------------------------------------ guilds, members, DMs

    def _guild_payload(self, guild: FakeGuild, *, members: bool) -> JSON:
        listed = list(guild.members.values()) if members else [guild.members[self.bot_user.id]]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "owner_id": str(guild.owner.id),
            "roles": [role.payload() for role in guild.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": guild.preferred_locale,
            "system_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "joined_at": guild.members[self.bot_user.id].joined_at,
            "channels": [c.payload() for c in guild.channels if not c.is_thread],
            "threads": [c.payload(bot_id=self.bot_user.id) for c in guild.threads if not c.archived],
            "members": [m.payload() for m in listed],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    async def _get_guild(self, rec: RecordedRequest) -> JSON:
        payload = self._guild_payload(self._guild(rec.params["guild_id"]), members=False)
        for key in ("channels", "threads", "members", "presences", "voice_states", "joined_at", "large"):
            payload.pop(key)
        return payload

    async def _get_guild_channels(self, rec: RecordedRequest) -> list[JSON]:
        guild = self._guild(rec.params["guild_id"])
        return [c.payload() for c in guild.channels if not c.is_thread]

    async def _get_member(self, rec: RecordedRequest) -> JSON:
        guild = self._guild(rec.params["guild_id"])
        member = guild.members.get(self._user(rec.params["user_id"]).id)
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return member.payload()

    async def _create_dm(self, rec: RecordedRequest) -> JSON:
        recipient = self.users.get(int((rec.json or {}).get("recipient_id", 0)))
        if recipient is None or recipient.bot:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return self.dm_channel(recipient).payload()

    # ------------------------------------------------------------------ message store

    def _new_attachment(
        self, upload: Upload, *, filename: str | None, description: str | None
    ) -> FakeAttachment:
        attachment_id = self.snowflake()
        name = filename or upload.filename
        content_type = mimetypes.guess_type(name)[0] or upload.content_type
        attachment = FakeAttachment(
            attachment_id,
            name,
            upload.data,
            url=f"{self.base_url}/attachments/{attachment_id}/{quote(name)}",
            content_type=content_type,
            description=description,
        )
        if attachment.size > self.attachment_size_limit:
            raise ApiError(413, 40005, "Request entity too large")
        self.attachments[attachment_id] = attachment
        return attachment

    def _attachments_for(
        self, body: JSON, files: Sequence[Upload], existing: Sequence[FakeAttachment]
    ) -> list[FakeAttachment]:
        """Final attachments: ``body["attachments"]`` lists kept ids and new uploads (``files[n]`` index)."""
        uploads = {upload.index: upload for upload in files}
        spec = body.get("attachments")
        if spec is None:
            return [*existing, *(self._new_attachment(u, filename=None, description=None) for u in files)]
        kept = {attachment.id: attachment for attachment in existing}
        result: list[FakeAttachment] = []
        for entry in spec:
            attachment_id = int(entry["id"])
            if attachment_id in uploads:
                upload = uploads.pop(attachment_id)
                result.append(
                    self._new_attachment(
                        upload, filename=entry.get("filename"), description=entry.get("description")
                    )
                )
            elif attachment_id in kept:
                result.append(kept[attachment_id])
            else:
                raise ApiError(400, 50035, f"Invalid Form Body: unknown attachment id {attachment_id}")
        result += [self._new_attachment(u, filename=None, description=None) for u in uploads.values()]
        return result

    def _validate(
        self, content: str, embeds: list[JSON], components: list[JSON], n_files: int, flags: int, extra: Any
    ) -> None:
        problem = message_problem(
            content=content,
            embeds=embeds,
            components=components,
            attachments=n_files,
            flags=flags,
            extra=extra,
        )
        if problem is not None:
            code, text = problem
            raise ApiError(400, code, text if code == 50006 else f"Invalid Form Body: {text}")

    async def _create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: JSON,
        files: Sequence[Upload],
        *,
        interaction: FakeInteraction | None = None,
        force_flags: int = 0,
    ) -> FakeMessage:
        """Validate and store a new message from a send/callback/followup body."""
        content = body.get("content") or ""
        embeds = list(body.get("embeds") or [])
        components = list(body.get("components") or [])
        flags = (int(body.get("flags") or 0) & ~LOADING) | force_flags
        if interaction is None:
            flags &= ~EPHEMERAL  # only interaction responses can be ephemeral
        attachments = self._attachments_for(body, files, [])
        if not flags & LOADING:
            self._validate(
                content,
                embeds,
                components,
                len(attachments),
                flags,
                body.get("sticker_ids") or body.get("poll"),
            )
        message = FakeMessage(
            self.snowflake(),
            channel,
            author,
            content=content,
            embeds=embeds,
            components=components,
            attachments=attachments,
            flags=flags,
            nonce=body.get("nonce"),
            message_reference=body.get("message_reference"),
            interaction=interaction,
        )
        if interaction is not None:
            message.webhook_id = message.application_id = self.application_id
            message.type = 20 if interaction.type == APPLICATION_COMMAND else 0
        for attachment in attachments:
            attachment.ephemeral = message.ephemeral
        await self._store_message(message)
        return message

    async def _store_message(self, message: FakeMessage) -> None:
        self.messages[message.id] = message
        channel = message.channel
        if not message.ephemeral:
            channel.messages.append(message)
            if channel.is_thread:
                channel.total_message_sent += 1
            await self._dispatch_message("MESSAGE_CREATE", message)
        self._changed()

    async def _edit_message(
        self, message: FakeMessage, body: JSON, files: Sequence[Upload], *, fill: bool = False
    ) -> None:
        """Apply an edit body (only the keys present change); ``fill`` completes a deferred message."""
        content = (body.get("content") or "") if "content" in body else message.content
        embeds = list(body.get("embeds") or []) if "embeds" in body else message.embeds
        components = list(body.get("components") or []) if "components" in body else message.components
        flags = message.flags & ~LOADING
        if "flags" in body and body["flags"] is not None:
            # Ephemerality is fixed when a message is created; other flags (suppress embeds, v2) may change.
            flags = (message.flags & EPHEMERAL) | (int(body["flags"]) & ~(EPHEMERAL | LOADING))
        attachments = (
            self._attachments_for(body, files, message.attachments)
            if ("attachments" in body or files)
            else message.attachments
        )
        self._validate(content, embeds, components, len(attachments), flags, None)
        message.revisions.append(message.payload())
        message.content, message.embeds, message.components = content, embeds, components
        message.attachments, message.flags = attachments, flags
        if not fill:
            message.edited_timestamp = iso_now()
        for interaction in self.interactions.values():
            # After a deferred update, the edit of the component's message (by any route) is the answer.
            if interaction.callback_type == DEFERRED_UPDATE_MESSAGE and interaction.original is message:
                interaction.answer = interaction.answer or message
        if not message.ephemeral:
            await self._dispatch_message("MESSAGE_UPDATE", message)
        self._changed()

    async def _delete_message(self, message: FakeMessage) -> None:
        message.deleted = True
        channel = message.channel
        if message in channel.messages:
            channel.messages.remove(message)
            channel.deleted_messages.append(message)
            payload: JSON = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild is not None:
                payload["guild_id"] = str(channel.guild.id)
            intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
            await self.dispatch("MESSAGE_DELETE", payload, intent)
        self._changed()

    async def post_as_bot(self, channel: FakeChannel, body: JSON) -> FakeMessage:
        """A message the bot posted earlier (say, by an older version of it), from a raw message body
        with ``content`` and ``components``; validated like any message the bot sends."""
        return await self._create_message(channel, self.bot_user, body, [])

    async def post_as_user(
        self, channel: FakeChannel, content: str, *, user: FakeUser | None = None, embeds: Sequence[JSON] = ()
    ) -> FakeMessage:
        """A user posts ``content`` in ``channel``; the bot gets MESSAGE_CREATE (content per its intents)."""
        author = user or (channel.recipients[0] if channel.is_dm else self.default_user)
        message = FakeMessage(self.snowflake(), channel, author, content=content, embeds=list(embeds))
        await self._store_message(message)
        return message

    # ------------------------------------------------------------------ interaction callbacks and webhooks

    def _interaction_for(self, interaction_id: str, token: str) -> FakeInteraction:
        interaction = self.interactions.get(int(interaction_id))
        if interaction is None or interaction.token != token:
            raise ApiError(404, 10062, "Unknown interaction")
        return interaction

    def _interaction_by_token(self, rec: RecordedRequest) -> FakeInteraction:
        self._check_app(rec)
        token = rec.params["token"]
        interaction = next((i for i in self.interactions.values() if i.token == token), None)
        if interaction is None or interaction.callback_type is None:
            # Before the first callback the interaction webhook does not exist yet.
            raise ApiError(404, 10015, "Unknown Webhook")
        if self.clock() - interaction.created > self.token_lifetime:
            # An interaction's token works for fifteen minutes only.
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return interaction

    def _webhook_message(self, interaction: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            message = interaction.original
        else:
            candidates = [*interaction.followups, *([interaction.original] if interaction.original else [])]
            message = next((m for m in candidates if m.id == int(message_id)), None)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _interaction_callback(self, rec: RecordedRequest) -> JSON:
        interaction = self._interaction_for(rec.params["interaction_id"], rec.params["token"])
        if interaction.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if self.clock() - interaction.created > self.ack_deadline:
            # Discord forgets interactions that are not acknowledged within three seconds.
            raise ApiError(404, 10062, "Unknown interaction")
        body = rec.json or {}
        kind = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
            MESSAGE_COMPONENT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
                MODAL,
            },
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE}
            | ({DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE} if interaction.message else set()),
        }[interaction.type]
        if kind not in allowed:
            raise ApiError(
                400, 50035, f"Invalid Form Body: callback type {kind} for interaction type {interaction.type}"
            )

        resource: JSON | None = None
        if kind == CHANNEL_MESSAGE:
            interaction.original = await self._create_message(
                interaction.channel, self.bot_user, data, rec.files, interaction=interaction
            )
            interaction.answer = interaction.original
            resource = {"type": kind, "message": interaction.original.payload()}
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            interaction.original = await self._create_message(
                interaction.channel, self.bot_user, {}, [], interaction=interaction, force_flags=flags
            )
            resource = {"type": kind, "message": interaction.original.payload()}
        elif kind == DEFERRED_UPDATE_MESSAGE:
            interaction.original = interaction.message
            resource = {"type": kind}
        elif kind == UPDATE_MESSAGE:
            assert interaction.message is not None
            await self._edit_message(interaction.message, data, rec.files)
            interaction.original = interaction.answer = interaction.message
            resource = {"type": kind, "message": interaction.message.payload()}
        elif kind == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            if len(choices) > 25:
                raise ApiError(400, 50035, "Invalid Form Body: more than 25 autocomplete choices")
            interaction.choices_sent = choices
        elif kind == MODAL:
            components = list(data.get("components") or [])
            if (
                not data.get("custom_id")
                or not 1 <= len(data.get("title") or "") <= 45
                or not 1 <= len(components) <= 5
            ):
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body: a modal needs a custom_id, a 1-45 character title and 1-5 rows",
                )
            interaction.modal_sent = FakeModal(
                data["custom_id"], data["title"], components, source=interaction
            )

        interaction.callback_type, interaction.callback_data = kind, data
        interaction.events.append(InteractionEvent("callback", kind, interaction.original))
        self._changed()
        original = interaction.original
        response: JSON = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(original.id) if original else None,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(original and original.ephemeral),
            }
        }
        if resource is not None:
            response["resource"] = resource
        return response

    async def _followup(self, rec: RecordedRequest) -> JSON:
        interaction = self._interaction_by_token(rec)
        body = rec.json or {}
        original = interaction.original
        if (
            interaction.callback_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
        ):
            # Discord turns the first followup after a "thinking" defer into that deferred message.
            await self._edit_message(original, body, rec.files, fill=True)
            message = original
        else:
            flags = int(body.get("flags") or 0) & EPHEMERAL
            message = await self._create_message(
                interaction.channel,
                self.bot_user,
                body,
                rec.files,
                interaction=interaction,
                force_flags=flags,
            )
        interaction.followups.append(message)
        if interaction.answer is None:
            interaction.answer = message
        interaction.events.append(InteractionEvent("followup", message=message))
        self._changed()
        return message.payload()

    async def _get_webhook_message(self, rec: RecordedRequest) -> JSON:
        interaction = self._interaction_by_token(rec)
        return self._webhook_message(interaction, rec.params["message_id"]).payload()

    async def _edit_webhook_message(self, rec: RecordedRequest) -> JSON:
        interaction = self._interaction_by_token(rec)
        message = self._webhook_message(interaction, rec.params["message_id"])
        was_loading = message.loading
        await self._edit_message(message, rec.json or {}, rec.files, fill=was_loading)
        if message is interaction.original and interaction.answer is None:
            interaction.answer = message
        interaction.events.append(InteractionEvent("edit", message=message))
        self._changed()
        return message.payload()

    async def _delete_webhook_message(self, rec: RecordedRequest) -> None:
        interaction = self._interaction_by_token(rec)
        message = self._webhook_message(interaction, rec.params["message_id"])
        await self._delete_message(message)
        interaction.events.append(InteractionEvent("delete", message=message))

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = _GatewaySession(ws, session_id=f"fake-session-{self.snowflake()}")
        self.sessions.append(session)
        try:
            await self._send(session, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for frame in ws:
                if frame.type == WSMsgType.TEXT:
                    await self._on_gateway_message(session, json.loads(frame.data))
                elif frame.type == WSMsgType.ERROR:
                    break
        finally:
            self.sessions.remove(session)
            self._changed()
        return ws

    async def _send(self, session: _GatewaySession, frame: JSON) -> None:
        async with session.lock:
            if frame.get("op") == 0:
                session.seq += 1
                frame = {**frame, "s": session.seq}
            if not session.ws.closed:
                # Plain text frames: discord.py only inflates binary frames, so no zlib stream is needed.
                await session.ws.send_str(json.dumps(frame))

    async def dispatch(self, event: str, data: JSON, intent: int | None = None) -> None:
        """Send a gateway dispatch to every identified client that has ``intent`` (None = always) and,
        when sharded, runs the shard of the event's guild (direct messages: shard 0)."""
        self.dispatched.append((event, data))
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        for session in list(self.sessions):
            if session.identified and (intent is None or session.intents & intent) and session.owns(guild_id):
                await self._send(session, {"op": 0, "t": event, "d": data})

    async def reconnect_clients(self) -> None:
        """Ask every client to reconnect (op 7); discord.py then RESUMEs on READY's ``resume_gateway_url``."""
        for session in list(self.sessions):
            await self._send(session, {"op": 7, "d": None})

    async def _dispatch_message(self, event: str, message: FakeMessage) -> None:
        channel = message.channel
        payload = message.payload()
        if channel.guild is not None:
            payload["guild_id"] = str(channel.guild.id)
            member = channel.guild.member(message.author)
            if member is not None:
                payload["member"] = member.payload(with_user=False)
        for session in list(self.sessions):
            intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
            owner = None if channel.guild is None else channel.guild.id
            if not (session.identified and session.intents & intent and session.owns(owner)):
                continue
            sent = payload
            mentioned = self.bot_user.mention in message.content
            if not (
                session.intents & INTENT_MESSAGE_CONTENT
                or channel.is_dm
                or mentioned
                or message.author is self.bot_user
            ):
                # Without the privileged intent Discord blanks other people's messages.
                sent = {**payload, "content": "", "embeds": [], "attachments": [], "components": []}
            self.dispatched.append((event, sent))
            await self._send(session, {"op": 0, "t": event, "d": sent})

    async def _on_gateway_message(self, session: _GatewaySession, frame: JSON) -> None:
        op = frame.get("op")
        data: JSON = frame.get("d") or {}
        if op == 1:
            await self._send(session, {"op": 11})
        elif op == 2:
            self.identify_payloads.append(data)
            if data.get("token") != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            session.intents = int(data.get("intents", 0))
            shard = data.get("shard")
            session.shard = (int(shard[0]), int(shard[1])) if shard else None
            self._shards[session.session_id] = session.shard
            await self._send_ready(session, shard)
        elif op == 6:
            self.resume_payloads.append(data)
            if data.get("token") != self.token or not str(data.get("session_id", "")).startswith(
                "fake-session-"
            ):
                # Invalid session, not resumable: the client starts over with IDENTIFY.
                await self._send(session, {"op": 9, "d": False})
                return
            session.identified = True
            session.intents = self._last_intents()
            session.shard = self._shards.get(str(data.get("session_id")))
            await self._send(session, {"op": 0, "t": "RESUMED", "d": {}})
            self._changed()
        elif op == 8:
            await self._send_member_chunk(session, data)
        # Presence (3) and voice (4) updates are accepted and ignored.

    def _last_intents(self) -> int:
        return int(self.identify_payloads[-1].get("intents", 0)) if self.identify_payloads else 0

    async def _send_ready(self, session: _GatewaySession, shard: list[int] | None) -> None:
        ready: JSON = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds if session.owns(g.id)],
            "session_id": session.session_id,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if shard is not None:
            ready["shard"] = shard  # AutoShardedClient requires it
        session.identified = True
        await self._send(session, {"op": 0, "t": "READY", "d": ready})
        members = bool(session.intents & INTENT_GUILD_MEMBERS)
        for guild in (g for g in self.guilds if session.owns(g.id)):
            await self._send(
                session, {"op": 0, "t": "GUILD_CREATE", "d": self._guild_payload(guild, members=members)}
            )
        self._changed()

    async def _send_member_chunk(self, session: _GatewaySession, data: JSON) -> None:
        guild = self._guild(data["guild_id"])
        wanted = data.get("user_ids")
        if wanted is not None:
            ids = {int(i) for i in (wanted if isinstance(wanted, list) else [wanted])}
            found = [m for m in guild.members.values() if m.user.id in ids]
            not_found = sorted(ids - {m.user.id for m in found})
        else:
            query = (data.get("query") or "").lower()
            found = [m for m in guild.members.values() if m.user.username.lower().startswith(query)]
            if data.get("limit"):
                found = found[: int(data["limit"])]
            not_found = []
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in found],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(i) for i in not_found],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self._send(session, {"op": 0, "t": "GUILD_MEMBERS_CHUNK", "d": chunk})

    # ------------------------------------------------------------------ interaction injection

    def _context(
        self, user: FakeUser | None, guild: FakeGuild | bool, channel: FakeChannel | None
    ) -> tuple[FakeUser, FakeChannel]:
        user = user or self.default_user
        if channel is None:
            if guild is False:
                channel = self.dm_channel(user)
            else:
                target = self.guilds[0] if guild is True else guild
                assert isinstance(target, FakeGuild)
                channel = target.text_channels[0]
        return user, channel

    def _member_payload(self, guild: FakeGuild, user: FakeUser, *, with_user: bool = True) -> JSON:
        member = guild.member(user)
        if member is None:
            raise NotInvokable(f"{user.username} is not a member of guild {guild.name!r}")
        return member.payload(with_user=with_user, permissions=guild.permissions_for(user))

    async def inject_interaction(
        self, kind: int, user: FakeUser, channel: FakeChannel, data: JSON, message: FakeMessage | None = None
    ) -> FakeInteraction:
        """Dispatch INTERACTION_CREATE with hand-made ``data`` (no validation); the helpers build on this."""
        if not self.connected:
            raise RuntimeError(
                "no bot is connected to the fake gateway; start it with running_bot(bot, fake)"
            )
        if channel.is_dm and user not in channel.recipients:
            raise NotInvokable(f"{user.username} cannot act in another user's DM channel")
        interaction_id = self.snowflake()
        interaction = FakeInteraction(
            self,
            interaction_id,
            f"fake-token-{interaction_id}",
            kind,
            user,
            channel,
            data,
            message=message,
            created=self.clock(),
        )
        guild = channel.guild
        payload: JSON = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": interaction.token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(bot_id=self.bot_user.id),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": self.attachment_size_limit,
            "context": 0 if guild else 1,
            "authorizing_integration_owners": {"0": str(guild.id)} if guild else {},
        }
        if guild is not None:
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.preferred_locale,
                member=self._member_payload(guild, user),
                app_permissions=str(guild.permissions_for(self.bot_user)),
            )
            payload["channel"]["permissions"] = str(guild.permissions_for(user))
        else:
            payload["user"] = user.payload()
            payload["app_permissions"] = str(DEFAULT_EVERYONE_PERMISSIONS)
        if message is not None:
            payload["message"] = message.payload()
        self.interactions[interaction.id] = interaction
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    def _find_command(self, name: str, guild: FakeGuild | None) -> tuple[JSON, int | None] | None:
        scopes: list[int | None] = ([guild.id] if guild else []) + [None]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, scope
        return None

    def _check_invokable(self, command: JSON, user: FakeUser, guild: FakeGuild | None) -> None:
        contexts = command.get("contexts")
        if guild is None and (
            command.get("dm_permission") is False or (contexts is not None and 1 not in contexts)
        ):
            raise NotInvokable(f"/{command['name']} is not available in DMs")
        if guild is not None and contexts is not None and 0 not in contexts:
            raise NotInvokable(f"/{command['name']} is not available in guilds")
        required = command.get("default_member_permissions")
        if guild is not None and required is not None:
            needed = int(required)
            if guild.permissions_for(user) & needed != needed:
                raise NotInvokable(
                    f"{user.username} lacks default_member_permissions={needed} for /{command['name']}, "
                    "so Discord would not show the command"
                )

    def _command_data(
        self,
        command: str,
        options: Mapping[str, Any],
        user: FakeUser,
        channel: FakeChannel,
        focused: str | None,
    ) -> JSON:
        """Build CHAT_INPUT ``data``: subcommand nesting (types 1/2), typed options and ``resolved``."""
        names = command.removeprefix("/").split()
        if not names:
            raise ValueError("empty command")
        guild = channel.guild
        found = self._find_command(names[0], guild)
        if found is None:
            if self.require_synced:
                known = sorted({c["name"] for scope in self.commands.values() for c in scope})
                raise NotInvokable(
                    f"/{names[0]} is not registered (did the bot sync its tree?); registered: {known}"
                )
            schema, scope = None, None
        else:
            schema, scope = found
            self._check_invokable(schema, user, guild)
        data: JSON = {"id": schema["id"] if schema else str(self.snowflake()), "name": names[0], "type": 1}
        if scope is not None:
            data["guild_id"] = str(scope)
        resolved: JSON = {}
        container = data
        level: list[JSON] | None = schema.get("options") or [] if schema else None
        for depth, name in enumerate(names[1:], start=2):
            spec = next((o for o in level or [] if o["name"] == name and o["type"] in (1, 2)), None)
            if level is not None and spec is None:
                raise NotInvokable(f"/{' '.join(names[:depth])} is not a subcommand")
            node: JSON = {"name": name, "type": spec["type"] if spec else (1 if depth == len(names) else 2)}
            container["options"] = [node]
            container = node
            level = spec.get("options") or [] if spec else None
        if level is not None and any(o["type"] in (1, 2) for o in level):
            raise NotInvokable(f"/{' '.join(names)} needs a subcommand: {[o['name'] for o in level]}")
        container["options"] = self._build_options(level, options, resolved, user, guild, focused)
        if resolved:
            data["resolved"] = resolved
        return data

    def _build_options(
        self,
        specs: list[JSON] | None,
        values: Mapping[str, Any],
        resolved: JSON,
        user: FakeUser,
        guild: FakeGuild | None,
        focused: str | None,
    ) -> list[JSON]:
        by_name = {spec["name"]: spec for spec in specs} if specs is not None else None
        built: list[JSON] = []
        for name, value in values.items():
            spec = by_name.get(name) if by_name is not None else None
            if by_name is not None and spec is None:
                raise NotInvokable(f"unknown option {name!r}; the command has {sorted(by_name)}")
            option_type = spec["type"] if spec else _infer_option_type(value)
            if name == focused:
                # While typing, Discord sends the raw text of the focused option.
                built.append({"name": name, "type": option_type, "value": str(value), "focused": True})
                continue
            wire = self._option_value(option_type, value, spec or {}, resolved, user, guild)
            choices = (spec or {}).get("choices")
            if choices and wire not in [c["value"] for c in choices]:
                raise NotInvokable(
                    f"{wire!r} is not a choice of option {name!r}: {[c['value'] for c in choices]}"
                )
            built.append({"name": name, "type": option_type, "value": wire})
        if specs is not None and focused is None:
            missing = [s["name"] for s in specs if s.get("required") and s["name"] not in values]
            if missing:
                raise NotInvokable(f"required options missing: {missing}")
        return built

    def _option_value(
        self,
        option_type: int,
        value: Any,
        spec: JSON,
        resolved: JSON,
        user: FakeUser,
        guild: FakeGuild | None,
    ) -> Any:
        """Convert a Python value to the wire value of an option, filling ``resolved`` for entities."""
        name = spec.get("name", "?")
        if option_type == 3:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string option, got {value!r}")
            if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
                raise NotInvokable(f"option {name!r}: length {len(value)} outside the allowed range")
            return value
        if option_type in (4, 10):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (option_type == 4 and not isinstance(value, int))
            ):
                raise TypeError(f"option {name!r} is numeric (type {option_type}), got {value!r}")
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise NotInvokable(f"option {name!r}: {value} outside [{low}, {high}]")
            return value
        if option_type == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean option, got {value!r}")
            return value
        if option_type in (6, 9) and isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if guild is not None and guild.member(value) is not None:
                resolved.setdefault("members", {})[str(value.id)] = self._member_payload(
                    guild, value, with_user=False
                )
            return str(value.id)
        if option_type in (8, 9) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if option_type == 7 and isinstance(value, FakeChannel):
            channel = value.payload()
            channel["permissions"] = str(
                guild.permissions_for(user) if guild else DEFAULT_EVERYONE_PERMISSIONS
            )
            resolved.setdefault("channels", {})[str(value.id)] = channel
            return str(value.id)
        if option_type == 11:
            if isinstance(value, tuple):
                filename, data = value
                value = self._new_attachment(
                    Upload(0, filename, data, None), filename=filename, description=None
                )
                value.ephemeral = True
            if isinstance(value, FakeAttachment):
                resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
                return str(value.id)
        raise TypeError(f"cannot pass {value!r} as option {name!r} of type {option_type}")

    async def slash(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | None = None,
        guild: FakeGuild | bool = True,
        channel: FakeChannel | None = None,
    ) -> FakeInteraction:
        """Invoke a slash command, e.g. ``slash("arena game new", {"title": "Chess"})``.

        ``command`` is the name followed by the subcommand group and/or subcommand.  Option values are Python
        values: str, int, float, bool, ``FakeUser``, ``FakeRole``, ``FakeChannel``, and for attachments a
        ``(filename, bytes)`` tuple.  The context is ``channel`` if given, else the first text channel of the
        guild (``guild=True`` is the first guild) or, with ``guild=False``, the user's DM with the bot.
        Raises ``NotInvokable`` where Discord would not deliver the command.
        """
        user, channel = self._context(user, guild, channel)
        data = self._command_data(command, options or {}, user, channel, None)
        return await self.inject_interaction(APPLICATION_COMMAND, user, channel, data)

    async def autocomplete(
        self,
        command: str,
        focused: str,
        value: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | None = None,
        guild: FakeGuild | bool = True,
        channel: FakeChannel | None = None,
    ) -> FakeInteraction:
        """Type ``value`` into option ``focused`` of ``command``; await ``.choices()`` on the result."""
        user, channel = self._context(user, guild, channel)
        data = self._command_data(command, {**(options or {}), focused: value}, user, channel, focused)
        return await self.inject_interaction(AUTOCOMPLETE, user, channel, data)

    def _live_message(self, message: FakeMessage | int) -> FakeMessage:
        found = self.messages.get(message if isinstance(message, int) else message.id)
        if found is None or found.deleted:
            raise NotInvokable(f"message {message!r} does not exist (deleted?)")
        return found

    def _component(self, message: FakeMessage, custom_id: str, kinds: frozenset[int] | set[int]) -> JSON:
        component = message.component(custom_id)
        if component is None or component.get("type") not in kinds:
            present = [c.get("custom_id") for c in message.iter_components() if c.get("custom_id")]
            raise NotInvokable(f"message {message.id} has no such component {custom_id!r}; it has {present}")
        if component.get("disabled"):
            raise NotInvokable(f"component {custom_id!r} is disabled")
        return component

    def _component_user(self, message: FakeMessage, user: FakeUser | None) -> FakeUser:
        user = user or (message.channel.recipients[0] if message.channel.is_dm else self.default_user)
        if message.ephemeral and message.interaction is not None and user is not message.interaction.user:
            raise NotInvokable(f"only {message.interaction.user.username} can see this ephemeral message")
        return user

    async def click(
        self, message: FakeMessage | int, custom_id: str, *, user: FakeUser | None = None
    ) -> FakeInteraction:
        """Click the button ``custom_id`` on ``message``."""
        target = self._live_message(message)
        self._component(target, custom_id, {BUTTON})
        clicker = self._component_user(target, user)
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self.inject_interaction(MESSAGE_COMPONENT, clicker, target.channel, data, target)

    async def select(
        self,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel],
        *,
        user: FakeUser | None = None,
    ) -> FakeInteraction:
        """Choose ``values`` in select menu ``custom_id`` (strings, or entities for entity selects)."""
        target = self._live_message(message)
        component = self._component(target, custom_id, SELECT_TYPES)
        chooser = self._component_user(target, user)
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise NotInvokable(f"select {custom_id!r} takes {low}-{high} values, got {len(values)}")
        data: JSON = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == STRING_SELECT:
            offered = [o["value"] for o in component.get("options") or []]
            unknown = [v for v in values if v not in offered]
            if unknown:
                raise NotInvokable(f"{unknown} are not options of {custom_id!r}: {offered}")
            data["values"] = list(values)
        else:
            resolved: JSON = {}
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[component["type"]]
            data["values"] = [
                self._option_value(kind, v, {"name": custom_id}, resolved, chooser, target.guild)
                for v in values
            ]
            data["resolved"] = resolved
        return await self.inject_interaction(MESSAGE_COMPONENT, chooser, target.channel, data, target)

    async def submit_modal(
        self,
        modal: FakeModal | FakeInteraction,
        values: Mapping[str, str | Sequence[str]],
        *,
        user: FakeUser | None = None,
    ) -> FakeInteraction:
        """Submit the modal the bot opened, filling fields by ``custom_id``; selects take lists."""
        if isinstance(modal, FakeInteraction):
            opened = modal.modal_sent
            if opened is None:
                raise NotInvokable(f"{modal.describe()} did not open a modal")
            modal = opened
        source = modal.source
        assert source is not None
        known = {c["custom_id"] for c in modal.inputs}
        if unknown := set(values) - known:
            raise NotInvokable(
                f"modal {modal.custom_id!r} has no fields {sorted(unknown)}; it has {sorted(known)}"
            )

        def answer(component: JSON) -> JSON:
            kind = component.get("type")
            if kind == 1:
                return {"type": 1, "components": [answer(c) for c in component.get("components") or []]}
            if kind == 18:  # label wrapping one input
                return {"type": 18, "component": answer(component["component"])}
            custom_id = component.get("custom_id")
            if kind == TEXT_INPUT:
                text = values.get(custom_id or "", component.get("value") or "")
                assert isinstance(text, str)
                if component.get("required", True) and not text:
                    raise NotInvokable(f"modal field {custom_id!r} is required")
                if not component.get("min_length", 0) <= len(text) <= component.get("max_length", 4000):
                    raise NotInvokable(
                        f"modal field {custom_id!r}: length {len(text)} outside the allowed range"
                    )
                return {"type": TEXT_INPUT, "custom_id": custom_id, "value": text}
            if kind in SELECT_TYPES:
                return {"type": kind, "custom_id": custom_id, "values": list(values.get(custom_id or "", []))}
            return {"type": kind, "id": component.get("id")}

        data = {"custom_id": modal.custom_id, "components": [answer(c) for c in modal.components]}
        return await self.inject_interaction(
            MODAL_SUBMIT, user or source.user, source.channel, data, source.message
        )


def _infer_option_type(value: Any) -> int:
    """Option type for a value when the command's schema is unknown (``require_synced=False``)."""
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    if isinstance(value, FakeUser):
        return 6
    if isinstance(value, FakeChannel):
        return 7
    if isinstance(value, FakeRole):
        return 8
    if isinstance(value, tuple | FakeAttachment):
        return 11
    return 3
