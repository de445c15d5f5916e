"""/replay and /game history through the fake Discord. Each step of a replay shows the board as it stood
after that move, to the reader alone; a seated player may see their own view of that moment and nobody
else's; the buttons survive a restart. The history lists a server's finished matches."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import cast

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

import render.replay
from cogs._client import BigApple
from data.backend import open_stores
from engine.host.history import replayed_frames
from engine.host.ports import MatchStatus
from engine.registry import GAMES
from render.animation import Shows, animate_match
from render.registry import render_view
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import FakeMessage
from tests.discord.test_bigapple import big_apple, play_one_move, started_match
from tests.discord.test_exports import delivered


def board_of(message: FakeMessage) -> bytes:
    assert len(message.attachments) == 1, message.attachments
    return message.attachments[0].data


def step(message: FakeMessage, kind: str) -> str:
    return next(b["custom_id"] for b in message.buttons if b["custom_id"].endswith(f":{kind}"))


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_each_step_is_the_board_of_its_time_and_a_players_own_view_is_theirs_alone(
    fake_discord: FakeDiscord, tmp_path: Path, game: str
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        match_id, thread = await started_match(fake, bot, game)
        for _ in range(3):
            await play_one_move(fake, bot, match_id, thread)
        match = await bot.host.match(match_id)
        kept = await bot.store.kept_actions(match_id)
        names = match.seat_names()

        async def drawn(move: int, seat: int | None) -> bytes | None:
            version = kept[move - 1][0] if move else kept[0][0] - 1
            state = await bot.host.state_at(match, version)
            return render_view(game, bot.host.view(match, seat, state), names)

        # Someone not playing asks for move 2: the public board of that time, and no view of their own.
        shown = await (await fake.slash("replay", {"move": 2}, user=fake.admin, channel=thread)).response()
        assert shown.ephemeral and f"move 2 of {len(kept)}" in (shown.content or "")
        assert board_of(shown) == await drawn(2, None)
        assert not any(b["custom_id"].endswith(":v") for b in shown.buttons)
        await play_one_move(fake, bot, match_id, thread)  # the match goes on: the past stays as it was
        back = await (await fake.click(shown, step(shown, "p"), user=fake.admin)).response()
        assert "move 1 of" in (back.content or "") and board_of(back) == await drawn(1, None)
        first = await (await fake.click(back, step(back, "f"), user=fake.admin)).response()
        assert "the opening" in (first.content or "") and board_of(first) == await drawn(0, None)

        # A player switches to their own view of move 2: theirs, at that moment.
        alice_seat = match.seat_of(fake.alice.id)
        mine = await (await fake.slash("replay", {"move": 2}, user=fake.alice, channel=thread)).response()
        own = await (await fake.click(mine, step(mine, "v"), user=fake.alice)).response()
        assert "Your own view" in (own.content or "")
        assert board_of(own) == await drawn(2, alice_seat)
        public = await (await fake.click(own, step(own, "v"), user=fake.alice)).response()
        assert board_of(public) == await drawn(2, None)


async def test_replay_buttons_work_after_a_restart(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        match_id, thread = await started_match(fake, bot, "ny1901")
        for _ in range(2):
            await play_one_move(fake, bot, match_id, thread)
        shown = await (await fake.slash("replay", {}, user=fake.bob, channel=thread)).response()
        assert "move 2 of 2" in (shown.content or "")
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        earlier = await (await fake.click(shown, step(shown, "p"), user=fake.bob)).response()
        assert "move 1 of 2" in (earlier.content or "")
        own = await (await fake.click(earlier, step(earlier, "v"), user=fake.bob)).response()
        assert "Your own view" in (own.content or "") and "move 1 of 2" in (own.content or "")


async def test_game_history_lists_this_servers_finished_matches_latest_first(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    elsewhere = fake.add_guild("Elsewhere", owner=fake.owner)
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        finished = []
        for game, guild in (("ny_piatnik", fake.guild), ("skyline", fake.guild), ("ny1901", elsewhere)):
            match = await bot.host.create_match(game, 2, guild_id=guild.id)
            for _ in range(2):
                await bot.host.add_computer(match.id, "greedy")
            await bot.host.start(match.id)  # computers play it to the end at once
            finished.append(await bot.host.match(match.id))
        assert all(m.status is MatchStatus.FINISHED for m in finished)
        await bot.host.create_match("fifth_avenue", 2, guild_id=fake.guild.id)  # still in its lobby
        reply = await (await fake.slash("game history", {}, user=fake.alice)).response()
        lines = (reply.content or "").splitlines()
        assert reply.ephemeral and len(lines) == 2  # this server's finished matches only
        assert lines[0].startswith(f"#{finished[1].id} Skyline") and lines[1].startswith(
            f"#{finished[0].id} New York"
        )
        assert all("🏆" in line and "<t:" in line for line in lines)


async def test_the_jump_select_reaches_each_scoring_and_the_turns(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        match = await bot.host.create_match("ny_henn", 2, guild_id=fake.guild.id)
        for _ in range(2):
            await bot.host.add_computer(match.id, "greedy")
        await bot.host.start(match.id)  # computers play it to the end at once
        match = await bot.host.match(match.id)
        assert match.status is MatchStatus.FINISHED
        kept = await bot.store.kept_actions(match.id)
        shown = await (await fake.slash("replay", {"match": match.id, "move": 1}, user=fake.alice)).response()
        (jump,) = shown.selects
        options = jump["options"]
        scorings = [o for o in options if o["value"].startswith("s")]
        # Scorings A and B during the match, and the last one (C) ends it.
        assert [o["label"].split(", ")[0] for o in scorings] == [
            "🏆 Scoring",
            "🏆 Scoring",
            "🏆 Final scoring",
        ]
        assert all(o["description"] for o in scorings)  # what each scoring move was
        assert scorings[-1]["value"] == f"s{len(kept)}"
        turns = [o for o in options if o["value"].startswith("t")]
        assert len(options) <= 25 and turns[0]["label"].startswith("Turn 1: ")
        assert [o["label"] for o in options if o.get("default")] == [turns[0]["label"]]
        moves = [int(o["value"][1:]) for o in options]
        assert moves == sorted(moves)

        second = scorings[1]
        landed = await (
            await fake.select(shown, jump["custom_id"], [second["value"]], user=fake.alice)
        ).response()
        move = int(second["value"][1:])
        assert f"move {move} of {len(kept)}" in (landed.content or "")
        state = await bot.host.state_at(match, kept[move - 1][0])
        assert board_of(landed) == render_view(
            "ny_henn", bot.host.view(match, None, state), match.seat_names()
        )
        assert state.scored == ("A", "B")  # type: ignore[attr-defined]
        (again,) = landed.selects
        assert [o["value"] for o in again["options"] if o.get("default")] == [second["value"]]


@pytest.mark.real_png  # counts the animation's frames
async def test_export_sends_the_animation_so_far_drawn_once_for_everyone_asking(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        match_id, thread = await started_match(fake, bot, "skyline")
        for _ in range(3):
            await play_one_move(fake, bot, match_id, thread)
        asked = [
            await fake.slash("replay", {"export": True}, user=user, channel=thread)
            for user in (fake.alice, fake.admin)
        ]
        answers = [await delivered(ix) for ix in asked]  # the second may be told its place in line first
        kept = await bot.store.kept_actions(match_id)
        for answer in answers:
            assert answer.ephemeral and "move by move" in (answer.content or "")
            gif = answer.attachment(f"match-{match_id}.gif").data
            with cast(GifImageFile, Image.open(io.BytesIO(gif))) as image:
                assert image.format == "GIF" and image.n_frames == len(kept) + 1
        assert answers[0].attachments[0].data == answers[1].attachments[0].data
        assert bot.animator.drawn == 1

        await play_one_move(fake, bot, match_id, thread)
        later = await delivered(await fake.slash("replay", {"export": True}, user=fake.bob, channel=thread))
        with cast(GifImageFile, Image.open(io.BytesIO(later.attachments[0].data))) as image:
            assert image.n_frames == len(kept) + 2
        assert bot.animator.drawn == 2


@pytest.mark.real_png  # the render process draws real PNGs, compared with this process's own
async def test_replay_steps_are_replayed_and_drawn_in_the_render_processes(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press of a replay button costs the bot's own process no replay and no drawing: both happen in
    the render processes, the same board as drawn here."""
    fake = fake_discord
    seeds = iter(range(1, 1000))
    bot = BigApple(
        tmp_path / "bot.db",
        open_stores,
        dev_guild=fake.guild.id,
        seed_source=lambda: next(seeds),
        render_workers=1,
    )
    async with running_bot(bot, fake):
        await bot.renderer.run(os.getpid)  # the render process started before the match's posts wait for it
        match_id, thread = await started_match(fake, bot, "ny1901")
        for _ in range(3):
            await play_one_move(fake, bot, match_id, thread)
        match = await bot.host.match(match_id)
        kept = await bot.store.kept_actions(match_id)
        expected = [
            render_view("ny1901", bot.host.view(match, None, await bot.host.state_at(match, version)), names)
            for version, names in ((kept[1][0], match.seat_names()), (kept[0][0], match.seat_names()))
        ]

        def not_here(*args: object) -> None:
            raise AssertionError("a replay step was worked out in the bot's own process")

        monkeypatch.setattr(render.replay, "replayed_frames", not_here)
        monkeypatch.setattr(render.replay, "render_view", not_here)
        before = bot.renderer.ran_in_processes
        ix = await fake.slash("replay", {"move": 2}, user=fake.admin, channel=thread)
        shown = await ix.response(timeout=60)  # the render process may still be starting
        assert "move 2 of" in (shown.content or "") and board_of(shown) == expected[0]
        back = await (await fake.click(shown, step(shown, "p"), user=fake.admin)).response(timeout=30)
        assert "move 1 of" in (back.content or "") and board_of(back) == expected[1]
        assert bot.renderer.ran_in_processes >= before + 2 and bot.renderer.ran_in_threads == 0


