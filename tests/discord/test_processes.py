"""Two bot processes, each running its own Discord shard, share one PostgreSQL database. Matches are played
on a server of each; one process is killed with SIGKILL in the middle of a move and started again. No
acknowledged move is lost, every notice is sent, and none is posted twice."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import asyncpg

from data.postgres.store import PostgresMatchStore
from engine.host.service import GameHost
from tests.discord.bot_process import ROOT, command
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeChannel, FakeGuild, FakeInteraction, FakeMember, FakeUser

SHARDS = 2
MOVES_PER_MATCH = 10
KILL_AT = 4  # the move of the second server's match during which its process is killed


def shard_of(guild: FakeGuild) -> int:
    return (guild.id >> 22) % SHARDS


@contextmanager
def bot_process(
    fake: FakeDiscord, dsn: str, shard: int, guild: FakeGuild, log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A bot process running ``shard`` (its slash commands synced to ``guild``), killed at the end."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            command(fake.port, fake.token, dsn, str(shard), SHARDS, guild.id),
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


async def connected(fake: FakeDiscord, shards: set[int], guilds: list[FakeGuild], since: int = 0) -> None:
    """Wait until a process identified for each of ``shards`` (after the first ``since`` identifications)
    and every guild has the bot's commands."""

    def ready() -> bool | None:
        running = {int(i["shard"][0]) for i in fake.identify_payloads[since:] if i.get("shard")}
        synced = all(fake.commands.get(g.id) for g in guilds)
        return (running >= shards and synced) or None

    await fake.wait_until(ready, timeout=60, what="both bot processes on the gateway")


async def open_match(fake: FakeDiscord, channel: FakeChannel, ann: FakeUser, bob: FakeUser) -> FakeChannel:
    opened = await fake.slash("game new", {"game": "ny_piatnik", "players": 2}, user=ann, channel=channel)
    await opened.response(timeout=20)
    thread = await fake.wait_for_thread(channel, timeout=20)
    lobby = await fake.wait_for_message(thread, lambda m: bool(m.buttons), timeout=20)
    join = next(b["custom_id"] for b in lobby.buttons if b["custom_id"].startswith("ba:lobby:join"))
    joined = await (await fake.click(lobby, join, user=bob)).response(timeout=20)
    start = next(b["custom_id"] for b in joined.buttons if b["custom_id"].startswith("ba:lobby:start"))
    await (await fake.click(joined, start, user=ann)).response(timeout=20)
    return thread


async def move(
    fake: FakeDiscord,
    host: GameHost,
    match_id: int,
    thread: FakeChannel,
    users: dict[int, FakeUser],
    pick: random.Random,
) -> tuple[FakeInteraction, int]:
    """Send a legal ``/move`` for the person to act; returns the interaction and the version it acts on."""
    match = await host.match(match_id)
    seat = min(host.rules(match.game).to_act(host.state_of(match)))
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    notation = pick.choice(host.legal_notations(match, seat))
    sent = await fake.slash("move", {"notation": notation}, user=users[player.user_id], channel=thread)
    return sent, match.version


async def settled(dsn: str) -> None:
    """Wait until no notice is left to send."""
    conn = await asyncpg.connect(dsn)
    try:
        for _ in range(600):
            if await conn.fetchval("SELECT COUNT(*) FROM deliveries WHERE status = 'pending'") == 0:
                return
            await asyncio.sleep(0.05)
        raise AssertionError("notices were still pending after 30 s")
    finally:
        await conn.close()


@asynccontextmanager
async def watching(dsn: str) -> AsyncIterator[GameHost]:
    """The test's own view of the database, to pick legal moves and check the log."""
    async with await PostgresMatchStore.open(dsn) as store:
        yield GameHost(store)


async def test_two_processes_on_one_postgresql_lose_no_move_and_post_nothing_twice(
    fake_discord: FakeDiscord, postgres_dsn: str, tmp_path: Path
) -> None:
    fake = fake_discord
    while {shard_of(g) for g in fake.guilds} != {0, 1}:
        fake.add_guild(f"Server {len(fake.guilds)}", owner=fake.owner)
    guilds = [next(g for g in fake.guilds if shard_of(g) == s) for s in range(SHARDS)]
    ann, bob = fake.alice, fake.bob
    for guild in guilds:
        for user in (ann, bob):
            guild.members.setdefault(user.id, FakeMember(user))
    logs = [tmp_path / f"shard{s}.log" for s in range(SHARDS)]
    pick = random.Random(5)
    users = {ann.id: ann, bob.id: bob}
    with bot_process(fake, postgres_dsn, 0, guilds[0], logs[0]):
        killed = bot_process(fake, postgres_dsn, 1, guilds[1], logs[1])
        second = killed.__enter__()
        try:
            await connected(fake, {0, 1}, guilds)
            threads = [await open_match(fake, g.text_channels[0], ann, bob) for g in guilds]
            async with watching(postgres_dsn) as host:
                ids = [(await host.store.list_matches(thread_id=t.id))[0].id for t in threads]
                acknowledged: list[list[int]] = [[], []]
                for step in range(MOVES_PER_MATCH):
                    for table in (0, 1):
                        sent, version = await move(fake, host, ids[table], threads[table], users, pick)
                        if table == 1 and step == KILL_AT:
                            second.send_signal(signal.SIGKILL)  # mid-move: it may or may not be stored
                            second.wait(timeout=10)
                            killed.__exit__(None, None, None)
                            since = len(fake.identify_payloads)
                            killed = bot_process(fake, postgres_dsn, 1, guilds[1], logs[1])
                            second = killed.__enter__()
                            await connected(fake, {1}, guilds, since)
                            continue
                        reply = await sent.response(timeout=20)
                        assert "You played" in (reply.content or ""), reply.content
                        acknowledged[table].append(version + 1)
                await settled(postgres_dsn)
                for table in (0, 1):
                    match = await host.match(ids[table])
                    stored = {v for v, _ in await host.store.kept_actions(ids[table])}
                    # Every acknowledged move is in the log, and the log replays to the stored board.
                    assert set(acknowledged[table]) <= stored
                    await host.public_log(match)
                    # Each notice became one message; the board shown last is the match as it stands.
                    nonces = Counter(m.nonce for m in threads[table].messages if m.nonce is not None)
                    assert nonces and max(nonces.values()) == 1
                    last = [b["custom_id"] for m in threads[table].messages for b in m.buttons]
                    assert any(c.endswith(f":{match.version}") for c in last), last[-3:]
                    if table == 0:
                        # The process that was never killed sent each of its notices once: nobody else
                        # took them, and it never had to send one again.
                        attempts = Counter(
                            str(r.json.get("nonce"))
                            for r in fake.requests
                            if r.method == "POST"
                            and r.route == "/channels/{channel_id}/messages"
                            and r.param("channel_id") == threads[0].id
                            and isinstance(r.json, dict)
                        )
                        assert attempts and max(attempts.values()) == 1, attempts
        finally:
            killed.__exit__(None, None, None)
