"""``/settings web revoke`` on the web table: a link its player voided answers as a bad one does, naming
nothing of the match, while the links given after, and other players' links, open."""

from __future__ import annotations

from datetime import timedelta

from aiohttp import ClientTimeout
from aiohttp.test_utils import TestClient

from data.backend import Stores
from engine.host.service import GameHost
from engine.host.web_links import revoke_links, switch_server_links
from tests.web.conftest import NOW, PEOPLE, people_match
from web.links import pass_for


async def test_a_revoked_link_is_refused_and_a_later_one_opens(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
    stores: Stores,
    secret: bytes,
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    owner = match.player_at(0)
    assert owner is not None and owner.user_id is not None
    old = pass_for(secret, match.id, 0, NOW - timedelta(days=2))
    neighbour = pass_for(secret, match.id, 1, NOW - timedelta(days=2))
    assert (await client.get(f"/p/{old}")).status == 200
    await revoke_links(stores.settings, owner.user_id, NOW - timedelta(hours=1))
    for path in (f"/p/{old}", f"/p/{old}/hand.png"):
        refused = await client.get(path)
        assert refused.status == 403
        page = await refused.text()
        assert "This link does not open a page" in page
        assert all(person.name not in page for person in PEOPLE) and "Fifth Avenue" not in page
    # The other seat's player revoked nothing; a link given after the revoke opens.
    assert (await client.get(f"/p/{neighbour}")).status == 200
    fresh = pass_for(secret, match.id, 0, NOW - timedelta(minutes=59))
    assert (await client.get(f"/p/{fresh}")).status == 200
    # The revoke is the person's: made again later, it voids that link too.
    await revoke_links(stores.settings, owner.user_id, NOW)
    assert (await client.get(f"/p/{fresh}")).status == 403


async def test_a_server_that_switched_its_links_off_has_no_pages(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
    stores: Stores,
    secret: bytes,
) -> None:
    match = await host.create_match("skyline", 2, creator=PEOPLE[0], guild_id=77, seed=2)
    await host.join(match.id, PEOPLE[1])
    await host.start(match.id, by_user=PEOPLE[0].user_id)
    elsewhere = await people_match(host, "skyline", 2)
    private = f"/p/{pass_for(secret, match.id, 0, NOW)}"
    addresses = (f"/m/{match.id}", f"/m/{match.id}/board.png", private, f"{private}/hand.png")
    assert [(await client.get(address)).status for address in addresses] == [200] * 4
    assert (await client.get(f"/m/{match.id}/events", timeout=ClientTimeout(sock_read=5))).status == 200
    await switch_server_links(stores.settings, 77, on=False)
    assert [(await client.get(address)).status for address in addresses] == [404, 404, 403, 403]
    assert (await client.get(f"/m/{match.id}/events")).status == 404
    # Another server's match, and a match of direct messages, are not touched.
    assert (await client.get(f"/m/{elsewhere.id}")).status == 200
    await switch_server_links(stores.settings, 77, on=True)
    assert [(await client.get(address)).status for address in addresses] == [200] * 4
