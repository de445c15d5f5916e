"""Playing from a seat's private page: a move goes through the host as one from Discord does and the page
says what was played; a form without the seat's session, its token, from another site, for an old board,
or sent too often changes nothing."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator, Sequence
from datetime import datetime, timedelta
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from data.backend import Stores
from engine.core.rng import Rng
from engine.host.languages import LANGUAGE
from engine.host.link_secret import link_secret
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.service import GameHost
from engine.registry import POLICIES
from tests.web.conftest import NOW, PEOPLE, people_match
from web.app import create_app
from web.links import SeatPass, pass_for
from web.sessions import cookie_name, form_token

FORM = re.compile(r'name="form" value="([0-9a-f]+)"')
MOVE = re.compile(r'name="move" value="([^"]*)">([^<]*)</button>')


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def moved() -> list[int]:
    """How many times the table was told of a move from a page."""
    return []


@pytest.fixture
async def table(host: GameHost, stores: Stores, clock: Clock, moved: list[int]) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    app = create_app(host, stores.settings, clock=clock, on_move=lambda: moved.append(1))
    async with TestClient(TestServer(app)) as served:
        yield served


@pytest.fixture
async def secret(table: TestClient, stores: Stores) -> bytes:  # type: ignore[type-arg]
    return await link_secret(stores.settings)


async def opened(
    table: TestClient,
    secret: bytes,
    match: MatchRecord,
    seat: int,  # type: ignore[type-arg]
) -> tuple[str, str, str]:
    """The seat's link, its page as first opened (starting the session) and the page's form token."""
    token = pass_for(secret, match.id, seat, NOW)
    answer = await table.get(f"/p/{token}")
    assert answer.status == 200
    page = await answer.text()
    found = FORM.search(page)
    if found is not None:
        return token, page, found.group(1)
    # A page with nothing to play carries no form; its session's token is the one its forms will carry.
    cookie = answer.cookies[cookie_name(SeatPass(match.id, seat, 0))].value
    return token, page, form_token(secret, cookie)


def offered(page: str) -> list[tuple[str, str]]:
    """The moves a page offers: (what it sends, what the button says)."""
    return [(html.unescape(value), html.unescape(label)) for value, label in MOVE.findall(page)]


async def test_a_move_from_the_page_is_played_and_said(
    host: GameHost,
    table: TestClient,
    secret: bytes,
    moved: list[int],  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "ny_henn", 3)
    (seat,) = host.to_act(match)
    token, page, form = await opened(table, secret, match, seat)
    assert '<p class="waiting">It is your turn: choose your move below.</p>' in page
    moves = offered(page)
    assert sorted(value for value, _ in moves) == sorted(
        entry.notation for entry in host.legal_menu(match, seat, "en")
    )
    move, label = moves[-1]
    answer = await table.post(
        f"/p/{token}/play", data={"form": form, "version": str(match.version), "move": move}
    )
    # Answered by the page's own address (a reload sends nothing again), which says what was played.
    assert answer.status == 200 and answer.history[0].status == 303 and answer.url.path == f"/p/{token}"
    after = await host.match(match.id)
    assert after.version > match.version
    assert (await host.store.action_at(match.id, match.version + 1)).notation == move  # type: ignore[union-attr]
    said = await answer.text()
    assert f"You played: {html.escape(label)}" in said
    assert moved == [1]
    # Sent again (a reload), the same form plays nothing twice.
    again = await table.post(
        f"/p/{token}/play", data={"form": form, "version": str(match.version), "move": move}
    )
    assert again.status == 200 and again.url.path == f"/p/{token}"
    assert (await host.match(match.id)).version == after.version
    assert moved == [1]


async def test_a_choice_of_several_is_played_from_its_boxes(
    host: GameHost,
    table: TestClient,
    secret: bytes,
    moved: list[int],  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "ny_henn", 3)
    (seat,) = host.to_act(match)
    choice = host.multi_selects(match, seat)[0]
    token, page, form = await opened(table, secret, match, seat)
    assert f'action="/p/{token}/pick"' in page and 'name="item" value="0"' in page
    fields = {"form": form, "version": str(match.version), "choice": "0"}
    # More items than the choice takes: refused in words, nothing played.
    too_many = await table.post(f"/p/{token}/pick", data=[*fields.items(), ("item", "0"), ("item", "1")])
    assert too_many.status == 409
    assert "⚠️ Tick 1 item</p>" in await too_many.text()
    assert (await host.match(match.id)).version == match.version
    answer = await table.post(f"/p/{token}/pick", data=[*fields.items(), ("item", "0")])
    assert answer.status == 200
    assert "You played:" in await answer.text()
    made = await host.store.action_at(match.id, match.version + 1)
    assert made is not None and made.notation == choice.notation([0])
    assert moved == [1]


async def test_a_form_without_its_session_or_token_changes_nothing(
    host: GameHost,
    table: TestClient,
    secret: bytes,
    moved: list[int],  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    seat = host.to_act(match)[0]
    other = (seat + 1) % 3
    token, page, form = await opened(table, secret, match, seat)
    move, _ = offered(page)[0]
    fields = {"form": form, "version": str(match.version), "move": move}
    other_token, _, other_form = await opened(table, secret, match, other)
    refused = [
        # Another seat's link, with its own session and token: that seat may not play this seat's move,
        # and its page says whose turn it is.
        (f"/p/{other_token}/play", {**fields, "form": other_form}, {}, 409),
        # This seat's link with the other seat's form token.
        (f"/p/{token}/play", {**fields, "form": other_form}, {}, 403),
        # A token that is not the page's.
        (f"/p/{token}/play", {**fields, "form": "0" * 64}, {}, 403),
        (f"/p/{token}/play", {k: v for k, v in fields.items() if k != "form"}, {}, 403),
        # Sent from another site's page.
        (f"/p/{token}/play", fields, {"Origin": "https://elsewhere.example"}, 403),
        # A board version that is not a number, no move, a move that is not a move.
        (f"/p/{token}/play", {**fields, "version": "x"}, {}, 400),
        (f"/p/{token}/play", {**fields, "move": ""}, {}, 400),
        (f"/p/{token}/play", {**fields, "move": "dance"}, {}, 409),
        # A board that has moved on is refused in words.
        (f"/p/{token}/play", {**fields, "version": str(match.version + 3)}, {}, 409),
    ]
    for address, data, headers, status in refused:
        answer = await table.post(address, data=data, headers=headers)
        assert answer.status == status, (address, data, headers)
        assert (await host.match(match.id)).version == match.version
    # Without the session cookie (a browser that did not open the link first).
    table.session.cookie_jar.clear()
    assert (await table.post(f"/p/{token}/play", data=fields)).status == 403
    assert (await host.match(match.id)).version == match.version and moved == []


async def test_refusals_say_what_is_wrong_in_the_players_language(
    host: GameHost,
    stores: Stores,
    table: TestClient,
    secret: bytes,  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "skyline", 3, seed=2)
    (seat,) = host.to_act(match)
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    await stores.settings.set("user", player.user_id, LANGUAGE, "it")
    token, page, form = await opened(table, secret, match, seat)
    move, _ = offered(page)[0]
    stale = await table.post(
        f"/p/{token}/play", data={"form": form, "version": str(match.version + 1), "move": move}
    )
    assert stale.status == 409
    text = await stale.text()
    said = re.search(r'<p class="refused" role="alert">⚠️ ([^<]*)</p>', text)
    assert said is not None
    # In Italian, in words, and about the page rather than the chat's posts and buttons.
    assert said.group(1) == (
        "Il tabellone è cambiato da quando questa pagina è stata disegnata: eccolo com’è ora. "
        "Scegli di nuovo."
    )


async def test_moves_and_wrong_links_are_limited(
    host: GameHost,
    table: TestClient,
    secret: bytes,
    clock: Clock,  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "ny1901", 2)
    (seat,) = host.to_act(match)
    token, page, form = await opened(table, secret, match, seat)
    move, _ = offered(page)[0]
    old = {"form": form, "version": str(match.version + 1), "move": move}
    statuses = [(await table.post(f"/p/{token}/play", data=old)).status for _ in range(62)]
    assert statuses[:60] == [409] * 60 and statuses[60:] == [429, 429]
    clock.now += timedelta(seconds=1)
    assert (await table.post(f"/p/{token}/play", data=old)).status == 409
    # Twenty wrong links from one address, then even a right one waits; six seconds later it opens.
    for n in range(20):
        assert (await table.get(f"/p/{match.id}.{seat}.{n}.guess")).status == 403
    assert (await table.get(f"/p/{token}")).status == 403
    clock.now += timedelta(seconds=6)
    assert (await table.get(f"/p/{token}")).status == 200


async def test_a_match_played_to_its_end_from_the_pages(
    host: GameHost,
    table: TestClient,
    secret: bytes,
    clock: Clock,  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "ny_piatnik", 2, seed=5)
    forms: dict[int, tuple[str, str]] = {}
    for seat in range(2):
        token, _, form = await opened(table, secret, match, seat)
        forms[seat] = (token, form)
    rng = Rng(7)
    greedy = POLICIES[match.game]["greedy"]
    rules = host.rules(match.game)
    for _ in range(500):
        match = await host.match(match.id)
        if match.status is not MatchStatus.ACTIVE:
            break
        seat = min(host.to_act(match))
        token, form = forms[seat]
        page = await (await table.get(f"/p/{token}")).text()
        moves = [value for value, _ in offered(page)]
        state = host.state_of(match)
        move = rules.notation(greedy.choose(rules, state, seat, rules.legal_actions(state, seat), rng))
        assert move in moves
        clock.now += timedelta(seconds=1)
        answer = await table.post(
            f"/p/{token}/play", data={"form": form, "version": str(match.version), "move": move}
        )
        assert answer.status == 200, await answer.text()
    assert match.status is MatchStatus.FINISHED
    final = await (await table.get(f"/p/{forms[0][0]}")).text()
    assert host.namer(match)(0) in final and 'name="move"' not in final


class FailsOnceArmed:
    """A computer player that plays the first legal move until it is armed, then fails."""

    name = "failing"
    armed = False

    def choose(self, rules: Any, state: Any, seat: int, legal: Sequence[Any], rng: Rng) -> Any:
        if self.armed:
            raise RuntimeError("the computer player broke")
        return legal[0]


async def test_a_move_that_stands_though_the_computers_failed_after_it_says_so_for_the_page(
    stores: Stores, clock: Clock
) -> None:
    failing = FailsOnceArmed()
    host = GameHost(
        stores.matches,
        policies={**POLICIES, "ny_piatnik": {**POLICIES["ny_piatnik"], "failing": failing}},
        seed_source=lambda: 1,
    )
    secret = b""
    for locale, go_on in (
        ("en", "but that was done and stands. The board below shows the match as it stands now."),
        ("it", "è stato registrato e resta valido. Il tabellone qui sotto mostra la partita com’è ora."),
    ):
        failing.armed = False
        match = await host.create_match("ny_piatnik", 2, creator=PEOPLE[0], seed=3)
        await host.add_computer(match.id, "failing")
        match = (await host.start(match.id, by_user=PEOPLE[0].user_id)).match
        failing.armed = True
        seat = match.seat_of(PEOPLE[0].user_id or 0)
        assert seat is not None
        app = create_app(host, stores.settings, clock=clock)
        async with TestClient(TestServer(app), headers={"Accept-Language": locale}) as table:
            secret = secret or await link_secret(stores.settings)
            token, page, form = await opened(table, secret, match, seat)
            said = ""
            # The person's moves from the page, until the computer's turn comes and it fails.
            while "`" not in said:
                match = await host.match(match.id)
                assert seat in host.to_act(match)
                move, _ = offered(page)[0]
                answer = await table.post(
                    f"/p/{token}/play", data={"form": form, "version": str(match.version), "move": move}
                )
                said = page = html.unescape(await answer.text())
            assert go_on in said
            assert "Press Play" not in said and "Premi Gioca" not in said
            assert (await host.match(match.id)).version > match.version  # the move stands
