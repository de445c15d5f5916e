"""Undo through the host, for every game: a move that revealed nothing is taken back (the board is as it
was, the log skips it and still replays exactly), and a move that drew a card, a tile or a random
outcome is refused with the reason, changing nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta

import pytest
from pydantic import BaseModel

from data.store import SqliteMatchStore
from engine.core.errors import CannotUndo, StaleVersion
from engine.core.replay import replay
from engine.core.rng import Rng
from engine.host import undo as undoing
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.service import GameHost
from engine.host.undo import REASONS
from engine.registry import POLICIES

PEOPLE = [Player(user_id=100 + n, name=name) for n, name in enumerate(("ann", "bob", "cy"))]

# What each game's moves reveal in a three-player match played by the greedy player (seed 1): None is a
# move that may be taken back.
EXPECTED = {
    "fifth_avenue": {None, "card"},
    "ny1901": {None, "card"},
    "ny_henn": {None, "card", "tile"},
    "ny_piatnik": {None, "card", "chance"},
    "skyline": {None, "card"},
}


async def started(host: GameHost, game: str, seed: int = 1) -> MatchRecord:
    match = await host.create_match(game, 3, creator=PEOPLE[0], seed=seed)
    for person in PEOPLE[1:]:
        await host.join(match.id, person)
    return (await host.start(match.id, by_user=PEOPLE[0].user_id)).match


def user_at(match: MatchRecord, seat: int) -> int:
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    return player.user_id


async def assert_replays(host: GameHost, store: SqliteMatchStore, match: MatchRecord) -> None:
    log = await store.action_log(match.id)
    state, _ = replay(host.rules(match.game), match.seat_count, match.seed, match.options, log)
    assert state == host.state_of(match)


@pytest.mark.parametrize("game", sorted(EXPECTED))
async def test_undo_is_allowed_and_refused_by_what_the_move_revealed(
    store: SqliteMatchStore, game: str
) -> None:
    host = GameHost(store)
    match = await started(host, game)
    rules, greedy = host.rules(game), POLICIES[game]["greedy"]
    seen: set[str | None] = set()
    for step in range(400):
        if match.status is not MatchStatus.ACTIVE or seen >= EXPECTED[game]:
            break
        before, state = match, host.state_of(match)
        seat = min(rules.to_act(state))
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(step))
        notation = rules.notation(action)
        match = (await host.act(match.id, user_at(match, seat), notation)).match
        if match.status is not MatchStatus.ACTIVE:
            break
        # What the rules say the move (and any move made for a person after it) revealed.
        taken = [e for v, e in await store.kept_actions(match.id) if v > before.version]
        revealed = None
        replayed = state
        for entry in taken:
            played = rules.apply(replayed, entry.seat, rules.parse(entry.notation))
            kind = rules.revealed(
                replayed, entry.seat, rules.parse(entry.notation), played.state, played.events
            )
            revealed = revealed or kind
            replayed = played.state
        if revealed in seen:
            continue
        seen.add(revealed)
        # A host that did not make the move (the bot restarted since) plays it again to judge it, and
        # must judge it as the host that committed it does.
        restarted = GameHost(store)
        assert await restarted.can_undo(await restarted.match(match.id), seat) is (revealed is None)
        if revealed is None:
            assert await host.can_undo(match, seat)
            undone = await host.undo(match.id, user_at(match, seat))
            assert undone.version == match.version + 1  # versions only grow
            assert host.state_of(undone) == state  # the board is back where it was
            await assert_replays(host, store, undone)
            assert [e for v, e in await store.kept_actions(match.id) if v > before.version] == []
            pending = await store.pending_deliveries(1000)
            said = [json.loads(d.payload) for d in pending if d.version == undone.version and d.seat is None]
            assert said and said[0]["says"][0]["text"] == "{player} took back a move"
            # The same move again: the match goes on as before.
            match = (await host.act(match.id, user_at(undone, seat), notation)).match
        else:
            assert not await host.can_undo(match, seat)
            with pytest.raises(CannotUndo) as refused:
                await host.undo(match.id, user_at(match, seat))
            assert refused.value.say == REASONS[revealed]
            assert (await host.match(match.id)).version == match.version  # nothing changed
        await assert_replays(host, store, match)
    assert seen >= EXPECTED[game], f"{game}: only {seen} came up"


async def test_only_the_latest_mover_may_undo_and_only_until_someone_else_acts(
    store: SqliteMatchStore,
) -> None:
    host = GameHost(store)
    match = await started(host, "skyline", seed=5)
    rules = host.rules("skyline")
    state = host.state_of(match)
    first = min(rules.to_act(state))
    with pytest.raises(CannotUndo, match="no move to take back"):
        await host.undo(match.id, user_at(match, first))
    # A turn of several steps: buy, then end the build phase; each step can be taken back in turn.
    steps: list[tuple[int, BaseModel]] = []
    for _ in range(2):
        state = host.state_of(match)
        legal: Sequence[str] = [rules.notation(a) for a in rules.legal_actions(state, first)]
        move = next(n for n in legal if n.startswith(("buy", "build"))) if not steps else legal[-1]
        steps.append((match.version, state))
        match = (await host.act(match.id, user_at(match, first), move)).match
    others = [s for s in range(3) if s != first]
    assert not await host.can_undo(match, others[0])
    with pytest.raises(CannotUndo):
        await host.undo(match.id, user_at(match, others[0]))
    stale = match.version - 1
    with pytest.raises(StaleVersion):
        await host.undo(match.id, user_at(match, first), expected_version=stale)
    for _version, state in reversed(steps):
        match = await host.undo(match.id, user_at(match, first), expected_version=match.version)
        assert host.state_of(match) == state
    with pytest.raises(CannotUndo, match="no move to take back"):
        await host.undo(match.id, user_at(match, first))
    # Once the next player has acted, the move that ended the turn stays.
    while min(rules.to_act(host.state_of(match))) == first:
        state = host.state_of(match)
        legal = rules.legal_actions(state, first)
        match = (await host.act(match.id, user_at(match, first), rules.notation(legal[-1]))).match
    nxt = min(rules.to_act(host.state_of(match)))
    state = host.state_of(match)
    match = (
        await host.act(match.id, user_at(match, nxt), rules.notation(rules.legal_actions(state, nxt)[-1]))
    ).match
    with pytest.raises(CannotUndo, match="has moved since"):
        await host.undo(match.id, user_at(match, first))


async def test_an_undo_hands_the_running_clock_back_to_the_mover(store: SqliteMatchStore) -> None:
    from engine.host.clock import Pace
    from tests.host.test_clock import Clock

    clock = Clock()
    host = GameHost(store, clock=clock)
    match = await host.create_match("ny_henn", 2, creator=PEOPLE[0], seed=1, pace=Pace.DAILY)
    await host.join(match.id, PEOPLE[1])
    match = (await host.start(match.id, by_user=PEOPLE[0].user_id)).match
    rules = host.rules("ny_henn")
    # A move that ends the turn and reveals nothing, so the next player's clock starts with it.
    for _ in range(60):
        state = host.state_of(match)
        seat = min(rules.to_act(state))
        for action in rules.legal_actions(state, seat):
            step = rules.apply(state, seat, action)
            if rules.revealed(
                state, seat, action, step.state, step.events
            ) is None and seat not in rules.to_act(step.state):
                break
        else:
            action = rules.legal_actions(state, seat)[0]
            match = (await host.act(match.id, user_at(match, seat), rules.notation(action))).match
            continue
        clock.advance(hours=1)
        before = {c.seat: c for c in await store.seat_clocks(match.id)}
        match = (await host.act(match.id, user_at(match, seat), rules.notation(action))).match
        running = {c.seat for c in await store.seat_clocks(match.id) if c.running}
        assert running == rules.to_act(host.state_of(match)) and seat not in running
        clock.advance(hours=2)
        match = await host.undo(match.id, user_at(match, seat))
        after = {c.seat: c for c in await store.seat_clocks(match.id)}
        assert {s for s, c in after.items() if c.running} == {seat}
        # The turn goes on with the time it had left when the move ended it (its clock stood still
        # while the move stood), and the turn it had begun for the next player never happened (their
        # bank is as it was).
        left = (before[seat].deadline or clock.now) - (clock.now - timedelta(hours=2))
        assert after[seat].left(clock.now) == left
        assert after[seat].started_at == (before[seat].started_at or clock.now) + timedelta(hours=2)
        for other, clock_after in after.items():
            if other != seat:
                assert clock_after.bank == (before[other].bank if other in before else clock_after.bank)
                assert not clock_after.running
        return
    pytest.fail("no move ended a turn without revealing anything")


async def test_who_may_undo_reads_past_the_end_of_the_log_when_it_was_all_made_for_people(
    store: SqliteMatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board post reads only the last actions; when each of them was a move the rules made for a
    person, it reads further back, and answers as the whole log does."""
    host = GameHost(store)
    match = await started(host, "skyline", seed=5)
    rules, greedy = host.rules("skyline"), POLICIES["skyline"]["greedy"]
    made_for_them = 0
    for step in range(300):
        if match.status is not MatchStatus.ACTIVE or made_for_them >= 3:
            break
        state = host.state_of(match)
        seat = min(rules.to_act(state))
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(step))
        notation = rules.notation(action)
        match = (await host.act(match.id, user_at(match, seat), notation)).match
        last = (await store.kept_actions(match.id))[-1][1]
        made_for_them += (last.seat, last.notation) != (seat, notation)
        monkeypatch.setattr(undoing, "UNDO_TAIL", 1)
        from_the_end = await undoing.who_may_undo(host, match)
        monkeypatch.setattr(undoing, "UNDO_TAIL", 10_000)
        assert from_the_end == await undoing.who_may_undo(host, match), step
    assert made_for_them, "no move was made for a person, so this test proves nothing"
