"""``/game extend`` through Discord on a virtual clock: a player adds 24 hours to their own running turn
once per match, the post says until when the turn runs, the reminders and the timeout follow the new
deadline (the longer turn getting the 80% reminder too), and every other request is refused in words
saying what is allowed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord

from tests.discord.fake import FakeDiscord
from tests.discord.test_bigapple import board_post, button, new_match, whose_turn
from tests.discord.test_clocks import fast_match, said
from tests.discord.test_notify import Clock, bot_at

START = datetime(2026, 12, 1, 17, 5, tzinfo=UTC)


async def test_an_extension_moves_the_deadline_once_and_the_timeout_follows_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(START)
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        match_id, thread = await fast_match(fake)
        first, second, version = await whose_turn(fake, bot, match_id)
        assert "1 h left" in (await board_post(fake, thread, version)).content
        clock.advance(minutes=20)
        # Only the player whose turn runs may extend it.
        other = await (await fake.slash("game extend", {}, user=second, channel=thread)).response()
        assert other.ephemeral and "you can extend only your own turn, while it runs" in (other.content or "")
        done = await (await fake.slash("game extend", {}, user=first, channel=thread)).response()
        deadline = START + timedelta(hours=25)
        when = discord.utils.format_dt(deadline, "f")
        assert done.ephemeral and f"now runs until {when} (extended by 24 h)" in (done.content or "")
        # The turn's post carries on, saying so and until when the turn runs now.
        record = await bot.host.match(match_id)
        assert record.version == version + 1
        post = await board_post(fake, thread, record.version)
        assert f"until {when} (extended by 24 h)" in (post.content or ""), post.content
        assert "used their extension: 24 more hours for this turn" in (post.content or "")
        # Once a match: the second request says so, and until when the turn runs.
        again = await (await fake.slash("game extend", {}, user=first, channel=thread)).response()
        assert "already used your extension in match #" in (again.content or "")
        assert when in (again.content or "")
        assert (await bot.host.match(match_id)).version == record.version
        clocks = await bot.host.seat_clocks(record)
        seat = record.seat_of(first.id)
        assert seat is not None and clocks[seat].deadline == deadline
        # The old deadline passes: nothing happens, not even the old reminders.
        clock.advance(minutes=45)
        bot.kick_outbox()
        assert await bot.timekeeper.sweep() == []
        assert not said(thread, "a computer played their turn") and not said(thread, "⏳")
        # The reminders follow the longer turn (25 hours from its start): half of it at 12.5 hours.
        clock.now = START + timedelta(hours=12, minutes=31)
        bot.kick_outbox()
        [half] = await fake.wait_until(lambda: said(thread, "half of your time") or None)
        assert "12 h left" in half
        # Its 80% reminder, which an hour's turn has not, at 20 hours.
        clock.now = START + timedelta(hours=20)
        bot.kick_outbox()
        [most] = await fake.wait_until(lambda: said(thread, "80% of your time") or None)
        assert f"<@{first.id}>" in most and "5 h left" in most
        # The timeout falls at the new deadline, not a minute before.
        clock.now = deadline - timedelta(minutes=1)
        await bot.timekeeper.sweep()
        assert not said(thread, "a computer played their turn")
        clock.now = deadline
        bot.kick_outbox()
        await fake.wait_until(lambda: said(thread, "a computer played their turn") or None)
        assert await bot.store.timeouts_of(first.id) == 1


async def test_a_match_without_a_clock_has_no_deadline_to_extend(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(START)) as bot:
        match_id, thread = await new_match(fake, fake.alice, "ny1901", players=2, clock="none")
        lobby = await fake.wait_for_message(thread)
        joined = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=fake.bob)).response()
        await (await fake.click(joined, button(joined, "ba:lobby:start:"), user=fake.alice)).response()
        first, _, _ = await whose_turn(fake, bot, match_id)
        refused = await (await fake.slash("game extend", {"match": match_id}, user=first)).response()
        assert refused.ephemeral and "has no clock, so it has no deadline to extend" in (
            refused.content or ""
        )
