"""The life of a match over days: resigning (and, later, clocks, reminders, undo and rematches)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cogs._client import BigApple
from data.backend import open_stores
from engine.core.rng import Rng
from engine.host.ports import MatchStatus
from engine.host.posts import duration
from engine.registry import POLICIES
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import FakeMember
from tests.discord.test_bigapple import big_apple, button, started_match
from tests.discord.test_notify import Clock
from tests.discord.test_tenancy import two_servers


async def play_out(
    bot: BigApple, match_id: int, before_move: Callable[[int], None] = lambda step: None
) -> None:
    """The people of the match play it to its end with the greedy player's choices; ``before_move(step)``
    runs before each move (a test's clock moving on, say)."""
    record = await bot.host.match(match_id)
    rules, greedy = bot.host.rules(record.game), POLICIES[record.game]["greedy"]
    for step in range(1000):
        if record.status is not MatchStatus.ACTIVE:
            return
        before_move(step)
        state = bot.host.state_of(record)
        seat = min(rules.to_act(state))
        player = record.player_at(seat)
        assert player is not None and player.user_id is not None
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(step))
        await bot.host.act(match_id, player.user_id, rules.notation(action))
        record = await bot.host.match(match_id)
    raise AssertionError(f"match {match_id} did not end")


async def test_a_player_resigns_a_computer_plays_on_and_the_rating_counts_them_last(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny1901")
        ask = await (await fake.slash("game resign", {}, user=fake.bob, channel=thread)).response()
        assert ask.ephemeral and "rating counts you last" in (ask.content or "")
        assert (await bot.host.match(match_id)).player_at(1) is not None
        done = await (await fake.click(ask, button(ask, "ba:resign:"), user=fake.bob)).response()
        assert "You resigned match #" in (done.content or "") and not done.buttons
        record = await bot.host.match(match_id)
        seat = record.seat_of(fake.bob.id)
        assert seat is not None
        player = record.player_at(seat)
        assert player is not None and player.resigned and player.bot is not None
        await fake.wait_for_message(thread, lambda m: "resigned" in (m.content or ""))
        # A second resignation finds no seat of a person to give up.
        again = await (await fake.slash("game resign", {}, user=fake.bob, channel=thread)).response()
        assert again.ephemeral and "You resigned from match" in (again.content or "") and not again.buttons
        # Alice plays the match out against the two computers.
        await play_out(bot, match_id)
        rated = await bot.ratings.changes(match_id)
        places = {c.user_id: c.place for c in rated}
        assert places[fake.bob.id] == 4 and places[fake.alice.id] < 4
        # The final post places the seat as the rating does and says whose it was.
        final = await fake.wait_for_message(
            thread, lambda m: "Final standings" in (m.content or ""), timeout=60
        )
        bob = player.name.removesuffix(" (computer)")
        last = rf"^3\. .*{bob}'s seat \(computer, after {bob} resigned\) · "
        assert re.search(last, final.content or "", re.MULTILINE), final.content


async def test_the_final_post_offers_a_rematch_made_once_in_a_new_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny1901")
        await play_out(bot, match_id)
        final = await fake.wait_for_message(
            thread, lambda m: "Final standings" in (m.content or ""), timeout=60
        )
        assert [b["custom_id"] for b in final.buttons] == [f"ba:rematch:{match_id}"]
        answer = await (await fake.click(final, button(final, "ba:rematch:"), user=fake.bob)).response()
        assert "is the rematch" in (answer.content or "")
        again = await (await fake.click(final, button(final, "ba:rematch:"), user=fake.alice)).response()
        assert answer.content == again.content  # one rematch, whoever asks and however often
        old = await bot.host.match(match_id)
        [rematch] = [m for m in await bot.store.list_matches(limit=5) if m.id != match_id]
        assert rematch.status is MatchStatus.ACTIVE
        assert (rematch.game, rematch.options, rematch.seat_count) == (old.game, old.options, old.seat_count)
        assert rematch.seed != old.seed
        assert sorted((p.user_id or 0, p.bot or "") for p in rematch.players) == sorted(
            (p.user_id or 0, p.bot or "") for p in old.players
        )
        new_thread = await fake.wait_for_thread(fake.general, name=f"New York 1901 #{rematch.id}", timeout=10)
        begins = await fake.wait_for_message(new_thread)
        assert f"<@{fake.alice.id}>" in (begins.content or "") and f"<@{fake.bob.id}>" in (
            begins.content or ""
        )
        # Someone who did not play cannot ask for it.
        cy = fake.add_user("cy")
        refused = await (await fake.click(final, button(final, "ba:rematch:"), user=cy)).response()
        assert "not playing" in (refused.content or "")
        # These bots post no animation (``BIGAPPLE_ANIMATIONS=0``, see conftest): none was drawn or sent.
        assert not bot.animations
        assert not [task for task in asyncio.all_tasks() if task.get_name() == f"animation-{match_id}"]
        assert not [m for m in thread.messages if any(a.filename.endswith(".gif") for a in m.attachments)]


async def test_my_games_lists_the_matches_waiting_for_me_on_every_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with two_servers(fake, tmp_path / "db.sqlite") as (bot, other, _):
        other.members[fake.alice.id] = FakeMember(fake.alice)
        here, _ = await started_match(fake, bot, "ny1901")
        lobby = other.channel("lobby")
        options = {"game": "fifth_avenue", "players": 2, "computers": 1}
        await (await fake.slash("game new", options, user=fake.alice, channel=lobby)).response()
        there_thread = await fake.wait_for_thread(lobby)
        opened = await fake.wait_for_message(there_thread)
        await (await fake.click(opened, button(opened, "ba:lobby:start:"), user=fake.alice)).response()
        matches = {m.id: m for m in await bot.store.list_matches(limit=5)}
        there = next(m for m in matches if m != here)
        mine, others = await bot.host.waiting_for(fake.alice.id)
        assert {m.id for m in mine} | {m.id for m in others} == {here, there}
        reply = await (await fake.slash("mygames", {}, user=fake.alice, channel=fake.general)).response()
        text = reply.content or ""
        assert reply.ephemeral and f"#{here} " in text and f"#{there} " in text
        assert "Other Guild" in text  # the other server is named
        assert mine, "with these seeds a match waits for Alice"
        assert text.index("Your turn:") < text.index(f"#{mine[0].id} ")
        [go] = [b for b in reply.buttons if b.get("url")]
        assert go["url"].endswith(f"/{mine[0].thread_id}")
        if others:
            assert text.index("Waiting for the others:") < text.index(f"#{others[0].id} ")
        # Bob sees only his own match.
        bobs = await (await fake.slash("mygames", {}, user=fake.bob, channel=fake.general)).response()
        assert f"#{here} " in (bobs.content or "") and f"#{there} " not in (bobs.content or "")


async def test_the_final_post_says_how_long_each_player_took_on_the_clock(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 5, 4, 9, tzinfo=UTC))
    bot = BigApple(
        tmp_path / "db.sqlite", open_stores, dev_guild=fake.guild.id, seed_source=lambda: 5, clock=clock
    )
    async with running_bot(bot, fake):
        match_id, thread = await started_match(fake, bot, "ny1901")
        started = clock.now
        # Someone thinks, then moves.
        await play_out(bot, match_id, lambda step: clock.advance(minutes=20 + 40 * (step % 3)))
        record = await bot.host.match(match_id)
        final = await fake.wait_for_message(
            thread, lambda m: "Final standings" in (m.content or ""), timeout=60
        )
        used = {c.seat: c.used for c in await bot.store.seat_clocks(match_id)}
        # One seat's clock runs at a time in this game, so the times add up to the whole match.
        assert sum(used.values(), timedelta(0)) == clock.now - started
        name = bot.notifier.deliveries.namer(record)
        times = " · ".join(f"{name(seat)} {duration('en', used[seat])}" for seat in sorted(used))
        assert f"Time used: {times}" in (final.content or "")
        assert all(span > timedelta(hours=1) for span in used.values())
