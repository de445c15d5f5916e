"""The event loop a bot process runs on (``engine.host.event_loop``)."""

from __future__ import annotations

import asyncio
import sys

import pytest

from engine.host import event_loop


async def loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop does not build on Windows")
def test_a_bot_runs_on_uvloop_where_it_builds() -> None:
    assert event_loop.run(loop_module()).startswith("uvloop")


def test_without_uvloop_a_bot_runs_on_asyncios_own_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as where it is not installed: importing it fails
    assert event_loop.run(loop_module()).startswith("asyncio")
