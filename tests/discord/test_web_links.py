"""The web table beside the bot, through Discord: served in the bot's own process on its host and stores;
Web beside My hand answering each player, privately, with the link of their own seat's page; a link to
watch each match on its thread's posts; none of them without the table's public address or on a server
that switched them off; and ``/settings web revoke`` voiding a player's earlier links."""

from __future__ import annotations

import html
import logging
import re
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit

import aiohttp
import pytest

from bot import Settings, beside_the_bot
from cogs._client import BigApple
from data.backend import open_stores
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import FakeChannel, FakeMessage, FakeUser
from tests.discord.test_bigapple import board_post, button, play_one_move, whose_turn
from tests.discord.test_match_life import play_out
from tests.discord.test_notify import two_player_match
from web.links import verified
from web.serving import Beside
from web.table import TABLE

PUBLIC = "https://table.example.org"
PAGE_OWNER = re.compile(r"The hand and moves of (?P<name>[^:]+):")


@asynccontextmanager
async def bot_with_web(
    fake: FakeDiscord, db: Path, url: str | None = PUBLIC, port: int = 0, retry_seconds: float = 0.05
) -> AsyncIterator[BigApple]:
    """The bot as ``python bot.py run`` starts it with ``BIGAPPLE_WEB_URL=url``, serving the web table on
    127.0.0.1:``port`` (0: any free port)."""
    seeds = iter(range(1, 1000))
    settings = Settings(_env_file=None, bigapple_web_url=url, bigapple_web_port=port)  # type: ignore[call-arg]
    bot = BigApple(
        db,
        open_stores,
        dev_guild=fake.guild.id,
        retry_seconds=retry_seconds,
        seed_source=lambda: next(seeds),
        web=beside_the_bot(settings),
    )
    async with running_bot(bot, fake):
        yield bot


def served(bot: BigApple) -> Beside:
    assert bot.web_served is not None, "the bot does not serve the web table"
    return cast(Beside, bot.web_served)


async def fetch(bot: BigApple, link: str) -> tuple[int, str]:
    """The status and text of the page at ``link``'s path, asked of the web table the bot serves."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(served(bot).url + urlsplit(link).path) as answer,
    ):
        return answer.status, await answer.text()


def custom_ids(message: FakeMessage) -> list[str]:
    return [b["custom_id"] for b in message.buttons if "custom_id" in b]


async def web_link(fake: FakeDiscord, message: FakeMessage, user: FakeUser) -> FakeMessage:
    """``user`` presses Web on ``message``: the answer."""
    return await (await fake.click(message, button(message, "ba:web:"), user=user)).response()


def private_url(answer: FakeMessage) -> str:
    """The link of an answer to Web: its one link button's, which the text carries too."""
    assert answer.ephemeral, "a private link is never shown to others"
    (link,) = answer.links
    assert "custom_id" not in link and link["url"].startswith(f"{PUBLIC}/p/")
    assert f"<{link['url']}>" in (answer.content or "")
    return str(link["url"])


async def started(fake: FakeDiscord, bot: BigApple) -> tuple[int, FakeChannel, FakeMessage]:
    """A two-player match of alice and bob, started; its id, thread and first board post."""
    match_id, thread = await two_player_match(fake, "fifth_avenue")
    _, _, version = await whose_turn(fake, bot, match_id)
    return match_id, thread, await board_post(fake, thread, version)


