"""The replay pages: a match step by step as spectators saw it, and a seat's own replay behind its link.
Each step shows the board as it stood after its move (drawn from the match replayed afresh here), what
the move said, a scrubber and step links over every move, and the turns and scorings to jump to; a seat's
replay shows its own view of each step and never another seat's; a public replay shows no secret."""

from __future__ import annotations

import html
import re

from aiohttp.test_utils import TestClient
from pydantic import BaseModel

from engine.core.replay import advance
from engine.core.rng import Rng
from engine.host.ports import MatchRecord
from engine.host.service import GameHost
from render.places import LARGE
from render.registry import render_board, render_view
from tests.web.conftest import NOW, computers_match, people_match, play_moves
from tests.web.test_leaks import SECRET_FIELDS, SETUPS, shown, strings
from tests.web.test_private import tampered
from web.links import pass_for

BOARD = re.compile(r'<img class="board-map" src="([^"]+)"')
HAND = re.compile(r'<figure class="hand">\s*<a href="[^"]*"><img src="([^"]+)"')
WHERE = re.compile(r'<p class="where" id="where">([^<]*)</p>')
SAID = re.compile(r'<section class="said" role="status">(.*?)</section>', re.S)
STEP = re.compile(
    r'<(a|span) class="step"(?: href="\?([^"]*)")?[^>]*><span aria-hidden="true">[^<]*</span> ([^<]*)<'
)
JUMP = re.compile(
    r'<li><a href="\?(?P<query>[^"]*)"(?P<current> aria-current="step")?>(?P<label>[^<]*)</a> '
    r'<span class="about">(?P<about>[^<]*)</span></li>'
)
SCRUBBER = re.compile(
    r'<form method="get" action="(?P<action>[^"]*)" class="scrubber">(?P<body>.*?)</form>', re.S
)
RANGE = re.compile(
    r'<input type="range" id="move" name="move" min="(?P<min>\d+)" max="(?P<max>\d+)" step="1" '
    r'value="(?P<value>\d+)">'
)


def found(pattern: re.Pattern[str], page: str) -> str:
    match = pattern.search(page)
    assert match is not None, pattern.pattern
    return html.unescape(match[1])


def said(page: str) -> list[str]:
    """The lines the step says its move said."""
    section = SAID.search(page)
    return [html.unescape(line) for line in re.findall(r"<p[^>]*>([^<]*)</p>", section[1])] if section else []


def moved_to(query: str) -> int:
    """The move a link's query goes to."""
    (move,) = re.findall(r"(?:^|&(?:amp;)?)move=(\d+)", query)
    return int(move)


async def state_after(host: GameHost, match: MatchRecord, move: int) -> BaseModel:
    """``match`` after its ``move``-th kept move, replayed here from its seed and kept log."""
    rules = host.rules(match.game)
    kept = await host.store.kept_actions(match.id)
    opening = rules.setup(match.seat_count, match.seed, match.options)
    state, _ = advance(rules, opening, [entry for _, entry in kept[:move]])
    return state


async def version_after(host: GameHost, match: MatchRecord, move: int) -> int:
    kept = await host.store.kept_actions(match.id)
    return kept[move - 1][0] if move else kept[0][0] - 1


