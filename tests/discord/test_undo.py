"""Undo through Discord: the live post offers Undo to the player who may take their move back; pressing
it puts the board back and tells the thread; a move that drew a card is refused with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs._client import BigApple
from engine.core.contract import Reveal
from engine.host import answers, computers
from engine.host.outgoing import Outgoing
from engine.host.ports import MatchRecord
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeChannel, FakeMessage, FakeUser
from tests.discord.test_bigapple import big_apple, board_post, play_first_legal, started_match
from tests.discord.test_notify import two_player_match


def moves_revealing(bot: BigApple, match: MatchRecord, seat: int, kind: Reveal | None) -> list[str]:
    """The seat's legal moves that reveal ``kind`` (None: nothing) and after which a person still acts,
    so no computer moves before the undo is asked for."""
    rules = bot.host.rules(match.game)
    state = bot.host.state_of(match)
    people = {p.seat for p in match.players if p.bot is None}
    found = []
    for action in rules.legal_actions(state, seat):
        step = rules.apply(state, seat, action)
        if rules.revealed(state, seat, action, step.state, step.events) != kind:
            continue
        if rules.outcome(step.state) is None and rules.to_act(step.state) <= people:
            found.append(rules.notation(action))
    return found


def user_of(fake: FakeDiscord, match: MatchRecord, seat: int) -> FakeUser:
    player = match.player_at(seat)
    assert player is not None
    return fake.alice if player.user_id == fake.alice.id else fake.bob


async def to_act(bot: BigApple, match_id: int) -> tuple[MatchRecord, int]:
    match = await bot.host.match(match_id)
    return match, min(bot.host.rules(match.game).to_act(bot.host.state_of(match)))


async def undo_post(fake: FakeDiscord, thread: FakeChannel, match_id: int, version: int) -> FakeMessage:
    """The thread post carrying the Undo button for ``version``."""
    wanted = f"ba:undo:{match_id}:{version}"

    def check() -> FakeMessage | None:
        return next((m for m in thread.messages if any(b["custom_id"] == wanted for b in m.buttons)), None)

    return await fake.wait_until(check, timeout=5, what="a post with Undo")


def thread_text(thread: FakeChannel) -> str:
    return "\n".join(m.content or "" for m in thread.messages)


async def test_undo_puts_the_board_back_and_tells_the_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny_henn")
        match, seat = await to_act(bot, match_id)
        await board_post(fake, thread, match.version)
        mover = user_of(fake, match, seat)
        before = bot.host.state_of(match)
        [notation, *_] = moves_revealing(bot, match, seat, None)
        played = await (
            await fake.slash("move", {"notation": notation}, user=mover, channel=thread)
        ).response()
        assert "You played" in (played.content or "")
        moved = await bot.host.match(match_id)
        assert await bot.host.can_undo(moved, seat)
        post = await undo_post(fake, thread, match_id, moved.version)
        undo = f"ba:undo:{match_id}:{moved.version}"
        # Only the player who moved may take it back; anyone else is told why not and nothing changes.
        other = fake.bob if mover is fake.alice else fake.alice
        refused = await (await fake.click(post, undo, user=other)).response()
        assert refused.ephemeral and "took back" not in (refused.content or "")
        assert (await bot.host.match(match_id)).version == moved.version
        done = await (await fake.click(post, undo, user=mover)).response()
        assert done.ephemeral and "You took back your move" in (done.content or "")
        assert any(b["custom_id"].startswith("ba:") for b in done.buttons)  # the menu for the board again
        await fake.wait_until(lambda: "took back a move" in thread_text(thread), what="the undo line")
        back = await bot.host.match(match_id)
        assert back.version == moved.version + 1 and bot.host.state_of(back) == before
        assert notation not in [a.notation for a in await bot.store.action_log(match_id)][-1:]
        # The post, edited in place, shows the board as it is again, without Undo: nothing more to take back.
        await board_post(fake, thread, back.version)
        assert not [b for b in post.buttons if b["custom_id"].startswith("ba:undo:")]
        nothing = await (await fake.slash("game undo", {}, user=mover, channel=thread)).response()
        assert "no move to take back" in (nothing.content or "")


async def test_a_move_that_drew_a_card_cannot_be_taken_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny_henn")
        match, seat = await to_act(bot, match_id)
        await board_post(fake, thread, match.version)
        mover = user_of(fake, match, seat)
        [notation, *_] = moves_revealing(bot, match, seat, "card")
        played = await (
            await fake.slash("move", {"notation": notation}, user=mover, channel=thread)
        ).response()
        assert "You played" in (played.content or "")
        moved = await bot.host.match(match_id)
        assert not await bot.host.can_undo(moved, seat)
        answer = await (await fake.slash("game undo", {}, user=mover, channel=thread)).response()
        assert answer.ephemeral and "drew a card, so it cannot be taken back" in (answer.content or ""), (
            answer
        )
        assert (await bot.host.match(match_id)).version == moved.version
        # The post for the move offers no Undo.
        post = await board_post(fake, thread, moved.version)
        assert not [b for b in post.buttons if b["custom_id"].startswith("ba:undo:")]


def calls_of(fake: FakeDiscord, thread: FakeChannel, user: FakeUser) -> int:
    """How many messages sent to ``thread`` were allowed to ping ``user`` (edits never ping)."""
    sent = [
        r
        for r in fake.requests_to("POST", "/channels/{channel_id}/messages")
        if r.param("channel_id") == thread.id
    ]
    users = [((r.json or {}).get("allowed_mentions") or {}).get("users") or [] for r in sent]
    return sum(str(user.id) in map(str, group) for group in users)


async def test_a_move_taken_back_calls_nobody_twice_and_not_the_player_who_took_it_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await two_player_match(fake, "ny_piatnik")
        match, seat = await to_act(bot, match_id)
        await board_post(fake, thread, match.version)
        mover = user_of(fake, match, seat)
        other = fake.bob if mover is fake.alice else fake.alice
        # A move that ends the mover's turn and calls the other person (no computer in between).
        ending = [
            n
            for n in moves_revealing(bot, match, seat, None)
            if other.id
            in {
                p.user_id
                for p in match.players
                if p.seat
                in bot.host.rules(match.game).to_act(
                    bot.host.rules(match.game)
                    .apply(bot.host.state_of(match), seat, bot.host.rules(match.game).parse(n))
                    .state
                )
            }
        ]
        assert ending, "no move of the first player hands the turn to the other person"
        await (await fake.slash("move", {"notation": ending[0]}, user=mover, channel=thread)).response()
        moved = await bot.host.match(match_id)
        await board_post(fake, thread, moved.version)
        told, mover_told = calls_of(fake, thread, other), calls_of(fake, thread, mover)
        post = await undo_post(fake, thread, match_id, moved.version)
        await (await fake.click(post, f"ba:undo:{match_id}:{moved.version}", user=mover)).response()
        back = await bot.host.match(match_id)
        await board_post(fake, thread, back.version)
        await (await fake.slash("move", {"notation": ending[0]}, user=mover, channel=thread)).response()
        again = await bot.host.match(match_id)
        post = await board_post(fake, thread, again.version)
        assert f"<@{other.id}>" in (post.content or "")  # still named as the one to act...
        assert calls_of(fake, thread, other) == told  # ...but not called twice for the same turn
        assert calls_of(fake, thread, mover) == mover_told  # the one who took it back was never called


async def test_an_error_after_a_move_was_stored_says_the_move_stands(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny_henn")
        match, seat = await to_act(bot, match_id)
        mover = user_of(fake, match, seat)
        post = await board_post(fake, thread, match.version)

        async def broken(*args: object, **kwargs: object) -> Outgoing:
            raise RuntimeError("the next menu cannot be made")

        # The fault: whatever follows a stored move (the next menu, who plays next) cannot be made.
        monkeypatch.setattr(answers, "what_follows", broken)
        played = await play_first_legal(fake, post, mover)
        assert "You played" in played and "Nothing was changed" not in played
        assert "but that was done and stands. Press Play under the latest post to go on." in played
        assert (await bot.host.match(match_id)).version > match.version  # the move is stored


async def test_computers_failing_after_a_move_leave_the_move_standing_and_say_so(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        match_id, thread = await started_match(fake, bot, "ny_henn")

        async def broken(*args: object, **kwargs: object) -> object:
            raise RuntimeError("the computer player cannot think")

        # The fault: the computer player, whose turn follows some person's move, cannot choose.
        monkeypatch.setattr(computers, "decide", broken)
        for _ in range(12):
            match, seat = await to_act(bot, match_id)
            player = match.player_at(seat)
            assert player is not None and player.bot is None, "the computer was to act and did not"
            post = await board_post(fake, thread, match.version)
            played = await play_first_legal(fake, post, user_of(fake, match, seat))
            assert "Nothing was changed" not in played
            if "went wrong" in played:
                break
        else:
            raise AssertionError("no move handed the turn to the computer")
        assert "but that was done and stands" in played and "✅ You played" in played
        after, next_seat = await to_act(bot, match_id)
        assert after.version > match.version  # the move is stored
        computer = after.player_at(next_seat)
        assert computer is not None and computer.bot is not None  # and the computer is still to act
