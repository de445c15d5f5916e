"""/settings: the language the bot speaks to you, how and when you are told it is your turn, and a server's
default language (admins)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._components import is_admin
from cogs._lang import LANGUAGE, reader_locale
from engine.core.errors import LobbyError
from engine.host.notify import (
    MAX_AFTER_HOURS,
    MIN_AFTER_HOURS,
    Channel,
    NotifyPrefs,
    QuietHours,
    canonical_zone,
    known_zones,
)
from engine.host.text import HOST
from lang import N_, t, tn

if TYPE_CHECKING:
    from cogs._bot import Bot

# Each language named in itself, as people look for their own.
LANGUAGE_CHOICES = [
    app_commands.Choice(name="Italiano", value="it"),
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name=N_("Follow my Discord language"), value="auto"),
]

NOTIFY_CHOICES = [
    app_commands.Choice(name=N_("A mention in the match thread"), value=Channel.THREAD.value),
    app_commands.Choice(name=N_("A direct message on every turn"), value=Channel.DM.value),
    app_commands.Choice(
        name=N_("A direct message only if my turn waits a while"), value=Channel.WAITED.value
    ),
]

# Offered first when nothing is typed yet: the zones of the people most likely to play.
COMMON_ZONES = (
    "Europe/Rome",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Tokyo",
    "Australia/Sydney",
    "UTC",
)

# How much of an unknown time zone a refusal repeats: the longest real one has 32 characters.
ZONE_ECHO = 40


async def timezone_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """Time zones whose name holds what was typed (spaces match underscores), the common ones first."""
    typed = current.strip().lower().replace(" ", "_")
    if not typed:
        return [app_commands.Choice(name=zone, value=zone) for zone in COMMON_ZONES]
    zones = sorted(known_zones(), key=lambda zone: (zone not in COMMON_ZONES, zone))
    found = [zone for zone in zones if typed in zone.lower()]
    return [app_commands.Choice(name=zone, value=zone) for zone in found[:25]]


def describe_prefs(locale: str, prefs: NotifyPrefs) -> str:
    """What a person's notification settings do, in words."""
    if prefs.channel is Channel.DM:
        text = t(
            locale, "On your turn I will send you a direct message, without mentioning you in the thread."
        )
    elif prefs.channel is Channel.WAITED:
        text = tn(
            locale,
            "If your turn waits for you for {count} hour, I will send you one direct message; "
            "I will not mention you in the thread.",
            "If your turn waits for you for {count} hours, I will send you one direct message; "
            "I will not mention you in the thread.",
            prefs.after_hours,
        )
    else:
        text = t(locale, "On your turn I will mention you in the match thread.")
    quiet = prefs.quiet
    if quiet is not None:
        text += "\n" + t(
            locale,
            "Quiet hours from {start}:00 to {end}:00 ({zone}): meanwhile I will neither mention you nor "
            "send you messages about your turn, and what I held back comes when they end.",
            start=f"{quiet.start:02d}",
            end=f"{quiet.end:02d}",
            zone=quiet.zone,
        )
    return text


class Settings(commands.GroupCog, group_name="settings", group_description="Your preferences"):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="The language I speak to you")
    @app_commands.describe(language="Italiano, English, or whatever your Discord uses")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any], language: str) -> None:
        value = None if language == "auto" else language
        await self.bot.settings.set("user", interaction.user.id, LANGUAGE, value)
        locale = await reader_locale(interaction)
        text = (
            t(locale, "I will follow your Discord language.")
            if value is None
            else t(locale, "From now on I speak to you in English.")
        )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="server-language", description="The language of this server's posts (admins)")
    @app_commands.describe(language="The language of match threads and of anyone who chose none")
    @app_commands.choices(language=LANGUAGE_CHOICES[:2])
    @app_commands.guild_only()
    async def server_language(self, interaction: discord.Interaction[Any], language: str) -> None:
        if not is_admin(interaction) or interaction.guild_id is None:
            raise LobbyError(HOST.say("only server admins can choose the server's language"))
        await self.bot.settings.set("guild", interaction.guild_id, LANGUAGE, language)
        text = t(language, "This server's posts are now in English.")
        await interaction.response.send_message(text, ephemeral=True)

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
        pings = self.bot.notifier.pings
        prefs = await pings.prefs(interaction.user.id)
        update: dict[str, object] = {"channel": Channel(how)}
        if after_hours is not None:
            update["after_hours"] = after_hours
        prefs = NotifyPrefs.model_validate({**prefs.model_dump(), **update})
        await pings.save_prefs(interaction.user.id, prefs)
        text = describe_prefs(await reader_locale(interaction), prefs)
        await interaction.response.send_message(text, ephemeral=True)

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
        zone = canonical_zone(timezone)
        if zone is None:
            typed = timezone.strip()
            raise LobbyError(
                HOST.say(
                    "I do not know the time zone {zone}: write it like Europe/Rome or America/New_York",
                    zone=typed if len(typed) <= ZONE_ECHO else typed[: ZONE_ECHO - 1] + "…",
                )
            )
        if start == end:
            raise LobbyError(HOST.say("quiet hours must start and end at different hours"))
        pings = self.bot.notifier.pings
        prefs = await pings.prefs(interaction.user.id)
        prefs = prefs.model_copy(update={"quiet": QuietHours(start=start, end=end, zone=zone)})
        await pings.save_prefs(interaction.user.id, prefs)
        text = describe_prefs(await reader_locale(interaction), prefs)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="quiet-off", description="No more quiet hours: I tell you of your turn at any hour"
    )
    async def quiet_off(self, interaction: discord.Interaction[Any]) -> None:
        pings = self.bot.notifier.pings
        prefs = (await pings.prefs(interaction.user.id)).model_copy(update={"quiet": None})
        await pings.save_prefs(interaction.user.id, prefs)
        locale = await reader_locale(interaction)
        text = t(locale, "Quiet hours are off.") + "\n" + describe_prefs(locale, prefs)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Settings(bot))
