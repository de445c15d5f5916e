"""The board on the match pages: drawn at twice the posts' scale in an inline SVG with a link on every
place, which a seat's page answers with its moves on that place, and the public page with its name only."""

from __future__ import annotations

import html
import io
import re
from urllib.parse import parse_qs, urlsplit

from aiohttp.test_utils import TestClient
from PIL import Image

from engine.core.rng import Rng
from engine.host.places import places_in_words, touched_places
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost
from engine.host.shortcuts import steps
from tests.render.test_places import PLACELESS
from tests.web.conftest import NOW, people_match, play_moves
from tests.web.test_leaks import hidden_values, shown
from web.links import pass_for

SPOT = re.compile(
    r'<a href="(?P<href>[^"]*)" class="spot(?P<chosen> chosen)?"><title>(?P<name>[^<]*)</title>'
)
PLACE_SECTION = re.compile(r'<section class="place" id="place">(?P<body>.*?)</section>', re.S)
GAMES = (("ny1901", 3), ("fifth_avenue", 3), ("ny_henn", 3), ("ny_piatnik", 4), ("skyline", 3))


def spots_chosen(page: str) -> dict[str, tuple[str, bool]]:
    """The places the page's board links to, each with its name and whether it is the chosen one."""
    found = {}
    for spot in SPOT.finditer(page):
        address = urlsplit(html.unescape(spot["href"]))
        assert address.path == "" and address.fragment == "place"
        (key,) = parse_qs(address.query)["place"]
        found[key] = (html.unescape(spot["name"]), spot["chosen"] is not None)
    return found


def spots(page: str) -> dict[str, str]:
    """The places the page's board links to, each with its name: key → name."""
    return {key: name for key, (name, _) in spots_chosen(page).items()}


def place_section(page: str) -> str | None:
    found = PLACE_SECTION.search(page)
    return found["body"] if found else None


def listed(section: str) -> list[str]:
    """The words of the moves a section offers as buttons."""
    return [
        html.unescape(item) for item in re.findall(r'name="move" value="[^"]*">([^<]*)</button>', section)
    ]


async def test_the_board_is_drawn_large_in_an_svg_with_a_link_on_every_place(
    host: GameHost, client: TestClient
) -> None:
    match = await people_match(host, "skyline", 3)
    page = await (await client.get(f"/m/{match.id}")).text()
    box = re.search(r'<svg class="board-map"[^>]* viewBox="0 0 (\d+) (\d+)"', page)
    assert box is not None
    width, height = int(box[1]), int(box[2])
    large = await client.get(f"/m/{match.id}/board-large.png?v={match.version}&lang=en")
    assert large.status == 200 and large.content_type == "image/png"
    small = await client.get(f"/m/{match.id}/board.png")
    with (
        Image.open(io.BytesIO(await large.read())) as picture,
        Image.open(io.BytesIO(await small.read())) as post,
    ):
        assert picture.size == (width, height) == (2 * post.width, 2 * post.height)
    assert f'<image href="/m/{match.id}/board-large.png?v={match.version}&amp;lang=en"' in page
    linked = spots(page)
    assert len(linked) == 36 and linked["C4"] == "site C4"
    # Every place is a link holding rectangles, named in words; none is chosen yet.
    assert page.count("<rect ") >= 36 and " chosen" not in page and place_section(page) is None
    # No style or script inside the page: the policy allows the site's own style sheet only.
    # Nothing inline: the page's one script is the table's own file, which follows the match.
    assert "style=" not in page and "<style" not in page
    assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/live.js" defer>']
    assert 'class="zoom-toggle"' in page and "Show the board at full size" in page


async def test_the_places_are_named_in_italian_on_an_italian_page(host: GameHost, client: TestClient) -> None:
    match = await people_match(host, "ny1901", 3)
    english = spots(await (await client.get(f"/m/{match.id}")).text())
    italian = spots(await (await client.get(f"/m/{match.id}?lang=it")).text())
    assert english.keys() == italian.keys() and len(english) == 65
    assert italian == {key: sight.name for key, sight in places_in_words(host, match, english, "it").items()}
    assert english["G07"] == "green lot 7" and italian["G07"] != english["G07"]
    # The language asked for stays in the places' links.
    page = await (await client.get(f"/m/{match.id}?lang=it")).text()
    assert 'href="?lang=it&amp;place=G07#place"' in page


