"""Big Apple end to end: the real discord.py client running our cogs against the local fake Discord."""

from __future__ import annotations

import asyncio
import copy
import gc
import io
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import cast

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

from cogs._client import BigApple
from data.backend import open_stores
from engine.core.contract import Event
from engine.core.replay import replay
from engine.core.rng import Rng
from engine.host.heap import YOUNG_OBJECTS
from engine.host.ports import MatchStatus
from engine.host.service import sentence
from engine.registry import POLICIES
from lang.says import render
from tests.discord.fake import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_GUILDS, FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import (
    BUTTON,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    UPDATE_MESSAGE,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeUser,
)
from tests.discord.turns_bench import menu_choices

PLAY_BUTTON = re.compile(r"ba:play:(?P<m>\d+):(?P<v>\d+)")


@asynccontextmanager
async def big_apple(fake: FakeDiscord, db: Path, retry_seconds: float = 0.05) -> AsyncIterator[BigApple]:
    seeds = iter(range(1, 1000))
    bot = BigApple(
        db, open_stores, dev_guild=fake.guild.id, retry_seconds=retry_seconds, seed_source=lambda: next(seeds)
    )
    async with running_bot(bot, fake):
        yield bot


async def new_match(
    fake: FakeDiscord, creator: FakeUser, game: str = "ny_piatnik", **options: object
) -> tuple[int, FakeChannel]:
    """``/game new`` of ``game`` in #general; returns the match id and its thread."""
    ix = await fake.slash("game new", {"game": game, **options}, user=creator, channel=fake.general)
    reply = await ix.response()
    assert reply.ephemeral
    found = re.search(r"Match #(\d+) is open", reply.content or "")
    assert found, reply.content
    thread = await fake.wait_for_thread(fake.general)
    return int(found.group(1)), thread


def lobby_message(thread: FakeChannel) -> FakeMessage:
    return next(m for m in thread.messages if "lobby" in (m.content or "") or "Players" in (m.content or ""))


def posted_versions(thread: FakeChannel) -> list[int]:
    """The versions of the board posts in ``thread``, in posting order."""
    found = (PLAY_BUTTON.fullmatch(b.get("custom_id", "")) for m in thread.messages for b in m.buttons)
    return [int(f["v"]) for f in found if f]


def button(message: FakeMessage, prefix: str) -> str:
    return next(b["custom_id"] for b in message.buttons if b.get("custom_id", "").startswith(prefix))


async def board_post(fake: FakeDiscord, thread: FakeChannel, version: int) -> FakeMessage:
    """The thread post whose Play button is for ``version`` (or the final post); waits for the outbox."""

    def check() -> FakeMessage | None:
        for message in thread.messages:
            if "Final standings" in (message.content or ""):
                return message
            for custom_id in (b.get("custom_id", "") for b in message.buttons):
                found = PLAY_BUTTON.fullmatch(custom_id)
                if found and int(found["v"]) == version:
                    return message
        return None

    return await fake.wait_until(check, timeout=5)


async def choose_first(fake: FakeDiscord, menu: FakeMessage, user: FakeUser) -> tuple[FakeInteraction, bool]:
    """Take the first choice of a private move menu: the one-move button, else the list's first option,
    else the first choice button (a group opens, a move plays). Returns the interaction of the choice and
    whether it played a move."""
    one = [b["custom_id"] for b in menu.buttons if b["custom_id"].startswith("ba:one:")]
    if one:
        return await fake.click(menu, one[0], user=user), True
    if menu.selects:
        select = menu.selects[0]
        value = select["options"][0]["value"]
        return await fake.select(menu, select["custom_id"], [value], user=user), value.startswith("=")
    picks = [b["custom_id"] for b in menu.buttons if b["custom_id"].startswith("ba:pick:")]
    assert picks, menu.content
    return await fake.click(menu, picks[0], user=user), picks[0].split(":", 4)[4].startswith("=")


async def tap_first(fake: FakeDiscord, menu: FakeMessage, user: FakeUser) -> tuple[FakeMessage, bool]:
    """``choose_first``, returning the menu as it stands after the choice."""
    chosen, played = await choose_first(fake, menu, user)
    return await chosen.response(), played


