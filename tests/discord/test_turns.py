"""A turn is one post and one mention: while the same player keeps acting, the turn's post is edited in
place; a new post, with one mention, comes only when someone else is to act, and older posts lose their
buttons so that only the latest one has controls."""

from __future__ import annotations

from pathlib import Path

from cogs._notifier import continues_turn
from engine.core.rng import Rng
from engine.host.ports import MatchStatus
from engine.registry import POLICIES
from lang.says import render
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeChannel, FakeMessage
from tests.discord.test_bigapple import big_apple, board_post, button, tap_first

BOARD = "board.png"


def board_posts(thread: FakeChannel) -> list[FakeMessage]:
    return [m for m in thread.messages if any(a.filename == BOARD for a in m.attachments)]


async def test_a_multi_step_turn_is_one_post_with_one_mention(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    cy = fake.add_user("cy")
    people = {u.id: u for u in (fake.alice, fake.bob, cy)}
    greedy = POLICIES["skyline"]["greedy"]
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        choice = {"game": "skyline", "players": 3}
        await (await fake.slash("game new", choice, user=fake.alice, channel=fake.general)).response()
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        for joiner in (fake.bob, cy):
            lobby = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=joiner)).response()
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
        match_id = (await bot.store.list_matches(limit=1))[0].id
        turns, steps, previous = 1, 0, None
        while steps < 40:
            record = await bot.host.match(match_id)
            await board_post(fake, thread, record.version)
            if record.status is not MatchStatus.ACTIVE:
                break
            rules, state = bot.host.rules(record.game), bot.host.state_of(record)
            seat = min(rules.to_act(state))
            turns += previous is not None and seat != previous
            previous = seat
            player = record.player_at(seat)
            assert player is not None and player.user_id is not None
            action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(steps))
            move = {"notation": rules.notation(action)}
            reply = await (
                await fake.slash("move", move, user=people[player.user_id], channel=thread)
            ).response()
            assert "You played" in (reply.content or ""), reply.content
            steps += 1
        await board_post(fake, thread, (await bot.host.match(match_id)).version)
        posts = board_posts(thread)
        assert steps > turns + 5, "the match made no multi-step turns, so this test proves nothing"
        # One post per turn (the last move may have passed the turn: its post is there too).
        assert len(posts) in (turns, turns + 1), (len(posts), turns, steps)
        # One mention per post: edits never ping.
        sent = [
            r
            for r in fake.requests_to("POST", "/channels/{channel_id}/messages")
            if r.param("channel_id") == thread.id
        ]
        pings = [r for r in sent if (r.json or {}).get("allowed_mentions", {}).get("users")]
        assert len(pings) == len(posts)
        edits = fake.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")
        assert len(edits) >= steps - turns
        # Only the latest post has controls.
        assert all(not m.buttons for m in posts[:-1]) and posts[-1].buttons
        # A new turn's post recaps the others' moves since the player's own last turn, by name.
        names = {u.global_name or u.username for u in people.values()}
        recaps = [m.content or "" for m in posts if "Since your last turn:" in (m.content or "")]
        assert recaps
        assert any(
            len({n for n in names if n in text.split("Since your last turn:")[1]}) >= 2 for text in recaps
        )


async def test_the_private_menu_carries_on_through_a_multi_step_turn(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    cy = fake.add_user("cy")
    people = {u.id: u for u in (fake.alice, fake.bob, cy)}
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        choice = {"game": "skyline", "players": 3}
        await (await fake.slash("game new", choice, user=fake.alice, channel=fake.general)).response()
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        for joiner in (fake.bob, cy):
            lobby = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=joiner)).response()
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
        record = (await bot.store.list_matches(limit=1))[0]
        record = await bot.host.match(record.id)
        seat = min(bot.host.rules(record.game).to_act(bot.host.state_of(record)))
        player = record.player_at(seat)
        assert player is not None and player.user_id is not None
        user = people[player.user_id]
        post = await board_post(fake, thread, record.version)
        menu = await (await fake.click(post, button(post, "ba:play:"), user=user)).response()
        played = 0
        for _ in range(40):  # open groups and play their first option, all in the same private message
            menu, step = await tap_first(fake, menu, user)
            played += step
            if "Waiting for" in (menu.content or ""):
                break
        else:
            raise AssertionError("the turn never passed")
        assert played >= 3, "a Skyline turn takes several steps: the menu carried on through them"
        assert menu.ephemeral and not menu.selects
        after = await bot.host.match(record.id)
        assert min(bot.host.rules(after.game).to_act(bot.host.state_of(after))) != seat
        log = await bot.store.action_log(record.id)
        # Besides the moves played, only the endings the rules make for the player when forced.
        assert {entry.seat for entry in log} == {seat} and len(log) >= played


