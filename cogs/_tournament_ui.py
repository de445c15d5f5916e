"""The tournaments' buttons (joining, confirming the end of a round), with the checks they share with the
/tournament commands: the host decides and words them (``engine.host.tournament_posts``,
``engine.host.tournament_words``); this module reads the member's permissions and lays the texts out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord

import lang
from cogs._components import Guarded, bot_of, display_name, is_admin
from cogs._lang import reader_locale, recipient_locale
from engine.host import tournament_posts as tposts
from engine.host import tournament_words as words
from engine.host.tournaments import RoundReport, TournamentRecord
from lang import N_, t
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


class JoinTournamentButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:tjoin:(?P<tournament_id>[0-9]{1,20})",
):
    """Registers the clicking member."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join the tournament",
                style=discord.ButtonStyle.success,
                custom_id=f"ba:tjoin:{tournament_id}",
            )
        )
        self.tournament_id = tournament_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        await tournament_here(interaction, self.tournament_id)
        record = await bot.tournaments.join(
            self.tournament_id, interaction.user.id, display_name(interaction.user)
        )
        locale = await reader_locale(interaction)
        registered = render(locale, words.registered(record, counted=True))
        await interaction.response.send_message(registered, ephemeral=True)


async def round_over(bot: Bot, record: TournamentRecord, number: int, report: RoundReport) -> str:
    """The public line that round ``number`` was ended, in the server's language."""
    locale = await recipient_locale(bot, None, record.guild_id)
    return render(locale, words.round_ended(record, number, report))


class AdvanceButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:tadvance:(?P<action>end|keep):(?P<tournament_id>[0-9]{1,20}):(?P<round_number>[0-9]{1,20})"
    r":(?P<plan>p[0-9a-f]{10})",
):
    """Confirms (``end``) or calls off (``keep``) ending a round whose tables still have people at them.

    The custom id carries the round and the fingerprint of the plan the organiser read (prefixed with
    ``p`` so it is never read as a number): a click after the round or its tables changed is refused
    and changes nothing."""

    LABELS: ClassVar[dict[str, str]] = {"end": N_("End the round"), "keep": N_("Let them play on")}

    def __init__(
        self, action: str, tournament_id: int, round_number: int, plan: str, locale: str = lang.DEFAULT
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(locale, self.LABELS[action]),
                style=discord.ButtonStyle.danger if action == "end" else discord.ButtonStyle.secondary,
                custom_id=f"ba:tadvance:{action}:{tournament_id}:{round_number}:{plan}",
            )
        )
        self.action, self.tournament_id, self.round_number, self.plan = (
            action,
            tournament_id,
            round_number,
            plan,
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        record = await tournament_here(interaction, self.tournament_id)
        await require_organiser(interaction)
        locale = await reader_locale(interaction)
        if self.action == "keep":
            text = render(locale, words.plays_on(record, self.round_number))
            await interaction.response.edit_message(content=text, view=None)
            return
        confirmed = (self.round_number, self.plan.removeprefix("p"))
        # Checked before answering, so a stale click is refused at once; ``advance`` checks again.
        (await bot.tournaments.advance_plan(record.id)).check(*confirmed, record.name)
        await interaction.response.defer()
        report = await bot.tournaments.advance(record.id, force=True, confirmed=confirmed)
        done = render(locale, words.round_ended(record, self.round_number, report))
        await interaction.edit_original_response(content=done, view=None)
        await interaction.followup.send(await round_over(bot, record, self.round_number, report))
        bot.publish_soon(report.tournament.id)
        bot.publish_soon(report.tournament.id)


# The tournaments' controls, registered with the client so they work after a restart.
TOURNAMENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (JoinTournamentButton, AdvanceButton)
