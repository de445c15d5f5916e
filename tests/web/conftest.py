"""The web table's fixtures: a real SQLite store, a real host and the application served on a local port,
with matches played through the host by computer players or, move by move, by people."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from data.backend import Stores, open_stores
from engine.core.rng import Rng
from engine.host.link_secret import link_secret
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.service import GameHost
from engine.registry import POLICIES
from web.app import create_app

# The moment the pages' clock shows: links are made to expire around it.
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
# People with names found nowhere else on a page, so that a page naming them is easy to tell.
PEOPLE = [
    Player(user_id=500 + n, name=name)
    for n, name in enumerate(("Ottoline", "Prudence", "Quentin", "Rosalind"))
]


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[Stores]:
    opened = await open_stores(tmp_path / "web.db", clock=lambda: NOW.isoformat(timespec="milliseconds"))
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def host(stores: Stores) -> GameHost:
    return GameHost(stores.matches, seed_source=lambda: 1)


@pytest.fixture
async def client(host: GameHost, stores: Stores) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    app = create_app(host, stores.settings, clock=lambda: NOW)
    async with TestClient(TestServer(app)) as served:
        yield served


@pytest.fixture
async def secret(client: TestClient, stores: Stores) -> bytes:  # type: ignore[type-arg]
    """The secret the running application signs with (made and kept when it started)."""
    return await link_secret(stores.settings)


async def computers_match(host: GameHost, game: str, seats: int, seed: int = 1) -> MatchRecord:
    """A whole match of ``game`` between greedy computer players, played to its end."""
    match = await host.create_match(game, seats, seed=seed)
    for _ in range(seats):
        await host.add_computer(match.id, "greedy")
    await host.start(match.id)
    return await host.match(match.id)


async def people_match(
    host: GameHost, game: str, seats: int, options: frozenset[str] = frozenset(), seed: int = 1
) -> MatchRecord:
    """A match of ``game`` between people, started and waiting for its first move."""
    match = await host.create_match(game, seats, options, creator=PEOPLE[0], seed=seed)
    for person in PEOPLE[1:seats]:
        await host.join(match.id, person)
    await host.start(match.id, by_user=PEOPLE[0].user_id)
    return await host.match(match.id)


async def play_moves(host: GameHost, match: MatchRecord, moves: int, rng: Rng) -> MatchRecord:
    """``moves`` random legal moves of the people of ``match`` (fewer when it ends first), each sent
    through the host as a person sends it."""
    rules = host.rules(match.game)
    for _ in range(moves):
        match = await host.match(match.id)
        if match.status is not MatchStatus.ACTIVE:
            break
        state = host.state_of(match)
        seat = min(rules.to_act(state))
        action = POLICIES[match.game]["random"].choose(
            rules, state, seat, rules.legal_actions(state, seat), rng
        )
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        await host.act(match.id, player.user_id, rules.notation(action))
    return await host.match(match.id)
