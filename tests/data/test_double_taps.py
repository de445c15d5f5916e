"""A command tapped twice at once, on every backend: both requests read what they read before either
writes (see ``Backdoor.interleaved``), and exactly one is carried out; the other gets the refusal it
would get one after the other, and the database is as after one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from engine.core.errors import LobbyError
from engine.host.absence import come_back, go_away
from tests.data.backends import AnyStore, Backdoor
from tests.data.test_store_clocks import DAY, NOON, timed

T = TypeVar("T")


def one_refused(results: Sequence[T | BaseException], refusal: type[Exception], saying: str) -> T:
    """The one result that is not ``refusal`` (which the other is, saying ``saying``)."""
    refused = [r for r in results if isinstance(r, refusal)]
    kept = [r for r in results if not isinstance(r, BaseException)]
    assert len(refused) == 1 and len(kept) == 1, results
    assert saying in str(refused[0])
    return kept[0]


async def test_away_on_tapped_twice_begins_one_absence_and_pauses_the_turn_once(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await timed(store)  # ann's turn runs until a day after noon
    other = await backdoor.open()  # a second process on the same database
    results = await backdoor.interleaved(
        match.id, [store, other], [go_away(store, 101, 3, NOON), go_away(other, 101, 3, NOON)]
    )
    ends, moved = one_refused(results, LobbyError, "you are away already")
    assert ends == NOON + 3 * DAY and [c.deadline for c in moved] == [NOON + 4 * DAY]
    assert await store.absences([101], NOON - DAY) == {101: [(NOON, NOON + 3 * DAY)]}
    assert (await store.seat_clocks(match.id))[0].deadline == NOON + 4 * DAY


async def test_away_on_tapped_twice_near_the_months_end_of_days_grants_them_once(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await timed(store)
    await go_away(store, 101, 4, NOON - 10 * DAY)  # over by noon: ten days are left this month
    other = await backdoor.open()
    later = NOON + 7 * DAY  # after the first of the two ends: only the days left stand between them
    results = await backdoor.interleaved(
        match.id, [store, other], [go_away(store, 101, 6, NOON), go_away(other, 101, 6, later)]
    )
    one_refused(results, LobbyError, "more days this month")
    assert len((await store.absences([101], NOON - DAY))[101]) == 1


async def test_away_off_tapped_twice_ends_the_absence_once_and_gives_the_time_back_once(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await timed(store)
    await go_away(store, 101, 3, NOON)
    other = await backdoor.open()
    results = await backdoor.interleaved(
        match.id, [store, other], [come_back(store, 101, NOON + DAY), come_back(other, 101, NOON + DAY)]
    )
    moved = one_refused(results, LobbyError, "you are not away")
    assert [c.deadline for c in moved] == [NOON + 2 * DAY]
    assert await store.absences([101], NOON - DAY) == {101: [(NOON, NOON + DAY)]}
    assert (await store.seat_clocks(match.id))[0].deadline == NOON + 2 * DAY
