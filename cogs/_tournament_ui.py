"""The tournaments' buttons (joining, confirming the end of a round), with the checks they share with the
/tournament commands: the host decides and words them (``engine.host.tournament_posts``,
``engine.host.tournament_words``); this module reads the member's permissions and lays the texts out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs._components import bot_of, display_name, is_admin
from cogs._lang import recipient_locale
from cogs._reply import reply
from engine.host import tournament_posts as tposts
from engine.host import tournament_words as words
from engine.host.controls import Pressed
from engine.host.tournaments import RoundReport, TournamentRecord
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot


async def require_organiser(interaction: discord.Interaction[Any]) -> None:
    """Server admins, or members with the role the server set for tournaments; ``LobbyError`` otherwise."""
    roles = [role.id for role in getattr(interaction.user, "roles", ())]
    await tposts.require_organiser(
        bot_of(interaction).tournaments, interaction.guild_id, is_admin(interaction), roles
    )


async def tournament_here(interaction: discord.Interaction[Any], tournament_id: int) -> TournamentRecord:
    """The tournament numbered ``tournament_id`` if it belongs to the server the interaction comes from."""
    return await tposts.tournament_here(bot_of(interaction).tournaments, interaction.guild_id, tournament_id)


async def join(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Join the tournament: registers the member who pressed."""
    bot = bot_of(interaction)
    tournament_id = pressed.number("tournament_id")
    await tournament_here(interaction, tournament_id)
    record = await bot.tournaments.join(tournament_id, interaction.user.id, display_name(interaction.user))
    await reply(interaction, words.registered(record, counted=True))


async def round_over(bot: Bot, record: TournamentRecord, number: int, report: RoundReport) -> str:
    """The public line that round ``number`` was ended, in the server's language."""
    locale = await recipient_locale(bot, None, record.guild_id)
    return render(locale, words.round_ended(record, number, report))


async def advance(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Confirms (``end``) or calls off (``keep``) ending a round whose tables still have people at them;
    a press after the round or its tables changed is refused and changes nothing."""
    bot = bot_of(interaction)
    record = await tournament_here(interaction, pressed.number("tournament_id"))
    round_number = pressed.number("round_number")
    await require_organiser(interaction)
    if pressed.part("action") == "keep":
        await reply(interaction, words.plays_on(record, round_number), edit=True)
        return
    confirmed = (round_number, pressed.part("plan").removeprefix("p"))
    # Checked before answering, so a stale click is refused at once; ``advance`` checks again.
    (await bot.tournaments.advance_plan(record.id)).check(*confirmed, record.name)
    await interaction.response.defer()
    report = await bot.tournaments.advance(record.id, force=True, confirmed=confirmed)
    await reply(interaction, words.round_ended(record, round_number, report), edit=True)
    await interaction.followup.send(await round_over(bot, record, round_number, report))
    bot.publish_soon(report.tournament.id)
