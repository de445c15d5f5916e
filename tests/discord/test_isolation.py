"""Isolation: one broken thread, DM, row or tournament channel stops only itself; every other match
still gets its posts, and the broken one recovers where it can."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import discord

from cogs._client import BigApple
from data.store import SqliteMatchStore
from engine.host.ports import MatchStatus, NewMatch, Player
from engine.registry import GAMES
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeChannel, FakeMessage, FakeUser
from tests.discord.test_bigapple import PLAY_BUTTON, big_apple, button, play_one_move

TIMEOUT = 8


async def open_match(
    fake: FakeDiscord,
    bot: BigApple,
    creator: FakeUser,
    channel: FakeChannel,
    computers: int = 2,
    game: str = "ny_piatnik",
) -> tuple[int, FakeChannel]:
    """A match of ``game`` (Piatnik unless said) of ``creator`` and computers, started in a new thread of
    ``channel``."""
    options = {"game": game, "players": computers + 1, "computers": computers}
    reply = await (await fake.slash("game new", options, user=creator, channel=channel)).response()
    match_id = int(re.search(r"Match #(\d+)", reply.content or "")[1])  # type: ignore[index]
    record = await bot.host.match(match_id)
    thread = fake.channels[record.thread_id or 0]
    lobby = await fake.wait_for_message(thread)
    await (await fake.click(lobby, button(lobby, "ba:lobby:start:"), user=creator)).response()
    return match_id, thread


async def board_at(fake: FakeDiscord, channel: FakeChannel, bot: BigApple, match_id: int) -> FakeMessage:
    """The post of ``match_id``'s current board in ``channel`` (waits for the outbox)."""
    version = (await bot.host.match(match_id)).version

    def posted() -> FakeMessage | None:
        for message in channel.messages:
            for found in (PLAY_BUTTON.fullmatch(b["custom_id"]) for b in message.buttons):
                if found and int(found["m"]) == match_id and int(found["v"]) == version:
                    return message
        return None

    return await fake.wait_until(posted, timeout=TIMEOUT)


async def type_first_move(fake: FakeDiscord, bot: BigApple, match_id: int, user: FakeUser) -> None:
    """``user`` types their first legal move in ``match_id`` from #general."""
    record = await bot.host.match(match_id)
    seat = record.seat_of(user.id)
    assert seat is not None
    notation = bot.host.legal_notations(record, seat)[0]
    options = {"notation": notation, "match": match_id}
    reply = await (await fake.slash("move", options, user=user, channel=fake.general)).response()
    assert "You played" in (reply.content or ""), reply.content


def delivery_states(db: Path, match_id: int) -> list[str]:
    with sqlite3.connect(db) as raw:
        rows = raw.execute("SELECT status FROM deliveries WHERE match_id = ?", (match_id,)).fetchall()
    raw.close()
    return [status for (status,) in rows]


async def test_a_deleted_thread_moves_its_match_and_holds_back_nobody(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db) as bot:
        doomed, old_thread = await open_match(fake, bot, fake.alice, fake.general)
        healthy, healthy_thread = await open_match(fake, bot, fake.bob, fake.general, computers=1)
        await board_at(fake, old_thread, bot, doomed)
        await board_at(fake, healthy_thread, bot, healthy)
        since = len(fake.requests)
        await fake.delete_channel(old_thread)
        # A backlog for the deleted thread (alice's move and the computers' answers), and a move elsewhere.
        await type_first_move(fake, bot, doomed, fake.alice)
        await play_one_move(fake, bot, healthy, healthy_thread)
        await board_at(fake, healthy_thread, bot, healthy)
        moved = await fake.wait_until(
            lambda: next(
                (
                    t
                    for t in fake.threads(fake.general)
                    if t.id != old_thread.id and any("was deleted" in (m.content or "") for m in t.messages)
                ),
                None,
            ),
            timeout=TIMEOUT,
        )
        notice = next(m for m in moved.messages if "was deleted" in (m.content or ""))
        assert f"<@{fake.alice.id}>" in (notice.content or "")
        await board_at(fake, moved, bot, doomed)  # the backlog arrives in the new thread
        assert (await bot.host.match(doomed)).thread_id == moved.id
        tries = [r for r in fake.requests[since:] if r.params.get("channel_id") == str(old_thread.id)]
        assert len(tries) <= 2, "a deleted thread is recognised at once, not retried"
        assert "failed" not in delivery_states(db, doomed)