async def test_each_step_shows_the_board_after_its_move_and_what_it_said(
    host: GameHost, client: TestClient
) -> None:
    match = await computers_match(host, "ny_piatnik", 3)
    rules = host.rules(match.game)
    moves = len(await host.store.kept_actions(match.id))
    log = await host.public_log(match, limit=0, locale="en")
    drawn = set()
    for move in (0, 1, 2, moves // 2, moves):
        answer = await client.get(f"/m/{match.id}/replay?move={move}")
        assert answer.status == 200
        page = await answer.text()
        assert found(WHERE, page) == ("the opening" if move == 0 else f"move {move} of {moves}")
        board = await client.get(found(BOARD, page))
        assert board.status == 200 and board.content_type == "image/png"
        png = await board.read()
        view = rules.view(await state_after(host, match, move), None)
        assert view == await host.view_at(match, await version_after(host, match, move))
        assert png == render_board(match.game, view, match.seat_names(), "en", LARGE)
        drawn.add(png)
        # What the move said, in the words of the match's log; the opening said nothing.
        lines = said(page)
        assert bool(lines) == (move > 0)
        for line in lines:
            assert line in log
        assert "<script" not in page
    assert len(drawn) == 5  # each step its own board, never today's
    # With no move asked, the latest; past the last, the last.
    for address in (f"/m/{match.id}/replay", f"/m/{match.id}/replay?move=99999"):
        page = await (await client.get(address)).text()
        assert found(WHERE, page) == f"move {moves} of {moves}"


async def test_a_running_match_replays_up_to_its_latest_move(host: GameHost, client: TestClient) -> None:
    match = await play_moves(host, await people_match(host, "fifth_avenue", 3), 12, Rng.from_seed(4))
    moves = len(await host.store.kept_actions(match.id))
    page = await (await client.get(f"/m/{match.id}/replay")).text()
    assert found(WHERE, page) == f"move {moves} of {moves}"
    assert "Final scoring" not in page
    page = await (await client.get(f"/m/{match.id}/replay?move=7")).text()
    png = await (await client.get(found(BOARD, page))).read()
    view = host.rules(match.game).view(await state_after(host, match, 7), None)
    assert png == render_board(match.game, view, match.seat_names(), "en", LARGE)


async def test_the_scrubber_and_the_step_links_go_to_every_move(host: GameHost, client: TestClient) -> None:
    match = await computers_match(host, "skyline", 2)
    moves = len(await host.store.kept_actions(match.id))
    steps = {0: (None, None, 1, moves), 5: (0, 4, 6, moves), moves: (0, moves - 1, None, None)}
    for move, targets in steps.items():
        page = await (await client.get(f"/m/{match.id}/replay?move={move}")).text()
        form = SCRUBBER.search(page)
        assert form is not None and form["action"] == f"/m/{match.id}/replay"
        scrub = RANGE.search(form["body"])
        assert scrub is not None
        assert (scrub["min"], scrub["max"], scrub["value"]) == ("0", str(moves), str(move))
        assert '<button type="submit">Show this move</button>' in form["body"]
        links = STEP.findall(page)
        assert [label for _, _, label in links] == ["First move", "Previous move", "Next move", "Last move"]
        # A step with nowhere to go is no link.
        assert tuple(moved_to(query) if tag == "a" else None for tag, query, _ in links) == targets
    # The form as a browser sends it: the move chosen on the range.
    sent = await (await client.get(f"/m/{match.id}/replay", params={"move": "9"})).text()
    assert found(WHERE, sent) == f"move 9 of {moves}"


async def test_the_jump_list_names_turns_and_scorings_and_marks_the_one_shown(
    host: GameHost, client: TestClient
) -> None:
    match = await computers_match(host, "ny_henn", 3)
    kept = await host.store.kept_actions(match.id)
    moves = len(kept)
    name = host.namer(match)
    page = await (await client.get(f"/m/{match.id}/replay?move=20")).text()
    jumps = list(JUMP.finditer(page))
    assert 5 <= len(jumps) <= 25
    current = [j for j in jumps if j["current"]]
    assert len(current) == 1
    turns = [j for j in jumps if html.unescape(j["label"]).startswith("Turn ")]
    assert turns and turns[0]["label"].startswith("Turn 1: ")
    for jump in turns:
        target = moved_to(jump["query"])
        # A turn's jump goes to its last move, played by the player it names; the next move is another's.
        seat = kept[target - 1][1].seat
        assert html.unescape(jump["label"]).endswith(f": {name(seat)}")
        assert target == moves or kept[target][1].seat != seat
    held = moved_to(current[0]["query"])
    first = int(re.findall(r"\d+", current[0]["about"])[0])
    assert first <= 20 <= held
    scorings = [j for j in jumps if "scoring" in j["label"].lower()]
    assert scorings and html.unescape(scorings[-1]["label"]) == f"🏆 Final scoring, move {moves}"
    # A jump's link opens its step.
    after = await (await client.get(f"/m/{match.id}/replay?{html.unescape(turns[1]['query'])}")).text()
    assert found(WHERE, after) == f"move {moved_to(turns[1]['query'])} of {moves}"


async def test_the_replay_speaks_italian_when_asked_or_when_the_browser_reads_it(
    host: GameHost, client: TestClient
) -> None:
    match = await computers_match(host, "ny_piatnik", 3)
    moves = len(await host.store.kept_actions(match.id))
    log = await host.public_log(match, limit=0, locale="it")
    asked = await (await client.get(f"/m/{match.id}/replay?move=4&lang=it")).text()
    browser = await (
        await client.get(f"/m/{match.id}/replay?move=4", headers={"Accept-Language": "it"})
    ).text()
    for page in (asked, browser):
        assert '<html lang="it">' in page
        assert found(WHERE, page) == f"mossa 4 di {moves}"
        assert "Prima mossa" in page and "Turni e punteggi" in page and f"partita n. {match.id}" in page
        assert all(line in log for line in said(page)) and said(page)
        for english in ("match #", "First move", "Show this move", "Turns and scorings", "Turn 1:", "move 4"):
            assert english not in page
    # An asked language is kept by every link and by the scrubber.
    assert all("lang=it" in query for _, query, _ in STEP.findall(asked) if query)
    assert '<input type="hidden" name="lang" value="it">' in asked
    assert "lang=" not in "".join(query for _, query, _ in STEP.findall(browser))


async def test_a_lobby_or_an_unknown_match_has_no_replay(host: GameHost, client: TestClient) -> None:
    lobby = await host.create_match("skyline", 3, seed=2)
    started = await computers_match(host, "skyline", 2)
    for address in (
        f"/m/{lobby.id}/replay",
        f"/m/{lobby.id}/replay/board.png?move=0",
        "/m/999/replay",
        f"/m/{started.id}/replay?move=two",
        f"/m/{started.id}/replay?move=-1",
    ):
        answer = await client.get(address)
        assert answer.status == 404, address
        page = await answer.text()
        assert "There is no such page" in page
        assert "Skyline" not in page and "#" not in page
    lobby_page = await (await client.get(f"/m/{lobby.id}")).text()
    assert "/replay" not in lobby_page


async def test_the_match_and_seat_pages_link_to_their_replays(
    host: GameHost, client: TestClient, secret: bytes
) -> None:
    match = await people_match(host, "ny1901", 3)
    page = await (await client.get(f"/m/{match.id}")).text()
    assert f'<a href="/m/{match.id}/replay">Replay</a>' in page
    italian = await (await client.get(f"/m/{match.id}?lang=it")).text()
    assert f'<a href="/m/{match.id}/replay?lang=it">Rivedi la partita</a>' in italian
    token = pass_for(secret, match.id, 1, NOW)
    seat_page = await (await client.get(f"/p/{token}")).text()
    assert f'<a href="/p/{token}/replay">Replay</a>' in seat_page


async def test_a_seats_replay_shows_its_own_view_of_each_step_and_no_other(
    host: GameHost, client: TestClient, secret: bytes
) -> None:
    match = await play_moves(
        host, await people_match(host, "skyline", 3, frozenset({"hidden"})), 15, Rng.from_seed(8)
    )
    rules = host.rules(match.game)
    names = match.seat_names()
    for seat in range(3):
        token = pass_for(secret, match.id, seat, NOW)
        for move in (0, 6, 15):
            answer = await client.get(f"/p/{token}/replay?move={move}")
            assert answer.status == 200
            page = await answer.text()
            assert "Your own view at that moment: nobody else sees it." in page
            assert f'href="/p/{token}">match #{match.id}</a>' in page
            state = await state_after(host, match, move)
            hand = await client.get(found(HAND, page))
            assert hand.status == 200
            png = await hand.read()
            assert png == render_view(match.game, rules.view(state, seat), names, "en")
            own = strings(rules.view(state, seat))
            for other in range(3):
                if other == seat:
                    continue
                view = rules.view(state, other)
                assert png != render_view(match.game, view, names, "en")
                secrets = set().union(
                    *(strings(getattr(view, f), True) for f in SECRET_FIELDS if hasattr(view, f))
                )
                leaked = {value for value in secrets - own if len(value) >= 2 and shown(value, page)}
                assert not leaked, (seat, other, move, leaked)
    # The seat's link opens its replay only: another seat's, tampered with, opens nothing.
    token = pass_for(secret, match.id, 0, NOW)
    for address in (f"/p/{tampered(token, 1)}/replay", f"/p/{tampered(token, 1)}/replay/hand.png?move=3"):
        answer = await client.get(address)
        assert answer.status == 403
        refusal = await answer.text()
        assert "This link does not open a page" in refusal
        assert "Skyline" not in refusal and "#" not in refusal


async def test_a_public_replay_shows_no_secret_of_its_step(host: GameHost, client: TestClient) -> None:
    rng = Rng.from_seed(36)
    looked = 0
    for game, (seats, options) in ((game, setups[0]) for game, setups in SETUPS.items()):
        match = await play_moves(host, await people_match(host, game, seats, options, seed=7), 40, rng)
        rules = host.rules(match.game)
        public_now = strings(host.view(match, None))
        for move in range(0, 41, 5):
            state = await state_after(host, match, move)
            hidden: set[str] = set()
            for seat in range(seats):
                view = rules.view(state, seat)
                for field in SECRET_FIELDS:
                    if field in type(view).model_fields:
                        hidden |= strings(getattr(view, field), naming_only=True)
            # What the public saw at that step, or sees now, is no secret (see test_leaks).
            hidden -= strings(rules.view(state, None)) | public_now
            hidden = {value for value in hidden if len(value) >= 2 and not value.isdigit()}
            for locale in ("en", "it"):
                page = await (await client.get(f"/m/{match.id}/replay?move={move}&lang={locale}")).text()
                leaked = sorted(value for value in hidden if shown(value, page))
                assert leaked == [], f"{game} at move {move} ({locale}) shows {leaked}"
            looked += 1
    assert looked >= 40
