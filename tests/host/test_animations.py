"""The host keeps and shares matches' animations whatever draws them: one drawing for people asking at
once, the latest kept, a failure remembered until the match changes, and the note beside a shortened
animation in English and Italian."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, cast

import pytest

from engine.host.animations import Animations, NoAnimation, shortened_note
from engine.host.ports import MatchStatus


def match(version: int) -> Any:
    return SimpleNamespace(id=3, version=version, status=MatchStatus.ACTIVE, state_json="{}")


class Drawer:
    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.fail = False

    async def draw(self, record: Any, kept: Sequence[object], max_bytes: int) -> str:
        await self.gate.wait()
        if self.fail:
            raise ValueError("too big")
        return f"gif of {record.version} within {max_bytes}"


def animations(drawer: Drawer) -> Animations[str]:
    async def kept_actions(match_id: int) -> list[object]:
        return []

    host = SimpleNamespace(store=SimpleNamespace(kept_actions=kept_actions))
    return Animations(cast(Any, host), drawer.draw, 100, expected=(ValueError,))


async def test_people_asking_at_once_share_one_drawing_which_is_then_kept() -> None:
    drawer = Drawer()
    kept = animations(drawer)
    first = asyncio.create_task(kept.of(match(5)))
    second = asyncio.create_task(kept.of(match(5)))
    await asyncio.sleep(0)
    drawer.gate.set()
    assert await first == await second == "gif of 5 within 100"
    assert await kept.of(match(5)) == "gif of 5 within 100"
    assert kept.drawn == 1


async def test_a_failure_is_remembered_until_the_match_changes() -> None:
    drawer = Drawer()
    drawer.fail = True
    drawer.gate.set()
    kept = animations(drawer)
    with pytest.raises(NoAnimation) as failed:
        await kept.of(match(5))
    assert "match #5" not in failed.value.message and "match #3" in failed.value.message
    with pytest.raises(NoAnimation):
        await kept.of(match(5))
    assert kept.drawn == 1
    drawer.fail = False
    assert await kept.of(match(6)) == "gif of 6 within 100"
    assert kept.drawn == 2


def test_a_shortened_animation_says_what_it_shows() -> None:
    assert shortened_note("en", "moves") is None
    assert shortened_note("en", "turns") == (
        "The whole match does not fit in one animation, so this one shows the board at the end of each turn."
    )
    highlights = shortened_note("it", "highlights")
    assert highlights is not None and highlights.startswith(
        "La partita intera non sta in un'unica animazione"
    )
