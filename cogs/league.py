"""/league: the New York Series of the server, as the host keeps it (``engine.host.league_desk``) and
words it (``engine.host.league_words``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import is_admin
from cogs._lang import reader_locale
from cogs._marks import DiscordMarks
from cogs._reply import reply
from engine.host import league_words as words
from engine.host.league_desk import Counted

if TYPE_CHECKING:
    from cogs._bot import Bot

COUNTED_CHOICES = [app_commands.Choice(name=words.COUNTED_WORDS[c], value=c.value) for c in Counted]


class League(commands.GroupCog, group_name="league", group_description="The New York Series of this server"):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.marks = DiscordMarks(bot)

    @app_commands.command(name="table", description="The table of the season (default: the running one)")
    @app_commands.describe(season="Which season, by number")
    @app_commands.guild_only()
    async def table(
        self, interaction: discord.Interaction[Any], season: app_commands.Range[int, 1, 1000] | None = None
    ) -> None:
        locale = await reader_locale(interaction)
        desk = self.bot.league_desk
        league = await desk.league(interaction.guild_id or 0)
        if league is None:
            await reply(interaction, words.no_league(locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = league.season(season) if season is not None else league.season_at(desk.clock())
        table = await desk.table(league, chosen)
        await reply(interaction, words.table_text(self.bot.host, league, table, locale, self.marks))

    @app_commands.command(name="setup", description="Start the league, or change how it runs (admins)")
    @app_commands.describe(
        days="How long a season lasts, in days (default: 30)",
        counts="Which matches count (default: all)",
        channel="Where each season closes with its table",
    )
    @app_commands.choices(counts=COUNTED_CHOICES)
    @app_commands.guild_only()
    async def setup(
        self,
        interaction: discord.Interaction[Any],
        days: app_commands.Range[int, 7, 365] | None = None,
        counts: str | None = None,
        channel: discord.TextChannel | None = None,
    ) -> None:
        league = await self.bot.league_desk.set_up(
            interaction.guild_id or 0,
            is_admin(interaction),
            days,
            Counted(counts) if counts is not None else None,
            channel.id if channel is not None else None,
        )
        await reply(interaction, words.set_up_text(league, await reader_locale(interaction), self.marks))


async def setup(bot: Bot) -> None:
    await bot.add_cog(League(bot))
