"""End-to-end timing for ``python bot.py bench``: from an injected ``/move`` to the new board post in the
match thread, through the real client, the host, the store, the renderer and the local fake Discord."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from cogs._client import BigApple
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import FakeChannel


def _posted(thread: FakeChannel, version: int) -> bool:
    marker = f":{version}"
    return any(b["custom_id"].endswith(marker) for m in thread.messages for b in m.buttons) or any(
        "Final standings" in (m.content or "") for m in thread.messages
    )


async def _wait_for_post(fake: FakeDiscord, thread: FakeChannel, version: int) -> None:
    def posted() -> bool | None:
        return _posted(thread, version) or None

    await fake.wait_until(posted, timeout=10)


async def measure_e2e(moves: int = 40, seed: int = 1) -> dict[str, Any]:
    """p50/p95 milliseconds from a typed move to its board post, and the share of that spent rendering
    (waiting for the bot's renderer, in its processes unless ``BIGAPPLE_RENDER_WORKERS`` says 0)."""
    rendering = [0.0]
    fake = FakeDiscord()
    await fake.start()
    samples: list[float] = []
    render_total = 0.0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            bot = BigApple(Path(tmp) / "bench.db", dev_guild=fake.guild.id, seed_source=lambda: seed)
            original = bot.renderer.render

            async def timed_render(*args: Any) -> bytes | None:
                start = time.perf_counter()
                try:
                    return await original(*args)
                finally:
                    rendering[0] += time.perf_counter() - start

            bot.renderer.render = timed_render  # type: ignore[method-assign,assignment]
            async with running_bot(bot, fake):
                ix = await fake.slash("game new", {"game": "ny_piatnik", "players": 2}, user=fake.alice)
                await ix.response()
                thread = await fake.wait_for_thread(fake.general)
                lobby = await fake.wait_for_message(thread)
                join = next(
                    b["custom_id"] for b in lobby.buttons if b["custom_id"].startswith("ba:lobby:join")
                )
                joined = await (await fake.click(lobby, join, user=fake.bob)).response()
                start = next(
                    b["custom_id"] for b in joined.buttons if b["custom_id"].startswith("ba:lobby:start")
                )
                await (await fake.click(joined, start, user=fake.alice)).response()
                users = {fake.alice.id: fake.alice, fake.bob.id: fake.bob}
                chooser = random.Random(seed)
                for _ in range(moves):
                    match = (await bot.store.list_matches(limit=1))[0]
                    if match.state_json is None or match.result_json is not None:
                        break
                    await _wait_for_post(fake, thread, match.version)
                    seat = min(bot.host.rules(match.game).to_act(bot.host.state_of(match)))
                    player = match.player_at(seat)
                    assert player is not None and player.user_id is not None
                    notation = chooser.choice(bot.host.legal_notations(match, seat))
                    rendering[0] = 0.0
                    began = time.perf_counter()
                    await fake.slash(
                        "move", {"notation": notation}, user=users[player.user_id], channel=thread
                    )
                    await _wait_for_post(fake, thread, match.version + 1)
                    samples.append((time.perf_counter() - began) * 1000)
                    render_total += rendering[0] * 1000
    finally:
        await fake.stop()
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 2),
        "render_share": round(render_total / sum(ordered), 3),
    }
