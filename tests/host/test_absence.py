"""The /away allowance: whole days as a person reads them, and a refusal whose number is what is then
accepted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from data.store import SqliteMatchStore
from engine.core.errors import LobbyError
from engine.host.absence import AWAY_DAYS_PER_MONTH, come_back, days_used, go_away
from engine.host.text import refusal
from tests.host.test_lobby_words import MARKS

USER = 7
MONTH = datetime(2026, 5, 1, tzinfo=UTC)


async def away_for(store: SqliteMatchStore, start: datetime, length: timedelta) -> datetime:
    """An absence of ``length`` from ``start``, ended early by ``/away off``; when it ended."""
    await go_away(store, USER, length // timedelta(days=1) + 1, start)  # a day more than it lasts
    await come_back(store, USER, start + length)
    return start + length


async def allowance_left(store: SqliteMatchStore, now: datetime) -> int:
    """The days the refusal of more than the month allows says are left."""
    with pytest.raises(LobbyError) as refused:
        await go_away(store, USER, AWAY_DAYS_PER_MONTH + 1, now)
    said = refused.value.say
    assert said is not None and said.count is not None
    count = said.count
    assert f"{count} more day" in refused.value.message
    assert refused.value.allowed == ((f"1-{count}",) if count else ())
    return count


async def test_a_few_seconds_away_use_none_of_the_months_days(store: SqliteMatchStore) -> None:
    back = await away_for(store, MONTH + timedelta(days=2), timedelta(seconds=5))
    assert await allowance_left(store, back) == AWAY_DAYS_PER_MONTH
    ends, _ = await go_away(store, USER, AWAY_DAYS_PER_MONTH, back + timedelta(minutes=1))
    assert ends == back + timedelta(minutes=1, days=AWAY_DAYS_PER_MONTH)


@pytest.mark.parametrize(
    ("lengths", "used"),
    [
        ([timedelta(days=2)], 2),
        ([timedelta(days=2, hours=3)], 2),
        ([timedelta(hours=23, minutes=59, seconds=59)], 0),
        ([timedelta(hours=23)] * 3, 2),  # what is left of each day adds up
        ([timedelta(hours=12), timedelta(days=1, hours=12)], 2),
        ([timedelta(days=13, hours=23)], 13),
    ],
)
async def test_the_refusal_says_the_days_that_are_then_accepted(
    store: SqliteMatchStore, lengths: list[timedelta], used: int
) -> None:
    now = MONTH
    for length in lengths:
        now = await away_for(store, now + timedelta(hours=1), length)
    left = await allowance_left(store, now)
    assert left == AWAY_DAYS_PER_MONTH - used
    with pytest.raises(LobbyError):
        await go_away(store, USER, left + 1, now)
    ends, _ = await go_away(store, USER, left, now)
    assert ends == now + timedelta(days=left)


def test_the_days_of_an_absence_begun_last_month_count_there() -> None:
    spans = [(MONTH - timedelta(days=3), MONTH + timedelta(days=2)), (MONTH, MONTH + timedelta(hours=30))]
    assert days_used(spans, MONTH + timedelta(days=5)) == 1
    assert days_used(spans[:1], MONTH - timedelta(days=1)) == 5


async def test_the_refusal_of_a_second_absence_says_when_the_first_ends_as_the_front_end_writes_it(
    store: SqliteMatchStore,
) -> None:
    ends, _ = await go_away(store, USER, 3, MONTH)
    with pytest.raises(LobbyError) as refused:
        await go_away(store, USER, 1, MONTH + timedelta(days=1))
    assert refusal("en", refused.value, marks=MARKS) == (
        "You are away already, until full 2026-05-04; end it with /away off"
    )
    assert refusal("it", refused.value, marks=MARKS).startswith("Sei già assente, fino a full 2026-05-04;")
    # Logs and front ends without marks read a plain date; no front end's markup is in the host's words.
    assert "2026-05-04 00:00" in refused.value.message and "<t:" not in refusal("en", refused.value)
    assert ends == MONTH + timedelta(days=3)
