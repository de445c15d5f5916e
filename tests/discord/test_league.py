"""The New York Series through Discord on a virtual clock: an admin sets the league up, people play, and
when the season ends its table is posted in the league's channel, once, naming the champion."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from engine.host.ports import Player
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeUser
from tests.discord.test_match_life import play_out
from tests.discord.test_notify import Clock, bot_at

CLOSING = "Season 1 of the New York Series is over"


async def test_a_season_ends_and_posts_its_table_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 11, 2, 9, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        refused = await (await fake.slash("league setup", {"days": 7}, user=fake.alice)).response()
        assert "only a server admin can set up the league" in (refused.content or "").lower()
        asked = {"days": 7, "channel": fake.general}
        done = await (await fake.slash("league setup", asked, user=fake.admin)).response()
        assert "seasons of 7 days" in (done.content or "")
        assert f"<#{fake.general.id}>" in (done.content or "")
        for number in range(5):
            first, second = (fake.alice, fake.bob) if number % 2 else (fake.bob, fake.alice)
            match = await bot.host.create_match(
                "ny_piatnik", 2, creator=bot_player(first), guild_id=fake.guild.id, seed=number + 1
            )
            await bot.host.join(match.id, bot_player(second))
            await bot.host.start(match.id, by_user=first.id)
            await play_out(bot, match.id)
        table = await (await fake.slash("league table", {}, user=fake.bob)).response()
        assert "New York Series, season 1" in (table.content or "")
        assert any(f"1. <@{p.id}>" in (table.content or "") for p in (fake.alice, fake.bob))
        assert "5 matches" in (table.content or "")
        clock.advance(days=7, hours=1)
        bot.kick_outbox()
        post = await fake.wait_for_message(fake.general, lambda m: CLOSING in (m.content or ""), timeout=20)
        assert "is the champion with" in (post.content or "")
        assert "The best of each game:" in (post.content or "")
        assert "\nEvery match counts, casual and tournament.\n" in (post.content or "")
        assert [a.filename for a in post.attachments] == ["season.png"]
        clock.advance(hours=2)
        bot.kick_outbox()
        await bot.background.one_pass()
        assert len([m for m in fake.general.messages if CLOSING in (m.content or "")]) == 1


def bot_player(user: FakeUser) -> Player:
    return Player(user_id=user.id, name=user.username)
