"""A newcomer's pages on a table for this computer only: the games, a game's choices, and a match started
at the guest's own page; choices that do not fit are refused in words, and a table for everyone has no
such pages."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from data.backend import Stores
from engine.host.first_match import GUEST_ID
from engine.host.ports import MatchStatus
from engine.host.service import GameHost
from tests.web.conftest import NOW
from web.app import create_app


@pytest.fixture
async def local(host: GameHost, stores: Stores) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    app = create_app(host, stores.settings, clock=lambda: NOW, guest=True)
    async with TestClient(TestServer(app)) as served:
        yield served


async def test_a_guest_starts_a_match_and_finds_it_again(
    host: GameHost,
    local: TestClient,  # type: ignore[type-arg]
) -> None:
    home = await (await local.get("/?lang=en")).text()
    for title in ("Fifth Avenue", "New York 1901", "New York (Dirk Henn)", "Skyline of the World"):
        assert html.escape(title) in home
    chosen = {"seats": "3", "level": "strong", "name": "Ysolde", "variant": "expert"}
    started = await local.post("/new/ny1901?lang=en", data=chosen, allow_redirects=False)
    assert started.status == 303 and started.headers["Location"].startswith("/p/1.")
    match = await host.match(1)
    assert match.status is MatchStatus.ACTIVE and match.options == frozenset({"expert"})
    assert [player.bot for player in match.players if player.user_id != GUEST_ID] == ["strong", "strong"]
    page = await (await local.get(started.headers["Location"])).text()
    assert "Ysolde: keep this page" in page and "It is your turn" in page
    home = await (await local.get("/?lang=en")).text()
    assert f'href="{started.headers["Location"]}"' in home and "New York 1901, match #1: being played" in home


async def test_choices_that_do_not_fit_are_refused_in_words(
    host: GameHost,
    local: TestClient,  # type: ignore[type-arg]
) -> None:
    team = {"seats": "3", "level": "greedy", "name": "Ysolde", "variant": "team"}
    refused = await local.post("/new/ny_piatnik?lang=it", data=team)
    assert refused.status == 409
    text = html.unescape(await refused.text())
    assert "⚠️ La variante “Partita a squadre in 4" in text and "si gioca in 4 giocatori" in text
    assert "`team`" not in text and "team" not in text.split("⚠️", 1)[1].split("</p>", 1)[0]
    # The form keeps what was chosen.
    assert 'value="3" checked' in text and 'value="team" checked' in text
    wrong_level = await local.post("/new/ny_henn?lang=en", data={**team, "variant": "", "level": "psychic"})
    assert (
        wrong_level.status == 409 and "There is no such level of computer player" in await wrong_level.text()
    )
    assert (await local.post("/new/ny_henn", data={**team, "seats": "many"})).status == 400
    assert (await local.get("/new/chess")).status == 404
    assert (await host.store.survey_matches((), guild_id=None, user_id=GUEST_ID, limit=5)).matches == []


async def test_a_table_for_everyone_has_no_newcomers_pages(client: TestClient) -> None:  # type: ignore[type-arg]
    assert (await client.get("/")).status == 404
    assert (await client.post("/new/ny_henn", data={"seats": "3"})).status in (404, 405)
