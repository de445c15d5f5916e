"""/replay: step through a match move by move, privately. Each step shows the board as it stood after that
move (the public board of the time, never today's, or for a seated player their own view of that time)
and what the move said, in the reader's language. The buttons carry the match, the move and the view, so
they keep working after a restart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import bot_of, chosen, scope_of
from cogs._exports import Exports
from cogs._lang import reader_locale
from cogs._marks import DiscordMarks
from cogs._reply import reply
from cogs.lobby import thread_id_of
from engine.core.errors import CorruptRecord
from engine.host.controls import Pressed
from engine.host.exports import Answer
from engine.host.history import kept_log, unreadable
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.replay_steps import LATEST, jump_target, viewer_seat
from engine.host.replays import animation_text, step_message

if TYPE_CHECKING:
    from cogs._bot import Bot


async def step(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """A step of the replay (first, previous, next, last), or the switch between the public board and
    the player's own view."""
    own = pressed.part("own") == "o"
    await show_move(interaction, pressed.number("match_id"), pressed.number("move"), own, edit=True)


async def jump(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Jumps to the end of a turn or to a scoring."""
    target = jump_target((chosen(interaction) or [""])[0])
    await show_move(interaction, pressed.number("match_id"), target, pressed.part("own") == "o", edit=True)


async def show_move(
    interaction: discord.Interaction[Any], match_id: int, move: int, own: bool, edit: bool = False
) -> None:
    """Answer privately (or, from a button, in place) with the board after ``move`` and its steps."""
    bot = bot_of(interaction)
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    locale = await reader_locale(interaction)
    match = await bot.host.match(match_id, scope_of(interaction))
    viewer = viewer_seat(match, interaction.user.id, own)
    kept = await kept_log(bot.host, match)
    try:
        shown = await bot.renderer.replay_step(match, kept, move, viewer, locale)
    except CorruptRecord as exc:
        raise unreadable(match, exc) from None
    message = step_message(bot.host, match, interaction.user.id, shown, own, locale, DiscordMarks(bot))
    await reply(interaction, message, edit=edit)


async def send_animation(interaction: discord.Interaction[Any], match: MatchRecord) -> None:
    """Answer privately with the animation of ``match`` so far: the public board after every move, once
    its turn in the line of exports comes (see ``cogs._exports``)."""
    bot = bot_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = await reader_locale(interaction)

    async def answer() -> Answer:
        animation = await bot.animator.of(match)
        text = animation_text(bot.host, match, animation.shows.value, locale)
        return Answer(text, animation.gif, f"match-{match.id}.gif")

    await exports_of(bot).ask_for(interaction, locale, answer)


def exports_of(bot: Bot) -> Exports:
    """The bot's line of exports, kept by the replay cog."""
    # The cog is found by name, not by its class: loading the extension imports this module afresh, with a
    # class of its own.
    exports = getattr(bot.get_cog("Replay"), "exports", None)
    if not isinstance(exports, Exports):
        raise RuntimeError("the replay cog is not loaded")
    return exports


class Replay(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.exports = Exports(bot)

    async def cog_unload(self) -> None:
        await self.exports.stop()

    @app_commands.command(name="replay", description="Step through a match move by move, privately")
    @app_commands.describe(
        match="The match number (default: this thread's match)",
        move="The move to show (0: the opening; default: the latest)",
        export="Send the animation of the whole match so far instead, to save or share",
    )
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        match: int | None = None,
        move: int | None = None,
        export: bool = False,
    ) -> None:
        record = await self.bot.host.find_match(
            scope_of(interaction), match, thread_id_of(interaction), list(MatchStatus)
        )
        if export:
            await send_animation(interaction, record)
        else:
            await show_move(interaction, record.id, LATEST if move is None else max(0, move), own=False)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Replay(bot))