@pytest.mark.real_png  # measures and counts the animation's frames
async def test_export_of_a_match_too_long_for_one_file_sends_its_turns_and_says_so(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        match_id, thread = await started_match(fake, bot, "skyline")
        for _ in range(3):
            await play_one_move(fake, bot, match_id, thread)
        match = await bot.host.match(match_id)
        kept = await bot.store.kept_actions(match_id)
        whole = animate_match(match, kept, match.seat_names())
        assert whole.shows is Shows.MOVES
        turns = [f.number for f in replayed_frames(GAMES["skyline"], match, kept) if f.turn_ends]
        limit = len(whole.gif)
        while (shown := animate_match(match, kept, match.seat_names(), limit)).shows is Shows.MOVES:
            limit = limit * 4 // 5  # until every move no longer fits, at any width
        assert shown.shows is Shows.TURNS
        bot.animator.max_bytes = limit
        answer = await (
            await fake.slash("replay", {"export": True}, user=fake.alice, channel=thread)
        ).response(timeout=30)
        assert "does not fit in one animation" in (answer.content or "")
        assert "the board at the end of each turn" in (answer.content or "")
        gif = answer.attachment(f"match-{match_id}.gif").data
        assert len(gif) < len(whole.gif)
        with cast(GifImageFile, Image.open(io.BytesIO(gif))) as image:
            # Each turn's end and the board as it stands: fewer frames than moves.
            assert image.n_frames == len({*turns, len(kept)}) < len(kept) + 1


async def test_an_animation_that_cannot_be_drawn_is_refused_in_words_and_not_drawn_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        match_id, thread = await started_match(fake, bot, "skyline")
        await play_one_move(fake, bot, match_id, thread)
        bot.animator.max_bytes = 100  # not even the opening fits
        for user in (fake.alice, fake.bob):
            answer = await (await fake.slash("replay", {"export": True}, user=user, channel=thread)).response(
                timeout=30
            )
            assert f"the animation of match #{match_id} could not be drawn" in (answer.content or "").lower()
            assert "/replay shows every move" in (answer.content or "") and not answer.attachments
        assert bot.animator.drawn == 1  # the failure is remembered for this version of the match
        await play_one_move(fake, bot, match_id, thread)
        await (await fake.slash("replay", {"export": True}, user=fake.bob, channel=thread)).response(
            timeout=30
        )
        assert bot.animator.drawn == 2  # a new move: a new try
