"""The web table's links as the host offers them: only with the table's public address and on a server
that did not switch them off, a private link only to a player of the match and for their own seat, and a
revoke that voids every link issued until then and none issued after."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from data.backend import Stores, open_stores
from engine.core.errors import LobbyError, NotSeated
from engine.host import controls
from engine.host import settings_words as words
from engine.host.ports import Player, Scope
from engine.host.service import GameHost
from engine.host.web_links import URL_LIMIT, WebLinks, links_revoked, revoke_links
from lang.says import render
from web.links import pass_for, verified

GUILD = 77
NOW = datetime(2026, 11, 29, 12, 0, 0, 250_000, tzinfo=UTC)
SECRET = b"a secret for the tests"
ALICE, BOB, CAROL = (
    Player(user_id=1, name="Alice"),
    Player(user_id=2, name="Bob"),
    Player(user_id=3, name="Carol"),
)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[Stores]:
    opened = await open_stores(tmp_path / "links.db", clock=lambda: NOW.isoformat(timespec="milliseconds"))
    try:
        yield opened
    finally:
        await opened.close()


def links(stores: Stores, clock: Clock, url: str | None = "https://table.example/") -> WebLinks:
    return WebLinks(stores.settings, url, SECRET, pass_for, clock)


async def two_player_match(stores: Stores) -> int:
    host = GameHost(stores.matches, seed_source=lambda: 1)
    match = await host.create_match("ny1901", 2, creator=ALICE, seed=1, guild_id=GUILD)
    await host.join(match.id, BOB)
    await host.start(match.id, by_user=ALICE.user_id)
    return match.id


async def test_links_show_only_with_an_address_and_where_the_server_did_not_switch_them_off(
    stores: Stores,
) -> None:
    clock = Clock(NOW)
    assert not await links(stores, clock, None).shown(GUILD)
    assert not await links(stores, clock, "  ").shown(GUILD)
    web = links(stores, clock)
    assert await web.shown(GUILD) and await web.shown(None)
    assert web.watch_url(12) == "https://table.example/m/12"
    with pytest.raises(LobbyError):
        await words.switch_web_links(web, GUILD, False, is_admin=False)
    off = await words.switch_web_links(web, GUILD, False, is_admin=True)
    assert "no longer link" in render("en", off) and "non rimandano più" in render("it", off)
    assert not await web.shown(GUILD)
    assert await web.shown(GUILD + 1) and await web.shown(None)  # another server's and DMs' stay on
    await words.switch_web_links(web, GUILD, True, is_admin=True)
    assert await web.shown(GUILD)
    # An address too long for a link button gives no spectator link rather than a post Discord refuses.
    long = links(stores, clock, "https://table.example/" + "x" * URL_LIMIT)
    assert long.watch_url(12) is None


async def test_the_board_controls_put_web_beside_my_hand_and_the_spectator_link_last(stores: Stores) -> None:
    web = links(stores, Clock(NOW))
    match = await GameHost(stores.matches).match(await two_player_match(stores))
    post = await web.board(match, match.version, "en", spectators=True)
    assert [c.address.split(":")[0] for c in post] == ["play", "hand", "web", ""]
    assert post[-1].url == f"https://table.example/m/{match.id}" and post[2].label == "Web"
    private = await web.board(match, match.version, "it")
    assert [c.url for c in private] == [None, None, None]
    assert controls.parse(private[2].address) == controls.Pressed("web", {"match_id": match.id})
    await words.switch_web_links(web, GUILD, False, is_admin=True)
    assert await web.board(match, match.version, "en", spectators=True) == controls.board(
        match.id, match.version, "en"
    )
    assert await web.beside_hand(match, "en") == () and await web.watching(match, "en") == ()


async def test_a_player_gets_the_link_of_their_own_seat_and_nobody_else_gets_one(stores: Stores) -> None:
    clock = Clock(NOW)
    web = links(stores, clock)
    host = GameHost(stores.matches)
    match_id = await two_player_match(stores)
    for person in (ALICE, BOB):
        assert person.user_id is not None
        said = await web.private_page(host, match_id, person.user_id, Scope(user_id=person.user_id), "en")
        (button,) = said.controls
        assert button.url is not None and f"<{button.url}>" in said.text
        token = button.url.removeprefix("https://table.example/p/")
        opened = verified(SECRET, token, NOW)
        match = await host.match(match_id)
        assert opened is not None and (opened.match_id, opened.seat) == (
            match_id,
            match.seat_of(person.user_id),
        )
        italian = await web.private_page(host, match_id, person.user_id, Scope(user_id=person.user_id), "it")
        assert "Tieni questo link per te" in italian.text
    with pytest.raises(NotSeated) as refused:
        await web.private_page(host, match_id, 3, Scope(user_id=3, guild_id=GUILD), "en")
    assert refused.value.say is not None and "no page of your own" in render("en", refused.value.say)
    await words.switch_web_links(web, GUILD, False, is_admin=True)
    with pytest.raises(LobbyError):
        await web.private_page(host, match_id, 1, Scope(user_id=1, guild_id=GUILD), "en")
    with pytest.raises(LobbyError):
        await links(stores, clock, None).private_page(host, match_id, 1, Scope(user_id=1), "en")


async def test_a_revoke_voids_links_issued_until_its_second_and_none_after(stores: Stores) -> None:
    clock = Clock(NOW)
    settings = stores.settings
    assert not await links_revoked(settings, 1, NOW - timedelta(days=3))
    said = await words.revoke_web_links(links(stores, clock), 1, NOW)
    assert "Press Web" in render("en", said) and "Premi Web" in render("it", said)
    second = NOW.replace(microsecond=0)
    assert await links_revoked(settings, 1, NOW - timedelta(days=3))
    assert await links_revoked(settings, 1, second)
    assert not await links_revoked(settings, 1, second + timedelta(seconds=1))
    assert not await links_revoked(settings, 2, second)  # only the person's own
    # A link given in the very second of the revoke is issued past it, so that it opens.
    web = links(stores, clock)
    issued = await web.issue_time(1)
    assert issued == second + timedelta(seconds=1) and not await links_revoked(settings, 1, issued)
    clock.now = NOW + timedelta(minutes=5)
    assert await web.issue_time(1) == clock.now
    await revoke_links(settings, 1, clock.now)
    assert await links_revoked(settings, 1, NOW + timedelta(seconds=2))
    # A value nobody could have written voids every link rather than none.
    await settings.set("user", 4, "web_links_revoked", "not a moment")
    assert await links_revoked(settings, 4, NOW)
