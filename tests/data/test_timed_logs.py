"""The kept log of several matches with the time each move was committed, as the statistics of a match
and a person's reliability read it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from engine.core.replay import LoggedAction
from tests.data.backends import Backdoor
from tests.data.test_store import started, state

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
