"""A tournament end to end: organisers' commands, registration, rounds of match threads played by
people, standings after each round, ratings, refusals, and a restart in the middle of a round."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from pathlib import Path

from cogs._client import BigApple
from engine.core.rng import Rng
from engine.host.ports import MatchStatus
from engine.host.tournament_words import THREAD_NAME_LIMIT, thread_name
from engine.host.tournaments import TournamentStatus
from engine.registry import POLICIES
from tests.discord.fake import FakeDiscord
from tests.discord.models import BUTTON, MESSAGE_COMPONENT, FakeInteraction, FakeMessage, FakeRole, FakeUser
from tests.discord.test_bigapple import big_apple, button, started_match
from tests.discord.test_notify import Clock, bot_at


async def play_open_tables(fake: FakeDiscord, bot: BigApple, users: dict[int, FakeUser], moves: int) -> int:
    """People whose turn it is in any open match type their moves (chosen like the greedy computer)."""
    greedy = POLICIES["ny_piatnik"]["greedy"]
    played = 0
    while played < moves:
        active = await bot.store.list_matches([MatchStatus.ACTIVE], limit=50)
        due = [
            (m, seat)
            for m in active
            for seat in bot.host.rules(m.game).to_act(bot.host.state_of(m))
            if (p := m.player_at(seat)) is not None and p.user_id in users and p.bot is None
        ]
        if not due:
            return played
        match, seat = due[0]
        player = match.player_at(seat)
        assert player is not None and player.user_id is not None
        rules, state = bot.host.rules(match.game), bot.host.state_of(match)
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(played))
        options = {"notation": rules.notation(action), "match": match.id}
        reply = await (await fake.slash("move", options, user=users[player.user_id])).response()
        assert "You played" in (reply.content or ""), reply.content
        played += 1
    return played


async def test_a_swiss_tournament_from_creation_to_ratings(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    people = [fake.add_user(f"player{n}") for n in range(8)]
    users = {u.id: u for u in people}
    db = tmp_path / "db.sqlite"
    async with big_apple(fake, db) as bot:
        options = {
            "name": "Autumn cup",
            "game": "ny_piatnik",
            "format": "swiss",
            "table_size": 4,
            "rounds": 2,
        }
        refused = await (await fake.slash("tournament create", options, user=fake.alice)).response()
        assert refused.ephemeral and "admins" in (refused.content or "")
        created = await (await fake.slash("tournament create", options, user=fake.admin)).response()
        assert "Autumn cup" in (created.content or "")
        opened = await (await fake.slash("tournament open", {}, user=fake.admin)).response()
        join_button = opened.buttons[0]["custom_id"]
        for person in people[:6]:
            joined = await (await fake.click(opened, join_button, user=person)).response()
            assert joined.ephemeral and "registered" in (joined.content or "")
        for person in people[6:]:
            await (await fake.slash("tournament join", {}, user=person)).response()
        again = await (await fake.click(opened, join_button, user=people[0])).response()
        assert "already registered" in (again.content or "")
        assert "organiser" in (
            (await (await fake.slash("tournament start", {}, user=fake.bob)).response()).content or ""
        )
        await (await fake.slash("tournament start", {}, user=fake.admin)).response()
        pairing = await fake.wait_for_message(fake.general, lambda m: "round 1" in (m.content or ""))
        assert sum(f"<@{u.id}>" in (pairing.content or "") for u in people) == 8
        mine = await (await fake.slash("tournament mytable", {}, user=people[3])).response()
        assert "Round 1, table" in (mine.content or "")

        await play_open_tables(fake, bot, users, 40)  # part of round 1, then a restart
        tournament_id = (await bot.tournament_store.list_tournaments(limit=1))[0].id
    async with big_apple(fake, db) as bot:
        for _ in range(200):  # play whatever is due; between rounds, wait for the next pairing
            if await play_open_tables(fake, bot, users, 500) == 0:
                if (await bot.tournaments.get(tournament_id)).status is TournamentStatus.FINISHED:
                    break
                await asyncio.sleep(0.05)
        record = await bot.tournaments.get(tournament_id)
        assert record.status is TournamentStatus.FINISHED and len(record.rounds) == 2
        await fake.wait_for_message(fake.general, lambda m: "🏆" in (m.content or ""), timeout=10)
        standings_posts = [m for m in fake.general.messages if "standings after round" in (m.content or "")]
        assert [
            ("round 1" in (m.content or ""), "round 2" in (m.content or "")) for m in standings_posts
        ] == [
            (True, False),
            (False, True),
        ]
        assert all(m.attachment("standings.png").data.startswith(b"\x89PNG") for m in standings_posts)
        await fake.wait_for_message(fake.general, lambda m: "🏆" in (m.content or ""), timeout=10)
        board = await (await fake.slash("leaderboard", {"game": "ny_piatnik"}, user=fake.bob)).response()
        assert sum(f"<@{u.id}>" in (board.content or "") for u in people) == 8
        profile = await (await fake.slash("profile", {}, user=people[0])).response()
        assert "New York" in (profile.content or "") and "match #" in (profile.content or "")
        # Each of their two matches: the date, the points, the opponents and the match's thread.
        played = [line for line in (profile.content or "").splitlines() if line.startswith("<t:")]
        assert len(played) == 2
        assert all(" points" in line and "against " in line and " in <#" in line for line in played)
        # The history of one game only: this tournament's game has both, another game none.
        same = await (await fake.slash("profile", {"game": "ny_piatnik"}, user=people[0])).response()
        assert [line for line in (same.content or "").splitlines() if line.startswith("<t:")] == played
        other = await (await fake.slash("profile", {"game": "skyline"}, user=people[0])).response()
        assert "New York" not in (other.content or "") and "No rated matches yet." in (other.content or "")


async def test_start_answers_before_the_computers_play_their_tables(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        options = {"name": "Robot cup", "game": "ny_piatnik", "format": "swiss", "rounds": 2, "table_size": 4}
        await (await fake.slash("tournament create", options, user=fake.admin)).response()
        await (await fake.slash("tournament open", {}, user=fake.admin)).response()
        for _ in range(8):
            await (
                await fake.slash("tournament add-computer", {"level": "greedy"}, user=fake.admin)
            ).response()
        start: FakeInteraction | None = None
        answered_when_finished: list[bool] = []  # per table's match: had the organiser's answer come?

        async def finished(_: object) -> None:
            answered_when_finished.append(start is not None and bool(start.followups))

        bot.host.finish_listeners.append(finished)
        start = await fake.slash("tournament start", {}, user=fake.admin)
        assert "has started with 8 players" in ((await start.response()).content or "")
        await fake.wait_for_message(fake.general, lambda m: "🏆" in (m.content or ""), timeout=240)
        # Two rounds of two tables, every one of them played after the answer, in the background.
        assert answered_when_finished == [True] * 4
        record = (await bot.tournament_store.list_tournaments(limit=1))[0]
        assert record.status is TournamentStatus.FINISHED and len(record.rounds) == 2


async def test_organisers_may_advance_a_round_and_delegate_to_a_role(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    organisers = FakeRole(fake.snowflake(), "Organisers", permissions=0, position=1)
    fake.guild.roles.append(organisers)
    host_user = fake.add_user("referee", roles=[organisers])
    people = [fake.add_user(f"p{n}") for n in range(4)]
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        options = {"name": "Friendly", "game": "ny1901", "format": "swiss", "rounds": 1}
        refused = await (await fake.slash("tournament create", options, user=host_user)).response()
        assert "organiser role" in (refused.content or "")
        role_set = await (
            await fake.slash("tournament organiser-role", {"role": organisers}, user=fake.admin)
        ).response()
        assert role_set.ephemeral and "can now run tournaments" in (role_set.content or "")
        await (await fake.slash("tournament create", options, user=host_user)).response()
        await (await fake.slash("tournament open", {}, user=host_user)).response()
        for person in people:
            await (await fake.slash("tournament join", {}, user=person)).response()
        await (await fake.slash("tournament start", {}, user=host_user)).response()
        late = await (await fake.slash("tournament advance", {}, user=people[0])).response()
        assert late.ephemeral and "organiser" in (late.content or "")
        asked = await (await fake.slash("tournament advance", {}, user=host_user)).response()
        confirm = next(b["custom_id"] for b in asked.buttons if b["custom_id"].startswith("ba:tadvance:end:"))
        # Strong computers take the people's seats at once, and play the table to its end after the answer.
        done = await (await fake.click(asked, confirm, user=host_user)).response()
        assert "ends as soon as the computer players finish its open tables" in (done.content or "")
        await fake.wait_for_message(fake.general, lambda m: "🏆" in (m.content or ""), timeout=240)
        record = (await bot.tournament_store.list_tournaments(limit=1))[0]
        assert record.status is TournamentStatus.FINISHED


async def test_an_unrated_tournament_leaves_ratings_alone(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    people = [fake.add_user(f"q{n}") for n in range(2)]
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        options = {"name": "Casual", "game": "ny_piatnik", "format": "swiss", "rounds": 1, "table_size": 2}
        await (await fake.slash("tournament create", {**options, "rated": False}, user=fake.admin)).response()
        await (await fake.slash("tournament open", {}, user=fake.admin)).response()
        for person in people:
            await (await fake.slash("tournament join", {}, user=person)).response()
        await (await fake.slash("tournament start", {}, user=fake.admin)).response()
        assert await play_open_tables(fake, bot, {u.id: u for u in people}, 1000) > 0
        await fake.wait_for_message(fake.general, lambda m: "🏆" in (m.content or ""), timeout=10)
        finished = await bot.store.list_matches([MatchStatus.FINISHED])
        assert len(finished) == 1 and all(p.bot is None for p in finished[0].players)
        board = await (await fake.slash("leaderboard", {"game": "ny_piatnik"}, user=fake.bob)).response()
        assert "Nobody is rated" in (board.content or "")


async def test_a_match_that_ended_just_before_a_crash_is_rated_after_the_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite"
    greedy = POLICIES["ny_piatnik"]["greedy"]
    async with big_apple(fake, db) as bot:
        match_id, _ = await started_match(fake, bot)
        bot.host.finish_listeners.clear()  # as if the bot died right after the last move's commit
        for ply in range(2000):
            match = await bot.host.match(match_id)
            if match.status is MatchStatus.FINISHED:
                break
            seat = min(bot.host.rules(match.game).to_act(bot.host.state_of(match)))
            player = match.player_at(seat)
            assert player is not None and player.user_id is not None
            rules, state = bot.host.rules(match.game), bot.host.state_of(match)
            action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), Rng.from_seed(ply))
            await bot.host.act(match_id, player.user_id, rules.notation(action))
        assert await bot.ratings.leaderboard("ny_piatnik") == []
    async with big_apple(fake, db) as bot:
        for _ in range(100):
            if len(await bot.ratings.leaderboard("ny_piatnik")) == 2:
                break
            await asyncio.sleep(0.02)
        assert {row.user_id for row in await bot.ratings.leaderboard("ny_piatnik")} == {
            fake.alice.id,
            fake.bob.id,
        }


def confirm_buttons(message: FakeMessage) -> tuple[str, str]:
    """The (end, keep) custom ids of an advance confirmation."""
    ids = [b["custom_id"] for b in message.buttons]
    end = next(i for i in ids if i.startswith("ba:tadvance:end:"))
    keep = next(i for i in ids if i.startswith("ba:tadvance:keep:"))
    return end, keep


async def cup_of_four(fake: FakeDiscord, people: list[FakeUser], **options: object) -> None:
    """The admin creates "Big Apple Cup" (2 Swiss rounds at tables of 2, a day per round) with ``people``
    registered, and starts it."""
    settings = {
        "name": "Big Apple Cup",
        "game": "ny_piatnik",
        "format": "swiss",
        "rounds": 2,
        "table_size": 2,
        "deadline_hours": 24,
        **options,
    }
    await (await fake.slash("tournament create", settings, user=fake.admin)).response()
    await (await fake.slash("tournament open", {}, user=fake.admin)).response()
    for person in people:
        await (await fake.slash("tournament join", {}, user=person)).response()
    await (await fake.slash("tournament start", {}, user=fake.admin)).response()


async def test_pairings_link_named_threads_and_reach_every_player_by_dm(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    people = [fake.add_user(f"cup{n}") for n in range(4)]
    fake.close_dms(people[0])  # refuses every DM: the others still get theirs
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        await cup_of_four(fake, people)
        pairing = await fake.wait_for_message(fake.general, lambda m: "round 1" in (m.content or ""))
        record = (await bot.tournament_store.list_tournaments(limit=1))[0]
        threads = {}
        for table in record.rounds[0].tables:
            match = await bot.host.match(table.match_id or 0)
            assert match.thread_id is not None
            threads[table.number] = fake.channels[match.thread_id]
            assert f"<#{match.thread_id}>" in (pairing.content or "")
        assert [threads[n].name for n in (1, 2)] == ["Big Apple Cup · R1 · T1", "Big Apple Cup · R1 · T2"]
        # The first board of each table goes to the thread the pairings link, and no other is opened.
        for thread in threads.values():
            await fake.wait_for_message(thread, lambda m: bool(m.attachments))
        assert len(fake.threads(fake.general)) == 2

        for person in people[1:]:
            dm = await fake.wait_for_dm(person, lambda m: "Big Apple Cup" in (m.content or ""))
            table = next(t for t in record.rounds[0].tables if f"u{person.id}" in t.players)
            opponent = next(k for k in table.players if k != f"u{person.id}")
            text = dm.content or ""
            assert f"table {table.number}" in text and record.name_of(opponent) in text
            link = f"https://discord.com/channels/{fake.guild.id}/{threads[table.number].id}"
            assert link in text
        assert fake.dm_messages(people[0]) == []
        # The post pings only the one whose DMs are closed: nobody hears of their table twice.
        posted = next(
            r
            for r in fake.requests_to("POST", "/channels/{channel_id}/messages")
            if r.params["channel_id"] == str(fake.general.id)
            and "round 1" in ((r.json or {}).get("content") or "")
        )
        assert (posted.json or {})["allowed_mentions"]["users"] == [people[0].id]


def test_a_thread_name_fits_discord_whatever_the_tournament_is_called() -> None:
    assert thread_name("en", "Big Apple Cup", 1, 2) == "Big Apple Cup · R1 · T2"
    assert thread_name("it", "Big Apple Cup", 1, 2) == "Big Apple Cup · Turno 1 · Tav. 2"
    for locale in ("en", "it"):
        long = thread_name(locale, "A very long tournament name " * 5, 12, 34)
        assert len(long) <= THREAD_NAME_LIMIT and long.endswith(
            "12 · T34" if locale == "en" else "12 · Tav. 34"
        )
        assert "…" in long


async def test_advance_asks_first_and_only_a_current_confirmation_ends_the_round(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    people = [fake.add_user(f"adv{n}") for n in range(4)]
    elsewhere = fake.add_guild("Elsewhere", owner=fake.add_user("stranger", guild=False))
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        # New York 1901: strong computers finish its tables in seconds once the round is ended.
        await cup_of_four(fake, people, game="ny1901")
        await fake.wait_for_message(fake.general, lambda m: "round 1" in (m.content or ""))
        record = (await bot.tournament_store.list_tournaments(limit=1))[0]

        asked = await (await fake.slash("tournament advance", {}, user=fake.admin)).response()
        text = asked.content or ""
        assert asked.ephemeral and "still has tables playing" in text and "players still have time" in text
        assert all(f"**{p.global_name}**" in text for p in people)  # whose seats a computer takes
        for table in record.rounds[0].tables:
            thread = (await bot.host.match(table.match_id or 0)).thread_id
            assert f"Table {table.number} (match #{table.match_id}, <#{thread}>)" in text
        _, keep = confirm_buttons(asked)

        kept = await (await fake.click(asked, keep, user=fake.admin)).response()
        assert "Nothing changed" in (kept.content or "") and not kept.buttons
        record = await bot.tournaments.get(record.id)
        assert len(record.rounds) == 1 and all(t.result is None for t in record.rounds[0].tables)

        # Someone's seat changes hands meanwhile: the confirmation given for the old list changes nothing.
        stale = await (await fake.slash("tournament advance", {}, user=fake.admin)).response()
        stale_end, _ = confirm_buttons(stale)
        await (
            await fake.slash("tournament seat-computer", {"player": people[0]}, user=fake.admin)
        ).response()
        tables = [await bot.host.match(t.match_id or 0) for t in record.rounds[0].tables]
        (seated,) = [m for m in tables if any(p.user_id == people[0].id for p in m.players)]
        taken = [p.bot for p in seated.players if p.user_id == people[0].id]
        assert taken == [bot.host.strongest_policy(seated.game)]  # the strongest, as nobody chose a level
        refused = await (await fake.click(stale, stale_end, user=fake.admin)).response()
        assert refused.ephemeral and "changed since you asked" in (refused.content or "")
        assert len((await bot.tournaments.get(record.id)).rounds) == 1

        # A forged click: by someone who does not run tournaments, or from another server.
        fresh = await (await fake.slash("tournament advance", {}, user=fake.admin)).response()
        assert f"**{people[0].global_name}**" not in (fresh.content or "")
        fresh_end, _ = confirm_buttons(fresh)
        click = {"custom_id": fresh_end, "component_type": BUTTON}
        foreign = await (
            await fake.inject_interaction(MESSAGE_COMPONENT, fake.alice, fake.general, click, fresh)
        ).response()
        assert foreign.ephemeral and "organiser" in (foreign.content or "")
        away = await (
            await fake.inject_interaction(
                MESSAGE_COMPONENT, elsewhere.owner, elsewhere.channels[0], click, fresh
            )
        ).response()
        assert away.ephemeral and f"no tournament #{record.id} here" in (away.content or "")
        assert len((await bot.tournaments.get(record.id)).rounds) == 1

        twin = await (await fake.slash("tournament advance", {}, user=fake.admin)).response()
        twin_end, _ = confirm_buttons(twin)
        ended = await fake.click(fresh, fresh_end, user=fake.admin)
        done = await ended.response()  # at once: the computers play after the answer
        ending = "Round 1 of **Big Apple Cup** ends as soon as the computer players finish its open tables."
        assert ending in (done.content or "") and not done.buttons
        public = await ended.followup(0)
        assert not public.ephemeral and ending in (public.content or "")
        standings = await fake.wait_for_message(
            fake.general, lambda m: "standings after round 1" in (m.content or ""), timeout=240
        )
        record = await bot.tournaments.get(record.id)
        assert len(record.rounds) == 2 and all(t.result is not None for t in record.rounds[0].tables)
        assert "tournament points" in (standings.content or "") and "games played" in (
            standings.content or ""
        )
        await fake.wait_for_message(fake.general, lambda m: "round 2" in (m.content or ""), timeout=30)
        await fake.wait_for_thread(fake.general, name="Big Apple Cup · R2 · T1")

        late = await (await fake.click(twin, twin_end, user=fake.admin)).response()
        assert late.ephemeral and "Round 1 of “Big Apple Cup” is already over" in (late.content or "")
        assert len((await bot.tournaments.get(record.id)).rounds) == 2


async def test_standings_explain_their_columns_and_find_a_finished_tournament(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    reader = fake.add_user("lettrice")
    reader.locale = "it"
    async with big_apple(fake, tmp_path / "db.sqlite"):
        nothing = await (await fake.slash("tournament standings", {}, user=fake.bob)).response()
        assert "no tournament on this server yet" in (nothing.content or "")
        # Two tournaments of computers, played out at once; the second ended last.
        for name in ("Spring cup", "Summer cup"):
            created = await (
                await fake.slash(
                    "tournament create",
                    {"name": name, "game": "ny_piatnik", "format": "swiss", "rounds": 1, "table_size": 2},
                    user=fake.admin,
                )
            ).response()
            number = int(re.search(r"#(\d+)", created.content or "").group(1))  # type: ignore[union-attr]
            for _ in range(2):  # normal computers: their matches are played out before the answer
                await (
                    await fake.slash(
                        "tournament add-computer", {"tournament": number, "level": "greedy"}, user=fake.admin
                    )
                ).response()
            await (await fake.slash("tournament start", {"tournament": number}, user=fake.admin)).response()

            def trophy(m: FakeMessage, n: str = name) -> bool:
                return "🏆" in (m.content or "") and n in (m.content or "")

            await fake.wait_for_message(fake.general, trophy, timeout=30)
        final = next(
            m for m in fake.general.messages if "🏆" in (m.content or "") and "Summer" in (m.content or "")
        )
        assert "tournament points" in (final.content or "")

        latest = await (await fake.slash("tournament standings", {}, user=fake.bob)).response()
        text = latest.content or ""
        assert latest.ephemeral and "**Summer cup** · final standings" in text
        assert "points" in text and "opp." in text and "Ties go to the higher score" in text
        assert latest.attachment("standings.png").data.startswith(b"\x89PNG")

        choices = await (
            await fake.autocomplete("tournament standings", "tournament", "spring", {}, user=fake.bob)
        ).choices()
        assert [c["name"] for c in choices] == ["#1 Spring cup (finished)"]
        older = await (
            await fake.slash("tournament standings", {"tournament": choices[0]["value"]}, user=fake.bob)
        ).response()
        assert "**Spring cup** · final standings" in (older.content or "")

        italian = await (await fake.slash("tournament standings", {}, user=reader)).response()
        text = italian.content or ""
        assert "classifica finale" in text and "punti del torneo" in text and "punteggio" in text


async def test_a_round_deadline_reminds_the_tables_then_computers_finish_them(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock(datetime(2026, 6, 1, 8, tzinfo=UTC))
    people = [fake.add_user(f"player{n}") for n in range(4)]
    async with bot_at(fake, tmp_path / "db.sqlite", clock) as bot:
        await cup_of_four(fake, people, clock="daily", game="ny1901")  # quick strong computers, as above
        await fake.wait_for_message(fake.general, lambda m: "round 1" in (m.content or ""))
        record = (await bot.tournaments.store.get_tournament(1)).rounds[-1]
        tables = [await bot.host.match(table.match_id or 0) for table in record.tables]
        # The organiser chose the daily clock for the tables' matches.
        assert {m.pace.value for m in tables} == {"daily"}
        threads = {m.id: fake.channels[m.thread_id or 0] for m in tables}

        def reminded(words: str) -> list[str]:
            return [
                m.content or ""
                for thread in threads.values()
                for m in thread.messages
                if "round 1 of" in (m.content or "") and words in (m.content or "")
            ]

        clock.advance(hours=11)
        bot.kick_outbox()
        await bot.tournaments.process()
        assert not reminded("ends")
        clock.advance(hours=1)  # half the round's day is gone
        bot.kick_outbox()
        await fake.wait_until(lambda: len(reminded("ends")) == len(tables) or None, timeout=20)
        for match in tables:
            text = next(
                m.content or "" for m in threads[match.id].messages if "round 1 of" in (m.content or "")
            )
            assert all(f"<@{p.user_id}>" in text for p in match.players if p.user_id)
        clock.advance(hours=10, minutes=30)  # less than a tenth left
        bot.kick_outbox()
        await fake.wait_until(lambda: len(reminded("ends")) == 2 * len(tables) or None, timeout=20)
        clock.advance(hours=2)  # the deadline: computers finish the tables and round 2 is paired
        bot.kick_outbox()
        await fake.wait_for_message(fake.general, lambda m: "round 2" in (m.content or ""), timeout=240)
        for match in tables:
            finished = await bot.host.match(match.id)
            assert finished.status is MatchStatus.FINISHED
        assert len(reminded("ends")) == 2 * len(tables)  # never more than two reminders a round


async def test_a_player_replaced_by_an_organiser_keeps_nothing_of_the_seat(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    people = [fake.add_user(f"rep{n}") for n in range(4)]
    newcomer = fake.add_user("newbie")
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        await cup_of_four(fake, people, game="fifth_avenue")  # a game of hands
        await fake.wait_for_message(fake.general, lambda m: "round 1" in (m.content or ""))
        record = (await bot.tournament_store.list_tournaments(limit=1))[0]
        match = await bot.host.match(record.rounds[0].tables[0].match_id or 0)
        acting = min(bot.host.rules(match.game).to_act(bot.host.state_of(match)))
        player = match.player_at(acting)
        assert player is not None and match.thread_id is not None
        leaver = next(p for p in people if p.id == player.user_id)
        # The leaver's private message about the table carries the turn's controls.
        living = await fake.wait_for_dm(
            leaver, lambda m: f"#{match.id}" in (m.content or "") and bool(m.buttons), timeout=20
        )
        options = {"player": leaver, "newcomer": newcomer}
        said = await (await fake.slash("tournament replace", options, user=fake.admin)).response()
        assert "takes over" in (said.content or "")
        # The newcomer gets the seat's hand; the leaver's message loses its controls.
        await fake.wait_for_dm(newcomer, lambda m: "You now play the seat" in (m.content or ""), timeout=20)
        closed = await fake.wait_until(
            lambda: next((m for m in fake.dm_messages(leaver) if m.id == living.id and not m.buttons), None),
            timeout=20,
        )
        assert "no longer yours" in (closed.content or ""), closed.content
        assert not [m for m in fake.dm_messages(leaver) if m.buttons]
        # Their My hand under the thread's post answers that they no longer play.
        thread = fake.channels[match.thread_id]
        post = await fake.wait_until(
            lambda: next(
                (
                    m
                    for m in reversed(thread.messages)
                    if any(b.get("custom_id", "").startswith("ba:hand:") for b in m.buttons)
                ),
                None,
            ),
            timeout=20,
        )
        hand = await (await fake.click(post, button(post, "ba:hand:"), user=leaver)).response()
        assert hand.ephemeral and not hand.attachments
        assert "took over your seat" in (hand.content or ""), hand.content
        back = await (await fake.slash("game return", {}, user=leaver, channel=thread)).response()
        assert f"{newcomer.global_name} took over your seat in match #{match.id}" in (back.content or "")
        mine = await (await fake.click(post, button(post, "ba:hand:"), user=newcomer)).response()
        assert mine.attachment("hand.png").data.startswith(b"\x89PNG")
