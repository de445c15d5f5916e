"""How a player hears of their turn (``/settings notify``, ``/settings quiet``): a mention in the thread, a
direct message, a message only when the turn has waited, quiet hours that hold the call until they end,
and never two calls for one turn, restarts included. Time is a virtual clock the tests move on."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cogs._client import BigApple
from data.backend import open_stores
from engine.host.ports import MatchRecord
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import FakeChannel, FakeMessage, FakeUser
from tests.discord.test_bigapple import board_post, button, new_match, play_one_move, whose_turn

POSTS = "/channels/{channel_id}/messages"
# Discord's SUPPRESS_NOTIFICATIONS message flag: the message arrives without a push notification.
SILENT = 1 << 12


class Clock:
    """A virtual UTC clock for the bot."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@asynccontextmanager
async def bot_at(fake: FakeDiscord, db: Path, clock: Clock) -> AsyncIterator[BigApple]:
    seeds = iter(range(1, 1000))
    bot = BigApple(
        db,
        open_stores,
        dev_guild=fake.guild.id,
        retry_seconds=0.05,
        seed_source=lambda: next(seeds),
        clock=clock,
    )
    async with running_bot(bot, fake):
        yield bot


async def two_player_match(fake: FakeDiscord, game: str = "ny1901") -> tuple[int, FakeChannel]:
    """A started match of alice and bob (New York 1901 keeps nothing secret: no hand is ever sent)."""
    match_id, thread = await new_match(fake, fake.alice, game, players=2)
    lobby = await fake.wait_for_message(thread)
    joined = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=fake.bob)).response()
    await (await fake.click(joined, button(joined, "ba:lobby:start:"), user=fake.alice)).response()
    return match_id, thread


async def match_told_by_dm(fake: FakeDiscord, game: str) -> tuple[int, FakeChannel]:
    """``two_player_match`` of ``game``, both players having chosen to hear of their turns by message."""
    for user in (fake.alice, fake.bob):
        await choose(fake, user, "dm")
    return await two_player_match(fake, game)


async def choose(fake: FakeDiscord, user: FakeUser, how: str, **more: object) -> str:
    reply = await (await fake.slash("settings notify", {"how": how, **more}, user=user)).response()
    assert reply.ephemeral
    return reply.content or ""


def pinged(fake: FakeDiscord, thread: FakeChannel) -> list[list[int]]:
    """The users each message sent to ``thread`` was allowed to ping, in order (edits never ping)."""
    sent = [r for r in fake.requests_to("POST", POSTS) if r.param("channel_id") == thread.id]
    users = [((r.json or {}).get("allowed_mentions") or {}).get("users") or [] for r in sent]
    return [[int(u) for u in group] for group in users]


def pings_of(fake: FakeDiscord, thread: FakeChannel, user: FakeUser) -> int:
    return sum(user.id in group for group in pinged(fake, thread))


def pending(db: Path, match_id: int) -> int:
    """How many of the match's notices are still to send, read straight from the file."""
    with sqlite3.connect(db) as raw:
        (count,) = raw.execute(
            "SELECT COUNT(*) FROM deliveries WHERE match_id = ? AND status = 'pending'", (match_id,)
        ).fetchone()
    raw.close()
    return int(count)


def live_post_version(db: Path, match_id: int) -> int | None:
    """The version the thread's live post of the match shows as the bot remembers it, read from the file."""
    with sqlite3.connect(db) as raw:
        found = raw.execute("SELECT version FROM live_posts WHERE match_id = ?", (match_id,)).fetchone()
    raw.close()
    return None if found is None else int(found[0])


