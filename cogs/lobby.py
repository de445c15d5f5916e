"""/game: create a match (with its own thread), join, leave, start, list, status, abandon."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from cogs._clocks import clock_notes
from cogs._components import display_name, is_organiser, scope_of
from cogs._final_ui import AbandonButton, ResignButton
from cogs._lang import reader_locale, recipient_locale
from cogs._lobby_ui import (
    LEVEL_WORDS,
    PACE_WORDS,
    STATUS_WORDS,
    game_title,
    levels_of,
    lobby_text,
    lobby_view,
)
from cogs._move_menu import take_back
from engine.core.errors import CorruptRecord, LobbyError, NotSeated
from engine.core.options import parse_options
from engine.host.clock import DEFAULT_PACE, Pace
from engine.host.ports import MatchStatus, Player
from engine.host.posts import duration
from engine.host.text import HOST, standings_lines, winners_line
from engine.registry import GAMES, PRESENTATIONS
from lang import join, t, tn
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot

# Titles alone (each tells its game apart), so Discord can show them translated.
GAME_CHOICES = [app_commands.Choice(name=rules.title, value=slug) for slug, rules in sorted(GAMES.items())]
CLOCK_CHOICES = [app_commands.Choice(name=PACE_WORDS[pace], value=pace.value) for pace in Pace]
LEVEL_CHOICES = [
    app_commands.Choice(name=choice, value=policy) for policy, (_, choice) in LEVEL_WORDS.items()
]


def thread_id_of(interaction: discord.Interaction[Any]) -> int | None:
    channel = interaction.channel
    return channel.id if isinstance(channel, discord.Thread) else None


async def options_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Suggests option ids of the chosen game, completing the last item of a comma-separated list."""
    slug = getattr(interaction.namespace, "game", None)
    rules = GAMES.get(slug or "")
    if rules is None:
        return []
    presentation = PRESENTATIONS[rules.name]
    done, _, last = current.rpartition(",")
    head = f"{done}," if done else ""
    locale = await reader_locale(interaction)

    def about(option: str) -> str:
        said = presentation.option_says.get(option)
        return render(locale, said) if said else rules.options[option]

    return [
        app_commands.Choice(name=f"{head}{option} — {about(option)}"[:100], value=f"{head}{option}"[:100])
        for option in rules.options
        if option.startswith(last.strip().lower())
    ][:25]


def unreadable_lines(locale: str, match_ids: list[int]) -> list[str]:
    """A listing's line for each match that cannot be read: named, never hidden, so an admin knows what
    to abandon."""
    return [
        t(locale, "#{number} cannot be read; an admin can abandon it with `/game abandon`", number=n)
        for n in match_ids
    ]


# /game history shows this many finished matches, the last to end first.
HISTORY_SHOWN = 15


