"""A tournament end to end: organisers' commands, registration, rounds of match threads played by
people, standings after each round, ratings, refusals, and a restart in the middle of a round."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cogs._client import BigApple
from engine.core.rng import Rng
from engine.host.ports import MatchStatus
from engine.host.tournaments import TournamentStatus
from engine.registry import POLICIES
from tests.discord.fake import FakeDiscord
from tests.discord.models import FakeRole, FakeUser
from tests.discord.test_bigapple import big_apple, started_match


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


async def test_organisers_may_advance_a_round_and_delegate_to_a_role(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    organisers = FakeRole(fake.snowflake(), "Organisers", permissions=0, position=1)
    fake.guild.roles.append(organisers)
    host_user = fake.add_user("referee", roles=[organisers])
    people = [fake.add_user(f"p{n}") for n in range(4)]
    async with big_apple(fake, tmp_path / "db.sqlite") as bot:
        options = {"name": "Friendly", "game": "ny_piatnik", "format": "swiss", "rounds": 1}
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
        done = await (await fake.slash("tournament advance", {"force": True}, user=host_user)).response()
        assert "is over" in (done.content or "")
        record = (await bot.tournament_store.list_tournaments(limit=1))[0]
        assert record.status is TournamentStatus.FINISHED
        await fake.wait_for_message(fake.general, lambda m: "🏆" in (m.content or ""), timeout=10)


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