async def play_first_legal(fake: FakeDiscord, post: FakeMessage, user: FakeUser) -> str:
    """Click Play on ``post`` and keep choosing the first option until a move is played."""
    ix = await fake.click(post, button(post, "ba:play:"), user=user)
    menu = await ix.response()
    assert menu.ephemeral, menu.content
    while True:
        menu, played = await tap_first(fake, menu, user)
        if played:
            assert "You played" in (menu.content or ""), menu.content
            return menu.content or ""


async def started_match(
    fake: FakeDiscord, bot: BigApple, game: str = "ny_piatnik"
) -> tuple[int, FakeChannel]:
    """A 3-seat match of alice, bob and a computer, started; returns its id and thread. (Piatnik deals
    no hands before its preliminary round: a test of opening DMs starts a game that does.)"""
    match_id, thread = await new_match(fake, fake.alice, game, players=3, computers=1)
    lobby = await fake.wait_for_message(thread)
    joined = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=fake.bob)).response()
    await (await fake.click(joined, button(joined, "ba:lobby:start:"), user=fake.alice)).response()
    return match_id, thread


async def whose_turn(fake: FakeDiscord, bot: BigApple, match_id: int) -> tuple[FakeUser, FakeUser, int]:
    """(the user to act, the other human, the current version)."""
    record = await bot.host.match(match_id)
    seat = min(bot.host.rules(record.game).to_act(bot.host.state_of(record)))
    player = record.player_at(seat)
    assert player is not None
    first = fake.alice if player.user_id == fake.alice.id else fake.bob
    return first, (fake.bob if first is fake.alice else fake.alice), record.version


async def type_first_legal(
    fake: FakeDiscord, bot: BigApple, match_id: int, thread: FakeChannel
) -> tuple[str, FakeInteraction]:
    """The user to act types their first legal move with /move (after the post for it appeared); returns
    the move and the interaction."""
    user, _, version = await whose_turn(fake, bot, match_id)
    await board_post(fake, thread, version)
    record = await bot.host.match(match_id)
    seat = record.seat_of(user.id)
    assert seat is not None
    notation = bot.host.legal_notations(record, seat)[0]
    return notation, await fake.slash("move", {"notation": notation}, user=user, channel=thread)


async def play_one_move(fake: FakeDiscord, bot: BigApple, match_id: int, thread: FakeChannel) -> str:
    """``type_first_legal``, checking that the move was played."""
    notation, typed = await type_first_legal(fake, bot, match_id, thread)
    reply = await typed.response()
    assert "You played" in (reply.content or ""), reply.content
    return notation


@pytest.mark.real_png  # reads the final board's image
@pytest.mark.animation
async def test_a_whole_match_from_new_to_standings(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    cy = fake.add_user("cy")
    users = {u.id: u for u in (fake.alice, fake.bob, cy)}
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await new_match(fake, fake.alice, players=3)
        lobby = await fake.wait_for_message(thread)
        for joiner in (fake.bob, cy):
            lobby = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=joiner)).response()
            assert (joiner.global_name or joiner.username).lower() in (lobby.content or "").lower()
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()

        greedy = POLICIES["ny_piatnik"]["greedy"]  # the humans play like the greedy computer, so it ends soon
        for turn in range(1000):
            record = await bot.host.match(match_id)
            if record.status is MatchStatus.FINISHED:
                break
            post = await board_post(fake, thread, record.version)
            seat = min(bot.host.rules(record.game).to_act(bot.host.state_of(record)))
            player = record.player_at(seat)
            assert player is not None and player.user_id in users
            assert f"<@{player.user_id}>" in (post.content or "")
            user = users[player.user_id]
            if turn % 10 == 0:  # now and then through the buttons and menus, else by typing a move
                played = await play_first_legal(fake, post, user)
            else:
                rules, state = bot.host.rules(record.game), bot.host.state_of(record)
                action = greedy.choose(
                    rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(turn)
                )
                ix = await fake.slash("move", {"notation": rules.notation(action)}, user=user, channel=thread)
                played = (await ix.response()).content or ""
            assert "You played" in played, played
        record = await bot.host.match(match_id)
        assert record.status is MatchStatus.FINISHED
        final = await board_post(fake, thread, record.version)
        assert "Final standings" in (final.content or "")
        assert [b["custom_id"] for b in final.buttons] == [f"ba:rematch:{match_id}"]  # no more Play
        made = [seat for _, seat in await bot.store.action_seats(match_id)]
        name = bot.notifier.deliveries.namer(record)
        moves = " · ".join(f"{name(seat)} {made.count(seat)}" for seat in range(record.seat_count))
        assert f"Moves: {moves}" in (final.content or "")  # each player's moves, the statistics of the match
        with Image.open(io.BytesIO(final.attachments[0].data)) as image:
            assert image.format == "PNG" and image.width >= 400
        # Under the final post, the whole match move by move: a frame per kept move and the opening.
        animated = await fake.wait_for_message(
            thread, lambda m: any(a.filename == f"match-{match_id}.gif" for a in m.attachments), timeout=60
        )
        assert thread.messages.index(animated) > thread.messages.index(final)
        gif = animated.attachments[0].data
        assert len(gif) <= 8 * 1024 * 1024
        with cast(GifImageFile, Image.open(io.BytesIO(gif))) as image:
            assert image.format == "GIF" and image.n_frames == len(await bot.store.kept_actions(match_id)) + 1
        for user in users.values():
            dms = fake.dm_messages(user)
            # Told of their turns in the thread, each player has one private message: their hand, edited
            # as it changed, and without controls once the match is over.
            assert len(dms) == 1, f"{user.username} got {len(dms)} private messages"
            assert not dms[0].buttons
            for dm in dms:
                assert f"match #{match_id}" in (dm.content or "") and fake.guild.name in (dm.content or "")
                assert f"/channels/{fake.guild.id}/{thread.id}" in (dm.content or "")
                assert dm.attachment("hand.png").data.startswith(b"\x89PNG")


