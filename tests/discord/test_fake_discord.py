"""Prove the fake Discord with a tiny bot defined here (not the project's cogs).

The bot is a real ``commands.Bot`` on the real discord.py; only the server it talks to is fake.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.discord.fake import BotFailure, FakeDiscord, FakeMessage, NotInvokable
from tests.discord.harness import running_bot

GAMES = ["Chess", "Checkers", "Chinese Checkers", "Go", "Backgammon"]


def board_png(title: str) -> bytes:
    """A small PNG standing in for a rendered board."""
    image = Image.new("RGB", (64, 32), (len(title) * 20 % 256, 80, 160))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"arena:join:(?P<table>[0-9]+)"):
    """A persistent button: its state lives in the custom_id, so no stored view is needed."""

    def __init__(self, table: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"arena:join:{table}"
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"Table {self.table}: {interaction.user.name} joined")


class TableView(discord.ui.View):
    """The table message's controls: the dynamic Join button and a multi-value colour select."""

    def __init__(self, table: int) -> None:
        super().__init__(timeout=None)
        self.add_item(JoinButton(table))

    @discord.ui.select(
        custom_id="arena:colours",
        min_values=1,
        max_values=3,
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
    )
    async def colours(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"You picked {', '.join(select.values)}", ephemeral=True)


class RenameModal(discord.ui.Modal, title="Rename the table"):
    """A one-field modal."""

    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="New name", custom_id="name", max_length=30)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Renamed to {self.name.value}")


