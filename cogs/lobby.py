"""/game: create a match (with its own thread), join, leave, start, list, status, abandon."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import display_name, is_organiser, scope_of
from cogs._lang import reader_locale, recipient_locale
from cogs._lobby_ui import lobby_message
from cogs._marks import DiscordMarks
from cogs._move_menu import take_back
from cogs._reply import reply
from cogs._seat_offer import offer_seat, seat_suggestions
from engine.core.options import parse_options
from engine.host import controls, extensions, queue_words
from engine.host import lobby_words as words
from engine.host.clock import DEFAULT_PACE, Pace
from engine.host.lobby_words import LEVEL_WORDS, PACE_WORDS
from engine.host.outgoing import Outgoing
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.private import seat_names
from engine.host.queue_words import PEOPLE_ONLY, PEOPLE_ONLY_VALUE
from engine.host.while_away import welcome_text
from engine.registry import GAMES
from lang.says import Namer, render

if TYPE_CHECKING:
    from cogs._bot import Bot

# Titles alone (each tells its game apart), so Discord can show them translated.
GAME_CHOICES = [app_commands.Choice(name=rules.title, value=slug) for slug, rules in sorted(GAMES.items())]
CLOCK_CHOICES = [app_commands.Choice(name=PACE_WORDS[pace], value=pace.value) for pace in Pace]
LEVEL_CHOICES = [
    app_commands.Choice(name=choice, value=policy) for policy, (_, choice) in LEVEL_WORDS.items()
]
FIND_LEVEL_CHOICES = [*LEVEL_CHOICES, app_commands.Choice(name=PEOPLE_ONLY, value=PEOPLE_ONLY_VALUE)]


def thread_id_of(interaction: discord.Interaction[Any]) -> int | None:
    channel = interaction.channel
    return channel.id if isinstance(channel, discord.Thread) else None


async def options_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Suggests option ids of the chosen game, completing the last item of a comma-separated list."""
    game = getattr(interaction.namespace, "game", None)
    bot: Bot = interaction.client  # type: ignore[assignment]
    suggested = words.option_suggestions(bot.host, game, current, await reader_locale(interaction))
    return [app_commands.Choice(name=name, value=value) for name, value in suggested]