def turn_dms(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """The direct messages to ``user`` that call them to play (they carry a Play button)."""
    messages = fake.dm_messages(user)
    return [m for m in messages if any(b["custom_id"].startswith("ba:play:") for b in m.buttons)]


async def test_by_default_the_player_to_act_is_mentioned_in_the_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        match_id, thread = await two_player_match(fake)
        first, second, version = await whose_turn(fake, bot, match_id)
        opening = await board_post(fake, thread, version)
        # The first post names both players but calls only the one to act.
        assert pinged(fake, thread)[-1] == [first.id]
        assert f"<@{second.id}>" in (opening.content or "")
        while (await whose_turn(fake, bot, match_id))[0] is first:
            await play_one_move(fake, bot, match_id, thread)
        post = await board_post(fake, thread, (await whose_turn(fake, bot, match_id))[2])
        assert pinged(fake, thread)[-1] == [second.id]
        assert f"<@{second.id}>" in (post.content or "")
        assert not turn_dms(fake, second)
        await bot.notifier.pings.sweep()
        assert pings_of(fake, thread, second) == 1  # their turn's, nothing more


async def test_dm_mode_sends_one_message_with_a_working_play_button_and_no_ping(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        for user in (fake.alice, fake.bob):
            assert "direct message" in await choose(fake, user, "dm")
        match_id, thread = await two_player_match(fake)
        first, _, version = await whose_turn(fake, bot, match_id)
        post = await board_post(fake, thread, version)
        assert f"<@{first.id}>" in (post.content or "")  # still named as the one to act...
        assert pinged(fake, thread)[-1] == []  # ...without a ping
        [dm] = await fake.wait_until(lambda: turn_dms(fake, first) or None)
        assert f"match #{match_id}" in (dm.content or "") and str(thread.id) in (dm.content or "")
        assert not dm.flags & SILENT
        assert any(b["custom_id"].startswith("ba:hand:") for b in dm.buttons)
        await bot.notifier.pings.sweep()
        assert len(turn_dms(fake, first)) == 1
        menu = await (await fake.click(dm, button(dm, "ba:play:"), user=first)).response()
        assert menu.ephemeral and (menu.selects or menu.buttons), menu.content
        # The next turn is the other player's: one message for them, and still no ping for anyone.
        while (await whose_turn(fake, bot, match_id))[0] is first:
            await play_one_move(fake, bot, match_id, thread)
        second, _, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        await fake.wait_until(lambda: turn_dms(fake, second) or None)
        await bot.notifier.pings.sweep()
        assert len(turn_dms(fake, second)) == 1
        # The first player's message lost its buttons when their turn passed, and says so.
        [passed] = await fake.wait_until(
            lambda: [m for m in fake.dm_messages(first) if "This turn is over" in (m.content or "")] or None
        )
        assert not passed.buttons and len(fake.dm_messages(first)) == 1
        assert not any(pinged(fake, thread)[1:])


async def test_dm_mode_counts_the_hand_sent_with_the_turn_as_its_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        # Fifth Avenue deals everyone's cards at the start: the first player's hand comes with the turn.
        match_id, thread = await match_told_by_dm(fake, "fifth_avenue")
        first, other, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        [dm] = await fake.wait_until(lambda: turn_dms(fake, first) or None)
        assert dm.attachments and not dm.flags & SILENT
        await fake.wait_until(lambda: fake.dm_messages(other) or None)
        await bot.notifier.pings.sweep()
        assert len(turn_dms(fake, first)) == 1 and len(fake.dm_messages(first)) == 1


async def test_a_hand_that_comes_with_a_mentioned_turn_is_silent(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        match_id, thread = await two_player_match(fake, "fifth_avenue")
        first, other, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        [dm] = await fake.wait_until(lambda: turn_dms(fake, first) or None)
        assert dm.flags & SILENT  # the mention in the thread is their one call
        hand = await fake.wait_for_dm(other)
        assert hand.flags & SILENT  # not a call to play: a hand never notifies on its own


async def test_waited_mode_writes_only_when_the_turn_has_waited(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        for user in (fake.alice, fake.bob):
            assert "2 hours" in await choose(fake, user, "waited", after_hours=2)
        match_id, thread = await two_player_match(fake)
        first, second, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        assert pinged(fake, thread)[-1] == []
        clock.advance(hours=1, minutes=59)
        await bot.notifier.pings.sweep()
        assert not turn_dms(fake, first)
        # The first player moves in time: the second player's turn starts its own two hours.
        while (await whose_turn(fake, bot, match_id))[0] is first:
            await play_one_move(fake, bot, match_id, thread)
        await board_post(fake, thread, (await whose_turn(fake, bot, match_id))[2])
        clock.advance(minutes=2)
        await bot.notifier.pings.sweep()
        assert not turn_dms(fake, first) and not turn_dms(fake, second)
        clock.advance(hours=2)
        bot.kick_outbox()
        [dm] = await fake.wait_until(lambda: turn_dms(fake, second) or None)
        assert f"match #{match_id}" in (dm.content or "") and not dm.flags & SILENT
        clock.advance(hours=30)
        await bot.notifier.pings.sweep()
        assert len(turn_dms(fake, second)) == 1 and not turn_dms(fake, first)
        assert not any(pinged(fake, thread)[1:])


async def test_quiet_hours_hold_the_ping_until_they_end_once_across_restarts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    clock = Clock(datetime(2026, 1, 14, 22, 30, tzinfo=UTC))  # 23:30 in Rome
    async with bot_at(fake, db, clock) as bot:
        for user in (fake.alice, fake.bob):
            quiet = {"start": 22, "end": 7, "timezone": "Europe/Rome"}
            reply = await (await fake.slash("settings quiet", quiet, user=user)).response()
            assert "22:00" in (reply.content or "") and "Europe/Rome" in (reply.content or "")
        match_id, thread = await two_player_match(fake)
        first, _, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        assert pinged(fake, thread)[-1] == []  # nobody is pinged at night, not even on the first post
        clock.advance(hours=5)  # 04:30 in Rome
        await bot.notifier.pings.sweep()
        assert pings_of(fake, thread, first) == 0
        await fake.wait_until(lambda: not pending(db, match_id) or None)  # the post is recorded as sent
    clock.advance(hours=3)  # 07:30 in Rome: the night ended while the bot was down
    async with bot_at(fake, db, clock) as bot:
        reminder = await fake.wait_for_message(thread, lambda m: "it is your turn" in (m.content or ""))
        assert f"<@{first.id}>" in (reminder.content or "")
        assert pinged(fake, thread)[-1] == [first.id]
        clock.advance(hours=24)
        await bot.notifier.pings.sweep()
        assert pings_of(fake, thread, first) == 1
    async with bot_at(fake, db, clock) as bot:
        await bot.notifier.pings.sweep()
        assert pings_of(fake, thread, first) == 1
        assert not turn_dms(fake, first)


async def test_quiet_hours_hold_a_direct_message_and_it_is_dropped_if_the_turn_passes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 1, 14, 23, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        for user in (fake.alice, fake.bob):
            await choose(fake, user, "dm")
            quiet = {"start": 22, "end": 6, "timezone": "UTC"}
            await (await fake.slash("settings quiet", quiet, user=user)).response()
        match_id, thread = await two_player_match(fake)
        first, second, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        # The first player plays at night anyway: their held message is no longer needed.
        while (await whose_turn(fake, bot, match_id))[0] is first:
            await play_one_move(fake, bot, match_id, thread)
        await board_post(fake, thread, (await whose_turn(fake, bot, match_id))[2])
        clock.advance(hours=7)  # 06:00
        bot.kick_outbox()
        await fake.wait_until(lambda: turn_dms(fake, second) or None)
        await bot.notifier.pings.sweep()
        assert not turn_dms(fake, first) and len(turn_dms(fake, second)) == 1
        # Quiet hours off: the next turn's message comes at once, even at night.
        clock.advance(hours=17)  # 23:00
        reply = await (await fake.slash("settings quiet-off", {}, user=fake.alice)).response()
        assert "Quiet hours are off." in (reply.content or "")
        await (await fake.slash("settings quiet-off", {}, user=fake.bob)).response()
        while (await whose_turn(fake, bot, match_id))[0] is second:
            await play_one_move(fake, bot, match_id, thread)
        await fake.wait_until(lambda: turn_dms(fake, first) or None)


async def test_quiet_hours_need_a_real_time_zone(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        quiet = {"start": 22, "end": 7, "timezone": "Europe/Atlantis"}
        reply = await (await fake.slash("settings quiet", quiet, user=fake.alice)).response()
        assert reply.ephemeral and "Europe/Atlantis" in (reply.content or "")
        same = {"start": 7, "end": 7, "timezone": "UTC"}
        reply = await (await fake.slash("settings quiet", same, user=fake.alice)).response()
        assert "different hours" in (reply.content or "")
        assert (await bot.notifier.pings.prefs(fake.alice.id)).quiet is None
        choices = await (await fake.autocomplete("settings quiet", "timezone", "rome", quiet)).choices()
        assert [c["value"] for c in choices] == ["Europe/Rome"]
        choices = await (await fake.autocomplete("settings quiet", "timezone", "", quiet)).choices()
        assert "Europe/Rome" in [c["value"] for c in choices]
        # Folders of the time zone database, names no file may have, and names that are no place's zone
        # are refused in words, and nothing is stored.
        for name in ("Europe", "America", "Etc", "Europe/" + "x" * 300, "localtime", "Factory", "right/UTC"):
            wrong = {**quiet, "timezone": name}
            reply = await (await fake.slash("settings quiet", wrong, user=fake.alice)).response()
            assert reply.ephemeral and "write it like Europe/Rome" in (reply.content or ""), name
            assert len(reply.content or "") < 200
            assert (await bot.notifier.pings.prefs(fake.alice.id)).quiet is None
        # A zone typed in any case is stored as the list spells it.
        rome = {**quiet, "timezone": "europe/rome"}
        reply = await (await fake.slash("settings quiet", rome, user=fake.alice)).response()
        assert "(Europe/Rome)" in (reply.content or ""), reply.content
        stored = (await bot.notifier.pings.prefs(fake.alice.id)).quiet
        assert stored is not None and stored.zone == "Europe/Rome"
        # The choices hold what was typed, whatever its case, at most 25 of them, and only real zones.
        choices = await (await fake.autocomplete("settings quiet", "timezone", "NEW YORK", quiet)).choices()
        assert [c["value"] for c in choices] == ["America/New_York"]
        choices = await (await fake.autocomplete("settings quiet", "timezone", "america/", quiet)).choices()
        assert len(choices) == 25 and all(c["value"].startswith("America/") for c in choices)
        for typed in ("localtime", "factory", "right/", "posixrules"):
            assert await (await fake.autocomplete("settings quiet", "timezone", typed, quiet)).choices() == []


async def test_an_italian_player_reads_their_settings_and_reminders_in_italian(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.bob.locale = "it"
    clock = Clock(datetime(2026, 1, 14, 22, 30, tzinfo=UTC))  # 23:30 in Rome
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        text = await choose(fake, fake.bob, "waited", after_hours=1)
        assert text == (
            "Se il tuo turno ti aspetta da 1 ora, ti manderò un solo messaggio diretto; "
            "non ti menzionerò nel thread."
        )
        await choose(fake, fake.bob, "thread")
        for user in (fake.alice, fake.bob):
            quiet = {"start": 22, "end": 7, "timezone": "Europe/Rome"}
            reply = await (await fake.slash("settings quiet", quiet, user=user)).response()
            assert "22:00" in (reply.content or "")
        assert (reply.content or "").startswith("Quando tocca a te ti menzionerò nel thread della partita.")
        assert "Ore di silenzio dalle 22:00 alle 07:00 (Europe/Rome)" in (reply.content or "")
        # Posts and DMs, which have no locale of their own, follow the language chosen with /settings.
        await (await fake.slash("settings language", {"language": "it"}, user=fake.bob)).response()
        match_id, thread = await two_player_match(fake)
        await (await fake.slash("settings language", {"language": "it"}, user=fake.alice)).response()
        first, _, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        clock.advance(hours=8)
        bot.kick_outbox()
        reminder = await fake.wait_for_message(thread, lambda m: "tocca a te" in (m.content or ""))
        assert (reminder.content or "").startswith(f"<@{first.id}>, tocca a te. https://discord.com/")
        reply = await (await fake.slash("settings quiet-off", {}, user=fake.bob)).response()
        assert (reply.content or "").startswith("Ore di silenzio disattivate.")


async def test_dm_mode_with_closed_dms_falls_back_to_the_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        for user in (fake.alice, fake.bob):
            await choose(fake, user, "dm")
            fake.close_dms(user)
        match_id, thread = await two_player_match(fake)
        first, second, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        # Their first turn: the thread says once that DMs are closed, and that is their one ping.
        await fake.wait_for_message(thread, lambda m: "direct messages" in (m.content or ""))
        await bot.notifier.pings.sweep()
        assert pings_of(fake, thread, first) == 1
        while (await whose_turn(fake, bot, match_id))[0] is first:
            await play_one_move(fake, bot, match_id, thread)
        while (await whose_turn(fake, bot, match_id))[0] is second:
            await play_one_move(fake, bot, match_id, thread)
        # Their next turn: a mention in the thread instead of the message they cannot get.
        await fake.wait_for_message(thread, lambda m: (m.content or "").startswith(f"<@{first.id}>, it is"))
        await bot.notifier.pings.sweep()
        assert pings_of(fake, thread, first) == 2


async def test_a_new_choice_applies_to_the_turn_already_waiting(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        for user in (fake.alice, fake.bob):
            await choose(fake, user, "waited", after_hours=168)
        match_id, thread = await two_player_match(fake)
        first, _, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        await bot.notifier.pings.sweep()
        assert not turn_dms(fake, first)
        await choose(fake, first, "dm")
        bot.kick_outbox()
        await fake.wait_until(lambda: turn_dms(fake, first) or None)
        await bot.notifier.pings.sweep()
        assert len(turn_dms(fake, first)) == 1 and not any(pinged(fake, thread)[1:])


async def test_a_hand_lives_in_one_quiet_message_and_a_passed_turn_loses_its_buttons(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        match_id, thread = await match_told_by_dm(fake, "fifth_avenue")
        turns = {fake.alice.id: 0, fake.bob.id: 0}
        for _ in range(6):
            user, _, version = await whose_turn(fake, bot, match_id)
            await board_post(fake, thread, version)
            turns[user.id] += 1
            while (await whose_turn(fake, bot, match_id))[0] is user:
                await play_one_move(fake, bot, match_id, thread)
        now = await bot.host.match(match_id)
        await board_post(fake, thread, now.version)
        await bot.notifier.pings.sweep()
        for user in (fake.alice, fake.bob):
            messages = fake.dm_messages(user)
            loud = [m for m in messages if not m.flags & SILENT]
            # One new message per call to play (and the first hand, dealt before any turn); every change of
            # the hand in between edits the latest message.
            assert len(messages) <= turns[user.id] + 1, [m.content for m in messages]
            assert len(loud) <= turns[user.id], [m.content for m in loud]
            # Only the message of a turn still to play keeps its buttons; the others say it is over (once
            # the post of the turn that follows is out).
            record = await bot.host.match(match_id)
            to_act = record.seat_of(user.id) in bot.host.to_act(record)

            def stale(messages: list[FakeMessage] = messages, to_act: bool = to_act) -> list[FakeMessage]:
                return [
                    m
                    for m in (messages[:-1] if to_act else messages)
                    if any(b["custom_id"].startswith("ba:play:") for b in m.buttons)
                ]

            await fake.wait_until(lambda: not stale() or None, timeout=5)
            passed = [m for m in messages if "This turn is over" in (m.content or "")]
            assert passed, [m.content for m in messages]


def private_steps(bot: BigApple, record: MatchRecord, seat: int) -> list[str] | None:
    """Two moves of ``seat`` in a row (in notation), each leaving the same players to act and changing the
    seat's own hand, so each sends it a private notice while its turn goes on; None when there are none."""
    rules = bot.host.rules(record.game)

    def steps(state: Any) -> list[tuple[str, Any]]:
        found = []
        for action in rules.legal_actions(state, seat):
            step = rules.apply(state, seat, action)
            own = any(e.audience is not None and seat in e.audience for e in step.events)
            if own and rules.to_act(step.state) == rules.to_act(state):
                found.append((rules.notation(action), step.state))
        return found

    for first, after in steps(bot.host.state_of(record)):
        for second, _ in steps(after):
            return [first, second]
    return None


async def test_a_turn_that_goes_on_never_calls_its_player_again_even_when_their_messages_lag(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # The thread and each player's direct messages are sent side by side: whichever is sent first, a
    # hand that changes while its turn goes on is an edit, never a second call.
    fake = fake_discord
    async with bot_at(fake, tmp_path / "db.sqlite", Clock(datetime(2026, 1, 14, 12, tzinfo=UTC))) as bot:
        match_id, thread = await match_told_by_dm(fake, "ny_henn")
        for _ in range(200):
            user, _, version = await whose_turn(fake, bot, match_id)
            record = await bot.host.match(match_id)
            seat = record.seat_of(user.id)
            assert seat is not None
            moves = private_steps(bot, record, seat)
            if moves is not None:
                break
            await play_one_move(fake, bot, match_id, thread)
        else:
            raise AssertionError("no turn had two moves in a row that changed its player's hand")
        await board_post(fake, thread, version)
        await fake.wait_until(lambda: pending(tmp_path / "db.sqlite", match_id) == 0 or None)
        await bot.notifier.pings.sweep()
        await fake.wait_until(lambda: turn_dms(fake, user) or None)
        before = len(fake.dm_messages(user))
        dms = fake.dm_channel(user).id
        # Their direct messages stall on the first move's edit while the thread goes on.
        held = fake.hold("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=dms)
        for move in moves:
            await board_post(fake, thread, (await bot.host.match(match_id)).version)
            typed = await fake.slash("move", {"notation": move}, user=user, channel=thread)
            assert "You played" in ((await typed.response()).content or "")
        latest = (await bot.host.match(match_id)).version
        await board_post(fake, thread, latest)
        # The thread's post of the last move is out and remembered before the messages go on.
        await fake.wait_until(lambda: live_post_version(tmp_path / "db.sqlite", match_id) == latest or None)
        await fake.wait_until(lambda: held.hits or None)
        held.release()
        await fake.wait_until(lambda: pending(tmp_path / "db.sqlite", match_id) == 0 or None)
        assert len(fake.dm_messages(user)) == before, [m.content for m in fake.dm_messages(user)[before:]]