class Lobby(commands.GroupCog, group_name="game", group_description="Create, join and manage matches"):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description="Open a new match in its own thread")
    @app_commands.describe(
        game="Which game",
        players="How many seats",
        options="Comma-separated option ids (see /rules)",
        computers="How many seats computer players take",
        level="How computer players play",
        clock="How long each player has per move (default: relaxed, 3 days)",
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
    ) -> None:
        if computers >= players:
            raise LobbyError(
                HOST.say_n(
                    "{count} computer player leaves no seat for you in a {seats}-seat match",
                    "{count} computer players leave no seat for you in a {seats}-seat match",
                    computers,
                    seats=players,
                )
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        host = self.bot.host
        creator = Player(user_id=interaction.user.id, name=display_name(interaction.user))
        channel = interaction.channel
        parent = channel.parent if isinstance(channel, discord.Thread) else channel
        match = await host.create_match(
            game,
            players,
            parse_options(options),
            creator=creator,
            guild_id=interaction.guild_id,
            channel_id=parent.id if parent else None,
            pace=Pace(clock),
        )
        for _ in range(computers):
            match = await host.add_computer(match.id, level)
        title = host.rules(match.game).title
        if isinstance(parent, discord.TextChannel):
            thread = await parent.create_thread(
                name=f"{title} #{match.id}",
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
            await self.bot.posts.set_thread(match.id, thread.id)
            match = await host.match(match.id)
            await thread.add_user(interaction.user)
            public = await recipient_locale(self.bot, None, match.guild_id)
            await thread.send(
                lobby_text(self.bot, match, public),
                view=lobby_view(match, public, levels_of(self.bot.host, match.game)),
            )
            locale = await reader_locale(interaction)
            opened = t(locale, "Match #{number} is open in {thread}.", number=match.id, thread=thread.mention)
            await interaction.followup.send(opened, ephemeral=True)
        else:
            locale = await reader_locale(interaction)
            await interaction.followup.send(
                lobby_text(self.bot, match, locale),
                view=lobby_view(match, locale, levels_of(self.bot.host, match.game)),
            )

    @app_commands.command(name="join", description="Take a seat in a match that has not started")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def join(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        player = Player(user_id=interaction.user.id, name=display_name(interaction.user))
        record = await self.bot.host.join(record.id, player, scope)
        locale = await reader_locale(interaction)
        await interaction.response.send_message(
            lobby_text(self.bot, record, locale),
            view=lobby_view(record, locale, levels_of(self.bot.host, record.game)),
        )

    @app_commands.command(name="leave", description="Give up your seat before the match starts")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def leave(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        record = await self.bot.host.leave(record.id, interaction.user.id, scope)
        locale = await reader_locale(interaction)
        await interaction.response.send_message(
            lobby_text(self.bot, record, locale),
            view=lobby_view(record, locale, levels_of(self.bot.host, record.game)),
        )

    @app_commands.command(name="start", description="Start your match once every seat is taken")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def start(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.host.start(record.id, by_user=interaction.user.id, scope=scope)
        self.bot.kick_outbox()
        locale = await reader_locale(interaction)
        await interaction.followup.send(
            t(locale, "Match #{number} has started.", number=record.id), ephemeral=True
        )

    @app_commands.command(name="list", description="Open matches on this server")
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        host = self.bot.host
        scope = scope_of(interaction)
        # A server lists its own matches; direct messages list the user's matches, wherever they are.
        listing = await host.survey(scope, [MatchStatus.LOBBY, MatchStatus.ACTIVE], limit=20)
        locale = await reader_locale(interaction)
        lines = []
        unreadable = sorted(listing.unreadable)
        for m in listing.matches:
            if m.game not in host.games:
                unreadable.append(m.id)
                continue
            where = " " + t(locale, "in {thread}", thread=f"<#{m.thread_id}>") if m.thread_id else ""
            seats = tn(
                locale,
                "{seated}/{count} player",
                "{seated}/{count} players",
                m.seat_count,
                seated=len(m.players),
            )
            status = t(locale, STATUS_WORDS[m.status])
            if m.status is MatchStatus.ACTIVE:
                waited = duration(locale, self.bot.clock() - datetime.fromisoformat(m.updated_at))
                status += " · " + t(locale, "waiting for {time}", time=waited)
            lines.append(f"#{m.id} {game_title(self.bot, m.game, locale)} · {status} · {seats}{where}")
        lines += unreadable_lines(locale, unreadable)
        if not lines:
            await interaction.response.send_message(
                t(locale, "No open matches here. Start one with `/game new`."), ephemeral=True
            )
            return
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(name="history", description="Finished matches on this server, newest first")
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        host = self.bot.host
        scope = scope_of(interaction)
        # As /game list: a server's own matches; in direct messages, the user's matches anywhere.
        listing = await host.survey(scope, limit=HISTORY_SHOWN, finished_by_end=True)
        locale = await reader_locale(interaction)
        finished = listing.matches
        lines = []
        unreadable = sorted(listing.unreadable)
        for m in finished:
            try:
                outcome = host.outcome(m) if m.game in host.games else None
            except ValidationError:
                outcome = None
            if outcome is None:
                unreadable.append(m.id)
                continue
            ended = int(datetime.fromisoformat(m.updated_at).timestamp())
            where = " · " + t(locale, "in {thread}", thread=f"<#{m.thread_id}>") if m.thread_id else ""
            won = winners_line(locale, outcome, self.bot.notifier.namer(m))
            lines.append(f"#{m.id} {game_title(self.bot, m.game, locale)} · <t:{ended}:d> · {won}{where}")
        lines += unreadable_lines(locale, unreadable)
        if not lines:
            await interaction.response.send_message(
                t(locale, "No finished matches here yet."), ephemeral=True
            )
            return
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(name="status", description="Who plays, whose turn it is, and the score when over")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def status(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        host = self.bot.host
        record = await host.find_match(
            scope_of(interaction), match, thread_id_of(interaction), statuses=list(MatchStatus)
        )
        locale = await reader_locale(interaction)
        lines = [lobby_text(self.bot, record, locale)]
        if record.status is MatchStatus.ACTIVE:
            to_act = host.to_act(record)
            name = host.namer(record)
            notes = await clock_notes(self.bot, record, to_act, locale)
            names = [f"{name(s)} · {notes[s]}" if s in notes else name(s) for s in to_act]
            lines.append(t(locale, "Waiting for {players}.", players=join(locale, names)))
        outcome = host.outcome(record)
        if outcome is not None:
            name = host.namer(record)
            lines.append(winners_line(locale, outcome, name))
            lines.extend(standings_lines(locale, record, outcome, name))
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(name="resign", description="Give up your seat to a computer and be rated last")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def resign(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        if record.status is not MatchStatus.ACTIVE:
            raise LobbyError(
                HOST.say("match #{number} is not being played: there is nothing to resign", number=record.id)
            )
        if record.seat_of(interaction.user.id) is None:
            raise NotSeated(HOST.say("you are not playing in match #{number}", number=record.id))
        locale = await reader_locale(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(ResignButton(record.id, locale))
        question = t(
            locale,
            "Resign match #{number}? A computer plays your seat until the end, and the rating counts you "
            "last, behind everyone who played on.",
            number=record.id,
        )
        await interaction.response.send_message(question, view=view, ephemeral=True)

    @app_commands.command(name="return", description="Take back your seat from the computer that kept it")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def return_(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        scope = scope_of(interaction)
        record = await self.bot.host.find_match(scope, match, thread_id_of(interaction))
        record = await self.bot.host.back(record.id, interaction.user.id, scope)
        self.bot.kick_outbox()
        locale = await reader_locale(interaction)
        await interaction.response.send_message(
            t(locale, "Welcome back: your seat in match #{number} is yours again.", number=record.id),
            ephemeral=True,
        )

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
        # The summary works on a match whose row cannot be read too, so an admin can clear it away.
        target = await self.bot.host.summary(match, scope)
        locale = await reader_locale(interaction)
        if target.creator_id != interaction.user.id and not await is_organiser(interaction):
            raise LobbyError(HOST.say("only the match's creator or a server admin can abandon it"))
        unreadable = ""
        try:
            await self.bot.host.match(target.id, scope)
        except CorruptRecord as exc:
            unreadable = f"\n({exc.message})"
        view = discord.ui.View(timeout=None)
        view.add_item(AbandonButton(target.id, target.version, locale))
        await interaction.response.send_message(
            (
                t(locale, "Abandon match #{number} for everyone? This cannot be undone.", number=target.id)
                + unreadable
            )[:2000],
            view=view,
            ephemeral=True,
        )


async def setup(bot: Bot) -> None:
    await bot.add_cog(Lobby(bot))
