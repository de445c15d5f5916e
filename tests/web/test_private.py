"""A seat's private page: its own hand and moves behind a signed link, and a refusal that names nothing of
the match for a link that is wrong, another seat's, expired or for no match."""

from __future__ import annotations

import html
import logging
import re
from datetime import timedelta

import pytest
from aiohttp.test_utils import TestClient, TestServer

from data.backend import Stores
from engine.host.languages import LANGUAGE
from engine.host.link_secret import link_secret
from engine.host.ports import MatchRecord
from engine.host.service import GameHost
from render.registry import render_view
from tests.web.conftest import NOW, people_match
from tests.web.test_pages import assert_secure
from web.app import create_app
from web.links import SeatPass, pass_for, sign
from web.serving import AccessLog


def tampered(token: str, seat: int) -> str:
    """``token`` with its seat changed to ``seat`` and its signature kept."""
    match_id, _, expires, signature = token.split(".")
    return f"{match_id}.{seat}.{expires}.{signature}"


async def test_a_seat_sees_its_own_hand_and_moves(host: GameHost, client: TestClient, secret: bytes) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    (seat,) = host.to_act(match)
    token = pass_for(secret, match.id, seat, NOW)
    answer = await client.get(f"/p/{token}")
    assert answer.status == 200
    assert_secure(answer.headers)
    page = await answer.text()
    # The public page's parts, then the seat's own: its hand drawn as its direct messages draw it and
    # its moves in words.
    assert f'<image href="/m/{match.id}/board-large.png' in page
    assert f'<img src="/p/{token}/hand.png' in page
    assert f"The hand and moves of {html.escape(host.namer(match)(seat))}:" in page
    labels = [entry.label for entry in host.legal_menu(match, seat, "en")]
    assert labels
    for label in labels:
        assert f">{html.escape(label)}</button>" in page
    hand = await client.get(f"/p/{token}/hand.png")
    assert hand.status == 200 and hand.content_type == "image/png"
    state = host.state_of(match)
    rules = host.rules(match.game)
    names = match.seat_names()
    png = await hand.read()
    assert png == render_view(match.game, rules.view(state, seat), names, "en")
    for other in range(match.seat_count):
        if other != seat:
            assert png != render_view(match.game, rules.view(state, other), names, "en")


async def test_a_seat_not_to_act_is_told_whose_turn_it_is(
    host: GameHost, client: TestClient, secret: bytes
) -> None:
    match = await people_match(host, "ny_piatnik", 3)
    waiting = next(seat for seat in range(3) if seat not in host.to_act(match))
    page = await (await client.get(f"/p/{pass_for(secret, match.id, waiting, NOW)}?lang=it")).text()
    assert '<html lang="it">' in page and "Si aspetta" in page
    assert '<ul class="moves">' not in page


def assert_names_nothing(page: str, match: MatchRecord, title: str) -> None:
    for player in match.players:
        assert player.name not in page
    assert title not in page
    # No number at all in what a person reads (the page's title and body), so not the match's.
    title_text = page.split("<title>")[1].split("</title>")[0]
    body = re.sub(r"<[^>]*>", " ", page.split("<main>")[1].split("</main>")[0])
    assert not any(ch.isdigit() for ch in title_text + body), title_text + body


async def test_wrong_links_are_refused_naming_nothing(
    host: GameHost, client: TestClient, secret: bytes
) -> None:
    match = await people_match(host, "skyline", 3, seed=4)
    title = host.rules(match.game).title
    good = pass_for(secret, match.id, 1, NOW)
    expires = int((NOW + timedelta(days=1)).timestamp())
    wrong = [
        good[:-2] + ("AA" if not good.endswith("AA") else "BB"),  # a bad signature
        tampered(good, 0),  # seat 1's link turned into seat 0's
        tampered(good, 2),
        pass_for(b"another secret", match.id, 1, NOW),  # signed by someone else
        sign(secret, SeatPass(match.id, 1, int((NOW - timedelta(seconds=1)).timestamp()))),  # expired
        sign(secret, SeatPass(match.id + 40, 1, expires)),  # no such match
        sign(secret, SeatPass(match.id, 3, expires)),  # no such seat
        "nonsense",
        "1.1.1.é",
    ]
    for token in wrong:
        for address in (f"/p/{token}", f"/p/{token}/hand.png"):
            answer = await client.get(address)
            assert answer.status == 403, token
            assert_secure(answer.headers)
            assert_names_nothing(await answer.text(), match, title)
    assert (await client.get(f"/p/{good}")).status == 200


async def test_the_access_log_never_holds_a_link(
    host: GameHost, stores: Stores, caplog: pytest.LogCaptureFixture
) -> None:
    match = await people_match(host, "ny_henn", 3)
    app = create_app(host, stores.settings, clock=lambda: NOW)
    with caplog.at_level(logging.INFO, logger="aiohttp.access"):
        server = TestServer(app)
        await server.start_server(access_log_class=AccessLog)  # as ``bot.py web`` serves it
        async with TestClient(server) as client:
            secret = await link_secret(stores.settings)
            token = pass_for(secret, match.id, 0, NOW)
            assert (await client.get(f"/p/{token}")).status == 200
            assert (await client.get(f"/p/{token}/hand.png")).status == 200
            assert (await client.get(f"/m/{match.id}")).status == 200
    logged = [record.getMessage() for record in caplog.records if record.name == "aiohttp.access"]
    assert len(logged) == 3, logged
    assert all(token not in line and token.split(".")[-1] not in line for line in logged)
    assert any(f"/m/{match.id}" in line for line in logged)


async def test_a_private_page_speaks_the_language_its_player_chose(
    host: GameHost, stores: Stores, client: TestClient, secret: bytes
) -> None:
    match = await people_match(host, "ny_piatnik", 3)
    italian, english = 0, 1
    player = match.player_at(italian)
    assert player is not None and player.user_id is not None
    await stores.settings.set("user", player.user_id, LANGUAGE, "it")
    english_browser = {"Accept-Language": "en-GB,en;q=0.9"}
    # Her choice wins over an English browser; the address may still ask for another language.
    mine_link = f"/p/{pass_for(secret, match.id, italian, NOW)}"
    mine = await (await client.get(mine_link, headers=english_browser)).text()
    assert '<html lang="it">' in mine
    assert f'/hand.png?v={match.version}&amp;lang=it"' in mine  # the hand is drawn in it too
    asked = f"{mine_link}?lang=en"
    assert '<html lang="en">' in await (await client.get(asked, headers=english_browser)).text()
    # A player with no choice reads the browser's language.
    their_link = f"/p/{pass_for(secret, match.id, english, NOW)}"
    theirs = await (await client.get(their_link, headers=english_browser)).text()
    assert '<html lang="en">' in theirs
