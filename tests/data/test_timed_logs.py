"""The kept log of several matches with the time each move was committed, and a person's seats in their
finished matches, as the statistics of a match, a career and a person's reliability read them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from engine.core.contract import Outcome
from engine.core.replay import LoggedAction
from engine.host.ports import MatchStatus
from tests.data.backends import Backdoor
from tests.data.test_store import ANN, BOB, started, state

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def ticking(step: timedelta) -> Iterator[str]:
    moment = START
    while True:
        yield moment.isoformat(timespec="milliseconds")
        moment += step


async def test_the_timed_logs_give_each_kept_move_its_time_and_leave_out_those_taken_back(
    backdoor: Backdoor,
) -> None:
    ticks = ticking(timedelta(minutes=5))
    store = await backdoor.open(clock=lambda: next(ticks))
    first = await started(store)  # tick 0: created, 1: bob joins, 2: started
    other = await started(store)  # ticks 3, 4, 5
    moves = [LoggedAction(seat=0, notation="a"), LoggedAction(seat=1, notation="b", stand_in=True)]
    match = first
    for number, action in enumerate(moves, start=1):
        match = await store.commit_action(match.id, match.version, action, state(number))  # ticks 6, 7
    undone = await store.commit_action(match.id, match.version, LoggedAction(seat=0, notation="c"), state(3))
    await store.undo_actions(match.id, undone.version, [undone.version], state(2))
    logs = await store.timed_logs([first.id, other.id, 999])
    assert set(logs) == {first.id, other.id, 999}
    assert logs[other.id] == [] and logs[999] == []
    assert [(t.version, t.action, t.at) for t in logs[first.id]] == [
        (first.version + 1, moves[0], START + timedelta(minutes=30)),
        (first.version + 2, moves[1], START + timedelta(minutes=35)),
    ]
    assert await store.timed_logs([]) == {}


async def test_a_persons_seats_in_finished_matches_come_with_results_and_resignations(
    backdoor: Backdoor,
) -> None:
    ticks = ticking(timedelta(minutes=1))
    store = await backdoor.open(clock=lambda: next(ticks))
    ended = []
    for number in range(2):
        match = await started(store)
        if number == 1:
            player = match.player_at(1)
            assert player is not None
            gave_up = player.model_copy(update={"bot": "greedy", "resigned": True})
            match = await store.replace_player(match.id, match.version, 1, gave_up)
        result = Outcome(scores=(3, number), places=(1, 2), reason="over").model_dump_json()
        ended.append(await store.close_match(match.id, match.version, MatchStatus.FINISHED, result))
    playing = await started(store)  # still being played: no result yet
    ann, bob = ANN.user_id or 0, BOB.user_id or 0
    found = await store.seat_results(bob)
    assert [(r.match_id, r.game, r.seat, r.resigned) for r in found] == [
        (ended[1].id, ended[1].game, 1, frozenset({1})),
        (ended[0].id, ended[0].game, 1, frozenset()),
    ]
    assert found[0].result_json == ended[1].result_json
    assert [r.match_id for r in await store.seat_results(ann, limit=1)] == [ended[1].id]
    assert [r.seat for r in await store.seat_results(ann, guild_id=ended[0].guild_id)] == [0, 0]
    assert await store.seat_results(ann, guild_id=424242) == []
    assert await store.seat_results(999) == []
    # Every match that started, the one being played first (it changed last).
    assert [r.match_id for r in await store.seat_results(bob, started=True)] == [
        playing.id,
        ended[1].id,
        ended[0].id,
    ]
    assert (await store.seat_results(bob, started=True))[0].result_json is None