async def test_a_thread_that_refuses_posts_moves_to_its_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        closed, thread = await open_match(fake, bot, fake.alice, fake.games)
        healthy, healthy_thread = await open_match(fake, bot, fake.bob, fake.general, computers=1)
        await board_at(fake, thread, bot, closed)
        await fake.deny_bot(fake.games, discord.Permissions(send_messages_in_threads=True))
        await type_first_move(fake, bot, closed, fake.alice)
        await play_one_move(fake, bot, healthy, healthy_thread)
        await board_at(fake, healthy_thread, bot, healthy)
        notice = await fake.wait_for_message(
            fake.games, lambda m: "goes on in this channel" in (m.content or ""), timeout=TIMEOUT
        )
        assert f"<@{fake.alice.id}>" in (notice.content or "")
        await board_at(fake, fake.games, bot, closed)  # its board now comes in the channel itself


async def test_a_dm_refused_with_any_403_falls_back_to_the_hand_button(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    dm = fake.dm_channel(fake.alice)
    fake.fail_next(
        "POST", "/channels/{channel_id}/messages", status=403, code=50001, times=100, channel_id=dm.id
    )
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        # Fifth Avenue deals each player's cards at once, so a hand goes out by DM at the start.
        match_id, thread = await open_match(fake, bot, fake.alice, fake.general, game="fifth_avenue")
        healthy, healthy_thread = await open_match(
            fake, bot, fake.bob, fake.general, computers=1, game="fifth_avenue"
        )
        notice = await fake.wait_for_message(
            thread, lambda m: "cannot send you direct messages" in (m.content or ""), timeout=TIMEOUT
        )
        await board_at(fake, healthy_thread, bot, healthy)
        # The other player's direct messages go out as ever (after the board, on a busy machine).
        await fake.wait_for_dm(fake.bob, timeout=TIMEOUT)
        hand = await (await fake.click(notice, button(notice, "ba:hand:"), user=fake.alice)).response()
        assert hand.ephemeral and hand.attachment("hand.png").data.startswith(b"\x89PNG")
        await board_at(fake, thread, bot, match_id)
        assert fake.dm_messages(fake.alice) == []


def told_of_closed_dms(db: Path, match_id: int, user_id: int) -> bool:
    with sqlite3.connect(db) as raw:
        found = raw.execute(
            "SELECT 1 FROM dm_refusals WHERE match_id = ? AND user_id = ?", (match_id, user_id)
        ).fetchone()
    return found is not None


async def test_the_closed_dm_notice_is_said_once_across_restarts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.close_dms(fake.alice)
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db) as bot:
        match_id, thread = await open_match(fake, bot, fake.alice, fake.general, game="fifth_avenue")
        await fake.wait_for_message(thread, lambda m: "cannot send you direct messages" in (m.content or ""))
        # The bot stops once it has recorded that it told her (a stop between the two may tell her again).
        await fake.wait_until(lambda: told_of_closed_dms(db, match_id, fake.alice.id))
    async with big_apple(fake, db) as bot:
        for _ in range(2):
            await board_at(fake, thread, bot, match_id)
            await type_first_move(fake, bot, match_id, fake.alice)
        await board_at(fake, thread, bot, match_id)
    notices = [m for m in thread.messages if "cannot send you direct messages" in (m.content or "")]
    assert len(notices) == 1


async def test_a_post_discord_kept_before_a_crash_is_not_posted_twice(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db, retry_seconds=60) as bot:
        match_id, thread = await open_match(fake, bot, fake.alice, fake.general)
        await board_at(fake, thread, bot, match_id)
        fake.fail_next("POST", "/channels/{channel_id}/messages", status=503, times=1, channel_id=thread.id)
        await type_first_move(fake, bot, match_id, fake.alice)
        await fake.wait_until(lambda: [r for r in fake.requests if r.status == 503] or None)
        [waiting] = [d for d in await bot.store.pending_deliveries() if d.seat is None][:1]
    # Discord did keep that post (with the delivery's nonce); only the bot never heard back.
    kept = await fake.post_as_bot(thread, {"content": "the post Discord kept", "nonce": f"ba-{waiting.id}"})
    async with big_apple(fake, db) as bot:
        await board_at(fake, thread, bot, match_id)
        assert not [d for d in await bot.store.pending_deliveries() if d.id == waiting.id]
    assert [m.id for m in thread.messages if m.nonce == f"ba-{waiting.id}"] == [kept.id]