class Lobby(commands.GroupCog, group_name="game", group_description="Create, join and manage matches"):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.marks = DiscordMarks(bot)

    @app_commands.command(name="new", description="Open a new match in its own thread")
    @app_commands.describe(
        game="Which game",
        players="How many seats",
        options="Comma-separated option ids (see /rules)",
        computers="How many seats computer players take",
        level="How computer players play",
        clock="How long each player has per move (default: relaxed, 3 days)",
        reliable="The least share of turns, in %, the others must have played in time (default: any)",
    )
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES, clock=CLOCK_CHOICES)
    @app_commands.autocomplete(options=options_autocomplete)
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        players: app_commands.Range[int, 2, 6],
        options: str = "",
        computers: app_commands.Range[int, 0, 5] = 0,
        level: str = "greedy",
        clock: str = DEFAULT_PACE.value,
        reliable: app_commands.Range[int, 0, 100] = 0,
    ) -> None:
        words.require_a_free_seat(players, computers)
        await interaction.response.defer(ephemeral=True, thinking=True)
        host = self.bot.host
        creator = Player(user_id=interaction.user.id, name=display_name(interaction.user))
        channel = interaction.channel
        parent = channel.parent if isinstance(channel, discord.Thread) else channel
        match = await words.open_match(
            host,
            game,
            players,
            parse_options(options),
            creator,
            guild_id=interaction.guild_id,
            channel_id=parent.id if parent else None,
            pace=Pace(clock),
            computers=computers,
            level=level,
            least_reliability=reliable / 100,
        )
        if isinstance(parent, discord.TextChannel):
            # The match's thread, joined by its creator (see ``engine.host.threads``).
            thread = await self.bot.notifier.threads.place_of(match)
            assert thread is not None
            public = await recipient_locale(self.bot, None, match.guild_id)
            lobby = lobby_message(self.bot, await host.match(match.id), public)
            await self.bot.get_partial_messageable(thread).send(**lobby)
            await reply(interaction, words.opened(match.id, self.marks.thread(thread)))
        else:
            await interaction.followup.send(
                **lobby_message(self.bot, match, await reader_locale(interaction))
            )

    @app_commands.command(
        name="find", description="Wait for a game: you are seated as soon as others suit you"
    )
    @app_commands.describe(
        game="Which game (leave it out to see where you wait)",
        players="How many seats (default: any the game allows)",
        clock="How long each player has per move (default: daily, 24 hours)",
        level="Computer players that fill your table after the wait (default: normal)",
        wait="Hours before computer players fill your table (default: 24)",
        reliable="The least share of turns, in %, the others must have played in time (default: any)",
    )
    @app_commands.choices(game=GAME_CHOICES, level=FIND_LEVEL_CHOICES, clock=CLOCK_CHOICES)
    @app_commands.guild_only()
    async def find(
        self,
        interaction: discord.Interaction[Any],
        game: str | None = None,
        players: app_commands.Range[int, 2, 6] | None = None,
        clock: str = Pace.DAILY.value,
        level: str = "greedy",
        wait: app_commands.Range[int, 1, 168] = 24,
        reliable: app_commands.Range[int, 0, 100] = 0,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await reader_locale(interaction)
        host, desk, guild_id = self.bot.host, self.bot.queue_desk, interaction.guild_id or 0
        if game is None:
            queues = await desk.queues_of(guild_id, interaction.user.id)
            await reply(interaction, queue_words.waiting_reply(host, queues, locale, self.marks))
            return
        channel = interaction.channel
        parent = channel.parent if isinstance(channel, discord.Thread) else channel
        found = await desk.find(
            guild_id,
            parent.id if parent else None,
            Player(user_id=interaction.user.id, name=display_name(interaction.user)),
            game,
            players,
            Pace(clock),
            None if level == PEOPLE_ONLY_VALUE else level,
            timedelta(hours=wait),
            reliable / 100,
        )
        if found.seated is None:
            queues = [found.waiting] if found.waiting is not None else []
            await reply(interaction, queue_words.waiting_reply(host, queues, locale, self.marks))
            return
        self.bot.background.kick()  # the match's first post calls its players into its thread
        thread = await self.bot.notifier.threads.place_of(found.seated)
        place = self.marks.thread(thread) if thread is not None else None
        await reply(interaction, queue_words.seated(host, found.seated, interaction.user.id, place, locale))

    @app_commands.command(name="avoid", description="Keep /game find from seating you with someone")
    @app_commands.describe(player="Who to put on your list, or take off it (leave it out to see the list)")
    @app_commands.guild_only()
    async def avoid(self, interaction: discord.Interaction[Any], player: discord.User | None = None) -> None:
        locale = await reader_locale(interaction)
        desk, me = self.bot.queue_desk, interaction.user.id
        if player is None:
            said = queue_words.avoid_list(await desk.avoided(me), locale, self.marks)
        else:
            change = await desk.avoid(me, player.id, player.bot)
            said = queue_words.avoid_said(change, locale, self.marks)
        await reply(interaction, said)

    @app_commands.command(name="join", description="Take a seat in a match that has not started")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def join(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        player = Player(user_id=interaction.user.id, name=display_name(interaction.user))
        record = await self.bot.host.join(record.id, player, scope)
        locale = await reader_locale(interaction)
        await interaction.response.send_message(**lobby_message(self.bot, record, locale))

    @app_commands.command(name="leave", description="Give up your seat before the match starts")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def leave(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        record = await self.bot.host.leave(record.id, interaction.user.id, scope)
        locale = await reader_locale(interaction)
        await interaction.response.send_message(**lobby_message(self.bot, record, locale))

    @app_commands.command(name="start", description="Start your match once every seat is taken")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def start(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.host.start(record.id, by_user=interaction.user.id, scope=scope)
        self.bot.kick_outbox()
        await reply(interaction, words.started(record.id))

    @app_commands.command(name="list", description="Open matches on this server")
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        locale = await reader_locale(interaction)
        await reply(
            interaction, await words.open_list(self.bot.host, scope_of(interaction), locale, self.marks)
        )

    @app_commands.command(name="history", description="Finished matches on this server, newest first")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        locale = await reader_locale(interaction)

        def namer(match: MatchRecord) -> Namer:
            return seat_names(self.bot.host, match, self.marks)

        await reply(
            interaction,
            await words.history_list(self.bot.host, scope_of(interaction), locale, self.marks, namer),
        )

    @app_commands.command(name="status", description="Who plays, whose turn it is, and the score when over")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def status(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        record = await self.bot.host.find_match(
            scope_of(interaction), match, thread_id_of(interaction), statuses=list(MatchStatus)
        )
        locale = await reader_locale(interaction)
        await reply(interaction, await words.status_text(self.bot.host, record, locale, self.marks))

    @app_commands.command(name="resign", description="Give up your seat to a computer and be rated last")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def resign(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        record = await self.bot.host.find_match(scope_of(interaction), match, thread_id_of(interaction))
        locale = await reader_locale(interaction)
        question = render(locale, words.resign_question(record, interaction.user.id))
        await reply(interaction, Outgoing(question, controls.resign(record.id, locale)))

    @app_commands.command(name="return", description="Take back your seat from the computer that kept it")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def return_(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        record = await self.bot.host.back(record.id, interaction.user.id, scope)
        self.bot.kick_outbox()
        away = await self.bot.host.offers.since_away(record, interaction.user.id)
        locale = await reader_locale(interaction)
        name = self.bot.host.namer(record)
        await reply(interaction, welcome_text(locale, words.welcome_back(record.id), away, name))

    @app_commands.command(
        name="replace", description="Offer a seat a computer holds to a new player (creator or admin)"
    )
    @app_commands.describe(
        seat="The seat a computer holds since its player left",
        match="The match number (default: this thread's match)",
    )
    @app_commands.guild_only()
    async def replace(
        self, interaction: discord.Interaction[Any], seat: str, match: int | None = None
    ) -> None:
        await offer_seat(interaction, seat, match, thread_id_of(interaction))

    @replace.autocomplete("seat")
    async def replace_seats(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await seat_suggestions(interaction, current, thread_id_of(interaction))

    @app_commands.command(name="extend", description="Add 24 hours to your turn, once per match")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def extend(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        done = await extensions.extend(self.bot.host, record.id, interaction.user.id, scope)
        self.bot.kick_outbox()
        locale = await reader_locale(interaction)
        await reply(interaction, extensions.extended_text(locale, done, self.marks))

    @app_commands.command(name="undo", description="Take back your last move, while nobody else has moved")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def undo(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        record = await self.bot.host.find_match(scope_of(interaction), match, thread_id_of(interaction))
        await take_back(interaction, record.id, None)

    @app_commands.command(name="abandon", description="End a match for good (its creator or a server admin)")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def abandon(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        if match is None:
            match = (await self.bot.host.find_match(scope, None, thread_id_of(interaction))).id
        locale = await reader_locale(interaction)
        asked = await words.abandon_question(
            self.bot.host, match, scope, lambda: is_organiser(interaction), locale
        )
        await reply(
            interaction, Outgoing(asked.text, controls.abandon(asked.match.id, asked.match.version, locale))
        )


async def setup(bot: Bot) -> None:
    await bot.add_cog(Lobby(bot))