async def test_refusals_are_private_and_change_nothing(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        first, other, version = await whose_turn(fake, bot, match_id)
        post = await board_post(fake, thread, version)
        cases = [
            (await fake.click(post, button(post, "ba:play:"), user=other), "not your turn"),
            (await fake.click(post, button(post, "ba:play:"), user=fake.owner), "not playing"),
            (
                await fake.slash("move", {"notation": "place at=Q"}, user=first, channel=thread),
                "“place at=Q” is not one of your moves. Your moves are in the menu",
            ),
            (await fake.slash("move", {"notation": "dance"}, user=first, channel=thread), "press Play"),
            (await fake.slash("hand", {}, user=fake.owner, channel=thread), "not playing"),
        ]
        for interaction, expected in cases:
            reply = await interaction.response()
            assert reply.ephemeral and expected in (reply.content or ""), reply.content
        assert (await bot.host.match(match_id)).version == version


async def test_a_stale_button_is_refused(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        first, _, version = await whose_turn(fake, bot, match_id)
        old_post = await board_post(fake, thread, version)
        old_button = button(old_post, "ba:play:")
        as_seen = copy.deepcopy(old_post)  # what a client that has not caught up still shows
        played = await fake.slash("move", {"notation": "place at=8AV-34"}, user=first, channel=thread)
        assert "You played" in ((await played.response()).content or "")
        after = (await bot.host.match(match_id)).version
        await board_post(fake, thread, after)
        # The turn passed: the old post lost its buttons. A client that still shows them may click anyway.
        await fake.wait_until(lambda: not old_post.buttons or None)
        click = {"custom_id": old_button, "component_type": BUTTON}
        stale = await (
            await fake.inject_interaction(MESSAGE_COMPONENT, first, thread, click, as_seen)
        ).response()
        assert stale.ephemeral and "moved on" in (stale.content or "")
        assert (await bot.host.match(match_id)).version == after


async def test_a_move_is_answered_at_once_or_deferred_when_it_takes_longer(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Played within ``answer_within``, a move is answered in the interaction's own reply (one request);
    past it, the interaction is deferred first and the answer fills in or edits the deferred message."""
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        for answer_within, answers in ((60.0, [CHANNEL_MESSAGE]), (0.0, [DEFERRED_CHANNEL_MESSAGE])):
            bot.answer_within = answer_within
            version = (await bot.host.match(match_id)).version
            _, typed = await type_first_legal(fake, bot, match_id, thread)
            reply = await typed.response()
            assert reply.ephemeral and "You played" in (reply.content or ""), reply.content
            assert [typed.callback_type] == answers
            assert len(typed.followups) == (answer_within == 0.0)
            assert (await bot.host.match(match_id)).version > version
        # A move chosen in the menu: its message is updated in the answer, or after a deferred update.
        for answer_within, answer in ((60.0, UPDATE_MESSAGE), (0.0, DEFERRED_UPDATE_MESSAGE)):
            bot.answer_within = answer_within
            user, _, version = await whose_turn(fake, bot, match_id)
            post = await board_post(fake, thread, version)
            menu = await (await fake.click(post, button(post, "ba:play:"), user=user)).response()
            played = False
            while not played:
                chosen, played = await choose_first(fake, menu, user)
                menu = await chosen.response()
            assert "You played" in (menu.content or ""), menu.content
            assert chosen.callback_type == answer
            assert (await bot.host.match(match_id)).version > version


async def test_a_bot_in_its_own_process_sets_its_start_up_heap_aside_and_collects_less_often_until_it_stops(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    assert gc.get_freeze_count() == 0
    thresholds = gc.get_threshold()
    bot = BigApple(tmp_path / "db.sqlite", open_stores, dev_guild=fake_discord.guild.id, set_heap_aside=True)
    async with running_bot(bot, fake_discord):
        assert gc.get_freeze_count() > 0
        # ... and lets more new objects pile up before it collects them
        assert gc.get_threshold() == (YOUNG_OBJECTS, *thresholds[1:]) and thresholds[0] < YOUNG_OBJECTS
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds


async def test_the_bot_is_sent_no_message_events_it_would_not_read(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The bot asks for the guild events it needs and not for messages: its own posts and edits, and
    people's messages, do not come back to it."""
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        await play_one_move(fake, bot, match_id, thread)
        await fake.post_as_user(thread, "nice move", user=fake.bob)
        intents = int(fake.identify_payloads[-1]["intents"])
        assert intents & INTENT_GUILDS
        assert not intents & (INTENT_GUILD_MESSAGES | INTENT_DIRECT_MESSAGES)
        assert len(thread.messages) > 2  # the lobby, the board posts and bob's message
        assert not [event for event, _ in fake.dispatched if event.startswith("MESSAGE_")]


async def test_a_double_click_applies_once(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    caplog.set_level(logging.INFO, logger="cogs._move_menu")
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        first, _, version = await whose_turn(fake, bot, match_id)
        post = await board_post(fake, thread, version)
        menu = await (await fake.click(post, button(post, "ba:play:"), user=first)).response()
        offered = menu_choices(menu)
        while not any(value.startswith("=") for value in offered):
            menu, _ = await tap_first(fake, menu, first)
            offered = menu_choices(menu)
        leaf, (select, custom_id) = next((v, c) for v, c in offered.items() if v.startswith("="))

        async def choose() -> FakeInteraction:
            if select is None:
                return await fake.click(menu, custom_id, user=first)
            return await fake.select(menu, select, [leaf], user=first)

        clicks = await asyncio.gather(choose(), choose())
        # Both clicks are acknowledged and the menu message shows the move played; the second, a repeat
        # of the move just made, is acknowledged quietly rather than told that the board moved on.
        for click in clicks:
            await click.callback()
        await fake.wait_until(lambda: any(click.answer for click in clicks))
        assert "✅" in (menu.content or "")
        await fake.wait_until(
            lambda: [r for r in caplog.records if "clicked again" in r.getMessage()] or None
        )
        log = await bot.store.action_log(match_id)
        assert [entry.notation for entry in log].count(leaf[1:]) == 1
        assert not [f for c in clicks for f in c.followups if "moved on" in (f.content or "")]


async def test_the_same_typed_move_sent_twice_at_once_is_played_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        choice = {"game": "skyline", "players": 3, "computers": 2}
        await (await fake.slash("game new", choice, user=fake.alice, channel=fake.general)).response()
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
        match_id = (await bot.store.list_matches(limit=1))[0].id
        greedy = POLICIES["skyline"]["greedy"]
        for ply in range(200):  # play on until a move would leave the same move legal for the same player
            record = await bot.host.match(match_id)
            rules, state = bot.host.rules(record.game), bot.host.state_of(record)
            seat = record.seat_of(fake.alice.id)
            assert seat is not None and seat in rules.to_act(state)
            legal = rules.legal_actions(state, seat)
            repeatable = [
                a
                for a in legal
                if seat in rules.to_act(after := rules.apply(state, seat, a).state)
                and rules.notation(a) in {rules.notation(b) for b in rules.legal_actions(after, seat)}
            ]
            if repeatable:
                notation = rules.notation(repeatable[0])
                break
            action = greedy.choose(rules, state, seat, legal, Rng.from_seed(ply))
            move = {"notation": rules.notation(action)}
            await (await fake.slash("move", move, user=fake.alice, channel=thread)).response()
        else:
            raise AssertionError("no repeatable move came up")
        before = len(await bot.store.action_log(match_id))
        sent = await asyncio.gather(
            *(fake.slash("move", {"notation": notation}, user=fake.alice, channel=thread) for _ in range(2))
        )
        replies = [(await ix.response()).content or "" for ix in sent]
        assert sum("You played" in r for r in replies) == 1, replies
        assert sum("already moved" in r for r in replies) == 1, replies
        assert len(await bot.store.action_log(match_id)) == before + 1


async def test_closed_dms_fall_back_to_the_hand_button(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    fake.close_dms(fake.bob)
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "fifth_avenue")
        notice = await fake.wait_for_message(
            thread, lambda m: "cannot send you direct messages" in (m.content or "")
        )
        assert f"<@{fake.bob.id}>" in (notice.content or "") and not notice.attachments
        # Play on a little: the notice is not repeated for every new hand.
        for _ in range(4):
            await play_one_move(fake, bot, match_id, thread)
        notices = [m for m in thread.messages if "cannot send you direct messages" in (m.content or "")]
        assert len(notices) == 1
        assert fake.dm_messages(fake.bob) == []
        assert fake.dm_messages(fake.alice)
        hand = await (await fake.click(notice, button(notice, "ba:hand:"), user=fake.bob)).response()
        assert hand.ephemeral and hand.attachment("hand.png").data.startswith(b"\x89PNG")
        refused = await (await fake.click(notice, button(notice, "ba:hand:"), user=fake.owner)).response()
        assert refused.ephemeral and "not playing" in (refused.content or "") and not refused.attachments


async def test_a_restart_mid_match_loses_nothing_and_old_buttons_work(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db) as bot:
        match_id, thread = await started_match(fake, bot)
        for _ in range(3):
            await play_one_move(fake, bot, match_id, thread)
        _, _, version = await whose_turn(fake, bot, match_id)
        post = await board_post(fake, thread, version)
        log_before = await bot.store.action_log(match_id)
    async with big_apple(fake, db) as bot:  # a new client on the same database
        assert await bot.store.action_log(match_id) == log_before
        user, _, after_restart = await whose_turn(fake, bot, match_id)
        assert after_restart == version
        played = await play_first_legal(fake, post, user)  # a button posted before the restart
        assert "You played" in played
        assert len(await bot.store.action_log(match_id)) > len(log_before)
        await board_post(fake, thread, (await bot.host.match(match_id)).version)


async def test_a_failed_thread_post_is_retried(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        _, _, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        fake.fail_next("POST", "/channels/{channel_id}/messages", status=503, times=2, channel_id=thread.id)
        await play_one_move(fake, bot, match_id, thread)
        record = await bot.host.match(match_id)
        await board_post(fake, thread, record.version)  # arrives after two refused attempts
        failed = [r for r in fake.requests_to("POST", "/channels/{channel_id}/messages") if r.status == 503]
        assert len(failed) == 2
        versions = posted_versions(thread)
        assert versions == sorted(versions)  # the retried post did not let a later one overtake it


async def test_a_post_that_failed_before_a_restart_is_sent_after_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db, retry_seconds=60) as bot:
        match_id, thread = await started_match(fake, bot)
        _, _, version = await whose_turn(fake, bot, match_id)
        await board_post(fake, thread, version)
        fake.fail_next("POST", "/channels/{channel_id}/messages", status=503, times=1, channel_id=thread.id)
        await play_one_move(fake, bot, match_id, thread)
        await fake.wait_until(
            lambda: [
                r for r in fake.requests_to("POST", "/channels/{channel_id}/messages") if r.status == 503
            ]
        )
        assert await bot.store.pending_deliveries()
        record = await bot.host.match(match_id)
    assert record.version not in posted_versions(thread)
    async with big_apple(fake, db) as bot:
        await board_post(fake, thread, record.version)  # sent by the new client's outbox at start-up


async def test_no_secret_reaches_a_public_post_or_a_log_line(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    caplog.set_level(logging.DEBUG)
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        for _ in range(30):
            await play_one_move(fake, bot, match_id, thread)
        record = await bot.host.match(match_id)
        await board_post(fake, thread, record.version)
        log = await bot.store.action_log(match_id)
        _, events = replay(bot.host.rules(record.game), record.seat_count, record.seed, record.options, log)
    name = bot.host.namer(record)

    def said(event: Event) -> str:
        return render("en", sentence(event), name)

    secrets = {said(e) for e in events if not e.is_public}
    assert secrets, "the match produced no private events, so this test proves nothing"
    public_text = "\n".join(m.content or "" for m in thread.messages + fake.general.messages)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for secret in secrets | {e.text for e in events if not e.is_public}:
        assert secret not in public_text
        assert secret not in logged
    for user in (fake.alice, fake.bob):
        seat = record.seat_of(user.id)
        own = {said(e) for e in events if e.audience is not None and seat in e.audience}
        others = secrets - own
        dm_lines = {
            line.removeprefix("• ") for m in fake.dm_messages(user) for line in (m.content or "").split("\n")
        }
        assert own & dm_lines
        assert not others & dm_lines


async def test_several_cards_are_chosen_in_one_multi_select(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await new_match(fake, fake.alice, players=4, computers=3, options="team")
        lobby = await fake.wait_for_message(thread)
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
        for _ in range(40):
            record = await bot.host.match(match_id)
            post = await board_post(fake, thread, record.version)
            menu = await (await fake.click(post, button(post, "ba:play:"), user=fake.alice)).response()
            multi = [b for b in menu.buttons if b["custom_id"].startswith("ba:multi:")]
            if multi:
                break
            await play_one_move(fake, bot, match_id, thread)
        else:
            raise AssertionError("no exchange was ever offered")
        assert multi[0]["label"] == "Pass cards to your partner"
        picker = await (await fake.click(menu, multi[0]["custom_id"], user=fake.alice)).response()
        select = picker.selects[0]
        assert select["max_values"] == len(select["options"]) >= 2
        chosen = [select["options"][0]["value"], select["options"][1]["value"]]
        played = await (await fake.select(picker, select["custom_id"], chosen, user=fake.alice)).response()
        assert "You played: Pass " in (played.content or "") and "to your partner" in (played.content or "")
        lines = await bot.host.public_log(await bot.host.match(match_id), 0)
        assert any(": exchange n=2 backs=" in line for line in lines)
        assert any(": return n=2 backs=" in line for line in lines)  # the computer partner gave two back


async def test_move_autocomplete_offers_the_moves_in_words(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        user, other, _ = await whose_turn(fake, bot, match_id)
        record = await bot.host.match(match_id)
        seat = record.seat_of(user.id)
        assert seat is not None
        legal = bot.host.legal_notations(record, seat)
        labels = [entry.label for entry in bot.host.legal_menu(record, seat)][: len(legal)]
        choices = await (
            await fake.autocomplete("move", "notation", "8th 34", user=user, channel=thread)
        ).choices()
        wanted = [label for label in labels if "8th Ave & 34th" in label]
        assert wanted and [c["name"] for c in choices] == wanted
        # Notation still finds the moves of those who type it.
        typed = await (
            await fake.autocomplete("move", "notation", "8AV-3", user=user, channel=thread)
        ).choices()
        assert [c["name"] for c in typed] == [labels[i] for i, n in enumerate(legal) if "8av-3" in n.lower()]
        waiting = await (
            await fake.autocomplete("move", "notation", "", user=other, channel=thread)
        ).choices()
        name = (user.global_name or user.username).lower()
        assert (
            len(waiting) == 1 and "Not your turn" in waiting[0]["name"] and name in waiting[0]["name"].lower()
        )
        # Outside the thread, with a second match open, the match option says which match is meant.
        await new_match(fake, user, players=2)
        elsewhere = await (
            await fake.autocomplete(
                "move", "notation", "8th 34", {"match": record.id}, user=user, channel=fake.general
            )
        ).choices()
        assert [c["name"] for c in elsewhere] == [c["name"] for c in choices]
        # Each value carries the move and the board it was offered for, so a repeated command cannot play
        # twice.
        notation = legal[labels.index(choices[0]["name"])]
        assert choices[0]["value"] == f"{notation} @{record.version}"
        played = await (
            await fake.slash("move", {"notation": choices[0]["value"]}, user=user, channel=thread)
        ).response()
        assert played.content == f"✅ You played: {choices[0]['name']}.", played.content
        again = await (
            await fake.slash("move", {"notation": choices[0]["value"]}, user=user, channel=thread)
        ).response()
        assert again.ephemeral and "already moved" in (again.content or ""), again.content


async def test_abandon_asks_first_and_only_for_the_creator_or_an_admin(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        first, _, version = await whose_turn(fake, bot, match_id)
        as_seen = copy.deepcopy(await board_post(fake, thread, version))
        refused = await (await fake.slash("game abandon", {}, user=fake.bob, channel=thread)).response()
        assert refused.ephemeral and "creator or a server admin" in (refused.content or "")
        ask = await (await fake.slash("game abandon", {}, user=fake.admin, channel=thread)).response()
        assert ask.ephemeral and "cannot be undone" in (ask.content or "")
        assert (await bot.host.match(match_id)).status is MatchStatus.ACTIVE
        done = await (await fake.click(ask, button(ask, "ba:abandon:"), user=fake.admin)).response()
        assert "abandoned" in (done.content or "")
        assert (await bot.host.match(match_id)).status is MatchStatus.ABANDONED
        notice = await fake.wait_for_message(thread, lambda m: "Match abandoned" in (m.content or ""))
        assert not notice.buttons
        late = await (
            await fake.slash("move", {"notation": "place at=8AV-34"}, user=fake.alice, channel=thread)
        ).response()
        assert late.ephemeral and "abandoned" in (late.content or "")
        # A client still showing the last post's Play button hears that the match is over, not stale news.
        click = {"custom_id": button(as_seen, "ba:play:"), "component_type": BUTTON}
        ended = await (
            await fake.inject_interaction(MESSAGE_COMPONENT, first, thread, click, as_seen)
        ).response()
        assert "abandoned: there is nothing to play" in (ended.content or ""), ended.content


async def test_rules_summarise_the_game_and_mark_the_options_in_play(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite"):
        _, thread = await new_match(fake, fake.alice, players=3, options="events")
        reply = await (await fake.slash("rules", {}, user=fake.alice, channel=thread)).response()
        text = reply.content or ""
        assert reply.ephemeral and "Stop cards" in text
        assert "`events`" in text and "✅ in play" in text.split("`events`")[1].split("\n")[0]
        assert "✅" not in text.split("`team`")[1]


async def test_board_log_status_and_list_answer_privately(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot)
        mover, _, _ = await whose_turn(fake, bot, match_id)
        notation = await play_one_move(fake, bot, match_id, thread)
        seat_played = (await bot.host.match(match_id)).seat_of(mover.id)
        assert seat_played is not None
        user, _, _ = await whose_turn(fake, bot, match_id)
        board = await (await fake.slash("board", {}, user=fake.owner, channel=thread)).response()
        assert board.ephemeral and board.attachment("board.png").data.startswith(b"\x89PNG")
        assert (user.global_name or user.username).lower() in (board.content or "").lower()
        history = await (await fake.slash("log", {"lines": 5}, user=fake.bob, channel=thread)).response()
        mover_name = (bot.host.namer(await bot.host.match(match_id)))(seat_played)
        assert (
            history.ephemeral
            and mover_name in (history.content or "")
            and "at=" not in (history.content or "")
        )
        assert notation.startswith("place at=") and "places a" in (history.content or "")
        status = await (await fake.slash("game status", {}, user=fake.alice, channel=thread)).response()
        assert status.ephemeral and "Waiting for" in (status.content or "")
        listing = await (await fake.slash("game list", {}, user=fake.bob, channel=fake.general)).response()
        assert (
            f"#{match_id} New York (Piatnik, 1995) · in play" in (listing.content or "")
            and f"<#{thread.id}>" in listing.content
        )


async def test_commands_sync_to_the_dev_guild_or_globally(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite"):
        synced = fake.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
        names = {c["name"] for c in synced[-1].json}
        assert {"game", "move", "board", "log", "rules", "hand"} <= names
    bot = BigApple(tmp_path / "db.sqlite", open_stores)
    async with running_bot(bot, fake):
        assert await bot.sync_commands() >= 6
        assert fake.requests_to("PUT", "/applications/{application_id}/commands")


async def test_dirk_henns_new_york_is_played_through_menus_and_multi_selects(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        ix = await fake.slash(
            "game new",
            {"game": "ny_henn", "players": 3, "computers": 2},
            user=fake.alice,
            channel=fake.general,
        )
        match_id = int(re.search(r"Match #(\d+)", (await ix.response()).content or "")[1])  # type: ignore[index]
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
        record = await bot.host.match(match_id)
        post = await board_post(fake, thread, record.version)
        assert post.attachment("board.png").data.startswith(b"\x89PNG")
        menu = await (await fake.click(post, button(post, "ba:play:"), user=fake.alice)).response()
        take = next(
            b for b in menu.buttons if b["custom_id"].startswith("ba:multi:") and "Take" in b["label"]
        )
        picker = await (await fake.click(menu, take["custom_id"], user=fake.alice)).response()
        select = picker.selects[0]
        cheapest = select["options"][0]["value"]  # items come in ascending value, so one card always fits
        played = await (
            await fake.select(picker, select["custom_id"], [cheapest], user=fake.alice)
        ).response()
        assert (played.content or "").startswith("✅ You played: Take "), played.content
        hands = await fake.wait_until(lambda: fake.dm_messages(fake.alice) or None)
        assert hands[0].attachment("hand.png").data.startswith(b"\x89PNG")
        record = await bot.host.match(match_id)
        seat = record.seat_of(fake.alice.id)
        assert seat is not None
        log = await bot.host.public_log(record, 0)
        assert any(line.startswith(f"P{seat + 1}: take ") for line in log)
        assert not any(line.startswith("hand ") for line in log)  # hands stay private


WHOLE_MATCH_PATIENCE_S = 30.0


@pytest.mark.parametrize(
    ("game", "options"), [("ny_henn", ""), ("skyline", "hidden"), ("fifth_avenue", ""), ("ny1901", "")]
)
async def test_a_whole_match_keeps_every_hand_with_its_owner(
    game: str, options: str, fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    # Whose hand goes where is what this counts over thousands of presses; how soon each is answered has
    # tests of its own, so one slow moment of a busy machine may pass Discord's three seconds here.
    fake.ack_deadline = WHOLE_MATCH_PATIENCE_S
    cy = fake.add_user("cy")
    people = {u.id: u for u in (fake.alice, fake.bob, cy)}
    greedy = POLICIES[game]["greedy"]
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        choice = {"game": game, "players": 3, "options": options}
        await (await fake.slash("game new", choice, user=fake.alice, channel=fake.general)).response()
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        for joiner in (fake.bob, cy):
            lobby = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=joiner)).response()
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
        match_id = (await bot.store.list_matches(limit=1))[0].id
        for ply in range(3000):
            record = await bot.host.match(match_id)
            if record.status is MatchStatus.FINISHED:
                break
            rules, state = bot.host.rules(record.game), bot.host.state_of(record)
            seat = min(rules.to_act(state))
            player = record.player_at(seat)
            assert player is not None and player.user_id in people
            action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(ply))
            move = {"notation": rules.notation(action)}
            reply = await (
                await fake.slash("move", move, user=people[player.user_id], channel=thread)
            ).response(timeout=WHOLE_MATCH_PATIENCE_S)
            assert "You played" in (reply.content or ""), reply.content
        record = await bot.host.match(match_id)
        assert record.status is MatchStatus.FINISHED
        await fake.wait_for_message(thread, lambda m: "Final standings" in (m.content or ""), timeout=60)
        log = await bot.store.action_log(match_id)
        opening = bot.host.rules(game).setup_events(3, record.seed, record.options)
        _, events = replay(bot.host.rules(game), 3, record.seed, record.options, log)
        events = [*opening, *events]
    name = bot.host.namer(record)
    for user in people.values():
        their_seat = record.seat_of(user.id)
        own = {
            render("en", sentence(e), name)
            for e in events
            if e.audience is not None and their_seat in e.audience
        }
        others = {
            render("en", sentence(e), name)
            for e in events
            if e.audience is not None and their_seat not in e.audience
        } - own
        dm_lines = {
            line.removeprefix("• ") for m in fake.dm_messages(user) for line in (m.content or "").split("\n")
        }
        if any(e.audience is not None for e in events):  # New York 1901 keeps no hand secret
            assert own and own & dm_lines
        assert not others & dm_lines
    public_text = "\n".join(m.content or "" for m in thread.messages)
    assert not any(e.text in public_text for e in events if e.audience is not None)
    assert not any(render("en", sentence(e), name) in public_text for e in events if e.audience is not None)
