"""The queue desk on a real store: people who wait for the same game are seated together and their match
starts; the others wait and are told where they stand; after their wait computers fill their table;
leaving is one call; bad requests are refused in words and change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from data.backend import Stores, open_stores
from engine.core.errors import LobbyError
from engine.host.avoidance import AVOID_LIMIT
from engine.host.clock import Pace
from engine.host.ports import MatchStatus, Player
from engine.host.queue_desk import QueueDesk
from engine.host.service import GameHost
from lang.says import render

PEOPLE = [Player(user_id=900 + n, name=name) for n, name in enumerate(("Ada", "Bea", "Cid", "Dov", "Eli"))]


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[Stores]:
    opened = await open_stores(tmp_path / "queue.db", clock=lambda: "2026-11-29T09:00:00.000+00:00")
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def desk(stores: Stores, clock: Clock) -> QueueDesk:
    host = GameHost(stores.matches, clock=clock, seed_source=lambda: 3)
    return QueueDesk(host, stores.queue, stores.ratings, stores.settings)


async def test_five_waiting_for_a_table_of_three_make_one_table_then_computers_fill_the_next(
    desk: QueueDesk, clock: Clock
) -> None:
    found = []
    for person in PEOPLE:
        clock.now += timedelta(minutes=1)
        found.append(await desk.find(7, 70, person, "ny_piatnik", players=3, patience=timedelta(hours=6)))
    # The third to come completes a table: the three are seated in one match, started.
    assert [f.seated is not None for f in found] == [False, False, True, False, False]
    match = found[2].seated
    assert match is not None and match.status is MatchStatus.ACTIVE
    assert {p.user_id for p in match.players} == {p.user_id for p in PEOPLE[:3]}
    assert (match.guild_id, match.channel_id, match.seat_count) == (7, 70, 3)
    # The first two were told they wait; the last two still wait, each seeing the other.
    waiting = found[1].waiting
    assert waiting is not None and waiting.others == 1
    late = await desk.standing(7, PEOPLE[4].user_id or 0, "ny_piatnik")
    assert (
        late is not None and late.others == 1 and late.computers_at == late.entry.since + timedelta(hours=6)
    )
    assert await desk.standing(7, PEOPLE[0].user_id or 0, "ny_piatnik") is None  # seated: out of the queue
    # Asking again keeps a person's place.
    again = await desk.find(7, 70, PEOPLE[3], "ny_piatnik", players=3, patience=timedelta(hours=6))
    assert again.waiting is not None and again.waiting.entry.since == found[3].waiting.entry.since  # type: ignore[union-attr]
    clock.now += timedelta(hours=5)
    assert await desk.open_tables() == []
    clock.now += timedelta(hours=1)
    (filled,) = await desk.open_tables()
    humans = {p.user_id for p in filled.players if p.bot is None}
    assert humans == {PEOPLE[3].user_id, PEOPLE[4].user_id}
    assert [p.bot for p in filled.players if p.bot is not None] == ["greedy"]
    assert filled.status is MatchStatus.ACTIVE
    assert await desk.queue.entries() == []


async def test_leaving_and_refusals(desk: QueueDesk, clock: Clock) -> None:
    ada = PEOPLE[0]
    await desk.find(7, 70, ada, "skyline", players=2, computers=None)
    clock.now += timedelta(minutes=1)
    await desk.find(7, 70, ada, "ny1901", pace=Pace.FAST)
    assert [w.entry.game for w in await desk.queues_of(7, ada.user_id or 0)] == ["skyline", "ny1901"]
    assert await desk.queues_of(8, ada.user_id or 0) == []  # another server sees nothing of it
    assert await desk.leave(7, ada.user_id or 0, "skyline") == 1
    assert await desk.leave(7, ada.user_id or 0) == 1
    assert await desk.queue.entries() == []
    with pytest.raises(LobbyError) as refused:
        await desk.find(7, 70, ada, "ny_piatnik", players=7)
    assert refused.value.say is not None
    assert render("en", refused.value.say) == "New York (Piatnik, 1995) is played by 2 to 5 players"
    assert "si gioca da 2 a 5 giocatori" in render("it", refused.value.say)
    with pytest.raises(LobbyError):
        await desk.find(7, 70, ada, "ny_piatnik", computers="grandmaster")
    assert await desk.queue.entries() == []  # nothing kept


async def test_a_list_of_people_to_avoid_holds_people_only_and_at_most_its_limit(desk: QueueDesk) -> None:
    with pytest.raises(LobbyError, match="yourself"):
        await desk.avoid(1, 1, other_is_bot=False)
    with pytest.raises(LobbyError, match="only people"):
        await desk.avoid(1, 2, other_is_bot=True)
    for other in range(100, 100 + AVOID_LIMIT):
        assert (await desk.avoid(1, other, other_is_bot=False)).listed
    with pytest.raises(LobbyError, match="the most it can"):
        await desk.avoid(1, 99, other_is_bot=False)
    off = await desk.avoid(1, 100, other_is_bot=False)
    assert (off.listed, off.count) == (False, AVOID_LIMIT - 1)
    assert await desk.avoided(1) == frozenset(range(101, 100 + AVOID_LIMIT))
    assert await desk.avoided(2) == frozenset()
