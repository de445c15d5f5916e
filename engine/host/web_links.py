"""The web table's links as a chat front end offers them: a page to watch each match on its board posts,
and beside My hand a **Web** button that answers its presser, privately, with the signed link of their
own seat's page.

Links appear only once the operator gives the table's public address, and never on a server whose admins
switched them off. Whatever a person was given before their ``/settings web revoke`` opens nothing any
more; the web table asks ``links_revoked`` of every link and session it is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from engine.core.errors import LobbyError
from engine.core.say import Say
from engine.host import controls
from engine.host.outgoing import Control, Outgoing
from engine.host.ports import MatchRecord, Scope, SettingsStore
from engine.host.service import GameHost, utc_now
from engine.host.text import HOST
from lang import t

# A server's choice: OFF when its admins switched its web links off (unset: on).
SWITCH = "web_links"
OFF = "off"
# A person's: the moment (UTC, in whole seconds) at or before which every link and session of theirs was
# issued is void.
REVOKED = "web_links_revoked"
# What an unreadable revoke reads as: every link stays void until the person revokes again.
UNREADABLE = datetime.max.replace(tzinfo=UTC)
# The longest address Discord takes in a link button.
URL_LIMIT = 512

# Signs the token of a private link: with the secret, to a match's seat, issued at a moment.
SignPass = Callable[[bytes, int, int, datetime], str]


def no_page(match_id: int) -> Say:
    """The refusal of a private page to someone who does not play in match ``match_id``."""
    return HOST.say(
        "you are not playing in match #{number}, so you have no page of your own there", number=match_id
    )


NOT_OFFERED = HOST.say("links to the web table are not offered here")


async def revoked_at(settings: SettingsStore, user_id: int) -> datetime | None:
    """The moment ``user_id`` last voided their links (``/settings web revoke``), if ever."""
    kept = await settings.get("user", user_id, REVOKED)
    if kept is None:
        return None
    try:
        return datetime.fromisoformat(kept)
    except ValueError:
        # Only this module writes it; should it ever be unreadable, no link of theirs opens rather than
        # every one.
        return UNREADABLE


async def links_revoked(settings: SettingsStore, user_id: int, issued: datetime) -> bool:
    """Whether a link or session of ``user_id``'s issued at ``issued`` was voided since: issued in the
    second of their latest ``/settings web revoke`` or before."""
    revoked = await revoked_at(settings, user_id)
    return revoked is not None and issued <= revoked


async def revoke_links(settings: SettingsStore, user_id: int, now: datetime) -> None:
    """Void every link and session ``user_id`` was given until ``now``."""
    moment = now.astimezone(UTC).replace(microsecond=0)
    await settings.set("user", user_id, REVOKED, moment.isoformat())


async def server_shows_links(settings: SettingsStore, guild_id: int | None) -> bool:
    """Whether server ``guild_id`` shows links to the web table (direct messages always do)."""
    return guild_id is None or await settings.get("guild", guild_id, SWITCH) != OFF


async def switch_server_links(settings: SettingsStore, guild_id: int, on: bool) -> None:
    await settings.set("guild", guild_id, SWITCH, None if on else OFF)


class WebLinks:
    """The links of the web table at ``url`` (its public address; None: no links at all) for the matches
    of ``settings``' servers, private ones signed with ``secret`` by ``sign`` at ``clock``'s time."""

    def __init__(
        self,
        settings: SettingsStore,
        url: str | None = None,
        secret: bytes = b"",
        sign: SignPass | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.settings = settings
        self.base = url.strip().rstrip("/") if url and url.strip() and sign is not None else None
        self.secret = secret
        self.sign = sign
        self.clock = clock

    async def shown(self, guild_id: int | None) -> bool:
        """Whether the matches of server ``guild_id`` (None: direct messages) offer web links."""
        return self.base is not None and await server_shows_links(self.settings, guild_id)

    def watch_url(self, match_id: int) -> str | None:
        """The address of match ``match_id``'s public page, when the table has one that a link button
        can carry."""
        if self.base is None:
            return None
        url = f"{self.base}/m/{match_id}"
        return url if len(url) <= URL_LIMIT else None

    async def board(
        self,
        match: MatchRecord,
        version: int,
        locale: str,
        undoer: str | None = None,
        spectators: bool = False,
    ) -> tuple[Control, ...]:
        """The controls of a board (``controls.board``), with Web beside My hand where links are shown,
        and with ``spectators`` (a post everyone reads) the link to the match's public page."""
        web = await self.shown(match.guild_id)
        watch = self.watch_url(match.id) if web and spectators else None
        return controls.board(match.id, version, locale, undoer, web=web, watch_url=watch)

    async def beside_hand(self, match: MatchRecord, locale: str) -> tuple[Control, ...]:
        """Web, to show beside My hand (or the hand itself) where links are shown."""
        return (controls.web_page(match.id, locale),) if await self.shown(match.guild_id) else ()

    async def watching(self, match: MatchRecord, locale: str) -> tuple[Control, ...]:
        """The link to the match's public page, where links are shown."""
        url = self.watch_url(match.id) if await self.shown(match.guild_id) else None
        return (controls.watch_link(url, locale),) if url is not None else ()

    async def private_page(
        self, host: GameHost, match_id: int, user_id: int, scope: Scope, locale: str
    ) -> Outgoing:
        """The answer to ``user_id`` pressing Web in match ``match_id``, for their eyes only: the signed
        link of their own seat's page. Refused to someone with no seat there, and where links are not
        shown."""
        table = await host.table(match_id, user_id, scope, seated=no_page(match_id))
        if table.seat is None or self.sign is None or not await self.shown(table.match.guild_id):
            raise LobbyError(NOT_OFFERED)
        token = self.sign(self.secret, table.match.id, table.seat, await self.issue_time(user_id))
        url = f"{self.base}/p/{token}"
        text = t(
            locale,
            "Your own page of match #{number}, with your hand and your moves, in any browser: {link}\n"
            "Keep this link to yourself: whoever has it sees your hand until it expires, or until you "
            "void it with /settings web revoke.",
            number=table.match.id,
            link=f"<{url}>",
        )
        shown = (Control("", t(locale, "Open my page"), "🌐", url=url),) if len(url) <= URL_LIMIT else ()
        return Outgoing(text, shown)

    async def issue_time(self, user_id: int) -> datetime:
        """The moment a link given to ``user_id`` now is issued at: now, but past their latest revoke,
        which voids every link issued in its second."""
        now = self.clock()
        revoked = await revoked_at(self.settings, user_id)
        if revoked is None or revoked == UNREADABLE or now.timestamp() >= revoked.timestamp() + 1:
            return now
        return revoked + timedelta(seconds=1)
