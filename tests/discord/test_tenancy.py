"""Tenancy: a server sees and acts on its own matches and tournaments only, whoever asks from elsewhere
(an administrator of another server included), and direct messages reach only the user's own matches."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from cogs._client import BigApple
from data.backend import open_stores
from engine.host.ports import MatchStatus, Player
from engine.host.tournaments import TournamentStatus
from tests.discord.fake import FakeDiscord
from tests.discord.harness import running_bot
from tests.discord.models import BUTTON, STRING_SELECT, FakeChannel, FakeGuild, FakeUser
from tests.discord.test_bigapple import button, new_match, started_match

UNKNOWN = 987_654


@asynccontextmanager
async def two_servers(fake: FakeDiscord, db: Path) -> AsyncIterator[tuple[BigApple, FakeGuild, FakeUser]]:
    """The bot with its commands synced globally, the default server, and a second server whose
    administrator ("mallory") plays nowhere on the first."""
    owner = fake.add_user("other-owner", guild=None)
    other = fake.add_guild("Other Guild", owner=owner, channels=("lobby",))
    mallory = fake.add_user("mallory", guild=other, admin=True)
    seeds = iter(range(1, 1000))
    bot = BigApple(db, open_stores, retry_seconds=0.05, seed_source=lambda: next(seeds))
    async with running_bot(bot, fake):
        await bot.sync_commands()
        yield bot, other, mallory


async def answer(
    fake: FakeDiscord, command: str, options: dict[str, object], user: FakeUser, **where: object
) -> str:
    """The private reply to a slash command."""
    reply = await (await fake.slash(command, options, user=user, **where)).response()  # type: ignore[arg-type]
    assert reply.ephemeral, (command, reply.content)
    return reply.content or ""


def same_refusal(text: str, number: int, unknown_text: str) -> bool:
    """Whether ``text`` is word for word the refusal given for a number that does not exist."""
    return text.replace(str(number), "N") == unknown_text.replace(str(UNKNOWN), "N")


async def test_another_servers_admin_can_neither_see_nor_touch_its_matches(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with two_servers(fake, tmp_path / "db.sqlite") as (bot, other, mallory):
        active, thread = await started_match(fake, bot)
        lobby_id, _ = await new_match(fake, fake.alice, players=3)
        before = {m: await bot.host.match(m) for m in (active, lobby_id)}
        lobby_channel: FakeChannel = other.channel("lobby")
        here = {"user": mallory, "channel": lobby_channel}
        probes: list[tuple[str, dict[str, object]]] = [
            ("game abandon", {"match": active}),
            ("game status", {"match": active}),
            ("board", {"match": active}),
            ("log", {"match": active}),
            ("hand", {"match": active}),
            ("move", {"match": active, "notation": "place at=8AV-34"}),
            ("move", {"match": active}),
            ("game join", {"match": lobby_id}),
            ("game leave", {"match": lobby_id}),
            ("game start", {"match": lobby_id}),
        ]
        for command, options in probes:
            text = await answer(fake, command, options, **here)  # type: ignore[arg-type]
            number = int(str(options["match"]))
            unknown = await answer(fake, command, {**options, "match": UNKNOWN}, **here)  # type: ignore[arg-type]
            assert f"no match #{number} here" in text, (command, text)
            assert same_refusal(text, number, unknown), (command, text, unknown)
        # Direct messages reach only the matches the user plays in.
        from_dm = await answer(fake, "board", {"match": active}, mallory, guild=False)
        assert f"no match #{active} here" in from_dm
        own = await (await fake.slash("board", {"match": active}, user=fake.alice, guild=False)).response()
        assert own.attachment("board.png").data.startswith(b"\x89PNG")
        listing = await answer(fake, "game list", {}, **here)  # type: ignore[arg-type]
        assert "No open matches here" in listing
        assert "No open matches" in await answer(fake, "game list", {}, mallory, guild=False)
        assert f"#{active}" in await answer(fake, "game list", {}, fake.alice, guild=False)
        offered = await (
            await fake.autocomplete(
                "move", "notation", "", {"match": active}, user=mallory, channel=lobby_channel
            )
        ).choices()
        assert offered == []
        for match_id, record in before.items():
            after = await bot.host.match(match_id)
            assert (after.version, after.status, after.players) == (
                record.version,
                record.status,
                record.players,
            )
        assert not any("mallory" in (m.content or "").lower() for m in thread.messages)


async def test_another_servers_admin_cannot_run_its_tournaments(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with two_servers(fake, tmp_path / "db.sqlite") as (bot, other, mallory):
        options = {"name": "Home cup", "game": "ny_piatnik", "format": "swiss", "table_size": 3, "rounds": 1}
        await answer_public(fake, "tournament create", options, fake.admin)
        await answer_public(fake, "tournament open", {}, fake.admin)
        for person in (fake.alice, fake.bob):
            await (await fake.slash("tournament join", {}, user=person)).response()
        await answer_public(fake, "tournament add-computer", {}, fake.admin)
        await (await fake.slash("tournament start", {}, user=fake.admin)).response()
        [record] = await bot.tournament_store.list_tournaments(limit=5)
        assert record.status is TournamentStatus.RUNNING
        tid = record.id
        here = {"user": mallory, "channel": other.channel("lobby")}
        probes: list[tuple[str, dict[str, object]]] = [
            ("tournament cancel", {"tournament": tid}),
            ("tournament advance", {"tournament": tid}),
            ("tournament drop", {"tournament": tid, "player": mallory}),
            ("tournament decide", {"tournament": tid, "table": 1, "order": "alice, bob"}),
            ("tournament standings", {"tournament": tid}),
            ("tournament join", {"tournament": tid}),
            ("tournament mytable", {"tournament": tid}),
        ]
        for command, options in probes:
            reply = await (await fake.slash(command, options, **here)).response()  # type: ignore[arg-type]
            unknown = await (
                await fake.slash(command, {**options, "tournament": UNKNOWN}, **here)  # type: ignore[arg-type]
            ).response()
            assert reply.ephemeral and f"no tournament #{tid} here" in (reply.content or ""), (
                command,
                reply.content,
            )
            assert same_refusal(reply.content or "", tid, unknown.content or "")
        after = await bot.tournaments.get(tid)
        # (The version may move meanwhile: the outbox records the round's announcements.)
        assert (after.status, after.rounds, after.entrants) == (
            record.status,
            record.rounds,
            record.entrants,
        )
        table_match = after.rounds[0].tables[0].match_id
        assert table_match is not None
        assert (await bot.host.match(table_match)).status is MatchStatus.ACTIVE


async def test_a_tournament_table_is_abandoned_by_organisers_only(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    async with two_servers(fake, tmp_path / "db.sqlite") as (bot, _, _):
        table = await bot.host.create_match(
            "ny_piatnik", 3, guild_id=fake.guild.id, channel_id=fake.general.id
        )
        for user in (fake.alice, fake.bob):
            await bot.host.join(table.id, Player(user_id=user.id, name=user.username))
        await bot.host.add_computer(table.id)
        await bot.host.start(table.id)
        refused = await answer(fake, "game abandon", {"match": table.id}, fake.bob)
        assert "creator or a server admin" in refused
        ask = await (await fake.slash("game abandon", {"match": table.id}, user=fake.admin)).response()
        done = await (await fake.click(ask, button(ask, "ba:abandon:"), user=fake.admin)).response()
        assert "abandoned" in (done.content or "")
        assert (await bot.host.match(table.id)).status is MatchStatus.ABANDONED


async def answer_public(fake: FakeDiscord, command: str, options: dict[str, object], user: FakeUser) -> str:
    reply = await (await fake.slash(command, options, user=user)).response()
    assert not reply.ephemeral, (command, reply.content)
    return reply.content or ""


def button_row(*custom_ids: str) -> dict[str, object]:
    return {
        "type": 1,
        "components": [{"type": BUTTON, "style": 2, "label": "old", "custom_id": c} for c in custom_ids],
    }


def select_row(custom_id: str, *values: str) -> dict[str, object]:
    options = [{"label": f"old {n}", "value": v} for n, v in enumerate(values)]
    return {"type": 1, "components": [{"type": STRING_SELECT, "custom_id": custom_id, "options": options}]}


async def test_garbage_controls_get_the_normal_stale_answer(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Posts left by an older version of the bot carry controls whose ids and values no longer make
    sense: every click answers privately that the control is stale or unknown, and changes nothing."""
    fake = fake_discord
    async with two_servers(fake, tmp_path / "db.sqlite") as (bot, _, _):
        match_id, thread = await started_match(fake, bot)
        v = (await bot.host.match(match_id)).version
        clicks = {
            f"ba:play:{2**63}:{v}": "moved on",  # no store holds such a match id: bounded before it
            # The player to act gets the current menu (Play only opens a menu); the other, stale news.
            f"ba:play:{match_id}:{2**64 + 5}": "moved on|your move",
            f"ba:multi:{match_id}:{v}:{10**19}": "",
            "ba:play:\u0663:1": "out of date",
            "ba:nothing-like-this": "out of date",
        }
        old_buttons = await fake.post_as_bot(
            thread, {"content": "an old post", "components": [button_row(*clicks)]}
        )
        move_menu = f"ba:move:{match_id}:{v}"
        picks = f"ba:picks:{match_id}:{v}:0"
        old_menus = await fake.post_as_bot(
            thread,
            {
                "content": "old menus",
                "components": [select_row(move_menu, "?x|zz", "bogus"), select_row(picks, "\u00b2")],
            },
        )
        answers = []
        for user in (fake.alice, fake.bob):
            for custom_id, expected in clicks.items():
                answers.append((custom_id, expected, await fake.click(old_buttons, custom_id, user=user)))
            for custom_id, value, expected in (
                (move_menu, "?x|zz", "no longer on offer"),
                (move_menu, "bogus", "no longer on offer"),
                (picks, "\u00b2", ""),
            ):
                answers.append((value, expected, await fake.select(old_menus, custom_id, [value], user=user)))
        for what, expected, ix in answers:
            reply = await ix.response()
            text = reply.content or ""
            assert reply.ephemeral and "went wrong" not in text, (what, text)
            assert any(e.lower() in text.lower() for e in expected.split("|")), (what, text)
        assert (await bot.host.match(match_id)).version == v
