"""End-to-end timing for ``python bot.py bench``: from an injected ``/move`` to the new board post in the
match thread, through the real client, the host, the store, the renderer and the local fake Discord."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cogs._client import BigApple
from data.backend import open_stores
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import FakeChannel


def _posted(thread: FakeChannel, match_id: int, version: int) -> bool:
    """Whether the thread shows the board of ``match_id`` at ``version`` (its Play button names both), or
    the match's final post."""
    wanted = f"ba:play:{match_id}:{version}"
    return any(b["custom_id"] == wanted for m in thread.messages for b in m.buttons) or any(
        "Final standings" in (m.content or "") for m in thread.messages
    )


async def _wait_for_post(fake: FakeDiscord, thread: FakeChannel, match_id: int, version: int) -> None:
    def posted() -> bool | None:
        return _posted(thread, match_id, version) or None

    await fake.wait_until(posted, timeout=10)


async def _new_match(fake: FakeDiscord, game: str) -> tuple[int, FakeChannel]:
    """A two-player match of ``game`` between Alice and Bob, made and started through the commands and
    buttons; its id and thread."""
    known = {t.id for t in fake.threads(fake.general)}
    await (await fake.slash("game new", {"game": game, "players": 2}, user=fake.alice)).response()
    thread = await fake.wait_until(
        lambda: next((t for t in fake.threads(fake.general) if t.id not in known), None), what="a thread"
    )
    lobby = await fake.wait_for_message(thread)
    join = next(b["custom_id"] for b in lobby.buttons if b["custom_id"].startswith("ba:lobby:join"))
    joined = await (await fake.click(lobby, join, user=fake.bob)).response()
    start = next(b["custom_id"] for b in joined.buttons if b["custom_id"].startswith("ba:lobby:start"))
    await (await fake.click(joined, start, user=fake.alice)).response()
    return int(start.rsplit(":", 1)[1]), thread


class RenderWatch:
    """How long at least one image was being rendered since ``reset``: images drawn side by side (a
    board and a hand) count once, so the time is never more than the time that passed."""

    def __init__(self) -> None:
        self._drawing = 0
        self._since = 0.0
        self._busy = 0.0

    def began(self) -> None:
        if self._drawing == 0:
            self._since = time.perf_counter()
        self._drawing += 1

    def ended(self) -> None:
        self._drawing -= 1
        if self._drawing == 0:
            self._busy += time.perf_counter() - self._since

    def reset(self) -> None:
        self._busy = 0.0
        self._since = time.perf_counter()

    def busy(self) -> float:
        """Seconds spent rendering since ``reset`` (an image still being drawn counts until now)."""
        if self._drawing:
            return self._busy + time.perf_counter() - self._since
        return self._busy


def _p95(ordered: list[float]) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


async def measure_e2e(
    moves: int = 40, seed: int = 1, games: Sequence[str] = ("ny_piatnik",), seconds: float | None = None
) -> dict[str, Any]:
    """p50/p95 milliseconds from a typed move to its board post, and the share of that spent rendering
    (while the bot waits for at least one image from its renderer, in its processes unless
    ``BIGAPPLE_RENDER_WORKERS`` says 0), over ``moves`` moves shared out between two-player matches of
    ``games`` (at least one move each); and, under ``games``, the p50 and p95 of each game's own moves.
    ``samples`` holds every game's latencies. With ``seconds``, a game stops taking moves (after its
    first) once its share of the time left is used, so that a slow machine samples less instead of
    running late."""
    ends = None if seconds is None else time.perf_counter() + seconds
    watch = RenderWatch()
    fake = FakeDiscord()
    await fake.start()
    per_game = max(1, moves // max(1, len(games)))
    samples: dict[str, list[float]] = {game: [] for game in games}
    render_total = 0.0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            bot = BigApple(
                Path(tmp) / "bench.db", open_stores, dev_guild=fake.guild.id, seed_source=lambda: seed
            )
            original = bot.renderer.render

            async def timed_render(*args: Any) -> bytes | None:
                watch.began()
                try:
                    return await original(*args)
                finally:
                    watch.ended()

            bot.renderer.render = timed_render  # type: ignore[method-assign,assignment]
            async with running_bot(bot, fake):
                users = {fake.alice.id: fake.alice, fake.bob.id: fake.bob}
                chooser = random.Random(seed)
                for number, game in enumerate(games):
                    match_id, thread = await _new_match(fake, game)
                    # This game's part of the time left: until its share of it has passed.
                    until = (
                        None
                        if ends is None
                        else time.perf_counter() + (ends - time.perf_counter()) / (len(games) - number)
                    )
                    for _ in range(per_game):
                        if until is not None and samples[game] and time.perf_counter() > until:
                            break
                        match = await bot.host.match(match_id)
                        if match.state_json is None or match.result_json is not None:
                            break
                        await _wait_for_post(fake, thread, match_id, match.version)
                        seat = min(bot.host.rules(match.game).to_act(bot.host.state_of(match)))
                        player = match.player_at(seat)
                        assert player is not None and player.user_id is not None
                        notation = chooser.choice(bot.host.legal_notations(match, seat))
                        watch.reset()
                        began = time.perf_counter()
                        await fake.slash(
                            "move", {"notation": notation}, user=users[player.user_id], channel=thread
                        )
                        await _wait_for_post(fake, thread, match_id, match.version + 1)
                        samples[game].append(round((time.perf_counter() - began) * 1000, 3))
                        render_total += watch.busy() * 1000
    finally:
        await fake.stop()
    ordered = sorted(sample for game in games for sample in samples[game])
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(_p95(ordered), 2),
        "render_share": round(render_total / sum(ordered), 3),
        "games": {
            game: {"p50": round(statistics.median(mine), 2), "p95": round(_p95(sorted(mine)), 2)}
            for game in games
            if (mine := samples[game])
        },
        "samples": samples,
    }
