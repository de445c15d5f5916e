"""Who plays whom among the people waiting in a queue: the closest skills among those whose hours
overlap, a wider gap the longer they wait, computers for the missing seats once patience runs out."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from engine.host.clock import Pace
from engine.host.matchmaking import (
    CLOSE_SKILL,
    WIDENS_PER_HOUR,
    Seeker,
    active_hours,
    overlap,
    tables_to_open,
    usual_hours,
)

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
SIZES = {"ny_piatnik": (2, 3, 4), "skyline": (2, 3, 4, 5)}


def seeker(
    user_id: int,
    skill: float,
    minutes: int = 0,
    sizes: tuple[int, ...] = (3,),
    game: str = "ny_piatnik",
    pace: Pace = Pace.DAILY,
    rhythm: tuple[float, ...] = (),
    computers: str | None = "greedy",
) -> Seeker:
    return Seeker(
        user_id,
        f"p{user_id}",
        game,
        pace,
        frozenset(sizes),
        skill,
        T0 + timedelta(minutes=minutes),
        rhythm,
        computers,
        timedelta(hours=2),
    )


def hours(*active: int) -> tuple[float, ...]:
    return active_hours(T0.replace(hour=h) for h in active)


def test_five_for_a_table_of_three_seat_the_three_closest_and_fill_the_rest_after_the_wait() -> None:
    queue = [seeker(1, 1400), seeker(2, 1000, 1), seeker(3, 1500, 2), seeker(4, 1020, 3), seeker(5, 1010, 4)]
    (table,) = tables_to_open(queue, SIZES, T0 + timedelta(minutes=10))
    assert [s.user_id for s in table.people] == [2, 4, 5]  # in the order they came
    assert (table.seats, table.computer_seats) == (3, 0)
    left = [s for s in queue if s not in table.people]
    # An hour on, two are not enough for a table of three, and their patience holds.
    assert tables_to_open(left, SIZES, T0 + timedelta(hours=1)) == []
    (filled,) = tables_to_open(left, SIZES, T0 + timedelta(hours=2))
    assert [s.user_id for s in filled.people] == [1, 3]
    assert (filled.seats, filled.computer_seats, filled.computers) == (3, 1, "greedy")


def test_the_gap_allowed_widens_with_the_wait() -> None:
    gap = CLOSE_SKILL + 3 * WIDENS_PER_HOUR
    pair = [seeker(1, 1000, sizes=(2,)), seeker(2, 1000 + gap, sizes=(2,))]
    assert tables_to_open(pair, SIZES, T0 + timedelta(hours=1)) == []
    (table,) = tables_to_open(pair, SIZES, T0 + timedelta(hours=3))
    assert {s.user_id for s in table.people} == {1, 2}


def test_people_never_active_at_the_same_hours_wait_for_others() -> None:
    morning, evening = hours(7, 8, 9, 10), hours(19, 20, 21, 22)
    assert overlap([morning, morning]) == 1.0 and overlap([morning, evening]) == 0.0
    assert overlap([morning, ()]) == 1.0  # an unknown rhythm may be active at any hour
    apart = [seeker(1, 1000, sizes=(2,), rhythm=morning), seeker(2, 1000, 1, sizes=(2,), rhythm=evening)]
    assert tables_to_open(apart, SIZES, T0 + timedelta(minutes=5)) == []
    third = seeker(3, 1000, 2, sizes=(2,), rhythm=hours(8, 9, 20, 21))
    (table,) = tables_to_open([*apart, third], SIZES, T0 + timedelta(minutes=5))
    assert [s.user_id for s in table.people] == [1, 3]


def test_games_and_paces_are_never_mixed_and_the_largest_table_comes_first() -> None:
    mixed = [
        seeker(1, 1000, sizes=(2,)),
        seeker(2, 1000, sizes=(2,), game="skyline"),
        seeker(3, 1000, sizes=(2,), pace=Pace.FAST),
    ]
    assert tables_to_open(mixed, SIZES, T0 + timedelta(minutes=5)) == []
    anyone = [seeker(n, 1000 + n, n, sizes=(2, 3, 4, 5), game="skyline") for n in range(1, 7)]
    opened = tables_to_open(anyone, SIZES, T0 + timedelta(minutes=10))
    assert [t.seats for t in opened] == [5]
    assert len({s.user_id for t in opened for s in t.people}) == 5


def test_without_computers_allowed_a_person_waits_however_long() -> None:
    alone = [seeker(1, 1000, computers=None)]
    assert tables_to_open(alone, SIZES, T0 + timedelta(days=30)) == []
    (table,) = tables_to_open([seeker(1, 1000)], SIZES, T0 + timedelta(hours=2))
    assert (table.seats, len(table.people), table.computer_seats) == (3, 1, 2)


def test_active_hours_are_shares_of_the_day() -> None:
    rhythm = hours(9, 9, 10, 23)
    assert len(rhythm) == 24 and abs(sum(rhythm) - 1) < 1e-9
    assert rhythm[9] == 0.5 and rhythm[23] == 0.25
    assert active_hours([]) == ()


def test_the_usual_hours_are_the_shortest_run_holding_most_moves() -> None:
    assert usual_hours(hours(18, 19, 20, 21, 22)) == (18, 4)
    assert usual_hours(hours(23, 0, 1, 2, 23, 0, 1, 2)) == (23, 4)  # across midnight
    assert usual_hours(hours(9, 9, 9, 9, 9, 9, 9, 9, 15, 3)) == (9, 1)
    assert usual_hours(()) is None


def test_a_person_may_ask_for_players_who_play_in_time() -> None:
    strict = replace(seeker(1, 1000, sizes=(2,)), least_reliability=0.9)
    late = replace(seeker(2, 1000, 1, sizes=(2,)), reliability=0.6)
    assert tables_to_open([strict, late], SIZES, T0 + timedelta(minutes=5)) == []
    newcomer = seeker(3, 1000, 2, sizes=(2,))  # no turn to judge by yet: taken at their word
    (table,) = tables_to_open([strict, late, newcomer], SIZES, T0 + timedelta(minutes=5))
    assert [s.user_id for s in table.people] == [1, 3]
    # The strict one's own reliability is not what they ask of others.
    punctual = replace(seeker(4, 1000, 3, sizes=(2,)), reliability=0.95, least_reliability=0.5)
    (pair,) = tables_to_open([late, punctual], SIZES, T0 + timedelta(minutes=5))
    assert {s.user_id for s in pair.people} == {2, 4}


def test_nobody_is_seated_with_someone_on_their_list_nor_with_whoever_lists_them() -> None:
    wary = replace(seeker(1, 1000, sizes=(2,)), avoids=frozenset({2}))
    avoided = seeker(2, 1000, 1, sizes=(2,))
    assert tables_to_open([wary, avoided], SIZES, T0 + timedelta(minutes=5)) == []
    # Either way round: the one listed is kept from the one who listed them, and both find others.
    other, third = seeker(3, 1000, 2, sizes=(2,)), seeker(4, 1000, 3, sizes=(2,))
    tables = tables_to_open([wary, avoided, other, third], SIZES, T0 + timedelta(minutes=5))
    assert all({1, 2} - {s.user_id for s in t.people} for t in tables) and len(tables) == 2
    # After the wait, computers fill the wary one's table rather than seat the one they avoid.
    (filled,) = tables_to_open([wary, avoided], SIZES, T0 + timedelta(hours=2))
    assert [s.user_id for s in filled.people] == [1] and filled.computer_seats == 1