async def test_web_answers_each_player_with_their_own_seat_and_posts_link_the_match_page(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_with_web(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread, post = await started(fake, bot)
        # Play, My hand, Web, then the link to watch: a link button, with its address and no custom_id.
        assert [i.split(":")[1] for i in custom_ids(post)] == ["play", "hand", "web"]
        (watch,) = post.links
        assert watch["url"] == f"{PUBLIC}/m/{match_id}" and watch["style"] == 5 and "custom_id" not in watch
        status, page = await fetch(bot, watch["url"])
        assert status == 200 and f"match #{match_id}" in page
        record = await bot.host.match(match_id)
        names = {
            user.id: bot.host.namer(record)(record.seat_of(user.id) or 0) for user in (fake.alice, fake.bob)
        }
        tokens = {}
        for user in (fake.alice, fake.bob):
            url = private_url(await web_link(fake, post, user))
            opened = verified(bot.web_links.secret, url.rsplit("/", 1)[1], bot.clock())
            assert opened is not None and (opened.match_id, opened.seat) == (
                match_id,
                record.seat_of(user.id),
            )
            status, page = await fetch(bot, url)
            found = PAGE_OWNER.search(page)
            assert status == 200 and found is not None and found["name"] == names[user.id]
            tokens[user.id] = url
        assert tokens[fake.alice.id] != tokens[fake.bob.id]
        # Someone without a seat there gets no page.
        cy = fake.add_user("cy")
        refused = await web_link(fake, post, cy)
        assert refused.ephemeral and "no page of your own" in (refused.content or "") and not refused.links
        # Web is offered beside the hand wherever the hand is: /hand's answer and the turn's DM.
        first, _, _ = await whose_turn(fake, bot, match_id)
        hand = await (await fake.slash("hand", {"match": match_id}, user=first, channel=thread)).response()
        assert hand.ephemeral and any(i.startswith("ba:web:") for i in custom_ids(hand))
        assert private_url(await web_link(fake, hand, first)).startswith(f"{PUBLIC}/p/{match_id}.")
        dm = await fake.wait_for_dm(first, lambda m: any(i.startswith("ba:play:") for i in custom_ids(m)))
        assert any(i.startswith("ba:web:") for i in custom_ids(dm)) and not dm.links
        from_dm = private_url(await web_link(fake, dm, first))
        assert (await fetch(bot, from_dm))[0] == 200


async def test_no_links_without_the_public_address(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with bot_with_web(fake, tmp_path / "bare.sqlite", url=None) as bot:
        match_id, thread, post = await started(fake, bot)
        assert [i.split(":")[1] for i in custom_ids(post)] == ["play", "hand"] and not post.links
        first, _, _ = await whose_turn(fake, bot, match_id)
        hand = await (await fake.slash("hand", {"match": match_id}, user=first, channel=thread)).response()
        assert not any(i.startswith("ba:web:") for i in custom_ids(hand)) and not hand.links
        # The table is served all the same, on the local address.
        status, _ = await fetch(bot, f"/m/{match_id}")
        assert status == 200


async def test_a_server_switches_its_links_off_and_on(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    switch = "settings web server-links"
    async with bot_with_web(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread, post = await started(fake, bot)
        refused = await (await fake.slash(switch, {"links": "off"}, user=fake.alice)).response()
        assert refused.ephemeral and "Only server admins can switch" in (refused.content or "")
        off = await (await fake.slash(switch, {"links": "off"}, user=fake.admin)).response()
        assert off.ephemeral and "no longer link to the web table" in (off.content or "")
        # Web on a post from before the switch opens nothing now; the next post has neither link.
        first, _, version = await whose_turn(fake, bot, match_id)
        pressed = await web_link(fake, post, first)
        assert "not offered here" in (pressed.content or "") and not pressed.links
        await play_one_move(fake, bot, match_id, thread)
        _, _, version = await whose_turn(fake, bot, match_id)
        later = await board_post(fake, thread, version)
        assert [i.split(":")[1] for i in custom_ids(later)] == ["play", "hand", "undo"] and not later.links
        on = await (await fake.slash(switch, {"links": "on"}, user=fake.admin)).response()
        assert "link to the web table" in (on.content or "")
        hand = await (await fake.slash("hand", {"match": match_id}, user=first, channel=thread)).response()
        assert any(i.startswith("ba:web:") for i in custom_ids(hand))


async def test_revoke_voids_the_earlier_links_and_a_new_one_opens(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_with_web(fake, tmp_path / "db.sqlite") as bot:
        _, _, post = await started(fake, bot)
        old = private_url(await web_link(fake, post, fake.alice))
        kept = private_url(await web_link(fake, post, fake.bob))
        assert (await fetch(bot, old))[0] == 200
        said = await (await fake.slash("settings web revoke", user=fake.alice)).response()
        assert said.ephemeral and "opens nothing any more" in (said.content or "")
        status, page = await fetch(bot, old)
        assert status == 403 and "This link does not open a page" in page and "alice" not in page.lower()
        assert (await fetch(bot, kept))[0] == 200  # bob revoked nothing
        new = private_url(await web_link(fake, post, fake.alice))
        assert new != old and (await fetch(bot, new))[0] == 200


async def test_a_move_played_on_the_web_page_reaches_the_thread_at_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    # The outbox looks for work once an hour unless kicked, as after a move: the table's word kicks it.
    async with bot_with_web(fake, tmp_path / "db.sqlite", retry_seconds=3600) as bot:
        match_id, thread, post = await started(fake, bot)
        table = served(bot).runner.app[TABLE]
        assert table.host is bot.host and table.settings is bot.settings
        assert table.on_move == bot.kick_outbox
        first, _, version = await whose_turn(fake, bot, match_id)
        link = urlsplit(private_url(await web_link(fake, post, first))).path
        # The player opens their link in a browser and presses one of the moves the page offers (a
        # browser keeps the session's cookie of a numeric address, which aiohttp does only when told).
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
            async with browser.get(served(bot).url + link) as answer:
                page = await answer.text()
            form = re.search(r'name="form" value="([0-9a-f]+)"', page)
            move = re.search(r'name="move" value="([^"]*)">([^<]*)</button>', page)
            assert form is not None and move is not None
            sent = {"form": form[1], "version": str(version), "move": html.unescape(move[1])}
            async with browser.post(f"{served(bot).url}{link}/play", data=sent) as answer:
                assert answer.status == 200
                assert f"You played: {move[2]}" in await answer.text()
        # The thread shows the board after that move, as after a move made in Discord.
        await board_post(fake, thread, version + 1)
        made = await bot.host.store.action_at(match_id, version + 1)
        assert made is not None and made.notation == html.unescape(move[1])


async def test_a_busy_port_leaves_the_bot_running_without_the_table(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with caplog.at_level(logging.WARNING, logger="web.serving"):
            async with bot_with_web(fake, tmp_path / "db.sqlite", port=port) as bot:
                assert bot.web_served is None
                _, _, post = await started(fake, bot)
                assert post.links  # the links point to the public address, served elsewhere
        assert any(
            f"cannot listen on http://127.0.0.1:{port}" in record.getMessage() for record in caplog.records
        )


async def test_the_final_post_keeps_the_link_to_the_match_page(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_with_web(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await two_player_match(fake, "ny1901")
        await play_out(bot, match_id)
        final = await fake.wait_for_message(
            thread, lambda m: "Final standings" in (m.content or ""), timeout=60
        )
        assert custom_ids(final) == [f"ba:rematch:{match_id}"]
        assert [link["url"] for link in final.links] == [f"{PUBLIC}/m/{match_id}"]
        status, page = await fetch(bot, final.links[0]["url"])
        assert status == 200 and f"match #{match_id}" in page
