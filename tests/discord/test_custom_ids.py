"""Custom ids a client may send that no post of ours carries: numbers of up to 20 digits (which the id
templates allow) are refused like any stale control, before they reach the store, and change nothing."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.discord.fake import FakeDiscord
from tests.discord.models import BUTTON, MESSAGE_COMPONENT, STRING_SELECT, FakeChannel, FakeMessage, FakeUser
from tests.discord.test_bigapple import big_apple, board_post, whose_turn
from tests.discord.test_notify import two_player_match

# Past what SQLite's and PostgreSQL's integers hold (2**63 - 1 has 19 digits), and past any version.
HUGE = "9" * 20
JUST_PAST = str(2**63)


async def press(
    fake: FakeDiscord,
    user: FakeUser,
    thread: FakeChannel,
    post: FakeMessage,
    custom_id: str,
    kind: int,
    value: str = "",
) -> str:
    """``custom_id`` pressed by ``user`` on a copy of ``post`` carrying it (what a client that forged it
    shows); the ephemeral answer."""
    as_seen = copy.deepcopy(post)
    data: dict[str, object] = {"custom_id": custom_id, "component_type": kind}
    if kind == STRING_SELECT:
        data["values"] = [value]
        options = [{"label": value, "value": value}]
        component = {
            "type": kind,
            "custom_id": custom_id,
            "options": options,
            "min_values": 1,
            "max_values": 1,
        }
    else:
        component = {**as_seen.components[0]["components"][0], "custom_id": custom_id}
    as_seen.components = [{"type": 1, "components": [component]}]
    answer = await (await fake.inject_interaction(MESSAGE_COMPONENT, user, thread, data, as_seen)).response()
    assert answer.ephemeral, answer
    return answer.content or ""


@pytest.mark.parametrize("number", [HUGE, JUST_PAST])
async def test_a_version_too_large_for_the_store_is_a_stale_button(
    fake_discord: FakeDiscord, tmp_path: Path, number: str
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await two_player_match(fake)
        first, second, version = await whose_turn(fake, bot, match_id)
        post = await board_post(fake, thread, version)
        record = await bot.host.match(match_id)
        seat = record.seat_of(first.id)
        assert seat is not None
        [move, *_] = bot.host.legal_notations(record, seat)
        outsider = fake.add_user("cy")
        presses = [
            (outsider, f"ba:one:{match_id}:{number}", BUTTON),
            (second, f"ba:one:{match_id}:{number}", BUTTON),
            (first, f"ba:one:{match_id}:{number}", BUTTON),
            (first, f"ba:pick:{match_id}:{number}:={move}", BUTTON),
            (first, f"ba:move:{match_id}:{number}", STRING_SELECT),
        ]
        for user, custom_id, kind in presses:
            text = await press(fake, user, thread, post, custom_id, kind, f"={move}")
            assert "moved on" in text and "went wrong" not in text, (custom_id, text)
        assert (await bot.host.match(match_id)).version == version
        assert await bot.store.action_log(match_id) == []


async def test_a_match_number_too_large_for_the_store_names_no_match(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await two_player_match(fake)
        first, _, version = await whose_turn(fake, bot, match_id)
        post = await board_post(fake, thread, version)
        for custom_id in (f"ba:one:{HUGE}:{version}", f"ba:play:{HUGE}:{version}", f"ba:hand:{JUST_PAST}"):
            text = await press(fake, first, thread, post, custom_id, BUTTON)
            assert "went wrong" not in text and "Sorry" not in text, (custom_id, text)
        assert (await bot.host.match(match_id)).version == version
