"""A server's league on a real store and a virtual clock: admins set it up, seasons follow each other,
a season's table counts the matches that ended in it (casual, tournament or both, as chosen), and each
season that ended is due for its closing post once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from data.backend import Stores, open_stores
from engine.core.errors import LobbyError
from engine.core.rng import Rng
from engine.host.league_desk import Counted, LeagueDesk
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.service import GameHost
from engine.registry import POLICIES
from lang.says import render

ANN, BOB = Player(user_id=701, name="Ann"), Player(user_id=702, name="Bob")
T0 = datetime(2026, 11, 1, 12, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def stores(tmp_path: Path, clock: Clock) -> AsyncIterator[Stores]:
    opened = await open_stores(
        tmp_path / "league.db", clock=lambda: clock.now.isoformat(timespec="milliseconds")
    )
    try:
        yield opened
    finally:
        await opened.close()


async def played(host: GameHost, people: list[Player], guild_id: int = 5) -> MatchRecord:
    """A two-player match of the people, played to its end with the greedy player's choices."""
    match = await host.create_match("ny_piatnik", 2, creator=people[0], guild_id=guild_id, seed=len(people))
    await host.join(match.id, people[1])
    match = (await host.start(match.id, by_user=people[0].user_id)).match
    rules, greedy = host.rules(match.game), POLICIES[match.game]["greedy"]
    for step in range(2000):
        if match.status is not MatchStatus.ACTIVE:
            return match
        state = host.state_of(match)
        seat = min(rules.to_act(state))
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(step))
        match = (await host.act(match.id, player.user_id, rules.notation(action))).match
    raise AssertionError("the match did not end")


async def test_seasons_count_the_matches_that_ended_in_them_and_close_once(
    stores: Stores, clock: Clock
) -> None:
    host = GameHost(stores.matches, clock=clock)
    tournament_matches: set[int] = set()

    async def in_tournament(match_id: int) -> bool:
        return match_id in tournament_matches

    desk = LeagueDesk(host, stores.settings, in_tournament)
    assert await desk.league(5) is None and await desk.servers() == []
    with pytest.raises(LobbyError) as refused:
        await desk.set_up(5, admin=False)
    assert refused.value.say is not None and "admin" in render("en", refused.value.say)
    with pytest.raises(LobbyError):
        await desk.set_up(5, admin=True, days=3)
    league = await desk.set_up(5, admin=True, days=7, channel_id=55)
    assert (league.starts, league.days, league.counts, league.channel_id) == (T0, 7, Counted.ALL, 55)
    assert await desk.servers() == [5]
    await played(host, [ANN, BOB])
    clock.now += timedelta(days=3)
    second = await played(host, [BOB, ANN])
    tournament_matches.add(second.id)
    clock.now += timedelta(days=5)  # season 2 now
    await played(host, [ANN, BOB])
    season = league.season(1)
    assert (season.starts, season.ends) == (T0, T0 + timedelta(days=7))
    table = await desk.table(league, season)
    assert sorted(r.matches for r in table.rows) == [2, 2]  # the third ended in season 2
    assert sum(r.wins for r in table.rows) >= 2
    (game, best) = table.best_by_game[0]
    assert game == "ny_piatnik" and best == table.rows[0]
    # Casual matches only, then tournament tables only.
    casual = await desk.set_up(5, admin=True, counts=Counted.CASUAL)
    assert sorted(r.matches for r in (await desk.table(casual, season)).rows) == [1, 1]
    only = await desk.set_up(5, admin=True, counts=Counted.TOURNAMENTS)
    rows = (await desk.table(only, season)).rows
    assert {r.matches for r in rows} == {1}  # the second match alone
    # Season 1 ended: its closing is due, once.
    assert [s.number for s in await desk.closings_due(5)] == [1]
    assert await desk.claim_closing(5, season)
    assert not await desk.claim_closing(5, season)  # a second look, of this process or another, does not
    assert await desk.closings_due(5) == []
    clock.now += timedelta(days=14)
    assert [s.number for s in await desk.closings_due(5)] == [2, 3]
    # Seasons of 28 days from now on: the running one (4) keeps its start and takes the new length, the
    # ones before it keep their dates, and so their tables.
    before = [only.season(n) for n in (1, 2, 3)]
    tables = [await desk.table(only, s) for s in before]
    running = only.season_at(clock.now)
    longer = await desk.set_up(5, admin=True, days=28)
    assert longer.days == 28 and longer.starts == T0
    assert [longer.season(n) for n in (1, 2, 3)] == before
    assert [await desk.table(longer, s) for s in before] == tables
    assert longer.season_at(clock.now) == longer.season(running.number)
    assert longer.season(running.number).starts == running.starts
    assert longer.season(running.number).ends == running.starts + timedelta(days=28)
    assert longer.season(running.number + 1).starts == running.starts + timedelta(days=28)
    assert [s.number for s in await desk.closings_due(5)] == [2, 3]
    # Back to a week, two seasons on: the 28-day season keeps its dates too.
    clock.now = longer.season(running.number + 1).starts + timedelta(days=1)
    shorter = await desk.set_up(5, admin=True, days=7)
    assert shorter.season(running.number) == longer.season(running.number)
    assert shorter.season_at(clock.now).number == running.number + 1
    assert shorter.season(running.number + 2).starts == longer.season(running.number + 1).starts + timedelta(
        days=7
    )
