"""A bot whose boards are drawn in its render processes posts the very image a thread would have drawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs._client import BigApple
from data.backend import open_stores
from render.registry import render_view
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot


# The worker draws a real PNG, compared with this process's own: the stand-in encoder stays out.
@pytest.mark.real_png
async def test_the_board_of_a_new_match_is_drawn_in_a_worker_process(
    tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    bot = BigApple(
        tmp_path / "pool.db", open_stores, dev_guild=fake.guild.id, seed_source=lambda: 7, render_workers=2
    )
    assert bot.renderer.uses_processes
    async with running_bot(bot, fake):
        await (await fake.slash("game new", {"game": "ny_piatnik", "players": 2}, user=fake.alice)).response()
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        join = next(b["custom_id"] for b in lobby.buttons if b["custom_id"].startswith("ba:lobby:join"))
        joined = await (await fake.click(lobby, join, user=fake.bob)).response()
        start = next(b["custom_id"] for b in joined.buttons if b["custom_id"].startswith("ba:lobby:start"))
        await (await fake.click(joined, start, user=fake.alice)).response()
        # Spawning the workers takes a while on a busy machine.
        post = await fake.wait_for_message(
            thread, lambda m: any(a.filename == "board.png" for a in m.attachments), timeout=30
        )
        match = (await bot.store.list_matches(limit=1))[0]
        view = bot.host.view(match, None, await bot.host.state_at(match, match.version))
        in_process = render_view(match.game, view, match.seat_names(), "en")
        assert post.attachment("board.png").data == in_process
        assert bot.renderer.ran_in_processes >= 1 and bot.renderer.ran_in_threads == 0
    assert bot.renderer._executor is None  # closed with the bot
