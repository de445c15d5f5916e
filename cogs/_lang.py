"""The reader's language: which locale a reply, a post or a DM is written in, and the translator that
gives slash commands their Italian names and descriptions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import lang
from engine.host import languages

if TYPE_CHECKING:
    from cogs._bot import Bot

# Catalogue contexts of what has a name in Discord's command list; descriptions and choices need none.
NAME_CONTEXTS = {
    app_commands.TranslationContextLocation.command_name: "command",
    app_commands.TranslationContextLocation.group_name: "command",
    app_commands.TranslationContextLocation.parameter_name: "option",
}
TRANSLATED = (
    *NAME_CONTEXTS,
    app_commands.TranslationContextLocation.command_description,
    app_commands.TranslationContextLocation.group_description,
    app_commands.TranslationContextLocation.parameter_description,
    app_commands.TranslationContextLocation.choice_name,
)


def metadata_text(locale: str, message: str, location: app_commands.TranslationContextLocation) -> str:
    """A command's name, description or choice in ``locale``."""
    context = NAME_CONTEXTS.get(location)
    catalogue = lang.catalogue(locale)
    return catalogue.pgettext(context, message) if context else catalogue.gettext(message)


class CatalogueTranslator(app_commands.Translator):
    """Command metadata from the catalogues, for every Discord locale we speak besides English."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = lang.pick(locale.value)
        if language == lang.DEFAULT or not locale.value.startswith(language):
            return None
        if context.location not in TRANSLATED:
            return None
        translated = metadata_text(language, string.message, context.location)
        return translated if translated != string.message else None


async def reader_locale(interaction: discord.Interaction[Any]) -> str:
    """The language of a reply (see ``engine.host.languages``), Discord telling the user's app language."""
    bot: Bot = interaction.client  # type: ignore[assignment]
    server = str(interaction.guild_locale) if interaction.guild_locale is not None else None
    return await languages.reader_locale(
        bot.settings, interaction.user.id, interaction.guild_id, str(interaction.locale), server
    )


async def recipient_locale(bot: Bot, user_id: int | None, guild_id: int | None) -> str:
    """The language of a post or DM, which has no locale of its own (see ``engine.host.languages``)."""
    return await languages.recipient_locale(bot.settings, user_id, guild_id)