async def test_a_player_takes_their_turn_from_the_direct_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    cy = fake.add_user("cy")
    people = {u.id: u for u in (fake.alice, fake.bob, cy)}
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        # Fifth Avenue deals everyone's cards at the start: the first player's hand comes with the turn.
        choice = {"game": "fifth_avenue", "players": 3}
        await (await fake.slash("game new", choice, user=fake.alice, channel=fake.general)).response()
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        for joiner in (fake.bob, cy):
            lobby = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=joiner)).response()
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
        record = await bot.host.match((await bot.store.list_matches(limit=1))[0].id)
        player = record.player_at(min(bot.host.rules(record.game).to_act(bot.host.state_of(record))))
        assert player is not None and player.user_id is not None
        user = people[player.user_id]

        def turn_dms() -> list[FakeMessage] | None:
            with_play = [
                m
                for m in fake.dm_messages(user)
                if any(b["custom_id"].startswith("ba:play:") for b in m.buttons)
            ]
            return with_play or None

        turn = (await fake.wait_until(turn_dms))[-1]
        assert "below" in (turn.content or "") and any(
            b["custom_id"].startswith("ba:hand:") for b in turn.buttons
        )
        others = [u for u in people.values() if u is not user]
        await fake.wait_until(lambda: all(fake.dm_messages(u) for u in others) or None)
        assert not any(m.buttons for u in others for m in fake.dm_messages(u))  # only the player to act
        menu = await (await fake.click(turn, button(turn, "ba:play:"), user=user)).response()
        played = False
        while not played:
            menu, played = await tap_first(fake, menu, user)
        assert "You played" in (menu.content or "")
        assert len(await bot.store.action_log(record.id)) == 1


async def test_a_single_legal_move_is_one_tap(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    cy = fake.add_user("cy")
    people = {u.id: u for u in (fake.alice, fake.bob, cy)}
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        choice = {"game": "fifth_avenue", "players": 3}
        await (await fake.slash("game new", choice, user=fake.alice, channel=fake.general)).response()
        thread = await fake.wait_for_thread(fake.general)
        lobby = await fake.wait_for_message(thread)
        for joiner in (fake.bob, cy):
            lobby = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=joiner)).response()
        await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
        match_id = (await bot.store.list_matches(limit=1))[0].id
        for _ in range(200):
            record = await bot.host.match(match_id)
            rules, state = bot.host.rules(record.game), bot.host.state_of(record)
            seat = min(rules.to_act(state))
            player = record.player_at(seat)
            assert player is not None and player.user_id is not None
            user = people[player.user_id]
            post = await board_post(fake, thread, record.version)
            menu = await (await fake.click(post, button(post, "ba:play:"), user=user)).response()
            one = [b for b in menu.buttons if b["custom_id"].startswith("ba:one:")]
            if one:
                [only] = rules.legal_actions(state, seat)
                label = render("en", rules.describe(state, seat, only), bot.host.namer(record))
                assert one[0]["label"] == label[:80] and not menu.selects
                played = await (await fake.click(menu, one[0]["custom_id"], user=user)).response()
                assert played.content and played.content.startswith("✅ You played: ")
                assert (await bot.store.action_log(match_id))[-1].notation == rules.notation(only)
                return
            played = 0
            while not played:  # open groups until a move is played
                menu, played = await tap_first(fake, menu, user)
        raise AssertionError("no decision with a single legal move came up")


def test_a_post_continues_while_its_players_are_still_deciding() -> None:
    assert continues_turn((2,), (2,))  # the same player's next step
    assert continues_turn((0, 1, 3), (1, 3))  # some of those deciding at once are still deciding
    assert not continues_turn((2,), (0,))  # the turn passed
    assert not continues_turn((1,), (1, 3))  # a new decision for several: a new post mentions them
    assert not continues_turn((2,), ())  # nobody to act: the final post
