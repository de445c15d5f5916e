"""A finished match's numbers through the fake Discord: the statistics image follows its final post."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image

from engine.host.match_stats import stored_match_stats
from render.match_stats import render_match_stats
from tests.discord.fake import FakeDiscord
from tests.discord.test_bigapple import big_apple, started_match
from tests.discord.test_clocks import skyline_timed_out
from tests.discord.test_match_life import play_out
from tests.discord.test_notify import Clock, bot_at


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


async def test_a_profile_shows_the_figures_of_each_game_played_in_the_readers_language(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny1901")
        before = await (await fake.slash("profile", {}, user=fake.alice, channel=fake.general)).response()
        assert "Finished matches:" not in (before.content or "")
        await play_out(bot, match_id)
        await fake.wait_for_message(thread, lambda m: "Final standings" in (m.content or ""), timeout=60)
        record = await bot.host.match(match_id)
        stats = await stored_match_stats(bot.host, record)
        seat = record.seat_of(fake.alice.id)
        assert seat is not None
        place = stats.seats[seat].place
        wins = "1 win" if place == 1 else "0 wins"
        english = await (await fake.slash("profile", {}, user=fake.alice, channel=fake.general)).response()
        lines = (english.content or "").splitlines()
        assert "Finished matches:" in lines
        [figures] = [line for line in lines if line.startswith("New York 1901: 1 game,")]
        assert f"1 game, {wins}, average place {place}, " in figures and figures.endswith(
            " per turn (median)"
        )
        assert "Turns played in time: 100% (latest 50 matches)" in lines
        # Every move was made in the last minutes (an hour's turn may fall among them): the hours of play
        # span them, written for the reader's own clock.
        usual = r"Usually moves between <t:(\d+):t> and <t:(\d+):t>"
        [found] = [m for line in lines if (m := re.fullmatch(usual, line))]
        start, end = int(found.group(1)), int(found.group(2))
        assert end - start in (3600, 7200) and start % 3600 == 0
        now = datetime.now(UTC).hour
        assert datetime.fromtimestamp(start, UTC).hour in {now, (now - 1) % 24, (now - 2) % 24}
        fake.alice.locale = "it"
        italian = await (await fake.slash("profile", {}, user=fake.alice, channel=fake.general)).response()
        lines = (italian.content or "").splitlines()
        assert "Partite concluse:" in lines
        vittorie = "1 vittoria" if place == 1 else "0 vittorie"
        [figures] = [line for line in lines if line.startswith("New York 1901: 1 partita,")]
        assert f"1 partita, {vittorie}, posizione media {place}, " in figures
        assert figures.endswith(" per turno (mediana)")
        assert "Turni giocati in tempo: 100% (ultime 50 partite)" in lines
        assert f"Di solito muove tra <t:{start}:t> e <t:{end}:t>" in lines
        # A profile of one game shows that game's figures only.
        asked = {"game": "skyline"}
        other = await (await fake.slash("profile", asked, user=fake.alice, channel=fake.general)).response()
        assert "New York 1901" not in (other.content or "") and "Turni giocati in tempo" in (
            other.content or ""
        )


async def test_a_turn_a_computer_played_when_time_ran_out_was_not_played_in_time(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        _, _, first, second = await skyline_timed_out(fake, bot, clock)
        # The match goes on: its turns count already, the one the computer played as not in time.
        english = await (await fake.slash("profile", {}, user=first, channel=fake.general)).response()
        assert "Turns played in time: 0% (latest 50 matches)" in (english.content or "").splitlines()
        first.locale = "it"
        italian = await (await fake.slash("profile", {}, user=first, channel=fake.general)).response()
        assert "Turni giocati in tempo: 0% (ultime 50 partite)" in (italian.content or "").splitlines()
        # The other player has played no turn yet: there is nothing to judge them by.
        other = await (await fake.slash("profile", {}, user=second, channel=fake.general)).response()
        assert "played in time" not in (other.content or "")