async def test_a_corrupt_pending_delivery_stops_only_itself(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db, retry_seconds=60) as bot:
        broken, broken_thread = await open_match(fake, bot, fake.alice, fake.general)
        healthy, healthy_thread = await open_match(fake, bot, fake.bob, fake.general, computers=1)
        for thread in (broken_thread, healthy_thread):
            await board_at(fake, thread, bot, broken if thread is broken_thread else healthy)
            fake.fail_next(
                "POST", "/channels/{channel_id}/messages", status=503, times=1, channel_id=thread.id
            )
        await type_first_move(fake, bot, broken, fake.alice)
        await type_first_move(fake, bot, healthy, fake.bob)
        await fake.wait_until(lambda: len([r for r in fake.requests if r.status == 503]) == 2 or None)
    with sqlite3.connect(db) as raw:
        raw.execute(
            "UPDATE deliveries SET payload = '{\"lines\": 5}' WHERE id = "
            "(SELECT MIN(id) FROM deliveries WHERE match_id = ? AND status = 'pending')",
            (broken,),
        )
    raw.close()
    async with big_apple(fake, db) as bot:
        await board_at(fake, healthy_thread, bot, healthy)
        await board_at(fake, broken_thread, bot, broken)  # its later notices still go out
        assert "failed" in delivery_states(db, broken)
        assert "failed" not in delivery_states(db, healthy)


async def test_an_unreadable_match_is_quarantined_and_the_others_go_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    rules = GAMES["ny_piatnik"]
    async with await SqliteMatchStore.open(db) as store:
        # An older match whose computers were due when the bot stopped...
        due = await store.create_match(
            NewMatch(game="ny_piatnik", seat_count=3, seed=4, guild_id=fake.guild.id)
        )
        for n in range(3):
            due = await store.add_player(due.id, due.version, Player(name=f"Computer {n + 1}", bot="greedy"))
        seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(due.players)]
        state = rules.setup(3, 4, frozenset())
        due = await store.start_match(due.id, due.version, seated, state.model_dump_json())
        # ...and a newer one whose row cannot be read.
        bad = await store.create_match(
            NewMatch(
                game="ny_piatnik", seat_count=2, seed=5, guild_id=fake.guild.id, channel_id=fake.general.id
            ),
            Player(user_id=fake.alice.id, name="alice"),
        )
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE matches SET options = '{not json' WHERE id = ?", (bad.id,))
    raw.close()
    async with big_apple(fake, db):
        await fake.wait_until(lambda: row_of(db, due.id)[0] > due.version or None, timeout=TIMEOUT)
        listing = await (await fake.slash("game list", {}, user=fake.bob, channel=fake.general)).response()
        assert f"#{bad.id} cannot be read; an admin can abandon it" in (listing.content or "")
        status = await (await fake.slash("game status", {"match": bad.id}, user=fake.alice)).response()
        assert "cannot be read" in (status.content or "") and "abandon" in (status.content or "")
        ask = await (await fake.slash("game abandon", {"match": bad.id}, user=fake.admin)).response()
        done = await (await fake.click(ask, button(ask, "ba:abandon:"), user=fake.admin)).response()
        assert "abandoned" in (done.content or "")
    assert row_of(db, bad.id)[1] == MatchStatus.ABANDONED.value


