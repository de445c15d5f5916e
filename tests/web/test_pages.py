"""The public match page and its board, in both languages, with the headers every answer carries."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from datetime import UTC

from aiohttp.test_utils import TestClient, TestServer
from pydantic import BaseModel

from data.backend import Stores
from engine.core.rng import Rng
from engine.host.clock import Pace
from engine.host.service import GameHost
from render.registry import render_view
from tests.web.conftest import PEOPLE, computers_match, people_match, play_moves
from web.app import create_app

SECURITY_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy")


def assert_secure(headers: object) -> None:
    for name in SECURITY_HEADERS:
        assert name in headers, name  # type: ignore[operator]
    policy = headers["Content-Security-Policy"]  # type: ignore[index]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert headers["X-Frame-Options"] == "DENY"  # type: ignore[index]
    assert headers["X-Content-Type-Options"] == "nosniff"  # type: ignore[index]
    assert headers["Referrer-Policy"] == "same-origin"  # type: ignore[index]


async def test_the_public_page_shows_the_board_and_the_whole_log_in_english(
    host: GameHost, client: TestClient
) -> None:
    match = await computers_match(host, "ny_piatnik", 3)
    answer = await client.get(f"/m/{match.id}")
    assert answer.status == 200
    page = await answer.text()
    assert_secure(answer.headers)
    assert f'<image href="/m/{match.id}/board-large.png?v={match.version}' in page
    assert 'name="viewport"' in page
    # One script, the table's own file: nothing written into the page runs.
    assert page.count("<script") == 1 and '<script src="/static/live.js" defer></script>' in page
    assert "New York" in page and f"match #{match.id}" in page
    log = await host.public_log(match, limit=0, locale="en")
    assert len(log) > 30  # a whole match, none of it cut
    # Newest first: the latest lines open, all that came before folded below them, numbered as played.
    section = page[page.index('<section class="log">') :]
    latest, earlier = section.split('<details class="earlier">')
    shown = [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", latest)]
    folded = [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", earlier.split("</details>")[0])]
    assert shown + folded == log[::-1] and len(shown) == 12
    assert f'<ol reversed start="{len(log)}">' in latest and f'<ol reversed start="{len(folded)}">' in earlier
    assert "<summary>Earlier moves</summary>" in earlier
    assert "Final standings:" in page and "wins with" in page
    # Words, never the engine's notation.
    for logged in await host.store.action_log(match.id):
        if any(ch.isdigit() for ch in logged.notation) and len(logged.notation) > 5:
            assert logged.notation not in page


async def test_the_public_page_speaks_italian_when_asked(host: GameHost, client: TestClient) -> None:
    match = await computers_match(host, "ny_piatnik", 3)
    page = await (await client.get(f"/m/{match.id}?lang=it")).text()
    assert '<html lang="it">' in page
    assert f"partita n. {match.id}" in page and "Tutte le mosse finora" in page
    assert "Classifica finale:" in page and "vince con" in page
    for english in ("match #", "Every move so far", "Final standings", "wins with", "The board"):
        assert english not in page
    for line in await host.public_log(match, limit=0, locale="it"):
        assert f"<li>{html.escape(line)}</li>" in page


async def test_the_browser_language_chooses_when_the_address_does_not(
    host: GameHost, client: TestClient
) -> None:
    match = await computers_match(host, "skyline", 2)
    italian = await client.get(f"/m/{match.id}", headers={"Accept-Language": "fr-FR,it;q=0.8,en;q=0.5"})
    assert '<html lang="it">' in await italian.text()
    english = await client.get(f"/m/{match.id}", headers={"Accept-Language": "de, en-GB;q=0.9, it;q=0.1"})
    assert '<html lang="en">' in await english.text()
    neither = await client.get(f"/m/{match.id}", headers={"Accept-Language": "fr, de;q=0.5"})
    assert '<html lang="en">' in await neither.text()
    asked = await client.get(f"/m/{match.id}?lang=en", headers={"Accept-Language": "it"})
    assert '<html lang="en">' in await asked.text()


async def test_the_board_is_the_posts_board_as_a_png(host: GameHost, client: TestClient) -> None:
    match = await computers_match(host, "fifth_avenue", 3)
    answer = await client.get(f"/m/{match.id}/board.png")
    assert answer.status == 200
    assert answer.content_type == "image/png"
    assert_secure(answer.headers)
    png = await answer.read()
    assert png == render_view(match.game, host.view(match, None), match.seat_names(), "en")


async def test_a_match_waiting_for_a_person_says_whose_turn_it_is(host: GameHost, client: TestClient) -> None:
    match = await people_match(host, "ny_henn", 3)
    (seat,) = host.to_act(match)
    player = match.player_at(seat)
    assert player is not None
    page = await (await client.get(f"/m/{match.id}")).text()
    assert f"Waiting for {player.name}" in page
    page_it = await (await client.get(f"/m/{match.id}?lang=it")).text()
    assert f"Si aspetta {player.name}" in page_it


async def test_unknown_pages_are_refused_with_the_same_headers(client: TestClient) -> None:
    for address in ("/m/999", "/m/999/board.png", "/nothing"):
        answer = await client.get(address)
        assert answer.status == 404
        assert_secure(answer.headers)
    style = await client.get("/static/web.css")
    assert style.status == 200
    assert_secure(style.headers)


async def test_a_lobby_has_a_page_without_a_board(host: GameHost, client: TestClient) -> None:
    match = await host.create_match("skyline", 3, seed=2)
    answer = await client.get(f"/m/{match.id}")
    assert answer.status == 200
    page = await answer.text()
    assert "<img" not in page and "has not started yet" in page
    assert (await client.get(f"/m/{match.id}/board.png")).status == 404


async def test_running_scores_show_where_the_game_keeps_them_open(host: GameHost, client: TestClient) -> None:
    rng = Rng.from_seed(2)
    for game in ("ny_henn", "ny1901", "fifth_avenue"):
        match = await play_moves(host, await people_match(host, game, 3), 30, rng)
        view = host.view(match, None)
        rows = getattr(view, "players", None) or view.seats  # type: ignore[attr-defined]
        page = await (await client.get(f"/m/{match.id}")).text()
        assert "Points so far" in page, game
        name = host.namer(match)
        for seat, row in enumerate(rows):
            unit = "point" if row.score == 1 else "points"
            assert f"<li>{html.escape(name(seat))} · {row.score} {unit}</li>" in page, game
    # Skyline's score waits for the secret missions: none is shown while it runs.
    skyline = await play_moves(host, await people_match(host, "skyline", 3), 10, rng)
    assert "Points so far" not in await (await client.get(f"/m/{skyline.id}")).text()


async def test_a_match_with_a_clock_says_until_when_the_seat_to_act_has(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    match = await host.create_match("ny1901", 2, creator=PEOPLE[0], seed=3, pace=Pace.DAILY)
    await host.join(match.id, PEOPLE[1])
    await host.start(match.id, by_user=PEOPLE[0].user_id)
    match = await host.match(match.id)
    (seat,) = host.to_act(match)
    deadline = (await host.seat_clocks(match))[seat].deadline
    assert deadline is not None
    when = deadline.astimezone(UTC)
    player = html.escape(host.namer(match)(seat))
    english = await (await client.get(f"/m/{match.id}?lang=en")).text()
    assert f"⏰ {player} has until {when:%a} {when.day} {when:%b}, {when:%H:%M} UTC to move" in english
    italian = await (await client.get(f"/m/{match.id}?lang=it")).text()
    assert f"⏰ {player} ha tempo fino a " in italian and f"{when.day} " in italian
    # A match without a clock says nothing of one.
    free = await people_match(host, "ny1901", 2)
    assert "⏰" not in await (await client.get(f"/m/{free.id}")).text()


async def test_a_board_is_drawn_once_per_version_for_every_page_and_kept_by_browsers(
    host: GameHost, stores: Stores
) -> None:
    drawn: list[tuple[str, str]] = []

    async def counting(game: str, view: BaseModel, names: Sequence[str], locale: str) -> bytes | None:
        drawn.append((game, locale))
        return render_view(game, view, tuple(names), locale)

    match = await people_match(host, "ny_piatnik", 2)
    app = create_app(host, stores.settings, draw=counting)
    async with TestClient(TestServer(app)) as client:
        address = f"/m/{match.id}/board.png?v={match.version}&lang=it"
        answers = [await client.get(address) for _ in range(5)]
        assert [answer.status for answer in answers] == [200] * 5 and drawn == [("ny_piatnik", "it")]
        assert answers[0].headers["Cache-Control"] == "public, max-age=86400, immutable"
        # Asked for without its version, the board as it stands is not to be kept.
        assert (await client.get(f"/m/{match.id}/board.png?lang=it")).headers["Cache-Control"] == "no-cache"
        moved = await play_moves(host, match, 1, Rng(3))
        after = await client.get(f"/m/{match.id}/board.png?v={moved.version}&lang=it")
        assert await after.read() != await answers[0].read() and len(drawn) == 2
