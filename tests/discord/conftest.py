"""Fixtures for end-to-end tests against the fake Discord.

``fake_discord`` gives a started ``FakeDiscord`` (default world) per test and stops it afterwards; start a bot
on it with ``async with running_bot(bot, fake_discord): ...`` from ``tests.discord.harness``.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from tests.discord.fake import FakeDiscord

# Bots under test draw in a thread: starting render processes for each of them would make the suite slower
# on two cores. tests/discord/test_render_pool.py runs a bot on its processes.
os.environ.setdefault("BIGAPPLE_RENDER_WORKERS", "0")


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord on a random loopback port, with discord.py pointed at it."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
