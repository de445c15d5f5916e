"""Requests taken a few at each turn of the event loop, in the order they came; one whose visitor left
while it waited takes no one's place."""

from __future__ import annotations

import asyncio

from web.turns import Turnstile


async def test_callers_past_the_room_of_a_turn_wait_for_the_next_turns_in_order() -> None:
    turnstile = Turnstile(at_once=2)
    through: list[tuple[int, int]] = []  # (caller, turn of the loop it went through in)
    turn = 0

    async def caller(number: int) -> None:
        await turnstile.turn()
        through.append((number, turn))

    callers = [asyncio.create_task(caller(n)) for n in range(7)]
    callers[3].cancel()  # left while waiting
    while not all(task.done() for task in callers):
        await asyncio.sleep(0)
        turn += 1
    assert [number for number, _ in through] == [0, 1, 2, 4, 5, 6]
    turns = [when for _, when in through]
    # Two at most per turn, each turn after the one before.
    assert all(turns.count(when) <= 2 for when in turns)
    assert turns == sorted(turns) and turns[0] < turns[2] < turns[4]
    # Room again once the crowd has gone through: a caller goes through in its first step.
    await asyncio.sleep(0)
    late = asyncio.create_task(turnstile.turn())
    await asyncio.sleep(0)
    assert late.done()
