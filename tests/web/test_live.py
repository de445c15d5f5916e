"""Pages that follow their match live: the stream of a match's versions (server-sent events) tells each
move played through the host, whoever plays it, tells the current version to a page that (re)connects,
keeps a quiet stream open, carries nothing but version numbers, and ends when the server stops; the
pages carry their version, their stream and the one script that follows it."""

from __future__ import annotations

import asyncio
import re

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from data.backend import Stores, open_stores
from engine.core.rng import Rng
from engine.host.ports import MatchRecord
from engine.host.service import GameHost
from engine.host.sight_memory import SightMemory
from engine.host.sights import public_sight
from tests.web.conftest import NOW, PEOPLE, computers_match, people_match, play_moves
from web.app import create_app
from web.links import pass_for
from web.live import LIVE, SPREAD_PER_PAGE_MS

# Long enough for a busy machine; a test that passes never waits it out.
PATIENCE_S = 10.0


class Stream:
    """The events of one open stream, read as a browser reads them."""

    def __init__(self, response: ClientResponse) -> None:
        self.response = response
        self.comments = 0
        self.lines: list[str] = []  # every line received

    async def event(self) -> dict[str, str]:
        """The next event's fields (a block of comments alone is counted and passed over)."""
        fields: dict[str, str] = {}
        async with asyncio.timeout(PATIENCE_S):
            while True:
                line = (await self.response.content.readline()).decode()
                assert line, "the stream ended"
                line = line.rstrip("\n")
                self.lines.append(line)
                if line.startswith(":"):
                    self.comments += 1
                elif line:
                    name, _, value = line.partition(":")
                    fields[name] = value.strip()
                elif "data" in fields:
                    return fields

    async def comment(self) -> None:
        """Lines are read until a comment (and no event may come first)."""
        async with asyncio.timeout(PATIENCE_S):
            while True:
                line = (await self.response.content.readline()).decode()
                assert line, "the stream ended"
                self.lines.append(line.rstrip("\n"))
                assert not line.startswith(("data", "id")), line
                if line.startswith(":"):
                    self.comments += 1
                    return

    async def version(self) -> int:
        version, spread = map(int, (await self.event())["data"].split())
        assert 0 <= spread <= 500
        return version

    async def version_at_least(self, version: int) -> int:
        """Events are read until one tells ``version`` or later (moves made at once are told as one)."""
        while (told := await self.version()) < version:
            pass
        return told


async def opened(client: TestClient, match_id: int, **headers: str) -> Stream:  # type: ignore[type-arg]
    response = await client.get(f"/m/{match_id}/events", headers=headers)
    assert response.status == 200
    assert response.content_type == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    return Stream(response)


