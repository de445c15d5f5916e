"""A turn is one post and one mention: while the same player keeps acting, the turn's post is edited in
place; a new post, with one mention, comes only when someone else is to act, and older posts lose their
buttons so that only the latest one has controls."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from cogs._client import BigApple
from engine.core.replay import replay
from engine.core.rng import Rng
from engine.host import service as host_service
from engine.host.ports import MatchStatus
from engine.host.posts import continues_turn
from engine.host.turns import previous_turn_end, told_by_latest
from engine.registry import POLICIES
from lang.says import render
from tests.discord.fake import FakeDiscord
from tests.discord.models import BUTTON, MESSAGE_COMPONENT, FakeChannel, FakeMessage, FakeUser
from tests.discord.test_bigapple import big_apple, board_post, button, tap_first
from tests.discord.turns_bench import menu_choices

BOARD = "board.png"


def board_posts(thread: FakeChannel) -> list[FakeMessage]:
    return [m for m in thread.messages if any(a.filename == BOARD for a in m.attachments)]


async def test_a_multi_step_turn_is_one_post_with_one_mention(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
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
        # The board each post compares with (as the player to act left it) is found from the end of
        # the log; read two actions at a time here, turns that began further back are found too.
        monkeypatch.setattr(host_service, "TURN_TAIL", 2)
        record = await bot.host.match(match_id)
        log = await bot.store.action_seats(match_id)
        further = 0
        for version in range(log[0][0], record.version + 1):
            for seat in range(3):
                further += not told_by_latest([a for a in log if a[0] <= version][-2:], seat, version)
                base = previous_turn_end(log, seat, version)
                assert base is not None
                since = await bot.notifier.since(record, version, seat)
                assert since is not None and since.view == await bot.host.view_at(record, base)
        assert further > 0


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
                presentation = bot.host.presentation(record.game)
                label = render("en", presentation.describe(state, seat, only), bot.host.namer(record))
                assert one[0]["label"] == label[:80] and not menu.selects
                played = await (await fake.click(menu, one[0]["custom_id"], user=user)).response()
                assert played.content and played.content.startswith("✅ You played: ")
                assert (await bot.store.action_log(match_id))[-1].notation == rules.notation(only)
                return
            moved = False
            while not moved:  # open groups until a move is played
                menu, moved = await tap_first(fake, menu, user)
        raise AssertionError("no decision with a single legal move came up")


def test_a_post_continues_while_its_players_are_still_deciding() -> None:
    assert continues_turn((2,), (2,))  # the same player's next step
    assert continues_turn((0, 1, 3), (1, 3))  # some of those deciding at once are still deciding
    assert not continues_turn((2,), (0,))  # the turn passed
    assert not continues_turn((1,), (1, 3))  # a new decision for several: a new post mentions them
    assert not continues_turn((2,), ())  # nobody to act: the final post


async def _skyline_turn_after_one_build(
    fake: FakeDiscord, bot: BigApple
) -> tuple[int, FakeChannel, FakeUser, FakeMessage]:
    """A three-person Skyline match whose first player has built one floor through the menus: the match,
    its thread, that player and their private menu as it carried on."""
    cy = fake.add_user("cy")
    people = {u.id: u for u in (fake.alice, fake.bob, cy)}
    choice = {"game": "skyline", "players": 3}
    await (await fake.slash("game new", choice, user=fake.alice, channel=fake.general)).response()
    thread = await fake.wait_for_thread(fake.general)
    lobby = await fake.wait_for_message(thread)
    for joiner in (fake.bob, cy):
        lobby = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=joiner)).response()
    await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=fake.alice)).response()
    record = await bot.host.match((await bot.store.list_matches(limit=1))[0].id)
    seat = min(bot.host.rules(record.game).to_act(bot.host.state_of(record)))
    player = record.player_at(seat)
    assert player is not None and player.user_id is not None
    user = people[player.user_id]
    post = await board_post(fake, thread, record.version)
    menu = await (await fake.click(post, button(post, "ba:play:"), user=user)).response()
    # The opening menu lists the 1 M floors' 36 sites in two lists of their own, one tap from a build.
    assert [len(s["options"]) for s in menu.selects[:2]] == [18, 18]
    first = menu.selects[0]
    menu = await (
        await fake.select(menu, first["custom_id"], [first["options"][0]["value"]], user=user)
    ).response()
    assert "You played: Build a 1 M floor on A1" in (menu.content or ""), menu.content
    return record.id, thread, user, menu


DANGER = 4  # Discord's red button style


def _has_undo(components: list[dict[str, Any]]) -> bool:
    return any(str(c.get("custom_id", "")).startswith("ba:undo:") for c in components)


async def test_a_shortcut_finishes_the_turn_in_one_tap(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread, user, menu = await _skyline_turn_after_one_build(fake, bot)
        # Ending the turn, with or without floors bought on the way out, is one choice of the menu.
        offered = menu_choices(menu)
        assert {"=endbuild", "=endbuild;endturn", "=endbuild;buy 1;buy 1;endturn"} <= set(offered)
        # Undo (the build revealed nothing) finds room without pushing these lists behind a tap.
        assert any(b["custom_id"].startswith("ba:undo:") for b in menu.buttons)
        # It stands apart from the moves: red, and last on its row.
        [row] = [r["components"] for r in menu.components if _has_undo(r["components"])]
        assert row[-1]["custom_id"].startswith("ba:undo:") and row[-1]["style"] == DANGER
        select, finish = offered["=endbuild;buy 1;endturn"]
        labels = {o["label"] for s in menu.selects for o in s["options"]} | {b["label"] for b in menu.buttons}
        assert {"Stop building", "End your turn", "Buy a 1 M floor, end turn"} <= labels
        before = len(await bot.store.action_log(match_id))
        if select is None:
            after = await (await fake.click(menu, finish, user=user)).response()
        else:
            after = await (await fake.select(menu, select, ["=endbuild;buy 1;endturn"], user=user)).response()
        text = after.content or ""
        # Each move of the run is played, logged and reported on its own; then the turn has passed.
        assert text.count("✅ You played") == 3 and "You played: Stop building." in text, text
        assert "You played: End your turn." in text and "Waiting for" in text
        # The turn has passed: no moves are offered, only Undo while the next player has not moved.
        assert [b["custom_id"].split(":")[1] for b in after.buttons] == ["undo"]
        log = await bot.store.action_log(match_id)
        assert [entry.notation for entry in log[before:]] == ["endbuild", "buy 1", "endturn"]
        record = await bot.host.match(match_id)
        replayed, _ = replay(bot.host.rules("skyline"), 3, record.seed, record.options, log)
        assert replayed == bot.host.state_of(record)
        # The run made one turn: the next post mentions the next player once, and the older loses its
        # buttons.
        post = await board_post(fake, thread, record.version)
        await fake.wait_until(
            lambda: all(not m.buttons for m in board_posts(thread) if m is not post), timeout=5
        )
        assert post.buttons and len(board_posts(thread)) == 2


async def test_a_shortcut_that_breaks_midway_stops_and_says_why(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread, user, menu = await _skyline_turn_after_one_build(fake, bot)
        record = await bot.host.match(match_id)
        # A choice from an older menu (or a forged one): stopping is legal, a penthouse for 10 M is not
        # with the 9 M left after the floor's fee.
        forged = f"ba:pick:{match_id}:{record.version}:=endbuild;buy PH;endturn"
        as_seen = copy.copy(menu)  # what the player's client shows, with one choice forged
        as_seen.components = copy.deepcopy(menu.components)
        pick = next(
            c
            for row in as_seen.components
            for c in row["components"]
            if c.get("custom_id", "").startswith("ba:pick:")
        )
        pick["custom_id"] = forged
        click = {"custom_id": forged, "component_type": BUTTON}
        after = await (
            await fake.inject_interaction(MESSAGE_COMPONENT, user, thread, click, as_seen)
        ).response()
        text = after.content or ""
        assert "You played: Stop building." in text and text.count("✅") == 1, text
        assert "The rest of your choice was not played: that floor costs 10 M and you have 9 M." in text
        assert [e.notation for e in (await bot.store.action_log(match_id))[-1:]] == ["endbuild"]
        # The menu carries on with the decision the player is at: investing, still their turn.
        assert after.selects and any(
            o["value"] == "=buy 1;endturn" for s in after.selects for o in s["options"]
        )