def row_of(db: Path, match_id: int) -> tuple[int, str]:
    """A match's version and status, read straight from the file."""
    with sqlite3.connect(db) as raw:
        version, status = raw.execute(
            "SELECT version, status FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
    raw.close()
    return int(version), str(status)


async def start_tournament_in(fake: FakeDiscord, channel: FakeChannel) -> None:
    """An organiser's Swiss tournament in ``channel`` with alice and two computers, ready to start."""
    options = {"name": "Cup", "game": "ny_piatnik", "format": "swiss", "table_size": 3, "rounds": 1}
    here = {"user": fake.admin, "channel": channel}
    await (await fake.slash("tournament create", options, **here)).response()  # type: ignore[arg-type]
    await (await fake.slash("tournament open", {}, **here)).response()  # type: ignore[arg-type]
    await (await fake.slash("tournament join", {}, user=fake.alice, channel=channel)).response()
    for _ in range(2):
        await (await fake.slash("tournament add-computer", {}, **here)).response()  # type: ignore[arg-type]


async def test_a_tournament_channel_that_refuses_posts_stops_only_its_own_posts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        casual, casual_thread = await open_match(fake, bot, fake.bob, fake.general, computers=1)
        await start_tournament_in(fake, fake.games)
        await fake.deny_bot(fake.games, discord.Permissions(send_messages=True))
        started = await (
            await fake.slash("tournament start", {}, user=fake.admin, channel=fake.games)
        ).response()
        assert "has started" in (started.content or "") and "went wrong" not in (started.content or "")
        dm = await fake.wait_for_dm(fake.admin, lambda m: "no longer lets me post" in (m.content or ""))
        assert "Cup" in (dm.content or "")
        await board_at(fake, casual_thread, bot, casual)
        await play_one_move(fake, bot, casual, casual_thread)
        await board_at(fake, casual_thread, bot, casual)
        [record] = await bot.tournament_store.list_tournaments(limit=1)
        assert record.status.value == "running" and len(record.rounds) == 1
        table = record.rounds[0].tables[0].match_id
        assert table is not None
        # Its table plays on in a thread of that channel, where the bot may still write.
        table_thread = await fake.wait_until(
            lambda: next(iter(fake.threads(fake.games)), None), timeout=TIMEOUT
        )
        await board_at(fake, table_thread, bot, table)
        # Alice hears of her table by DM all the same, once, with a link to its thread.
        pairing = [m for m in fake.dm_messages(fake.alice) if "You play at table 1" in (m.content or "")]
        assert len(pairing) == 1 and f"/{table_thread.id}" in (pairing[0].content or "")


async def test_a_deleted_tournament_channel_tells_the_organiser_and_the_tournament_goes_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db) as bot:
        casual, casual_thread = await open_match(fake, bot, fake.bob, fake.general, computers=1)
        await start_tournament_in(fake, fake.games)
        await fake.delete_channel(fake.games)
        started = await (
            await fake.slash("tournament start", {}, user=fake.admin, channel=fake.general)
        ).response()
        assert "has started" in (started.content or ""), started.content
        await fake.wait_for_dm(fake.admin, lambda m: "was deleted" in (m.content or ""))
        await fake.wait_for_dm(fake.alice, lambda m: "can no longer post" in (m.content or ""))
        await play_one_move(fake, bot, casual, casual_thread)
        await board_at(fake, casual_thread, bot, casual)
        [record] = await bot.tournament_store.list_tournaments(limit=1)
        assert record.status.value == "running"
        # Alice still plays her table with commands, and is told only once that it has no channel.
        table = record.rounds[0].tables[0].match_id
        assert table is not None
        await type_first_move(fake, bot, table, fake.alice)
        await fake.wait_until(lambda: not [d for d in delivery_states(db, table) if d == "pending"] or None)
        told = [m for m in fake.dm_messages(fake.alice) if "can no longer post" in (m.content or "")]
        assert len(told) == 1
        pairing = [m for m in fake.dm_messages(fake.alice) if "You play at table 1" in (m.content or "")]
        assert len(pairing) == 1


async def test_an_unreadable_tournament_record_stops_no_post(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db) as bot:
        await start_tournament_in(fake, fake.games)
        await (await fake.slash("tournament start", {}, user=fake.admin, channel=fake.games)).response()
        casual, casual_thread = await open_match(fake, bot, fake.bob, fake.general, computers=1)
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE tournaments SET record = '{\"cut off' ")
        raw.close()
        for _ in range(2):
            await board_at(fake, casual_thread, bot, casual)
            await play_one_move(fake, bot, casual, casual_thread)
        await board_at(fake, casual_thread, bot, casual)
        standings = await (
            await fake.slash("tournament standings", {"tournament": 1}, user=fake.alice)
        ).response()
        assert "cannot be read" in (standings.content or "") and "went wrong" not in (standings.content or "")


async def test_a_slow_post_in_one_thread_holds_back_no_other_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        slow, slow_thread = await open_match(fake, bot, fake.alice, fake.general, computers=1)
        quick, quick_thread = await open_match(fake, bot, fake.bob, fake.general, computers=1)
        await board_at(fake, slow_thread, bot, slow)
        await board_at(fake, quick_thread, bot, quick)
        # Discord takes its time over everything the bot sends to the first thread.
        held = fake.hold("POST", "/channels/{channel_id}/messages", channel_id=slow_thread.id)
        await type_first_move(fake, bot, slow, fake.alice)
        await fake.wait_until(lambda: held.hits or None, timeout=TIMEOUT)
        # A move elsewhere, made while that post is on its way, is posted without waiting for it.
        await play_one_move(fake, bot, quick, quick_thread)
        await board_at(fake, quick_thread, bot, quick)
        assert not held.released.is_set() and len(held.hits) == 1
        held.release()
        await board_at(fake, slow_thread, bot, slow)
