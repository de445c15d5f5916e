"""A lobby opened with ``/game new reliable:`` through Discord, on a virtual clock: its post says what it
asks; a person a computer had to stand in for is refused a seat, by the button and by ``/game join``, and
told what is asked and what they played; a newcomer with no turn yet joins."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeChannel
from tests.discord.test_bigapple import button
from tests.discord.test_clocks import skyline_timed_out
from tests.discord.test_notify import Clock, bot_at

REFUSAL = (
    "⚠️ This table asks for players who played at least 80% of their turns in time; you played 0% in your "
    "last match. You can open a match of your own with /game new."
)


async def thread_of(fake: FakeDiscord, match_id: int) -> FakeChannel:
    return await fake.wait_until(
        lambda: next(
            (t for t in fake.threads(fake.general) if (t.name or "").endswith(f" #{match_id}")), None
        )
    )


async def test_a_lobby_that_asks_for_punctual_players_refuses_one_who_timed_out(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        _, _, late, _ = await skyline_timed_out(fake, bot, clock)  # a computer played their only turn
        strict, newcomer = fake.add_user("carol"), fake.add_user("dave")
        asked = {"game": "ny1901", "players": 3, "reliable": 80}
        opened = await (await fake.slash("game new", asked, user=strict, channel=fake.general)).response()
        found = re.search(r"Match #(\d+) is open", opened.content or "")
        assert found, opened.content
        match_id = int(found.group(1))
        thread = await thread_of(fake, match_id)
        lobby = await fake.wait_for_message(thread)
        assert "Open to players who played at least 80% of their turns in time." in (lobby.content or "")
        listed = await (await fake.slash("game list", {}, user=late, channel=fake.general)).response()
        assert f"#{match_id} New York 1901 · waiting for players · turns in time: at least 80% · 1/3" in (
            listed.content or ""
        ), listed.content

        refused = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=late)).response()
        assert refused.ephemeral and refused.content == REFUSAL
        by_command = await fake.slash("game join", {}, user=late, channel=thread)
        assert (await by_command.response()).content == REFUSAL
        assert [p.user_id for p in (await bot.host.match(match_id)).players] == [strict.id]
        # In Italian, with the command named as the Italian client shows it.
        await (await fake.slash("settings language", {"language": "it"}, user=late)).response()
        in_italian = await fake.slash("game join", {}, user=late, channel=thread)
        assert (await in_italian.response()).content == (
            "⚠️ Questo tavolo chiede giocatori puntuali (turni giocati in tempo: almeno 80%); i tuoi: 0% "
            "nella tua ultima partita. Puoi aprirne una tua con /partita nuova."
        )

        joined = await (await fake.click(lobby, button(lobby, "ba:lobby:join:"), user=newcomer)).response()
        assert "Players 2/3: Carol, Dave" in (joined.content or "")
        assert "at least 80% of their turns in time" in (joined.content or "")
        assert [p.user_id for p in (await bot.host.match(match_id)).players] == [strict.id, newcomer.id]
        # A server that speaks Italian shows it in Italian.
        await (await fake.slash("settings server-language", {"language": "it"}, user=fake.admin)).response()
        left = await (await fake.click(joined, button(joined, "ba:lobby:leave:"), user=newcomer)).response()
        assert "Aperta a giocatori puntuali (turni giocati in tempo: almeno 80%)." in (left.content or "")
