"""Offering a seat to a new person through the real host and SQLite store: the refusals that need no
Discord (a tournament's table), and the "while you were away" summary, capped for a phone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.core.errors import LobbyError
from engine.core.rng import Rng
from engine.host.ports import MatchStatus, Player
from engine.host.service import GameHost
from engine.host.tournaments import TournamentHost
from engine.host.while_away import AWAY_SHOWN, away_summary, summary_text
from engine.registry import POLICIES

ANN, BOB, CY = (Player(user_id=n, name=name) for n, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")))


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[GameHost]:
    store = await SqliteMatchStore.open(tmp_path / "r.db")
    try:
        yield GameHost(store, seed_source=lambda: 5)
    finally:
        await store.close()


async def test_a_tournament_table_is_its_organisers_to_replace(host: GameHost) -> None:
    assert isinstance(host.store, SqliteMatchStore)
    cup = TournamentHost(host, SqliteTournamentStore.beside(host.store), seed_source=lambda: 7)
    record = await cup.create("Spring cup", "ny_piatnik", "swiss", rounds=1, table_size=3)
    record = await cup.open_registration(record.id)
    for n in range(3):
        record = await cup.join(record.id, 100 + n, f"human{n}")
    record = (await cup.start(record.id)).tournament
    [table] = record.rounds[0].tables
    assert table.match_id is not None
    await host.resign(table.match_id, 100, resigned=True)
    seat = (await host.match(table.match_id)).seat_of(100)
    with pytest.raises(LobbyError, match="tournament"):
        await host.offers.offer(table.match_id, 0, str((seat or 0) + 1), organiser=True)


async def test_the_summary_lists_the_latest_moves_in_order_after_a_count_of_the_others(
    host: GameHost,
) -> None:
    match = await host.create_match("fifth_avenue", 3, creator=ANN)
    for person in (BOB, CY):
        await host.join(match.id, person)
    await host.start(match.id, by_user=ANN.user_id)
    await host.resign(match.id, BOB.user_id or 0, resigned=True)
    match = await host.match(match.id)
    seat = match.seat_of(BOB.user_id or 0)
    assert seat is not None
    rules, rng = host.rules(match.game), Rng.from_seed(3)
    played = 0
    while played <= AWAY_SHOWN + 2:
        match = await host.match(match.id)
        assert match.status is MatchStatus.ACTIVE
        state = host.state_of(match)
        acting = min(rules.to_act(state))
        mover = match.player_at(acting)
        assert mover is not None and mover.user_id is not None
        action = POLICIES[match.game]["random"].choose(
            rules, state, acting, rules.legal_actions(state, acting), rng
        )
        await host.act(match.id, mover.user_id, rules.notation(action))
        kept = await host.store.kept_actions(match.id)
        played = sum(1 for _, entry in kept if entry.seat == seat and entry.stand_in)
    match = await host.match(match.id)
    summary = await away_summary(host, match, seat)
    everything = await away_summary(host, match, seat, shown=1000)
    assert summary.count == everything.count == played
    assert len(everything.moves) == played and summary.moves == everything.moves[-AWAY_SHOWN:]
    text = summary_text("it", summary, host.namer(match))
    lines = text.splitlines()
    assert len(lines) == 2 + AWAY_SHOWN
    assert lines[0] == f"Mentre eri via, un computer ha giocato {played} mosse per il tuo posto:"
    assert lines[1] == f"• … {played - AWAY_SHOWN} mosse precedenti"
    english = summary_text("en", summary, host.namer(match))
    assert english.splitlines()[1] == f"• … {played - AWAY_SHOWN} earlier moves"
    # Once a person plays the seat again, nothing is left to tell.
    offered = await host.offers.offer(match.id, ANN.user_id or 0, "Bob")
    taken = await host.offers.take(offered.offer.id, Player(user_id=4, name="Di"))
    assert taken.away == summary and taken.seat == seat
