from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import SqliteMatchStore


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store" / "matches.db"


@pytest.fixture(params=[True, False], ids=["inline", "worker"])
def inline(request: pytest.FixtureRequest) -> bool:
    """Run store tests both with transactions on the event loop when possible and always on the worker."""
    return bool(request.param)


@pytest.fixture
async def store(db_path: Path, inline: bool) -> AsyncIterator[SqliteMatchStore]:
    opened = await SqliteMatchStore.open(db_path, inline=inline)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def commits_without_fsync() -> None:
    """Overrides tests/conftest.py: here the store keeps its ``synchronous=FULL``, which these tests check."""