async def check_seat_page(
    host: GameHost, client: TestClient, secret: bytes, match: MatchRecord, locale: str
) -> int:
    """The page of the seat to act: a link on every place its moves touch, and each place it is asked
    for lists the labels of exactly those moves; returns how many places were asked for."""
    (seat, *_) = host.to_act(match)
    token = pass_for(secret, match.id, seat, NOW)
    page = await (await client.get(f"/p/{token}?lang={locale}")).text()
    linked = spots(page)
    touching: dict[str, list[str]] = {}
    for entry, places in touched_places(host, match, seat, locale):
        if not places:
            assert steps(entry.notation)[0].split()[0] in PLACELESS[match.game], entry.notation
        for place in places:
            assert place in linked, (entry.notation, place)
            touching.setdefault(place, []).append(entry.label)
    asked = sorted(touching)[:: max(1, len(touching) // 3)]
    for place in asked:
        chosen = await (await client.get(f"/p/{token}?lang={locale}&place={place}")).text()
        section = place_section(chosen)
        assert section is not None and linked[place] in html.unescape(section)
        assert ("Moves on" if locale == "en" else "Mosse su questo punto:") in section
        assert listed(section) == touching[place]
        assert [key for key, (name, chosen_now) in spots_chosen(chosen).items() if chosen_now] == [place]
    return len(asked)


async def test_a_seats_page_lists_its_moves_on_each_place_of_every_game(
    host: GameHost, client: TestClient, secret: bytes
) -> None:
    rng = Rng.from_seed(5)
    for game, seats in GAMES:
        match = await people_match(host, game, seats, seed=len(game))
        asked = 0
        for position in range(6):
            if match.status is not MatchStatus.ACTIVE:
                break
            asked += await check_seat_page(host, client, secret, match, ("en", "it")[position % 2])
            match = await play_moves(host, match, 7, rng)
        assert asked >= 3, game


async def test_a_place_on_the_public_page_carries_its_name_and_nothing_secret(
    host: GameHost, client: TestClient
) -> None:
    rng = Rng.from_seed(8)
    looked = 0
    for game, seats in GAMES:
        match = await play_moves(host, await people_match(host, game, seats, seed=3), 12, rng)
        (seat, *_) = host.to_act(match)
        hidden = hidden_values(host, match)
        for locale in ("en", "it"):
            moves = touched_places(host, match, seat, locale)
            labels = {entry.label for entry, places in moves if places}
            for place in sorted({place for _, places in moves for place in places})[:4]:
                page = await (await client.get(f"/m/{match.id}?lang={locale}&place={place}")).text()
                section = place_section(page)
                assert section is not None and listed(section) == []
                assert spots(page)[place] in html.unescape(section)
                assert [label for label in labels if label in html.unescape(section)] == []
                assert [value for value in hidden if shown(value, page)] == []
                looked += 1
    assert looked >= 30


async def test_off_its_turn_a_seat_is_told_why_it_has_no_moves_on_a_place(
    host: GameHost, client: TestClient, secret: bytes
) -> None:
    match = await people_match(host, "ny_piatnik", 3)
    (acting,) = host.to_act(match)
    waiting = (acting + 1) % 3
    token = pass_for(secret, match.id, waiting, NOW)
    page = await (await client.get(f"/p/{token}?place=PARK-42")).text()
    section = place_section(page)
    assert section is not None and listed(section) == []
    assert "Waiting for" in section and "the building at Park Ave & 42nd St" in html.unescape(section)


async def test_an_unknown_place_chooses_nothing_and_a_lobby_has_no_board(
    host: GameHost, client: TestClient
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    for asked in ("XX", "<b>TS</b>", ""):
        answer = await client.get(f"/m/{match.id}", params={"place": asked})
        assert answer.status == 200
        page = await answer.text()
        assert place_section(page) is None and " chosen" not in page and "<b>TS" not in page
    lobby = await host.create_match("ny1901", 3, seed=2)
    page = await (await client.get(f"/m/{lobby.id}?place=G07")).text()
    assert "<svg" not in page and place_section(page) is None
    assert (await client.get(f"/m/{lobby.id}/board-large.png")).status == 404