async def test_a_move_played_through_the_host_is_told_to_every_open_stream(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    streams = [await opened(client, match.id) for _ in range(3)]
    for stream in streams:
        assert await stream.version() == match.version
    moved = await play_moves(host, match, 1, Rng(3))
    assert moved.version == match.version + 1
    for stream in streams:
        # The version, and the spread of the pages' fetches, which grows with the pages following.
        assert (await stream.event())["data"] == f"{moved.version} {3 * SPREAD_PER_PAGE_MS}"
    assert host.versions.watchers(match.id) == 3


async def test_the_computers_answers_are_told_too(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    match = await host.create_match("ny_piatnik", 3, creator=PEOPLE[0], seed=2)
    stream = await opened(client, match.id)
    assert await stream.version() == match.version
    for _ in range(2):
        match = await host.add_computer(match.id, "greedy")
        assert await stream.version() == match.version  # the lobby's changes as well
    started = (await host.start(match.id, by_user=PEOPLE[0].user_id)).match
    # Whoever moves first, the stream reaches the version the match stands at once the computers wait
    # for the person.
    assert await stream.version_at_least(started.version) == started.version
    moved = await play_moves(host, started, 1, Rng(1))
    assert moved.version > started.version
    assert await stream.version_at_least(moved.version) == moved.version


async def test_a_page_that_reconnects_is_told_the_current_version_at_once(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    first = await opened(client, match.id)
    assert await first.version() == match.version
    first.response.close()  # the page lost its stream, and moves were played meanwhile
    moved = await play_moves(host, match, 3, Rng(5))
    again = await opened(client, match.id, **{"Last-Event-ID": str(match.version)})
    told = await again.event()
    assert told.keys() == {"retry", "id", "data"}
    assert told["id"] == told["data"].split()[0] == str(moved.version)
    assert int(told["retry"]) > 0
    # The first stream's watcher left with it.
    assert host.versions.watchers(match.id) == 1


async def test_a_resignation_and_an_undo_are_told(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    stream = await opened(client, match.id)
    assert await stream.version() == match.version
    moved = await play_moves(host, match, 1, Rng(2))
    assert await stream.version() == moved.version
    mover = next(p for p in PEOPLE if p.user_id is not None and moved.seat_of(p.user_id) is not None)
    assert mover.user_id is not None
    if await host.can_undo(moved, moved.seat_of(mover.user_id) or 0):
        undone = await host.undo(moved.id, mover.user_id)
        assert await stream.version_at_least(undone.version) == undone.version
    current = await host.match(match.id)
    quitter = PEOPLE[2]
    assert quitter.user_id is not None
    await host.resign(match.id, quitter.user_id)
    resigned = await host.match(match.id)
    assert resigned.version > current.version
    assert await stream.version_at_least(resigned.version) == resigned.version


async def test_a_quiet_stream_says_it_is_still_there_and_carries_only_versions(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    assert client.app is not None
    client.app[LIVE].keep_alive_s = 0.01
    match = await people_match(host, "fifth_avenue", 3)
    stream = await opened(client, match.id)
    assert await stream.version() == match.version
    await stream.comment()
    await stream.comment()
    moved = await play_moves(host, match, 1, Rng(4))
    assert await stream.version() == moved.version
    for line in stream.lines:
        assert re.fullmatch(r"|: still here|retry: \d+|id: \d+|data: \d+ \d+", line), line


async def test_an_unknown_match_has_no_stream(client: TestClient) -> None:  # type: ignore[type-arg]
    answer = await client.get("/m/999/events")
    assert answer.status == 404
    assert answer.content_type != "text/event-stream"


async def test_a_page_carries_its_version_its_stream_and_its_script(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
    secret: bytes,
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    token = pass_for(secret, match.id, 0, NOW)
    for address in (f"/m/{match.id}", f"/p/{token}"):
        answer = await client.get(address)
        page = await answer.text()
        assert f'<main data-version="{match.version}" data-events="/m/{match.id}/events">' in page
        assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/live.js" defer>']
        assert "script-src 'self';" in answer.headers["Content-Security-Policy"]
    moved = await play_moves(host, match, 1, Rng(6))
    # The page fetched again through the same link shows the new version.
    page = await (await client.get(f"/p/{token}")).text()
    assert f'<main data-version="{moved.version}"' in page
    script = await client.get("/static/live.js")
    assert script.status == 200
    assert "EventSource" in await script.text()


async def test_one_address_may_follow_only_so_many_streams_at_once(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    client.app[LIVE].streams_per_address = 2
    match = await people_match(host, "fifth_avenue", 3)
    streams = [await opened(client, match.id) for _ in range(2)]
    for stream in streams:
        assert await stream.version() == match.version
    refused = await client.get(f"/m/{match.id}/events")
    assert refused.status == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.content_type != "text/event-stream"
    assert "fifth" not in (await refused.text()).lower()  # it names nothing of the match
    # Once a page is closed, its stream makes room at once, though it has not written since.
    live = client.app[LIVE]
    (connections,) = live.streams.values()
    closed = connections[next(iter(connections))]
    assert closed is not None
    streams[0].response.close()
    async with asyncio.timeout(PATIENCE_S):
        while not closed.is_closing():  # the server hears the connection end
            await asyncio.sleep(0)
    again = await opened(client, match.id)
    assert await again.version() == match.version
    assert host.versions.watchers(match.id) == 2
    moved = await play_moves(host, match, 1, Rng(3))
    for stream in (streams[1], again):
        assert await stream.version_at_least(moved.version) == moved.version


async def test_a_page_says_when_it_stops_following_its_match(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    for locale, words in (
        ("en", "This page no longer follows the match by itself"),
        ("it", "Questa pagina non segue più la partita da sola"),
    ):
        page = await (await client.get(f"/m/{match.id}?lang={locale}")).text()
        note = re.search(r'<p class="note live-off" hidden>([^<]*)</p>', page)
        assert note is not None and note.group(1).startswith(words)
    script = await (await client.get("/static/live.js")).text()
    assert "live-off" in script and "EventSource.CLOSED" in script
    finished: MatchRecord = await computers_match(host, "fifth_avenue", 2)
    assert "live-off" not in await (await client.get(f"/m/{finished.id}")).text()


async def test_a_finished_match_is_not_followed(
    host: GameHost,
    client: TestClient,  # type: ignore[type-arg]
) -> None:
    match: MatchRecord = await computers_match(host, "fifth_avenue", 2)
    page = await (await client.get(f"/m/{match.id}")).text()
    assert f'<main data-version="{match.version}">' in page


async def test_open_streams_end_when_the_server_stops(host: GameHost, stores: Stores) -> None:
    app = create_app(host, stores.settings, clock=lambda: NOW)
    match = await people_match(host, "fifth_avenue", 3)
    served = TestClient(TestServer(app))
    await served.start_server()
    try:
        streams = [await opened(served, match.id) for _ in range(2)]
        for stream in streams:
            assert await stream.version() == match.version
    finally:
        # The server's default is to wait a minute for requests under way; these end at once.
        async with asyncio.timeout(PATIENCE_S):
            await served.close()
    assert host.versions.watchers() == 0


async def test_pages_asking_at_once_share_one_reading_of_the_sight(host: GameHost) -> None:
    match = await people_match(host, "fifth_avenue", 3)
    memory = SightMemory()
    first, second = await asyncio.gather(memory.public(host, match, "en"), memory.public(host, match, "en"))
    assert first is second and first.version == match.version
    assert (await memory.public(host, match, "it")) is not first
    moved = await play_moves(host, match, 1, Rng(7))
    fresh = await memory.public(host, moved, "en")
    assert fresh.version == moved.version and fresh.log != first.log
    assert fresh == await public_sight(host, moved, "en")


async def test_a_table_beside_the_bot_on_postgresql_hears_the_bots_moves(postgres_dsn: str) -> None:
    """Two processes on one PostgreSQL database: the bot's host plays, the web table's streams tell it."""
    bot_side = await open_stores(postgres_dsn, clock=lambda: NOW.isoformat(timespec="milliseconds"))
    web_side = await open_stores(postgres_dsn, clock=lambda: NOW.isoformat(timespec="milliseconds"))
    try:
        bot_host = GameHost(bot_side.matches, seed_source=lambda: 1)
        table_host = GameHost(web_side.matches, seed_source=lambda: 1)
        match = await people_match(bot_host, "fifth_avenue", 3)
        async with TestClient(
            TestServer(create_app(table_host, web_side.settings, clock=lambda: NOW))
        ) as served:
            stream = await opened(served, match.id)
            assert await stream.version() == match.version
            moved = await play_moves(bot_host, match, 2, Rng(8))
            assert await stream.version_at_least(moved.version) == moved.version
            page = await (await served.get(f"/m/{match.id}")).text()
            assert f'<main data-version="{moved.version}"' in page
    finally:
        await web_side.close()
        await bot_side.close()
