"""Finding a game through Discord on a virtual clock: five people queue for a three-player table; the
three closest in skill are seated and their match starts in its own thread; the other two wait, see
where they stand, and after the wait they chose a computer fills their table. Leaving is one press."""

from __future__ import annotations

import re
import sqlite3
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeMessage, FakeUser
from tests.discord.test_clocks import skyline_timed_out
from tests.discord.test_notify import Clock, bot_at

# Skills as the ratings store keeps them (openskill's mu, with a settled sigma): two far from the rest.
SKILLS = {"alice": 25.0, "bob": 60.0, "carol": 25.4, "dave": 59.0, "erin": 25.8}


def table_ready(fake: FakeDiscord, person: FakeUser) -> list[FakeMessage] | None:
    """The direct messages telling ``person`` their table is ready (None: none yet)."""
    return [m for m in fake.dm_messages(person) if "Your table is ready" in (m.content or "")] or None


def rated(db: Path, people: list[FakeUser]) -> None:
    """The people's ratings in New York 1901, as matches played before left them."""
    with sqlite3.connect(db) as raw:
        for person in people:
            raw.execute(
                "INSERT INTO ratings (game, user_id, mu, sigma, games, wins, updated_at) "
                "VALUES ('ny1901', ?, ?, 2.0, 10, 3, '2026-11-01T00:00:00+00:00')",
                (person.id, SKILLS[person.username]),
            )
    raw.close()


async def test_five_people_find_one_table_of_the_closest_and_computers_fill_the_next(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 11, 29, 10, tzinfo=UTC))
    db = tmp_path / "db.sqlite"
    people = [fake.alice, fake.bob, fake.add_user("carol"), fake.add_user("dave"), fake.add_user("erin")]
    async with bot_at(fake, db, clock) as bot:
        rated(db, people)
        answers = []
        for person in people:
            clock.advance(minutes=2)
            asked = await fake.slash(
                "game find", {"game": "ny1901", "players": 3, "wait": 6}, user=person, channel=fake.general
            )
            answers.append((await asked.response()).content or "")
        # Alice and Carol waited for someone close enough; Erin completed their table.
        assert "You wait for a table of New York 1901 (3 players, daily: 24 hours per move)" in answers[0]
        assert "Nobody else waits for it yet." in answers[0]
        assert "2 other people wait for it too." in answers[2]
        found = re.search(r"Your table is ready: match #(\d+) of New York 1901, with (.*)\.$", answers[4])
        assert found, answers[4]
        match = await bot.host.match(int(found.group(1)))
        carol, dave, erin = people[2:]
        assert {p.user_id for p in match.players} == {fake.alice.id, carol.id, erin.id}
        assert match.status.value == "active" and match.pace.value == "daily"
        # The match has its own thread, where its first post calls whoever is to move.
        (thread,) = await fake.wait_until(lambda: fake.threads(fake.general) or None)
        assert found.group(2) == f"Carol and Alice. It is played in <#{thread.id}>"
        # Alice and Carol, seated by Erin's asking, each hear of it by direct message.
        for person in (fake.alice, carol):
            told = await fake.wait_until(partial(table_ready, fake, person))
            assert len(told) == 1 and f"It is played in <#{thread.id}>." in (told[0].content or "")
        assert not table_ready(fake, erin)
        post = await fake.wait_for_message(thread, lambda m: "<@" in (m.content or ""))
        assert any(f"<@{p.id}>" in (post.content or "") for p in (fake.alice, carol, erin))
        # Bob and Dave wait on, each seeing the other, until the wait they chose.
        standing = await (await fake.slash("game find", {}, user=dave, channel=fake.general)).response()
        assert "1 other person waits for it too." in (standing.content or "")
        assert "computer players (normal) fill your table from" in (standing.content or "")
        assert [b["label"] for b in standing.buttons] == ["Leave the queue for New York 1901"]
        clock.advance(hours=5, minutes=50)
        bot.kick_outbox()
        assert len(fake.threads(fake.general)) == 1
        clock.advance(minutes=10)
        bot.kick_outbox()
        await fake.wait_until(lambda: len(fake.threads(fake.general)) == 2 or None, what="a second table")
        filled = max(await bot.store.list_matches(guild_id=fake.guild.id), key=lambda m: m.id)
        for person in (fake.bob, dave):  # nobody asked: both hear of it by direct message
            await fake.wait_until(partial(table_ready, fake, person))
        assert {p.user_id for p in filled.players if p.bot is None} == {fake.bob.id, dave.id}
        assert [p.bot for p in filled.players if p.bot is not None] == ["greedy"]
        gone = await (await fake.slash("game find", {}, user=dave, channel=fake.general)).response()
        assert "You wait in no queue on this server" in (gone.content or "")


