from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from data.store import SqliteMatchStore
from engine.core.bots import RandomPolicy
from engine.core.contract import GameRules, Policy
from engine.core.presentation import GamePresentation
from engine.host.outbox import Backoff
from engine.host.service import GameHost
from tests.host.toy_game import TOY, TOY_PRESENTATION, AlwaysTwo

TOY_GAMES: dict[str, GameRules[Any, Any]] = {"toy": TOY}
TOY_PRESENTATIONS: dict[str, GamePresentation[Any, Any]] = {"toy": TOY_PRESENTATION}
TOY_POLICIES: dict[str, dict[str, Policy[Any, Any]]] = {"toy": {"two": AlwaysTwo(), "random": RandomPolicy()}}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "matches.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[SqliteMatchStore]:
    opened = await SqliteMatchStore.open(db_path)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def host(store: SqliteMatchStore) -> GameHost:
    """A host on the toy game whose outbox retries a failed destination at its next flush."""
    return GameHost(
        store,
        games=TOY_GAMES,
        presentations=TOY_PRESENTATIONS,
        policies=TOY_POLICIES,
        backoff=Backoff(base=0.0),
    )
