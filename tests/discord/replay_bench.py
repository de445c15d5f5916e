"""``loop.max_stall_ms_replay`` for ``python bot.py bench``: the longest the bot's event loop goes
unanswered while people press replay buttons of a long finished match, 40 presses in 10 s, through the
real client and the local fake Discord (whose own work, on the same loop, counts too)."""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stall import LoopWatch
from cogs._client import BigApple
from data.backend import open_stores
from data.store import SqliteMatchStore
from engine.host.service import GameHost
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import STRING_SELECT, FakeInteraction, FakeMessage, FakeUser

# The longest matches the games make: five Piatnik players.
GAME = "ny_piatnik"
SEATS = 5
ANSWERED_WITHIN_S = 120.0


async def finished_match(db: Path, guild_id: int, seed: int) -> tuple[int, int]:
    """A match of ``SEATS`` computers played to its end in the store ``db``, in the server
    ``guild_id``: its id and its number of moves."""
    store = await SqliteMatchStore.open(db)
    try:
        # Made without syncing each commit to disk: the bench times the replay, not the match.
        await store.database.on_worker(lambda raw: raw.execute("PRAGMA synchronous = OFF").fetchall())
        host = GameHost(store, seed_source=lambda: seed)
        match = await host.create_match(GAME, SEATS, guild_id=guild_id)
        for _ in range(SEATS):
            await host.add_computer(match.id, "random")  # random players make the longest matches
        match = (await host.start(match.id)).match
        # Its posts were sent as it was played: the bot has nothing to send for it.
        while pending := await store.pending_deliveries():
            for delivery in pending:
                await store.mark_delivered(delivery.id)
        return match.id, len(await store.kept_actions(match.id))
    finally:
        await store.close()


async def press(
    fake: FakeDiscord, message: FakeMessage, person: FakeUser, chooser: random.Random
) -> FakeInteraction:
    """A press on ``message`` (a replay step as it stands) by ``person``: one of its buttons that is not
    disabled, or a place of its jump menu, chosen at random."""
    buttons = [b["custom_id"] for b in message.buttons if not b.get("disabled")]
    menus = [
        (c["custom_id"], [o["value"] for o in c.get("options") or []])
        for c in message.selects
        if c.get("type") == STRING_SELECT
    ]
    places = [(custom_id, value) for custom_id, values in menus for value in values]
    if places and chooser.random() < 0.5:
        custom_id, value = chooser.choice(places)
        return await fake.select(message, custom_id, [value], user=person)
    return await fake.click(message, chooser.choice(buttons), user=person)


async def measure_replay_stall(presses: int = 40, seconds: float = 10.0, seed: int = 1) -> dict[str, Any]:
    """``presses`` presses of replay buttons spread evenly over ``seconds`` (each showing a move picked
    at random, by people who each opened the replay of the same finished match), answered by a bot that
    draws as it does when it runs (in its render processes unless ``BIGAPPLE_RENDER_WORKERS`` says 0):
    the longest stall of its event loop from the first press to the last answer, and the match's
    length."""
    # Discord's three seconds to acknowledge a press are not what is measured here: on a machine too busy
    # to keep them, a late press is still answered and its stall counted.
    fake = FakeDiscord(ack_deadline=ANSWERED_WITHIN_S)
    await fake.start()
    chooser = random.Random(seed)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "replay.db"
            match_id, moves = await finished_match(db, fake.guild.id, seed)
            bot = BigApple(
                db, open_stores, dev_guild=fake.guild.id, seed_source=lambda: seed, animations=False
            )
            async with running_bot(bot, fake):
                await bot.renderer.run(os.getpid)  # the render processes started, as in a running bot
                people = [fake.alice, fake.bob, fake.admin, fake.owner]
                shown = []
                for person in people:
                    asked = await fake.slash("replay", {"match": match_id}, user=person, channel=fake.general)
                    shown.append(await asked.response(timeout=ANSWERED_WITHIN_S))
                watch = LoopWatch()
                watch.start()
                pressed: list[FakeInteraction] = []
                began = time.perf_counter()
                for number in range(presses):
                    await asyncio.sleep(max(0.0, began + number * seconds / presses - time.perf_counter()))
                    who = number % len(people)
                    pressed.append(await press(fake, shown[who], people[who], chooser))
                for interaction in pressed:
                    await interaction.wait_until(
                        lambda ix: any(e.kind == "edit" for e in ix.events),
                        timeout=ANSWERED_WITHIN_S,
                        what="the replay step",
                    )
                stall_ms = await watch.stop()
                answered_s = time.perf_counter() - began
    finally:
        await fake.stop()
    return {
        "max_stall_ms_replay": stall_ms,
        "p99_stall_ms_replay": watch.p99_ms(),
        "max_busy_ms_replay": round(watch.longest_busy * 1000, 1),
        "moves": moves,
        "answered_s": round(answered_s, 1),
    }


if __name__ == "__main__":
    print(asyncio.run(measure_replay_stall()))