async def test_leaving_the_queue_is_one_press_in_the_persons_language(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 11, 29, 10, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        await (await fake.slash("settings language", {"language": "it"}, user=fake.bob)).response()
        asked = await fake.slash(
            "game find", {"game": "skyline", "level": "none"}, user=fake.bob, channel=fake.general
        )
        waiting = await asked.response()
        assert "Aspetti un tavolo di" in (waiting.content or "")
        assert "Il tuo tavolo aspetta solo persone." in (waiting.content or "")
        (leave,) = waiting.buttons
        assert leave["label"].startswith("Lascia la coda per")
        left = await (await fake.click(waiting, leave["custom_id"], user=fake.bob)).response()
        assert (left.content or "").startswith("Hai lasciato la coda per")
        assert await bot.queue_desk.queue.entries() == []
        again = await (await fake.click(waiting, leave["custom_id"], user=fake.bob)).response()
        assert again.content == "Non eri in quella coda."
        # Commands are named as the Italian client shows them.
        nowhere = await (await fake.slash("game find", {}, user=fake.bob, channel=fake.general)).response()
        assert nowhere.content == "Non sei in nessuna coda su questo server: /partita cerca ti mette in coda."
        refused = await (
            await fake.slash("game find", {"game": "skyline", "players": 6}, user=fake.alice)
        ).response()
        assert "Skyline of the World is played by 2 to 4 players" in (refused.content or "")


async def test_a_person_who_asks_for_punctual_players_is_not_seated_with_one_who_timed_out(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 5, 4, 10, tzinfo=UTC))
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        _, _, late, _ = await skyline_timed_out(fake, bot, clock)  # a computer played for them once
        strict, newcomer = fake.add_user("carol"), fake.add_user("dave")
        asked = {"game": "ny1901", "players": 2, "reliable": 90}
        waiting = await (await fake.slash("game find", asked, user=strict, channel=fake.general)).response()
        assert "You asked for players who played at least 90% of their turns in time." in (
            waiting.content or ""
        )
        plain = {"game": "ny1901", "players": 2}
        clock.advance(minutes=1)
        refused = await (await fake.slash("game find", plain, user=late, channel=fake.general)).response()
        assert "1 other person waits for it too." in (refused.content or "")  # not seated with Carol
        clock.advance(minutes=1)  # Carol, who waited longest, has the first table she suits
        seated = await (await fake.slash("game find", plain, user=newcomer, channel=fake.general)).response()
        found = re.search(r"Your table is ready: match #(\d+)", seated.content or "")
        assert found, seated.content
        match = await bot.host.match(int(found.group(1)))
        assert {p.user_id for p in match.players} == {strict.id, newcomer.id}


async def test_a_person_on_someones_list_is_never_seated_with_them_and_nobody_else_sees_the_list(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 11, 29, 10, tzinfo=UTC))
    carol = fake.add_user("carol")
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:

        async def avoid(user: FakeUser, **chosen: object) -> FakeMessage:
            return await (await fake.slash("game avoid", chosen, user=user, channel=fake.general)).response()

        empty = await avoid(fake.alice)
        assert empty.ephemeral and "Nobody is on your list." in (empty.content or "")
        assert "cannot avoid yourself" in ((await avoid(fake.alice, player=fake.alice)).content or "")
        listed = await avoid(fake.alice, player=fake.bob)
        assert listed.ephemeral and f"<@{fake.bob.id}> is on your list now" in (listed.content or "")
        assert f"<@{fake.bob.id}>" in ((await avoid(fake.alice)).content or "")
        assert "Nobody is on your list." in ((await avoid(fake.bob)).content or "")  # Bob's own is his
        # Alice and Bob wait for the same table: they are not seated together; Carol is seated with Alice.
        plain = {"game": "ny1901", "players": 2}
        for person in (fake.alice, fake.bob):
            clock.advance(minutes=1)
            waiting = await (
                await fake.slash("game find", plain, user=person, channel=fake.general)
            ).response()
            assert "You wait for a table of New York 1901" in (waiting.content or ""), waiting.content
        clock.advance(minutes=1)
        seated = await (await fake.slash("game find", plain, user=carol, channel=fake.general)).response()
        found = re.search(r"Your table is ready: match #(\d+)", seated.content or "")
        assert found, seated.content
        match = await bot.host.match(int(found.group(1)))
        assert {p.user_id for p in match.players} == {fake.alice.id, carol.id}
        # Taken off the list, Bob may be seated with her again.
        back = await avoid(fake.alice, player=fake.bob)
        assert "is off your list" in (back.content or "")
        assert "Nobody is on your list." in ((await avoid(fake.alice)).content or "")
        # Nothing of the list was ever said where Bob could read it.
        assert not any("list" in (m.content or "") for m in fake.dm_messages(fake.bob))
        assert not any("list" in (m.content or "") for m in fake.general.messages)
