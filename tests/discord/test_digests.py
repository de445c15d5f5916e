"""The daily digest (``/settings digest``) through Discord on a virtual clock: one direct message a day
at the person's hour in their time zone, listing the matches waiting for them with links to their
threads; held through their quiet hours until they end; never sent when nothing waits, nor twice; and
stopped with ``off``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeUser
from tests.discord.test_bigapple import board_post, whose_turn
from tests.discord.test_notify import Clock, bot_at, two_player_match

# 04:00 in Rome (summer time, two hours ahead of UTC).
START = datetime(2026, 5, 4, 2, tzinfo=UTC)


def digests_to(fake: FakeDiscord, user: FakeUser) -> list[str]:
    return [m.content or "" for m in fake.dm_messages(user) if "daily digest" in (m.content or "")]


async def test_the_digest_lists_what_waits_after_quiet_hours_once_a_day(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(START)
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        for user in (fake.alice, fake.bob):
            quiet = {"start": 22, "end": 8, "timezone": "Europe/Rome"}
            await (await fake.slash("settings quiet", quiet, user=user)).response()
            # No time zone given: the digest comes at 7 in that of their quiet hours.
            chose = await (await fake.slash("settings digest", {"hour": 7}, user=user)).response()
            assert chose.ephemeral and "Every day at 07:00 (Europe/Rome)" in (chose.content or "")
        shown = await (await fake.slash("settings digest", {}, user=fake.bob)).response()
        assert "Every day at 07:00 (Europe/Rome)" in (shown.content or "")
        match_id, thread = await two_player_match(fake)
        first, second, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        # 07:00 in Rome: the digest is due, but it falls in the quiet hours (until 08:00).
        clock.now = START + timedelta(hours=3)
        assert await bot.digests.sweep() == 0
        assert not digests_to(fake, first) and not digests_to(fake, second)
        # 08:00: the quiet hours end, and the digest goes to the player the match waits for only.
        clock.now = START + timedelta(hours=4)
        bot.kick_outbox()
        [digest] = await fake.wait_until(lambda: digests_to(fake, first) or None)
        assert "1 match is waiting for you" in digest
        assert f"#{match_id} New York 1901" in digest
        assert f"https://discord.com/channels/{fake.guild.id}/{thread.id}" in digest
        assert await bot.digests.sweep() == 0  # once a day
        assert not digests_to(fake, second)  # nothing waits for them: nothing is sent
        # The next day comes round: the digest again, after the quiet hours.
        clock.now = START + timedelta(days=1, hours=4)
        bot.kick_outbox()
        await fake.wait_until(lambda: len(digests_to(fake, first)) == 2 or None)
        # Off: no digest the day after.
        off = await (await fake.slash("settings digest", {"off": True}, user=first)).response()
        assert "Daily digest off" in (off.content or "")
        clock.now = START + timedelta(days=2, hours=4)
        assert await bot.digests.sweep() == 0
        assert len(digests_to(fake, first)) == 2 and not digests_to(fake, second)


async def test_a_digest_hour_in_a_time_zone_typed_is_kept_in_that_zone(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(START)) as bot:
        chose = await (
            await fake.slash("settings digest", {"hour": 9, "timezone": "america/new_york"}, user=fake.alice)
        ).response()
        assert "Every day at 09:00 (America/New_York)" in (chose.content or "")
        digest = await bot.stores.digests.digest_of(fake.alice.id)
        assert digest is not None and digest.next_at == datetime(2026, 5, 4, 13, tzinfo=UTC)
        wrong = await (
            await fake.slash("settings digest", {"hour": 9, "timezone": "Mars/Olympus"}, user=fake.bob)
        ).response()
        assert "I do not know the time zone Mars/Olympus" in (wrong.content or "")
        assert await bot.stores.digests.digest_of(fake.bob.id) is None
