"""A seat a new person took over (``/game replace``, ``/tournament replace``) on the web table: the
private link given to whoever played the seat before opens nothing any more, while a link given to the
newcomer opens the seat."""

from __future__ import annotations

from datetime import timedelta

from aiohttp.test_utils import TestClient

from data.backend import Stores
from engine.host.ports import Player
from engine.host.service import GameHost
from engine.host.tournaments import TournamentHost
from tests.web.conftest import NOW, PEOPLE, people_match
from web.links import pass_for


async def test_the_link_of_whoever_left_a_seat_opens_nothing_once_a_newcomer_takes_it(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
    secret: bytes,
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    leaver = match.player_at(0)
    assert leaver is not None and leaver.user_id is not None and match.creator_id is not None
    old = pass_for(secret, match.id, 0, NOW - timedelta(days=2))
    neighbour = pass_for(secret, match.id, 1, NOW - timedelta(days=2))
    assert (await client.get(f"/p/{old}")).status == 200
    await host.resign(match.id, leaver.user_id, resigned=True)
    assert (await client.get(f"/p/{old}")).status == 200  # a computer plays it: nobody took it yet
    offered = await host.offers.offer(match.id, match.creator_id, "1")
    await host.offers.take(offered.offer.id, Player(user_id=9_999, name="Newcomer"))
    for path in (f"/p/{old}", f"/p/{old}/hand.png"):
        refused = await client.get(path)
        assert refused.status == 403
        assert leaver.name not in await refused.text()
    assert (await client.get(f"/p/{neighbour}")).status == 200
    fresh = pass_for(secret, match.id, 0, NOW)
    page = await client.get(f"/p/{fresh}")
    assert page.status == 200 and "Newcomer" in await page.text()


async def test_the_link_of_a_tournament_player_replaced_by_an_organiser_opens_nothing(
    host: GameHost,
    stores: Stores,
    client: TestClient,  # type: ignore[type-arg]
    secret: bytes,
) -> None:
    tournaments = TournamentHost(host, stores.tournaments, seed_source=lambda: 3, clock=lambda: NOW)
    cup = await tournaments.create("Cup", "ny_piatnik", "swiss", table_size=2, rounds=1)
    cup = await tournaments.open_registration(cup.id)
    for person in PEOPLE[:2]:
        assert person.user_id is not None
        cup = await tournaments.join(cup.id, person.user_id, person.name)
    await tournaments.start(cup.id)
    [table] = (await tournaments.get(cup.id)).rounds[0].tables
    assert table.match_id is not None
    match = await host.match(table.match_id)
    leaver = PEOPLE[0]
    seat = match.seat_of(leaver.user_id or 0)
    assert seat is not None
    old = pass_for(secret, match.id, seat, NOW - timedelta(days=1))
    assert (await client.get(f"/p/{old}")).status == 200
    await tournaments.replace(cup.id, f"u{leaver.user_id}", 9_999, "Newcomer")
    for path in (f"/p/{old}", f"/p/{old}/hand.png"):
        refused = await client.get(path)
        assert refused.status == 403
        assert "Newcomer" not in await refused.text()
    fresh = pass_for(secret, match.id, seat, NOW)
    page = await client.get(f"/p/{fresh}")
    assert page.status == 200 and "Newcomer" in await page.text()
