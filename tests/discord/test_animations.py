"""The animation under a finished match's final post, through the fake Discord: drawn in the background,
and when the bot stops first, abandoned with a line in the log rather than lost without a word."""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path
from typing import Any

import pytest

import render.animation as render_animation
from tests.discord.fake import FakeDiscord
from tests.discord.test_bigapple import big_apple, started_match
from tests.discord.test_match_life import play_out


@pytest.mark.animation
async def test_stopping_the_bot_abandons_the_final_posts_animation_and_says_so_in_the_log(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    drawing = threading.Event()
    release = threading.Event()
    drawn = threading.Event()
    board = render_animation.drawn

    def held(game: str, view: Any, names: Any = ()) -> Any:
        drawing.set()
        release.wait(timeout=60)  # a drawing that would go on for a minute
        drawn.set()
        return board(game, view, names)

    monkeypatch.setattr(render_animation, "drawn", held)
    caplog.set_level(logging.INFO, logger="cogs._notifier")
    try:
        async with big_apple(fake, tmp_path / "db.sqlite") as bot:
            match_id, thread = await started_match(fake, bot, "ny1901")
            await play_out(bot, match_id)
            await fake.wait_for_message(thread, lambda m: "Final standings" in (m.content or ""), timeout=60)
            assert await asyncio.to_thread(drawing.wait, 60)  # its animation is being drawn
        assert not drawn.is_set()  # the bot stopped without waiting for the board being drawn
    finally:
        release.set()
    assert f"match {match_id}: the bot stopped before the animation of the match was posted" in caplog.text
    assert not any(a.filename.endswith(".gif") for m in thread.messages for a in m.attachments)
