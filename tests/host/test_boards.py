"""The board a new turn's post marks changes against: as the player left it at their previous turn."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from pydantic import BaseModel

from engine.core.errors import MatchNotFound
from engine.host.boards import board_before_turn


class Board(BaseModel):
    version: int


def host(began: int | None, kept: bool = True) -> Any:
    async def turn_began(match: object, version: int, seat: int) -> int | None:
        return began

    async def view_at(match: object, version: int, seat: int | None = None) -> Board:
        if not kept:
            raise MatchNotFound("gone")
        return Board(version=version)

    return cast(Any, SimpleNamespace(turn_began=turn_began, view_at=view_at))


async def test_the_board_is_the_one_at_the_end_of_the_players_previous_turn() -> None:
    match = cast(Any, object())
    assert await board_before_turn(host(4), match, 9, 0) == Board(version=4)
    assert await board_before_turn(host(None), match, 9, 0) is None  # nobody acted yet
    assert await board_before_turn(host(4, kept=False), match, 9, 0) is None
