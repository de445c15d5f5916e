"""Fixtures for end-to-end tests against the fake Discord.

``fake_discord`` gives a started ``FakeDiscord`` (default world) per test and stops it afterwards; start a bot
on it with ``async with running_bot(bot, fake_discord): ...`` from ``tests.discord.harness``.

Images the bot sends are drawn in full but sent as a cheap stand-in PNG (``quick_png``); a test that reads
the pixels of one asks for the real encoding with ``@pytest.mark.real_png``.
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
from collections.abc import AsyncIterator

import pytest
from PIL import Image, PngImagePlugin

import render.canvas
import render.registry  # every game's renderer, found in sys.modules below
import render.standings
from tests.discord.fake import FakeDiscord

# Bots under test draw in a thread: starting render processes for each of them would make the suite slower
# on two cores. tests/discord/test_render_pool.py runs a bot on its processes.
os.environ.setdefault("BIGAPPLE_RENDER_WORKERS", "0")
# A thread drawing holds the interpreter lock for up to a switch interval each time the event loop wants
# it back, and the loop wants it at every socket read and write: with the default 5 ms, a busy machine
# can stretch one press past Discord's three seconds, which a bot drawing in processes never sees. A
# shorter interval keeps the loop here about as quick to answer as beside render processes.
sys.setswitchinterval(0.0005)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "real_png: encode the images the bot sends as the bot does, instead of a stand-in"
    )
    config.addinivalue_line("markers", "animation: the bot posts the animation of each finished match")
    config.addinivalue_line("markers", "think_processes: strong computer players think in worker processes")


@pytest.fixture(autouse=True)
def no_animations(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing every move of every match a test finishes would cost seconds each: the bots here post no
    animation (the setting a server short of processor time would choose), except in tests marked
    ``animation``."""
    if not request.node.get_closest_marker("animation"):
        monkeypatch.setenv("BIGAPPLE_ANIMATIONS", "0")


@pytest.fixture(autouse=True)
def think_in_a_thread(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting worker processes costs a second or two per bot, more than the few strong decisions of a
    test: the bots here think in a thread (as with ``BIGAPPLE_THINK_WORKERS=0``), the same decisions,
    except in tests marked ``think_processes``."""
    if not request.node.get_closest_marker("think_processes"):
        monkeypatch.setenv("BIGAPPLE_THINK_WORKERS", "0")


def stand_in_png(image: Image.Image) -> bytes:
    """A one-pixel PNG that carries ``image``'s size and a digest of its mode, size and pixels.

    Two images get the same bytes exactly when their pixels are the same, as with the real encoder, so
    every check that compares uploads (an unchanged board is not sent again) sees what it would; but it
    costs a copy and a hash of the pixels, where compressing a drawn board takes tens of milliseconds.
    """
    digest = hashlib.blake2b(f"{image.mode}:{image.size}:".encode(), digest_size=20)
    digest.update(image.tobytes())
    info = PngImagePlugin.PngInfo()
    info.add_text("size", "x".join(map(str, image.size)))
    info.add_text("pixels", digest.hexdigest())
    buffer = io.BytesIO()
    Image.new("1", (1, 1)).save(buffer, format="PNG", pnginfo=info)
    return buffer.getvalue()


@pytest.fixture(autouse=True)
def quick_png(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every renderer draws its image in full, then hands it to ``stand_in_png`` instead of the PNG
    encoder, which takes about half of a board's rendering time. Encoding real images is covered by
    tests/render, the CLI and transcript tests, and by any test here marked ``real_png``."""
    if request.node.get_closest_marker("real_png"):
        return
    encoder = render.canvas.encode_png
    for name, module in list(sys.modules.items()):
        if name.startswith("render.") and getattr(module, "encode_png", None) is encoder:
            monkeypatch.setattr(module, "encode_png", stand_in_png)


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord on a random loopback port, with discord.py pointed at it."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
