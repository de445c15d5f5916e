"""A finished match's numbers through the fake Discord: the statistics image follows its final post."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from engine.host.match_stats import stored_match_stats
from render.match_stats import render_match_stats
from tests.discord.fake import FakeDiscord
from tests.discord.test_bigapple import big_apple, started_match
from tests.discord.test_match_life import play_out


async def test_the_final_post_is_followed_by_the_match_in_numbers(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny1901")
        await play_out(bot, match_id)
        final = await fake.wait_for_message(
            thread, lambda m: "Final standings" in (m.content or ""), timeout=60
        )
        numbers = await fake.wait_for_message(
            thread,
            lambda m: any(a.filename == f"match-{match_id}-numbers.png" for a in m.attachments),
            timeout=60,
        )
        assert thread.messages.index(numbers) == thread.messages.index(final) + 1
        assert numbers.content == f"Match #{match_id} in numbers"
        [picture] = numbers.attachments
        stats = await stored_match_stats(bot.host, await bot.host.match(match_id))
        # The people's own turns were played by them, the computer's by itself.
        record = await bot.host.match(match_id)
        people = {p.seat for p in record.players if p.user_id in (fake.alice.id, fake.bob.id)}
        assert [seat.computer for seat in stats.seats] == [s not in people for s in range(3)]
        assert all(seat.turns > 0 and seat.stand_in_turns == 0 for seat in stats.seats)
        assert picture.data == render_match_stats(stats, "en")
        with Image.open(io.BytesIO(picture.data)) as image:
            # (These tests upload a one-pixel stand-in that names the drawn image's size.)
            width, height = map(int, image.info["size"].split("x"))
            assert image.format == "PNG" and width >= 400 and height > width / 2
