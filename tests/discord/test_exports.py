"""/replay export through the fake Discord: a short line, one request at a time per person, each told
their place; the file comes in the interaction's answer, or by direct message once that answer would
come after Discord's fifteen minutes."""

from __future__ import annotations

import io
import time
from datetime import timedelta
from pathlib import Path

from PIL import Image

from cogs._client import BigApple
from cogs.replay import exports_of
from data.backend import open_stores
from engine.host.service import utc_now
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import FakeInteraction, FakeMessage
from tests.discord.test_bigapple import big_apple, play_one_move, started_match

FOLLOWUP = "/webhooks/{application_id}/{token}"
# Drawing an animation in a thread on a busy machine takes a few seconds.
DRAWN_WITHIN_S = 60.0


async def delivered(ix: FakeInteraction) -> FakeMessage:
    """The followup of ``ix`` that carries the animation."""
    message: FakeMessage = await ix.wait_until(
        lambda i: next((m for m in i.followups if m.attachments), None),
        timeout=DRAWN_WITHIN_S,
        what="the animation",
    )
    return message


def is_gif(data: bytes) -> bool:
    with Image.open(io.BytesIO(data)) as image:
        return image.format == "GIF"


async def test_exports_wait_in_a_short_line_one_per_person_each_told_their_place(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    cy = fake.add_user("cy")
    async with big_apple(fake, tmp_path / "bot.db") as bot:
        exports = exports_of(bot)
        exports.most = 3
        match_id, thread = await started_match(fake, bot, "skyline")
        await play_one_move(fake, bot, match_id, thread)

        first = await fake.slash("replay", {"export": True}, user=fake.alice, channel=thread)
        # Discord is slow to take Alice's file: the others wait behind it.
        held = fake.hold("POST", FOLLOWUP, token=first.token)
        await fake.wait_until(lambda: held.hits, timeout=DRAWN_WITHIN_S, what="alice's file")
        second = await fake.slash("replay", {"export": True}, user=fake.bob, channel=thread)
        place = await second.response()
        assert place.ephemeral and "number 2 in line" in (place.content or "") and not place.attachments
        third = await fake.slash("replay", {"export": True}, user=cy, channel=thread)
        assert "number 3 in line" in ((await third.response()).content or "")

        full = await fake.slash("replay", {"export": True}, user=fake.admin, channel=thread)
        refused = await full.response()
        assert refused.ephemeral and "Too many animations" in (refused.content or "")
        again = await fake.slash("replay", {"export": True}, user=fake.alice, channel=thread)
        assert "You already asked for an animation" in ((await again.response()).content or "")
        assert exports.in_line == 3

        held.release()
        files = [await delivered(ix) for ix in (first, second, third)]
        await fake.wait_until(lambda: exports.in_line == 0, what="the line to empty")
        for message in files:
            assert message.ephemeral and "move by move" in (message.content or "")
            assert is_gif(message.attachment(f"match-{match_id}.gif").data)
        assert exports.answered == 3 and exports.sent_privately == 0 and exports.in_line == 0
        assert bot.animator.drawn == 1  # the same animation, drawn once for the three of them

        # The line is free again: the one refused may ask now, and nobody is ahead of them.
        later = await fake.slash("replay", {"export": True}, user=fake.admin, channel=thread)
        answer = await later.response(timeout=DRAWN_WITHIN_S)
        assert is_gif(answer.attachment(f"match-{match_id}.gif").data) and len(later.followups) == 1


async def test_an_export_ready_after_fifteen_minutes_arrives_by_direct_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    ahead = timedelta()  # how far the test has moved both clocks on
    fake.clock = lambda: time.monotonic() + ahead.total_seconds()
    seeds = iter(range(1, 1000))
    bot = BigApple(
        tmp_path / "bot.db",
        open_stores,
        dev_guild=fake.guild.id,
        retry_seconds=0.05,
        seed_source=lambda: next(seeds),
        clock=lambda: utc_now() + ahead,
    )
    async with running_bot(bot, fake):
        exports = exports_of(bot)
        match_id, thread = await started_match(fake, bot, "ny1901")
        await play_one_move(fake, bot, match_id, thread)
        first = await fake.slash("replay", {"export": True}, user=fake.alice, channel=thread)
        held = fake.hold("POST", FOLLOWUP, token=first.token)
        await fake.wait_until(lambda: held.hits, timeout=DRAWN_WITHIN_S, what="alice's file")
        second = await fake.slash("replay", {"export": True}, user=fake.bob, channel=thread)
        assert "number 2 in line" in ((await second.response()).content or "")

        ahead += timedelta(minutes=16)  # Discord took a quarter of an hour and more to answer
        held.release()
        # Alice's followup came too late for Discord (401, Invalid Webhook Token): her file comes by DM.
        # Bob's would come too late as well: it is sent by DM straight away.
        for user in (fake.alice, fake.bob):
            dm = await fake.wait_for_dm(user, timeout=DRAWN_WITHIN_S)
            assert "took longer than Discord lets an answer wait" in (dm.content or "")
            assert "move by move" in (dm.content or "")
            assert is_gif(dm.attachment(f"match-{match_id}.gif").data)
        assert [r.status for r in fake.requests_to("POST", FOLLOWUP) if r.params["token"] == first.token] == [
            401
        ]
        assert len([r for r in fake.requests_to("POST", FOLLOWUP) if r.params["token"] == second.token]) == 1
        await fake.wait_until(lambda: exports.in_line == 0, what="the line to empty")
        assert exports.sent_privately == 2 and exports.answered == 0
