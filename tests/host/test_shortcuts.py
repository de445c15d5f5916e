"""Shortcuts: a menu choice that plays a run of moves, each checked, committed and logged on its own."""

from __future__ import annotations

import pytest

from data.store import SqliteMatchStore
from engine.core.errors import IllegalAction, StaleVersion
from engine.core.replay import replay
from engine.host.ports import MatchRecord, Player
from engine.host.service import GameHost
from engine.host.shortcuts import act_run, joined, steps

PEOPLE = [Player(user_id=100 + n, name=name) for n, name in enumerate(("ann", "bob", "cy"))]


async def skyline_after_a_build(host: GameHost) -> tuple[MatchRecord, int]:
    """A started three-person Skyline match whose first player has built one floor; and that player."""
    match = await host.create_match("skyline", 3, creator=PEOPLE[0], seed=1)
    for person in PEOPLE[1:]:
        await host.join(match.id, person)
    await host.start(match.id, by_user=PEOPLE[0].user_id)
    match = await host.match(match.id)
    seat = min(host.rules("skyline").to_act(host.state_of(match)))
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    user = player.user_id
    result = await host.act(match.id, user, "build 1 A1")
    return result.match, user


def test_a_run_is_one_menu_value_and_back() -> None:
    assert steps(joined(["endbuild", "buy 1", "endturn"])) == ("endbuild", "buy 1", "endturn")
    assert steps("build 1 A1") == ("build 1 A1",)


async def test_the_menu_offers_the_runs_the_rules_can_play(store: SqliteMatchStore) -> None:
    host = GameHost(store)
    match, _ = await skyline_after_a_build(host)
    seat = min(host.rules("skyline").to_act(host.state_of(match)))
    entries = {e.notation: e for e in host.legal_menu(match, seat, "it")}
    assert "endbuild;endturn" in entries and "endbuild;buy 1;endturn" in entries
    assert entries["endbuild;buy 1;endturn"].label == "Compra un piano da 1 M, fine turno"
    # Every run offered is legal move by move: none asks for a penthouse the player cannot pay.
    assert not any("buy PH" in notation for notation in entries)


async def test_a_run_plays_each_move_as_its_own(store: SqliteMatchStore) -> None:
    host = GameHost(store)
    match, user = await skyline_after_a_build(host)
    done = await act_run(host, match.id, user, ["endbuild", "buy 1", "buy 2", "endturn"], match.version)
    assert done.refused is None and [r.notation for r in done.played] == [
        "endbuild",
        "buy 1",
        "buy 2",
        "endturn",
    ]
    assert [r.match.version for r in done.played] == [match.version + n for n in range(1, 5)]
    log = await store.action_log(match.id)
    assert [a.notation for a in log[-4:]] == ["endbuild", "buy 1", "buy 2", "endturn"]
    final = await host.match(match.id)
    replayed, _ = replay(host.rules("skyline"), 3, final.seed, final.options, log)
    assert replayed == host.state_of(final)


async def test_a_run_stops_at_the_first_move_refused(store: SqliteMatchStore) -> None:
    host = GameHost(store)
    match, user = await skyline_after_a_build(host)
    done = await act_run(host, match.id, user, ["endbuild", "buy PH", "endturn"], match.version)
    assert [r.notation for r in done.played] == ["endbuild"]
    assert isinstance(done.refused, IllegalAction) and done.left == ("buy PH", "endturn")
    assert (await host.match(match.id)).version == match.version + 1
    # A refused first move is refused as a single move is: nothing played.
    with pytest.raises(StaleVersion):
        await act_run(host, match.id, user, ["buy 1", "endturn"], match.version)
    assert (await host.match(match.id)).version == match.version + 1
