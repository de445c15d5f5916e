"""A match's lobby message: its text, the Join, Leave and Start buttons and the choice of computer
players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord

import lang
from cogs._components import Guarded, bot_of, display_name, scope_of
from cogs._lang import recipient_locale
from engine.core.errors import LobbyError
from engine.host.clock import Pace
from engine.host.ports import MatchRecord, MatchStatus, Player, Scope
from engine.host.service import GameHost
from engine.host.text import HOST
from lang import N_, t

if TYPE_CHECKING:
    from cogs._bot import Bot


class LobbyButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:lobby:(?P<action>join|leave|bot|start):(?P<match_id>[0-9]{1,20})",
):
    """Join, leave, or start; the lobby message is redrawn after each. (``bot``, a normal computer player,
    is the button of lobbies posted before the levels came: it keeps working.)"""

    LABELS: ClassVar[dict[str, str]] = {
        "join": N_("Join"),
        "leave": N_("Leave"),
        "bot": N_("Add computer"),
        "start": N_("Start"),
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, action: str, match_id: int, locale: str = lang.DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=t(locale, self.LABELS[action]),
                style=self.STYLES.get(action, discord.ButtonStyle.secondary),
                custom_id=f"ba:lobby:{action}:{match_id}",
            )
        )
        self.action, self.match_id = action, match_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        user = interaction.user
        scope = scope_of(interaction)
        if self.action == "join":
            player = Player(user_id=user.id, name=display_name(user))
            match = await bot.host.join(self.match_id, player, scope)
            if isinstance(interaction.channel, discord.Thread):
                await interaction.channel.add_user(user)  # so the thread notifies them of their turns
        elif self.action == "leave":
            match = await bot.host.leave(self.match_id, user.id, scope)
        elif self.action == "bot":
            await require_creator(bot, self.match_id, scope)
            match = await bot.host.add_computer(self.match_id, scope=scope)
        else:
            await bot.host.start(self.match_id, by_user=user.id, scope=scope)
            bot.kick_outbox()
            match = await bot.host.match(self.match_id, scope)
        await redraw_lobby(interaction, match)


async def redraw_lobby(interaction: discord.Interaction[Any], match: MatchRecord) -> None:
    bot = bot_of(interaction)
    locale = await recipient_locale(bot, None, match.guild_id)  # the lobby message is public
    await interaction.response.edit_message(
        content=lobby_text(bot, match, locale),
        view=lobby_view(match, locale, levels_of(bot.host, match.game)),
    )


# How strong each computer player is, as people choose it: (its level, the level and what it does).
LEVEL_WORDS = {
    "random": (N_("easy"), N_("easy: plays at random")),
    "greedy": (N_("normal"), N_("normal: takes the move that looks best right now")),
    "strong": (N_("strong"), N_("strong: thinks several moves ahead")),
}


def levels_of(host: GameHost, game: str) -> list[str]:
    """The computer players a person may choose for ``game``, weakest first."""
    available = host.policies.get(game, {})
    return [name for name in LEVEL_WORDS if name in available]


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def level_name(locale: str, policy: str) -> str:
    words = LEVEL_WORDS.get(policy)
    return t(locale, words[0]) if words else policy


class ComputerSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ba:lobby:add:(?P<match_id>[0-9]{1,20})",
):
    """Adds a computer player of the chosen level (the match's creator only)."""

    def __init__(self, match_id: int, locale: str = lang.DEFAULT, levels: Sequence[str] = ()) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=t(locale, "Add a computer player…"),
                custom_id=f"ba:lobby:add:{match_id}",
                options=[
                    discord.SelectOption(label=_first_up(t(locale, LEVEL_WORDS[level][1])), value=level)
                    for level in levels
                ],
            )
        )
        self.match_id = match_id

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        bot = bot_of(interaction)
        scope = scope_of(interaction)
        level = self.item.values[0] if self.item.values else ""
        await require_creator(bot, self.match_id, scope)
        match = await bot.host.match(self.match_id, scope)
        if level not in levels_of(bot.host, match.game):
            choices = [t(lang.DEFAULT, LEVEL_WORDS[name][0]) for name in levels_of(bot.host, match.game)]
            raise LobbyError(HOST.say("there is no computer player of that level here"), choices)
        match = await bot.host.add_computer(self.match_id, level, scope=scope)
        await redraw_lobby(interaction, match)


async def require_creator(bot: Bot, match_id: int, scope: Scope) -> MatchRecord:
    match = await bot.host.match(match_id, scope)
    if match.creator_id not in (None, scope.user_id):
        raise LobbyError(HOST.say("only the player who created the match can add computer players"))
    return match


# What a match's status is called, for the catalogue.
STATUS_WORDS = {
    MatchStatus.LOBBY: N_("waiting for players"),
    MatchStatus.ACTIVE: N_("in play"),
    MatchStatus.FINISHED: N_("finished"),
    MatchStatus.ABANDONED: N_("abandoned"),
}


def game_title(bot: Bot, game: str, locale: str) -> str:
    """A game's title in ``locale``."""
    return t(locale, bot.host.rules(game).title)


PACE_WORDS = {
    Pace.NONE: N_("no clock"),
    Pace.RELAXED: N_("relaxed: 3 days per move"),
    Pace.DAILY: N_("daily: 24 hours per move"),
    Pace.FAST: N_("fast: 1 hour per move"),
}


def lobby_text(bot: Bot, match: MatchRecord, locale: str) -> str:
    """The lobby message of a match: who sits, which options, and what happens next."""
    options = ", ".join(sorted(match.options)) or t(locale, "none")
    seated = ", ".join(
        f"{p.name} · {level_name(locale, p.bot)}" if p.bot else p.name for p in match.players
    ) or t(locale, "nobody yet")
    status = t(locale, STATUS_WORDS[match.status])
    lines = [
        f"**{game_title(bot, match.game, locale)}** · "
        + t(locale, "match #{number}", number=match.id)
        + f" · {status}",
        t(
            locale,
            "Players {seated}/{seats}: {names}",
            seated=len(match.players),
            seats=match.seat_count,
            names=seated,
        ),
        t(locale, "Options: {options}", options=options),
        t(locale, "Clock: {clock}.", clock=t(locale, PACE_WORDS[match.pace])),
    ]
    if match.status is MatchStatus.LOBBY:
        creator = f"<@{match.creator_id}>" if match.creator_id else t(locale, "the creator")
        lines.append(
            t(locale, "Join with the button; {creator} starts when every seat is taken.", creator=creator)
        )
    elif match.status is MatchStatus.ACTIVE:
        lines.append(t(locale, "The match has started: the board is posted below."))
    return "\n".join(lines)


def lobby_view(match: MatchRecord, locale: str = lang.DEFAULT, levels: Sequence[str] = ()) -> discord.ui.View:
    """The lobby buttons while the match waits for players, with a choice of computer players of
    ``levels``; nothing once it has started."""
    view = discord.ui.View(timeout=None)
    if match.status is MatchStatus.LOBBY:
        for action in ("join", "leave", "start"):
            view.add_item(LobbyButton(action, match.id, locale))
        if levels and len(match.players) < match.seat_count:
            view.add_item(ComputerSelect(match.id, locale, levels))
    return view
