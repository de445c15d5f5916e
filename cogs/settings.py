"""/settings: the language the bot speaks to you, how and when you are told it is your turn, your daily
digest, your links to the web table, and a server's default language and web links (admins)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import is_admin
from cogs._lang import reader_locale
from cogs._reply import reply
from engine.host import settings_words as words
from engine.host.notify import MAX_AFTER_HOURS, MIN_AFTER_HOURS
from lang import N_
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot

# Each language named in itself, as people look for their own.
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Italiano", value="it"),
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name=N_("Follow my Discord language"), value="auto"),
]
NOTIFY_CHOICES = [app_commands.Choice(name=name, value=how.value) for name, how in words.NOTIFY_CHOICES]
SWITCH_CHOICES = [
    app_commands.Choice(name=N_("On: a page to watch each match, and Web beside My hand"), value="on"),
    app_commands.Choice(name=N_("Off: no links to the web table"), value="off"),
]


async def timezone_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Time zones whose name holds what was typed (spaces match underscores), the common ones first."""
    return [app_commands.Choice(name=zone, value=zone) for zone in words.zone_suggestions(current)]


class Settings(commands.GroupCog, group_name="settings", group_description="Your preferences"):
    web = app_commands.Group(name="web", description="Your links to the web table, and a server's")

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.pings = bot.notifier.pings

    @app_commands.command(name="language", description="The language I speak to you")
    @app_commands.describe(language="Italiano, English, or whatever your Discord uses")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any], language: str) -> None:
        await reply(
            interaction, await words.choose_language(self.bot.settings, interaction.user.id, language)
        )

    @app_commands.command(name="server-language", description="The language of this server's posts (admins)")
    @app_commands.describe(language="The language of match threads and of anyone who chose none")
    @app_commands.choices(language=LANGUAGE_CHOICES[:2])
    @app_commands.guild_only()
    async def server_language(self, interaction: discord.Interaction[Any], language: str) -> None:
        said = await words.choose_server_language(
            self.bot.settings, interaction.guild_id, language, is_admin(interaction)
        )
        await interaction.response.send_message(render(language, said), ephemeral=True)

    @app_commands.command(name="notify", description="How I tell you it is your turn, in all your matches")
    @app_commands.describe(
        how="A mention in the thread, a direct message, or a message only when a turn waits for you",
        after_hours="Only if your turn waits: after how many hours I write to you (12 at first)",
    )
    @app_commands.choices(how=NOTIFY_CHOICES)
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        how: str,
        after_hours: app_commands.Range[int, MIN_AFTER_HOURS, MAX_AFTER_HOURS] | None = None,
    ) -> None:
        locale = await reader_locale(interaction)
        await reply(
            interaction, await words.set_notify(self.pings, interaction.user.id, locale, how, after_hours)
        )

    @app_commands.command(
        name="quiet", description="Hours when I neither mention you nor write to you about your turn"
    )
    @app_commands.describe(
        start="From this hour (0 to 23)",
        end="Until this hour (0 to 23)",
        timezone="Your time zone, such as Europe/Rome",
    )
    @app_commands.autocomplete(timezone=timezone_autocomplete)
    async def quiet(
        self,
        interaction: discord.Interaction[Any],
        start: app_commands.Range[int, 0, 23],
        end: app_commands.Range[int, 0, 23],
        timezone: str,
    ) -> None:
        locale = await reader_locale(interaction)
        await reply(
            interaction, await words.set_quiet(self.pings, interaction.user.id, locale, start, end, timezone)
        )

    @app_commands.command(
        name="quiet-off", description="No more quiet hours: I tell you of your turn at any hour"
    )
    async def quiet_off(self, interaction: discord.Interaction[Any]) -> None:
        locale = await reader_locale(interaction)
        await reply(interaction, await words.quiet_off(self.pings, interaction.user.id, locale))

    @app_commands.command(
        name="digest", description="One daily message listing the matches waiting for you, at your hour"
    )
    @app_commands.describe(
        hour="At this hour (0 to 23)",
        timezone="Your time zone, such as Europe/Rome (default: that of your quiet hours, else UTC)",
        off="No more daily digest",
    )
    @app_commands.autocomplete(timezone=timezone_autocomplete)
    async def digest(
        self,
        interaction: discord.Interaction[Any],
        hour: app_commands.Range[int, 0, 23] | None = None,
        timezone: str | None = None,
        off: bool = False,
    ) -> None:
        locale = await reader_locale(interaction)
        await reply(
            interaction, await self.bot.digests.choose(interaction.user.id, locale, hour, timezone, off)
        )

    @web.command(name="revoke", description="Void every link to your own pages on the web table")
    async def web_revoke(self, interaction: discord.Interaction[Any]) -> None:
        await reply(
            interaction,
            await words.revoke_web_links(self.bot.web_links, interaction.user.id, self.bot.clock()),
        )

    @web.command(
        name="server-links", description="Whether this server's posts link to the web table (admins)"
    )
    @app_commands.describe(links="On, or off for every match of this server")
    @app_commands.choices(links=SWITCH_CHOICES)
    @app_commands.guild_only()
    async def web_server(self, interaction: discord.Interaction[Any], links: str) -> None:
        said = await words.switch_web_links(
            self.bot.web_links, interaction.guild_id, links == "on", is_admin(interaction)
        )
        await reply(interaction, said)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Settings(bot))
