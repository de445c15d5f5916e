"""Matches on a clock, through Discord and on a virtual clock: the time left on the board post, the two
reminders, a computer playing a turn whose time ran out (once, even across a restart), keeping the seat
after two timeouts until ``/game return``, and ``/away`` with its monthly bound."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from cogs._client import BigApple
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeChannel, FakeUser
from tests.discord.test_bigapple import board_post, button, new_match, play_one_move, whose_turn
from tests.discord.test_notify import Clock, bot_at


async def fast_match(fake: FakeDiscord, game: str = "ny1901") -> tuple[int, FakeChannel]:
    """A started two-player match of alice and bob (New York 1901 unless told) on the fast clock (1 hour a
    move)."""
    match_id, thread = await new_match(fake, fake.alice, game, players=2, clock="fast")
    lobby = await fake.wait_for_message(thread)
    joined = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=fake.bob)).response()
    await (await fake.click(joined, button(joined, "ba:lobby:start:"), user=fake.alice)).response()
    return match_id, thread


async def skyline_timed_out(
    fake: FakeDiscord, bot: BigApple, clock: Clock
) -> tuple[int, FakeChannel, FakeUser, FakeUser]:
    """A fast Skyline match of alice and bob whose first player lets their time run out once, so that a
    computer plays their turn: the match, its thread, that player and the other."""
    match_id, thread = await fast_match(fake, "skyline")
    first, second, _ = await whose_turn(fake, bot, match_id)
    clock.advance(minutes=61)
    await bot.timekeeper.sweep()
    await fake.wait_until(lambda: said(thread, "a computer played their turn") or None)
    return match_id, thread, first, second


def said(thread: FakeChannel, words: str) -> list[str]:
    return [m.content or "" for m in thread.messages if words in (m.content or "")]


async def test_reminders_then_a_computer_plays_then_keeps_the_seat_until_return(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC))
    db = tmp_path / "db.sqlite"
    async with bot_at(fake, db, clock) as bot:
        match_id, thread = await fast_match(fake)
        first, second, version = await whose_turn(fake, bot, match_id)
        post = await board_post(fake, thread, version)
        assert "1 h left" in (post.content or ""), post.content
        clock.advance(minutes=30)
        bot.kick_outbox()
        [half] = await fake.wait_until(lambda: said(thread, "half of your time") or None)
        assert f"<@{first.id}>" in half and "30 min left" in half
        clock.advance(minutes=24)  # six minutes left
        bot.kick_outbox()
        [last] = await fake.wait_until(lambda: said(thread, "then a computer plays your turn") or None)
        assert "6 min left" in last
        clock.advance(minutes=5)
        bot.kick_outbox()
        await fake.wait_until(lambda: len(said(thread, "⏳")) == 2 or None)
    # The deadline passes while the bot is down: the computer plays the turn once, at the next start.
    clock.advance(minutes=2)
    for _ in range(2):
        async with bot_at(fake, db, clock) as bot:
            await fake.wait_until(lambda: said(thread, "a computer played their turn") or None)
            await bot.timekeeper.sweep()
    assert len(said(thread, "a computer played their turn")) == 1
    assert len(said(thread, "⏳")) == 2  # never a third reminder
    async with bot_at(fake, db, clock) as bot:
        # The other player moves; the first player's next turn runs out too: the computer keeps the seat.
        while (await whose_turn(fake, bot, match_id))[0] is second:
            await play_one_move(fake, bot, match_id, thread)
        clock.advance(hours=2)
        bot.kick_outbox()
        await fake.wait_until(lambda: said(thread, "twice in a row") or None)
        # They hear it by direct message too, though a computer holds their seat now.
        await fake.wait_until(
            lambda: [m for m in fake.dm_messages(first) if "twice in a row" in (m.content or "")] or None
        )
        record = await bot.host.match(match_id)
        seat = record.seat_of(first.id)
        assert seat is not None and (kept := record.player_at(seat)) is not None and kept.absent
        back = await (await fake.slash("game return", {}, user=first, channel=thread)).response()
        assert "your seat in match" in (back.content or "") and back.ephemeral
        again = await (await fake.slash("game return", {}, user=first, channel=thread)).response()
        assert "already yours" in (again.content or "")
        record = await bot.host.match(match_id)
        assert (player := record.player_at(seat)) is not None and player.bot is None
        assert await bot.store.timeouts_of(first.id) == 2
        profile = await (await fake.slash("profile", {}, user=first, channel=fake.general)).response()
        assert "2 turns played by a computer because the time ran out" in (profile.content or "")


async def test_the_turn_a_computer_played_when_time_ran_out_offers_no_undo(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        # The issue's own match: the move the computer plays there reveals nothing.
        match_id, thread, first, _ = await skyline_timed_out(fake, bot, clock)
        record = await bot.host.match(match_id)
        await board_post(fake, thread, record.version)
        assert not [b for m in thread.messages for b in m.buttons if b["custom_id"].startswith("ba:undo:")]
        refused = await (await fake.slash("game undo", {}, user=first, channel=thread)).response()
        assert refused.ephemeral and "A computer played your last move for you" in (refused.content or "")
        assert (await bot.host.match(match_id)).version == record.version
        # An hour on, the turn it played is not timed out a second time.
        clock.advance(minutes=61)
        await bot.timekeeper.sweep()
        assert not said(thread, "twice in a row")
        assert await bot.store.timeouts_of(first.id) == 1


async def test_away_pauses_the_clock_within_its_monthly_bound(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        match_id, thread = await fast_match(fake)
        first, _, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        away = await (await fake.slash("away on", {"days": 10}, user=first)).response()
        assert "You are away until" in (away.content or "") and "in 1 match" in (away.content or "")
        twice = await (await fake.slash("away on", {"days": 1}, user=first)).response()
        assert "away already" in (twice.content or "")
        clock.advance(days=2)
        bot.kick_outbox()
        await bot.timekeeper.sweep()
        # Two days on, nothing fired: the clock stands still while they are away.
        assert not said(thread, "⏳") and not said(thread, "time ran out")
        status = await (await fake.slash("game status", {"match": match_id}, user=fake.bob)).response()
        assert "away until" in (status.content or ""), status.content
        off = await (await fake.slash("away off", {}, user=first)).response()
        assert "runs again in 1 match" in (off.content or "")
        status = await (await fake.slash("game status", {"match": match_id}, user=fake.bob)).response()
        assert "1 h left" in (status.content or ""), status.content
        # Two days used this month: twelve are left, not thirteen.
        refused = await (await fake.slash("away on", {"days": 13}, user=first)).response()
        assert "12 more days" in (refused.content or ""), refused.content
        clock.advance(minutes=61)
        bot.kick_outbox()
        await fake.wait_until(lambda: said(thread, "a computer played their turn") or None)
