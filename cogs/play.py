"""Playing: /move with autocomplete of the legal notations, /board, /hand, /log and /rules."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import scope_of
from cogs._lang import reader_locale
from cogs._move_menu import play_notation, send_move_menu
from cogs._post_buttons import send_hand
from cogs._reply import reply
from cogs.lobby import GAME_CHOICES, thread_id_of
from engine.host.outgoing import Outgoing
from engine.host.ports import MatchStatus
from engine.host.replies import NOTHING_YET, log_heading, rules_reply
from engine.host.typed import CHOICE_LIMIT, offer_moves, read_offered
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot


class Play(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def move_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The user's legal notations containing what they typed so far (at most 25), each carrying
        the version of the board it was offered for."""
        host = self.bot.host
        number = getattr(interaction.namespace, "match", None)
        try:
            match = await host.find_match(
                scope_of(interaction), number if isinstance(number, int) else None, thread_id_of(interaction)
            )
            locale = await reader_locale(interaction)
            offer = await offer_moves(host, match, interaction.user.id, current, locale)
            if offer.refusal is not None:
                # One entry that says why there is nothing to offer (choosing it gets the same answer).
                waiting = render(locale, offer.refusal, offer.name or host.namer(match))
                return [app_commands.Choice(name=waiting[:CHOICE_LIMIT], value="wait")]
        except Exception:
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in offer.choices]

    @app_commands.command(name="move", description="Play a move by typing its words, or open the move menu")
    @app_commands.describe(
        notation="Start typing and pick your move from the list (leave empty for the menu)"
    )
    @app_commands.autocomplete(notation=move_autocomplete)
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def move(
        self, interaction: discord.Interaction[Any], notation: str = "", match: int | None = None
    ) -> None:
        # The board as this command arrives is the one the user saw, unless autocomplete says otherwise.
        record = await self.bot.host.find_match(scope_of(interaction), match, thread_id_of(interaction))
        typed = read_offered(notation)
        if isinstance(typed.move, int):
            await play_notation(interaction, record.id, typed.move, typed.bound)
            return
        if not typed.move.strip():
            await send_move_menu(interaction, record.id, None)
            return
        seen = record.version if typed.seen is None else min(typed.seen, record.version)
        await play_notation(interaction, record.id, typed.move, None, seen_version=seen)

    @app_commands.command(name="board", description="Show the current board")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def board(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        host = self.bot.host
        record = await host.find_match(
            scope_of(interaction), match, thread_id_of(interaction), list(MatchStatus)
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = await reader_locale(interaction)
        table = await host.table(record, interaction.user.id)
        png = await self.bot.notifier.draw(record, record.version, None, locale)
        active = record.status is MatchStatus.ACTIVE
        shown = await self.bot.web_links.board(record, record.version, locale) if active else ()
        await reply(interaction, Outgoing(render(locale, table.board_caption, table.name), shown, png))

    @app_commands.command(name="hand", description="See your hand and options, privately")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def hand(self, interaction: discord.Interaction[Any], match: int | None = None) -> None:
        # The fallback when direct messages are closed.
        record = await self.bot.host.find_match(scope_of(interaction), match, thread_id_of(interaction))
        await send_hand(interaction, record.id)

    @app_commands.command(name="log", description="The recent history of a match")
    @app_commands.describe(lines="How many lines (default 20)")
    @app_commands.describe(match="The match number (default: this thread's match)")
    async def log(
        self,
        interaction: discord.Interaction[Any],
        match: int | None = None,
        lines: app_commands.Range[int, 1, 200] = 20,
    ) -> None:
        host = self.bot.host
        record = await host.find_match(
            scope_of(interaction), match, thread_id_of(interaction), list(MatchStatus)
        )
        locale = await reader_locale(interaction)
        history = await host.public_log(record, lines, locale)
        text = "\n".join(history) or render(locale, NOTHING_YET)
        if len(text) > 1900:
            await interaction.response.send_message(
                render(locale, log_heading(record.id, len(history), as_file=True)),
                file=discord.File(io.BytesIO(text.encode()), filename=f"match-{record.id}-log.txt"),
                ephemeral=True,
            )
            return
        heading = render(locale, log_heading(record.id, len(history), as_file=False))
        await interaction.response.send_message(f"{heading}\n{text}", ephemeral=True)

    @app_commands.command(name="rules", description="A short summary of a game and its options")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.describe(game="Which game (default: this thread's)")
    async def rules(self, interaction: discord.Interaction[Any], game: str | None = None) -> None:
        in_play: frozenset[str] = frozenset()
        if game is None:
            record = await self.bot.host.find_match(
                scope_of(interaction), None, thread_id_of(interaction), list(MatchStatus)
            )
            game, in_play = record.game, record.options
        locale = await reader_locale(interaction)
        text = rules_reply(self.bot.host, game, locale, in_play)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Play(bot))
