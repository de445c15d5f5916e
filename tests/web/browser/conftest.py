"""Browser tests: the web table served on a loopback port from a thread of its own, driven by a real
headless Chromium through ChromeDriver (Debian's ``chromium`` and ``chromium-driver``). Without them the
tests are skipped, unless ``BIGAPPLE_TEST_BROWSER=1`` (as in CI), where a missing browser fails them.

Each test writes screenshots under ``test-output/browser/`` at the repository's root, to be looked at.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Callable, Coroutine, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiohttp import web

from data.backend import Stores, open_stores
from engine.host.link_secret import link_secret
from engine.host.service import GameHost
from web.app import create_app
from web.links import pass_for

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "test-output" / "browser"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
# How long a page may take to answer on a busy machine.
PATIENCE_S = 30.0
PHONE = (412, 915)
DESKTOP = (1280, 900)


class LiveTable:
    """The web table (with the newcomer's pages) on a fresh SQLite store, served from its own thread."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.base = ""
        self.stores: Stores | None = None
        self.host: GameHost | None = None
        self.runner: web.AppRunner | None = None

    def call(self, work: Callable[[GameHost], Coroutine[Any, Any, T]]) -> T:
        """``work`` done on the table's host, in the table's thread; its result."""
        assert self.host is not None
        return asyncio.run_coroutine_threadsafe(work(self.host), self.loop).result(PATIENCE_S)

    async def _open(self) -> None:
        self.stores = await open_stores(
            self.folder / "browser.db", clock=lambda: datetime.now(UTC).isoformat(timespec="milliseconds")
        )
        self.host = GameHost(self.stores.matches, seed_source=lambda: 11)
        self.runner = web.AppRunner(create_app(self.host, self.stores.settings, guest=True))
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = next(a[1] for a in self.runner.addresses if isinstance(a, tuple))
        self.base = f"http://127.0.0.1:{port}"

    async def _close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        if self.stores is not None:
            await self.stores.close()

    def __enter__(self) -> LiveTable:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(PATIENCE_S)
        return self

    def __exit__(self, *_: object) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self.loop).result(PATIENCE_S)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(PATIENCE_S)
        self.loop.close()

    def private_link(self, match_id: int, seat: int) -> str:
        """The address of ``seat``'s private page, signed as the table signs it."""

        async def signed(host: GameHost) -> str:
            assert self.stores is not None
            secret = await link_secret(self.stores.settings)
            return f"{self.base}/p/{pass_for(secret, match_id, seat, host.clock())}"

        return self.call(signed)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    with LiveTable(tmp_path) as served:
        yield served


def _browser_missing() -> str | None:
    if os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER):
        return None
    return "Chromium and ChromeDriver are not installed (Debian: chromium, chromium-driver)"


Browser = Callable[..., object]


@pytest.fixture
def browser() -> Iterator[Callable[[str, tuple[int, int]], object]]:
    """Opens headless Chromia reading a language (``en``, ``it``) at a window size; all closed after."""
    missing = _browser_missing()
    if missing is not None:
        if os.environ.get("BIGAPPLE_TEST_BROWSER") == "1":
            pytest.fail(missing)
        pytest.skip(missing)
    # Selenium finds its driver here, never on the network.
    os.environ.setdefault("SE_OFFLINE", "true")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opened: list[webdriver.Chrome] = []

    def open_browser(language: str, size: tuple[int, int] = PHONE) -> webdriver.Chrome:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--lang={language}",
            f"--window-size={size[0]},{size[1]}",
        ):
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": language})
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        driver.set_page_load_timeout(PATIENCE_S)
        opened.append(driver)
        return driver

    yield open_browser
    for driver in opened:
        driver.quit()


def screenshot(driver: object, name: str) -> Path:
    """The whole page as the browser shows it, saved as ``name``.png under ``test-output/browser``."""
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(driver, WebDriver)
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    width = driver.execute_script("return document.documentElement.scrollWidth")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    size = driver.get_window_size()
    driver.set_window_size(size["width"], max(size["height"], min(int(height) + 150, 6000)))
    try:
        driver.save_screenshot(str(path))
    finally:
        driver.set_window_size(size["width"], size["height"])
    assert int(width) <= size["width"] + 1, f"{name}: the page is wider than the window ({width} px)"
    return path