class ArenaBot(commands.Bot):
    """The test bot; ``sync_guild`` syncs the tree to one guild instead of globally."""

    def __init__(self, sync_guild: int | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.sync_guild = sync_guild
        self.dm_failures: list[discord.HTTPException] = []
        self.tree.add_command(build_arena())
        self.tree.add_command(ping)
        self.tree.add_command(purge)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        if self.sync_guild is None:
            await self.tree.sync()
        else:
            guild = discord.Object(self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)


@app_commands.command(description="Are you there?")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong")


# Discord applies default_member_permissions to top-level commands only.
@app_commands.command(description="Hidden from non-moderators")
@app_commands.default_permissions(manage_messages=True)
@app_commands.guild_only()
async def purge(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Purged", ephemeral=True)


def build_arena() -> app_commands.Group:
    """``/arena`` with a ``game`` subcommand group and a handful of subcommands."""
    arena = app_commands.Group(name="arena", description="Board game arena", guild_only=True)
    game = app_commands.Group(name="game", description="Games", parent=arena)

    @game.command(name="new", description="Open a table")
    @app_commands.describe(title="Which game", players="How many players")
    async def new(
        interaction: discord.Interaction, title: str, players: app_commands.Range[int, 2, 6] = 2
    ) -> None:
        bot = interaction.client
        assert isinstance(bot, ArenaBot)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.response.send_message(
            f"New game: {title} for {players}", file=discord.File(io.BytesIO(board_png(title)), "board.png")
        )
        thread = await interaction.channel.create_thread(
            name=f"{title} table", type=discord.ChannelType.public_thread
        )
        await thread.add_user(interaction.user)
        await thread.send(f"Welcome {interaction.user.mention}", view=TableView(thread.id))
        try:
            await interaction.user.send(f"Your {title} table is {thread.mention}")
        except discord.Forbidden as error:
            bot.dm_failures.append(error)
            await thread.send(f"{interaction.user.mention}, I could not DM you")

    @new.autocomplete("title")
    async def title_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g, value=g) for g in GAMES if g.lower().startswith(current.lower())]

    @arena.command(name="slow", description="Think, then answer")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send("Slow answer ready")

    @arena.command(name="secret", description="Only you can see this")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Psst {interaction.user.name}", ephemeral=True)

    @arena.command(name="announce", description="Post in this channel")
    async def announce(interaction: discord.Interaction, text: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            await interaction.channel.send(text)
        except discord.HTTPException as error:
            await interaction.response.send_message(f"Failed: {error.status} {error.code}", ephemeral=True)
        else:
            await interaction.response.send_message("Announced", ephemeral=True)

    @arena.command(name="history", description="Summarise recent messages")
    async def history(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        recent = [m.content async for m in interaction.channel.history(limit=10, oldest_first=True)]
        await interaction.response.send_message(f"{len(recent)} messages: {' | '.join(recent)}")

    @arena.command(name="rename", description="Rename the table")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @arena.command(name="reset", description="Admins only")
    @app_commands.checks.has_permissions(administrator=True)
    async def reset(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Table reset")

    @reset.error
    async def reset_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.MissingPermissions):
            await interaction.response.send_message("Admins only", ephemeral=True)

    @arena.command(name="whois", description="Look someone up")
    async def whois(interaction: discord.Interaction, member: discord.Member) -> None:
        assert interaction.guild is not None and interaction.channel_id is not None
        user = await interaction.client.fetch_user(member.id)
        fetched = await interaction.guild.fetch_member(member.id)
        channel = await interaction.client.fetch_channel(interaction.channel_id)
        assert isinstance(channel, discord.TextChannel)
        perms = "admin" if fetched.guild_permissions.administrator else "member"
        await interaction.response.send_message(f"{user.name} / {perms} / #{channel.name}")

    @arena.command(name="discuss", description="Open a thread on a new post")
    async def discuss(interaction: discord.Interaction, topic: str) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.response.defer(ephemeral=True, thinking=True)
        post = await interaction.channel.send(f"Discuss: {topic}")
        thread = await post.create_thread(name=topic)
        await thread.join()
        async with thread.typing():
            await thread.send("Go!")
        await interaction.edit_original_response(content=f"Thread opened: {thread.mention}")

    @arena.command(name="upload", description="Echo a file back reversed")
    async def upload(interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        reversed_file = discord.File(io.BytesIO(data[::-1]), "reversed.bin")
        await interaction.response.send_message(f"{file.filename}: {len(data)} bytes", file=reversed_file)

    @arena.command(name="countdown", description="Edit, follow up, delete")
    async def countdown(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("3")
        await interaction.edit_original_response(content="2")
        original = await interaction.original_response()
        follow = await interaction.followup.send(f"1 (after {original.content})", wait=True)
        await follow.edit(content="Go")
        await interaction.delete_original_response()

    @arena.command(name="fire", description="Fire and forget a failing task")
    async def fire(interaction: discord.Interaction) -> None:
        async def lost() -> None:
            raise ValueError("lost in the background")

        interaction.client.loop.create_task(lost())  # never awaited: only the loop handler sees it
        await interaction.response.send_message("fired")

    @arena.command(name="boom", description="Always fails")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    return arena


@pytest.fixture
async def arena(fake_discord: FakeDiscord) -> AsyncIterator[tuple[FakeDiscord, ArenaBot]]:
    bot = ArenaBot()
    async with running_bot(bot, fake_discord):
        yield fake_discord, bot


async def open_table(fake: FakeDiscord) -> FakeMessage:
    """Run ``/arena game new`` and return the table message the bot posted in the new thread."""
    interaction = await fake.slash("arena game new", {"title": "Chess", "players": 3})
    await interaction.response()
    thread = await fake.wait_for_thread(fake.general, name="Chess table")
    return await fake.wait_for_message(thread, lambda m: m.content.startswith("Welcome"))


async def test_subcommand_group_replies_with_file_creates_thread_and_dms(
    arena: tuple[FakeDiscord, ArenaBot],
) -> None:
    fake, _ = arena
    interaction = await fake.slash("arena game new", {"title": "Chess", "players": 3})

    reply = await interaction.response()
    assert reply.content == "New game: Chess for 3"
    assert not reply.ephemeral and reply in fake.general.messages
    board = reply.attachment("board.png")
    assert Image.open(io.BytesIO(board.data)).size == (64, 32)
    assert board.content_type == "image/png"

    thread = await fake.wait_for_thread(fake.general, name="Chess table")
    assert thread.type == discord.ChannelType.public_thread.value
    assert thread.owner_id == fake.bot_user.id and thread.parent_id == fake.general.id
    welcome = await fake.wait_for_message(thread)
    assert welcome.content == f"Welcome {fake.alice.mention}"
    assert {c["custom_id"] for c in welcome.iter_components() if "custom_id" in c} == {
        f"arena:join:{thread.id}",
        "arena:colours",
    }
    dm = await fake.wait_for_dm(fake.alice)
    assert dm.content == f"Your Chess table is <#{thread.id}>"
    assert fake.alice.id in thread.thread_member_ids
    # Discord's "started a thread" notice follows the reply in the parent channel.
    assert [m.system for m in fake.general.messages] == [False, True]


async def test_dynamic_button_works_after_a_restart(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    async with running_bot(ArenaBot(), fake):
        table = await open_table(fake)

    # A fresh bot has no stored views: only the DynamicItem's custom_id template can route the click.
    async with running_bot(ArenaBot(), fake):
        click = await fake.click(table, table.buttons[0]["custom_id"], user=fake.bob)
        event = await click.callback()
        updated = await click.response()

    assert event.callback_type == 7
    assert updated is table
    assert table.content == f"Table {table.channel.id}: bob joined"
    assert table.revisions[0]["content"].startswith("Welcome")


async def test_select_with_several_values_answers_ephemerally(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    table = await open_table(fake)
    choice = await fake.select(table, "arena:colours", ["red", "blue"], user=fake.bob)
    reply = await choice.response()
    assert reply.content == "You picked red, blue"
    assert reply.ephemeral and reply not in table.channel.messages
    with pytest.raises(NotInvokable):
        await fake.select(table, "arena:colours", ["red", "green", "blue", "pink"])


async def test_ephemeral_reply(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    interaction = await fake.slash("arena secret", user=fake.bob)
    reply = await interaction.response()
    assert (reply.content, reply.ephemeral) == ("Psst bob", True)
    assert fake.general.messages == []


async def test_autocomplete_offers_matching_games(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    interaction = await fake.autocomplete("arena game new", focused="title", value="ch")
    choices = await interaction.choices()
    assert [c["value"] for c in choices] == ["Chess", "Checkers", "Chinese Checkers"]


async def test_deferred_response_filled_by_followup(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    interaction = await fake.slash("arena slow")
    assert (await interaction.callback()).callback_type == 5
    reply = await interaction.response()
    assert reply.content == "Slow answer ready" and not reply.loading
    assert reply is await interaction.followup(0) is interaction.original
    assert fake.general.messages == [reply]


async def test_closed_dms_raise_forbidden_50007_and_fall_back(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, bot = arena
    fake.close_dms(fake.alice)
    table = await open_table(fake)
    notice = await fake.wait_for_message(table.channel, lambda m: "could not DM" in m.content)

    assert notice.content == f"{fake.alice.mention}, I could not DM you"
    assert fake.dm_messages(fake.alice) == []
    [error] = bot.dm_failures
    assert isinstance(error, discord.Forbidden) and (error.status, error.code) == (403, 50007)


async def test_injected_500_is_retried_by_discord_py(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    injection = fake.fail_next(
        "POST", "/channels/{channel_id}/messages", status=500, channel_id=fake.general.id
    )
    interaction = await fake.slash("arena announce", {"text": "Tournament tonight"})
    # discord.py sleeps 1 s before retrying a 500, so allow for it.
    reply = await interaction.response(timeout=3.0)

    assert reply.content == "Announced"
    posts = fake.requests_to("POST", "/channels/{channel_id}/messages")
    assert [p.status for p in posts] == [500, 200] and injection.hits == posts[:1]
    assert [m.content for m in fake.general.messages] == ["Tournament tonight"]


async def test_injected_503_and_oversized_posts_reach_the_bot(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    fake.fail_next("POST", "/channels/{channel_id}/messages", status=503)
    unavailable = await fake.slash("arena announce", {"text": "hello"})
    assert (await unavailable.response()).content == "Failed: 503 0"

    too_long = await fake.slash("arena announce", {"text": "x" * 2001})
    assert (await too_long.response()).content == "Failed: 400 50035"
    assert fake.general.messages == []


async def test_bot_reads_channel_history(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    for text in ("first", "second", "third"):
        await fake.post_as_user(fake.general, text, user=fake.bob)
    interaction = await fake.slash("arena history")
    reply = await interaction.response()
    assert reply.content == "3 messages: first | second | third"
    assert [r.query.get("after") for r in fake.requests_to("GET", "/channels/{channel_id}/messages")] == ["0"]


async def test_modal_round_trip(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    opened = await fake.slash("arena rename")
    modal = await opened.modal()
    assert modal.title == "Rename the table" and [i["custom_id"] for i in modal.inputs] == ["name"]
    submitted = await fake.submit_modal(opened, {"name": "High Rollers"})
    assert (await submitted.response()).content == "Renamed to High Rollers"


async def test_permissions_for_admins_and_members(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    assert (await (await fake.slash("arena reset", user=fake.admin)).response()).content == "Table reset"
    refused = await (await fake.slash("arena reset", user=fake.alice)).response()
    assert (refused.content, refused.ephemeral) == ("Admins only", True)

    # default_member_permissions hides /purge from members, so Discord never delivers it.
    with pytest.raises(NotInvokable, match="default_member_permissions"):
        await fake.slash("purge", user=fake.alice)
    assert (await (await fake.slash("purge", user=fake.admin)).response()).content == "Purged"


async def test_dm_context_and_guild_only_commands(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    interaction = await fake.slash("ping", guild=False, user=fake.bob)
    reply = await interaction.response()
    assert reply.content == "pong" and reply.channel is fake.dm_channel(fake.bob)
    with pytest.raises(NotInvokable, match="not available in DMs"):
        await fake.slash("arena secret", guild=False)


async def test_guild_scoped_sync_routes_by_guild_id(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    bot = ArenaBot(sync_guild=fake.guild.id)
    async with running_bot(bot, fake):
        assert None not in fake.commands and {c["name"] for c in fake.commands[fake.guild.id]} == {
            "arena",
            "ping",
            "purge",
        }
        interaction = await fake.slash("ping")
        assert interaction.data["guild_id"] == str(fake.guild.id)
        assert (await interaction.response()).content == "pong"
        fetched = await bot.tree.fetch_commands(guild=discord.Object(fake.guild.id))
        assert sorted(c.name for c in fetched) == ["arena", "ping", "purge"]


async def test_harness_fails_fast_on_command_errors(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    with pytest.raises(BotFailure, match="kaboom"):
        async with running_bot(ArenaBot(), fake):
            interaction = await fake.slash("arena boom")
            await interaction.response(timeout=3.0)
    assert fake.requests_to("POST", "/interactions/{interaction_id}/{token}/callback") == []


async def test_fetch_user_member_and_channel(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    reply = await (await fake.slash("arena whois", {"member": fake.admin})).response()
    assert reply.content == "admin / admin / #general"
    reply = await (await fake.slash("arena whois", {"member": fake.bob})).response()
    assert reply.content == "bob / member / #general"


async def test_thread_from_message_join_typing_and_deferred_edit(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    interaction = await fake.slash("arena discuss", {"topic": "Openings"})
    reply = await interaction.response()

    post = await fake.wait_for_message(fake.general, lambda m: m.content == "Discuss: Openings")
    thread = await fake.wait_for_thread(fake.general, name="Openings")
    assert thread.id == post.id and post.thread is thread  # a message's thread shares its id
    assert reply.content == f"Thread opened: {thread.mention}" and reply.ephemeral
    assert [m.content for m in thread.messages] == ["Go!"]
    await fake.wait_for(
        lambda r: r.route == "/channels/{channel_id}/typing" and r.param("channel_id") == thread.id
    )
    assert (
        fake.requests_to("PUT", "/channels/{channel_id}/thread-members/{user_id}")[0].params["user_id"]
        == "@me"
    )


async def test_attachment_option_is_downloadable(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    interaction = await fake.slash("arena upload", {"file": ("moves.txt", b"e4 e5 Nf3")})
    reply = await interaction.response()
    assert reply.content == "moves.txt: 9 bytes"
    assert reply.attachment("reversed.bin").data == b"3fN 5e 4e"


async def test_edit_followup_and_delete_original(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    interaction = await fake.slash("arena countdown")
    follow = await interaction.followup(0)
    await interaction.wait_until(lambda ix: [e.kind for e in ix.events][-1] == "delete", what="the delete")

    original = interaction.original
    assert original is not None and original.deleted
    assert [r["content"] for r in original.revisions] == ["3"] and original.content == "2"
    assert follow.content == "Go" and [r["content"] for r in follow.revisions] == ["1 (after 2)"]
    assert fake.general.messages == [follow] and fake.general.deleted_messages == [original]


async def test_rate_limit_429_is_retried(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    fake.fail_next("POST", "/channels/{channel_id}/messages", status=429, retry_after=0.01)
    reply = await (await fake.slash("arena announce", {"text": "again"})).response()
    assert reply.content == "Announced"
    assert [p.status for p in fake.requests_to("POST", "/channels/{channel_id}/messages")] == [429, 200]


async def test_harness_reports_a_crashed_command_tree_task(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    with pytest.raises(BotFailure, match="CommandTree-invoker"):
        async with running_bot(ArenaBot(), fake):
            # An option without "value" crashes discord.py outside any error handler.
            data = {
                "id": fake.commands[None][0]["id"],
                "name": "arena",
                "type": 1,
                "options": [{"name": "announce", "type": 1, "options": [{"name": "text", "type": 3}]}],
            }
            interaction = await fake.inject_interaction(2, fake.alice, fake.general, data)
            await interaction.response(timeout=3.0)


async def test_harness_reports_a_dead_connect_task(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    with pytest.raises(BotFailure, match="connect task died"):
        async with running_bot(ArenaBot(), fake):
            # discord.py does not catch a KeyError while parsing a gateway event: the connection dies.
            await fake.dispatch("INTERACTION_CREATE", {})
            await fake.wait_until(lambda: None, timeout=3.0, what="the failure")


async def test_gateway_reconnect_resumes_the_session(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, _ = arena
    await fake.reconnect_clients()
    await fake.wait_until(lambda: fake.resume_payloads and fake.connected, what="a RESUME")
    assert fake.resume_payloads[0]["session_id"].startswith("fake-session-")
    assert len(fake.identify_payloads) == 1
    assert (await (await fake.slash("arena secret")).response()).content == "Psst alice"


async def test_harness_reports_unretrieved_task_exceptions(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    with pytest.raises(BotFailure, match="Task exception was never retrieved"):
        async with running_bot(ArenaBot(), fake):
            await (await fake.slash("arena fire")).response()
            await fake.wait_until(lambda: None, timeout=3.0, what="the failure")


async def test_a_deleted_thread_or_channel_answers_404_and_leaves_the_cache(
    arena: tuple[FakeDiscord, ArenaBot],
) -> None:
    fake, bot = arena
    parent = bot.get_channel(fake.games.id)
    assert isinstance(parent, discord.TextChannel)
    thread = await parent.create_thread(name="table", type=discord.ChannelType.public_thread)
    await thread.send("before")
    await fake.delete_channel(fake.threads(fake.games)[0])
    await fake.wait_until(lambda: bot.get_channel(thread.id) is None or None)
    with pytest.raises(discord.NotFound) as gone:
        await thread.send("after")
    assert gone.value.code == 10003
    await fake.delete_channel(fake.games)
    await fake.wait_until(lambda: bot.get_channel(fake.games.id) is None or None)
    with pytest.raises(discord.NotFound):
        await bot.fetch_channel(fake.games.id)


async def test_denied_permissions_answer_403_and_show_in_the_bots_permissions(
    arena: tuple[FakeDiscord, ArenaBot],
) -> None:
    fake, bot = arena
    channel = bot.get_channel(fake.games.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="table", type=discord.ChannelType.public_thread)
    await fake.deny_bot(fake.games, discord.Permissions(send_messages=True))
    await fake.wait_until(lambda: not channel.permissions_for(channel.guild.me).send_messages or None)
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("hello")
    assert (refused.value.status, refused.value.code) == (403, 50013)
    await thread.send("threads need Send Messages in Threads, which is still allowed")
    await fake.deny_bot(fake.games, discord.Permissions(view_channel=True))
    with pytest.raises(discord.Forbidden) as hidden:
        await thread.send("now the whole channel is hidden")
    assert hidden.value.code == 50001


async def test_a_repeated_nonce_returns_the_first_message(arena: tuple[FakeDiscord, ArenaBot]) -> None:
    fake, bot = arena
    channel = bot.get_channel(fake.games.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("once", nonce="delivery-7")
    again = await channel.send("once", nonce="delivery-7")
    other = await channel.send("twice", nonce="delivery-8")
    assert again.id == first.id != other.id
    assert [m.content for m in fake.games.messages] == ["once", "twice"]
    await first.delete()
    with pytest.raises(discord.NotFound):
        await channel.send("once", nonce="delivery-7")


async def test_each_shard_hears_only_the_servers_discord_puts_on_it(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    while {(g.id >> 22) % 2 for g in fake.guilds} != {0, 1}:
        fake.add_guild(f"Guild {len(fake.guilds)}", owner=fake.owner)
    on_shard = {s: {g.id for g in fake.guilds if (g.id >> 22) % 2 == s} for s in (0, 1)}
    heard: dict[int, list[int | None]] = {0: [], 1: []}
    both_heard = asyncio.Event()
    clients, connections = [], []
    for shard in (0, 1):
        client = discord.AutoShardedClient(
            intents=discord.Intents.default(), shard_ids=[shard], shard_count=2
        )

        async def on_interaction(interaction: discord.Interaction, shard: int = shard) -> None:
            heard[shard].append(interaction.guild_id)
            if len(heard[0]) + len(heard[1]) == 2:
                both_heard.set()

        client.event(on_interaction)
        client._connection.guild_ready_timeout = 0.01  # as running_bot does: no 2 s wait for guilds
        await client.login(fake.token)
        connections.append(asyncio.create_task(client.connect(reconnect=False)))
        clients.append(client)
    try:
        for client in clients:
            await asyncio.wait_for(client.wait_until_ready(), timeout=5)
        # READY and GUILD_CREATE name only the shard's own servers.
        assert [{g.id for g in c.guilds} for c in clients] == [on_shard[0], on_shard[1]]
        second = next(g for g in fake.guilds if g.id in on_shard[1])
        await fake.inject_interaction(2, fake.owner, second.text_channels[0], {"name": "x", "type": 1})
        await fake.inject_interaction(2, fake.alice, fake.dm_channel(fake.alice), {"name": "x", "type": 1})
        await asyncio.wait_for(both_heard.wait(), timeout=5)
        assert heard == {0: [None], 1: [second.id]}  # direct messages are shard 0's
    finally:
        for client in clients:
            await client.close()
        await asyncio.wait(connections, timeout=5)


async def test_followups_after_fifteen_minutes_get_invalid_webhook_token(
    arena: tuple[FakeDiscord, ArenaBot],
) -> None:
    fake, _ = arena
    ahead = 0.0
    fake.clock = lambda: time.monotonic() + ahead
    interaction = await fake.slash("arena slow")
    await interaction.response()
    async with aiohttp.ClientSession() as session:
        webhook = discord.Webhook.partial(fake.application_id, interaction.token, session=session)
        ahead = 14 * 60.0  # still within Discord's fifteen minutes
        await webhook.send("still in time")
        ahead = 15 * 60.0 + 1
        with pytest.raises(discord.HTTPException) as refused:
            await webhook.send("too late")
    assert refused.value.status == 401 and refused.value.code == 50027
    assert [m.content for m in interaction.followups] == ["Slow answer ready", "still in time"]
