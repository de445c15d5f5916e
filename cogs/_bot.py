"""What the cogs need of the client, as protocols: the cogs are typed against them, so no cog imports the
client that loads them, and imports run one way (the client, then the cogs, then their helpers)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol

import discord
from discord.ext import commands

import lang
from engine.host.animations import Animations
from engine.host.background import BackgroundWork
from engine.host.digests import Digests
from engine.host.league_desk import LeagueDesk
from engine.host.ledgers import PingLedger, PostLedger
from engine.host.outbox import Backoff
from engine.host.pings import TurnPings
from engine.host.ports import MatchRecord, SettingsStore
from engine.host.queue_desk import QueueDesk
from engine.host.ratings import RatingStore
from engine.host.service import GameHost
from engine.host.threads import Threads
from engine.host.tournaments import TournamentHost
from engine.host.web_links import WebLinks
from render.animation import Animation
from render.pool import RenderPool


class Notifier(Protocol):
    """The posts, images and private messages about matches."""

    @property
    def pings(self) -> TurnPings: ...

    async def thread_of(self, match: MatchRecord) -> discord.abc.Messageable | None: ...

    async def draw(
        self, match: MatchRecord, version: int, seat: int | None, locale: str = lang.DEFAULT
    ) -> bytes | None: ...

    @property
    def threads(self) -> Threads: ...


class Bot(Protocol):
    """The Big Apple client as the cogs see it: the hosts, ledgers and settings behind it, its clock and
    outbox, and the Discord calls the cogs make through it."""

    @property
    def host(self) -> GameHost: ...

    @property
    def tournaments(self) -> TournamentHost: ...

    @property
    def ratings(self) -> RatingStore: ...

    @property
    def settings(self) -> SettingsStore: ...

    @property
    def queue_desk(self) -> QueueDesk: ...

    @property
    def league_desk(self) -> LeagueDesk: ...

    @property
    def posts(self) -> PostLedger: ...

    @property
    def ping_ledger(self) -> PingLedger: ...

    @property
    def notifier(self) -> Notifier: ...

    @property
    def digests(self) -> Digests: ...

    @property
    def web_links(self) -> WebLinks:
        """The links to the web table that Discord offers."""
        ...

    @property
    def animator(self) -> Animations[Animation]: ...

    @property
    def animations(self) -> bool:
        """Whether finished matches get their animation under the final post."""
        ...

    @property
    def renderer(self) -> RenderPool: ...

    @property
    def clock(self) -> Callable[[], datetime]: ...

    @property
    def answer_within(self) -> float: ...

    @property
    def tournament_backoff(self) -> Backoff[int]: ...

    @property
    def organisers_told(self) -> set[int]: ...

    @property
    def background(self) -> BackgroundWork: ...

    def kick_outbox(self) -> None: ...

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...

    def get_partial_messageable(self, id: int, /) -> discord.PartialMessageable: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...

    def get_cog(self, name: str, /) -> commands.Cog | None: ...
