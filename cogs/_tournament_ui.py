"""The tournaments' buttons (joining, confirming the end of a round), with the checks and texts they
share with the /tournament commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord

import lang
from cogs._components import Guarded, bot_of, display_name, is_organiser
from cogs._lang import reader_locale, recipient_locale
from cogs._standings import CONTENT_LIMIT
from engine.core.errors import LobbyError, MatchNotFound
from engine.host.tournaments import (
    AdvancePlan,
    RoundReport,
    TournamentRecord,
)
from lang import N_, join, t, tn

if TYPE_CHECKING:
    from cogs._bot import Bot


async def require_organiser(interaction: discord.Interaction[Any]) -> None:
    """Server admins, or members with the role the server set for tournaments; ``LobbyError`` otherwise."""
    if await is_organiser(interaction):
        return
    raise LobbyError(
        "only server admins or the tournament organiser role can do that",
        ["/tournament join", "/tournament standings", "/tournament mytable"],
    )


async def tournament_here(interaction: discord.Interaction[Any], tournament_id: int) -> TournamentRecord:
    """The tournament numbered ``tournament_id`` if it belongs to the server the interaction comes from.

    Raises ``MatchNotFound`` with the same words whether it does not exist or belongs to another
    server, so an admin of one server is nobody on another.
    """
    missing = MatchNotFound(f"there is no tournament #{tournament_id} here")
    if interaction.guild_id is None or tournament_id not in range(1, 2**63):
        raise missing
    try:
        record = await bot_of(interaction).tournaments.get(tournament_id)
    except MatchNotFound:
        raise missing from None
    if record.guild_id != interaction.guild_id:
        raise missing
    return record


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
        registered = tn(
            locale,
            "You are registered for {tournament} ({count} player so far).",
            "You are registered for {tournament} ({count} players so far).",
            len(record.entrants),
            tournament=f"**{record.name}**",
        )
        await interaction.response.send_message(registered, ephemeral=True)


async def advance_question(bot: Bot, record: TournamentRecord, plan: AdvancePlan, locale: str) -> str:
    """What ending the round now would do, for the organiser to confirm: the round's deadline, each
    table still playing (linked to its thread) and whose seats a computer takes there."""
    lines = [
        t(
            locale,
            "Round {number} of {tournament} still has tables playing.",
            number=plan.round,
            tournament=f"**{record.name}**",
        )
    ]
    if plan.deadline is not None:
        due = f"{plan.deadline:%Y-%m-%d %H:%M}"
        if plan.deadline_passed:
            lines.append(t(locale, "Its deadline passed at {due} UTC.", due=due))
        else:
            lines.append(t(locale, "Its deadline is {due} UTC: its players still have time.", due=due))
    for table in plan.open_tables:
        where = t(locale, "match #{number}", number=table.match_id)
        if table.match_id is not None:
            thread = (await bot.host.match(table.match_id)).thread_id
            where += f", <#{thread}>" if thread is not None else ""
        if table.people:
            lines.append(
                "• "
                + t(
                    locale,
                    "Table {table} ({where}): a computer takes the seats of {players}.",
                    table=table.number,
                    where=where,
                    players=join(locale, [f"**{record.name_of(k)}**" for k in table.people]),
                )
            )
        else:
            lines.append(
                "• "
                + t(locale, "Table {table} ({where}): computers finish it.", table=table.number, where=where)
            )
    question = t(
        locale,
        "End round {number} now? Computers play these tables to the end and the tournament moves on. "
        "Nothing changes until you confirm.",
        number=plan.round,
    )
    budget = CONTENT_LIMIT - len(question) - 1
    while len("\n".join(lines)) > budget:
        lines.pop()
    return "\n".join([*lines, question])


def round_ended(locale: str, record: TournamentRecord, number: int, report: RoundReport) -> str:
    """That round ``number`` was ended: over, or over once the computers that took seats finish."""
    if number in report.finished_rounds:
        return t(
            locale, "Round {number} of {tournament} is over.", number=number, tournament=f"**{record.name}**"
        )
    return t(
        locale,
        "Round {number} of {tournament} ends as soon as the computer players finish its open tables.",
        number=number,
        tournament=f"**{record.name}**",
    )


async def round_over(bot: Bot, record: TournamentRecord, number: int, report: RoundReport) -> str:
    """The public line that round ``number`` was ended, in the server's language."""
    return round_ended(await recipient_locale(bot, None, record.guild_id), record, number, report)


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
            text = t(
                locale,
                "Nothing changed: round {number} of {tournament} plays on.",
                number=self.round_number,
                tournament=f"**{record.name}**",
            )
            await interaction.response.edit_message(content=text, view=None)
            return
        confirmed = (self.round_number, self.plan.removeprefix("p"))
        # Checked before answering, so a stale click is refused at once; ``advance`` checks again.
        (await bot.tournaments.advance_plan(record.id)).check(*confirmed, record.name)
        await interaction.response.defer()
        report = await bot.tournaments.advance(record.id, force=True, confirmed=confirmed)
        done = round_ended(locale, record, self.round_number, report)
        await interaction.edit_original_response(content=done, view=None)
        await interaction.followup.send(await round_over(bot, record, self.round_number, report))
        bot.publish_soon(report.tournament.id)
        bot.publish_soon(report.tournament.id)


# The tournaments' controls, registered with the client so they work after a restart.
TOURNAMENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (JoinTournamentButton, AdvanceButton)
