"""A player's private menu of moves: the button that opens it, its selects and buttons, playing what
is chosen there, and taking a move back."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

import lang
from cogs._components import Guarded, bot_of, scope_of
from cogs._lang import reader_locale
from engine.core.errors import EngineError, StaleVersion
from engine.host.answers import lines_text, next_step, play_move, took_back
from engine.host.menu_pages import CHOOSE_ITEMS, CHOOSE_MOVE, Grid, plan_menu, plan_picks
from engine.host.menus import (
    BUTTON_LABEL_LIMIT,
    BUTTONS_PER_ROW,
    MAX_ROWS,
    PLAY,
    MenuOption,
    clip,
    parse_value,
)
from engine.host.ports import MatchRecord
from engine.host.replies import PLAY_LABEL, UNDO_LABEL
from engine.host.shortcuts import steps
from engine.host.table import STALE_CHOICE, Table
from lang import N_
from lang.says import render

if TYPE_CHECKING:
    from cogs._bot import Bot

log = logging.getLogger(__name__)


class PlayButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:play:(?P<match_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})",
):
    """Opens the seat's menu of legal moves, privately."""

    def __init__(self, match_id: int, version: int, locale: str = lang.DEFAULT) -> None:
        super().__init__(
            discord.ui.Button(
                label=render(locale, PLAY_LABEL),
                emoji="▶️",
                style=discord.ButtonStyle.primary,
                custom_id=f"ba:play:{match_id}:{version}",
            )
        )
        self.match_id, self.version = match_id, version

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await send_move_menu(interaction, self.match_id, self.version)


async def send_move_menu(
    interaction: discord.Interaction[Any], match_id: int, version: int | None, prefix: str = "", page: int = 0
) -> None:
    """Answer privately with a select of the user's legal moves (grouped and paged to fit)."""
    locale = await reader_locale(interaction)
    table = await bot_of(interaction).host.menu(
        match_id, interaction.user.id, locale, version, scope_of(interaction)
    )
    text, view = move_menu(table, locale, prefix, page)
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, ephemeral=True)
    elif prefix or page:
        await interaction.response.edit_message(content=text, view=view)
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)


def move_menu(table: Table, locale: str, prefix: str = "", page: int = 0) -> tuple[str, discord.ui.View]:
    """The text and controls of ``table``'s move menu at the ``prefix`` level (the top when empty), as the
    host plans it for Discord's grid (see ``plan_menu``)."""
    match = table.match
    grid = Grid(MAX_ROWS, BUTTONS_PER_ROW, functools.partial(ChoiceButton.fits, match.id, match.version))
    planned = plan_menu(table, locale, prefix, page, grid)
    view = discord.ui.View(timeout=None)
    if planned.one_move is not None:
        view.add_item(OneMoveButton(match.id, match.version, planned.one_move))
    for slot, control in enumerate(planned.controls):
        if control.kind == "button":
            view.add_item(ChoiceButton.of(match.id, match.version, control.options[0], control.row))
            continue
        select = MoveSelect(match.id, match.version, locale, slot)
        select.item.row = control.row
        if control.placeholder:
            select.item.placeholder = control.placeholder[:PLACEHOLDER_LIMIT]
        for option in control.options:
            select.item.add_option(label=option.label, value=option.value[:100])
        view.add_item(select)
    for choice in planned.choices:
        item = MultiButton(match.id, match.version, choice.index, choice.label)
        item.item.row = choice.row
        view.add_item(item)
    if planned.undo_row is not None:
        view.add_item(UndoButton(match.id, match.version, locale, menu="m", row=planned.undo_row))
    return render(locale, planned.text, table.name), view


class MoveSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ba:move:(?P<match_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})(?::(?P<slot>[0-9]))?",
):
    """Plays the chosen notation, or narrows the menu to the chosen group. A menu may hold several (one
    per group), told apart by ``slot``."""

    def __init__(self, match_id: int, version: int, locale: str = lang.DEFAULT, slot: int = 0) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=render(locale, CHOOSE_MOVE),
                custom_id=f"ba:move:{match_id}:{version}" + (f":{slot}" if slot else ""),
                min_values=1,
            )
        )
        self.match_id, self.version = match_id, version

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await choose(interaction, self.match_id, self.version, self.item.values[0])


async def choose(interaction: discord.Interaction[Any], match_id: int, version: int, value: str) -> None:
    """Act on a menu value: play its notation, or narrow the menu to its group."""
    try:
        kind, chosen, page = parse_value(value)
    except ValueError:
        raise StaleVersion(STALE_CHOICE) from None
    if kind == "open":
        await send_move_menu(interaction, match_id, version, chosen, page)
        return
    await play_notation(interaction, match_id, chosen, version, edit=True, run=steps(chosen))


# Discord's limits: 150 characters in a select's placeholder, 80 in a button's label, 100 in a custom id.
PLACEHOLDER_LIMIT = 150
CUSTOM_ID_LIMIT = 100


class ChoiceButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:pick:(?P<match_id>[0-9]{1,20}):(?P<version>[0-9]{1,20}):(?P<value>[=?].{1,90})",
):
    """One choice of a short move menu: plays its move or opens its group, like the select's option."""

    def __init__(
        self, match_id: int, version: int, value: str, label: str = "…", row: int | None = None
    ) -> None:
        playing = value.startswith(PLAY)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary if playing else discord.ButtonStyle.secondary,
                custom_id=self.custom_id_of(match_id, version, value),
                row=row,
            )
        )
        self.match_id, self.version, self.value = match_id, version, value

    @staticmethod
    def custom_id_of(match_id: int, version: int, value: str) -> str:
        return f"ba:pick:{match_id}:{version}:{value}"

    @classmethod
    def fits(cls, match_id: int, version: int, option: MenuOption) -> bool:
        """Whether ``option`` can be a button: its label and value within Discord's limits."""
        return (
            len(option.label) <= BUTTON_LABEL_LIMIT
            and len(cls.custom_id_of(match_id, version, option.value)) <= CUSTOM_ID_LIMIT
        )

    @classmethod
    def of(cls, match_id: int, version: int, option: MenuOption, row: int) -> ChoiceButton:
        return cls(match_id, version, option.value, option.label, row)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await choose(interaction, self.match_id, self.version, self.value)


async def play_notation(
    interaction: discord.Interaction[Any],
    match_id: int,
    notation: str | None,
    version: int | None,
    edit: bool = False,
    seen_version: int | None = None,
    run: Sequence[str] = (),
) -> None:
    """Submit a move for the user; the thread post follows from the outbox.

    ``version`` binds a component to its exact board; ``seen_version`` binds a typed move to the board
    the user saw (see ``GameHost.act``). ``run``: the moves of a shortcut chosen in the menu, played one
    by one (``notation`` is then the menu's value for them)."""
    bot = bot_of(interaction)
    locale = await reader_locale(interaction)
    answering = asyncio.ensure_future(
        _answer(interaction, match_id, notation, run, version, seen_version, locale, edit)
    )
    # A move answered quickly is answered in the interaction's own reply (one request to Discord instead
    # of two); one whose answer takes longer (computers thinking after it, a busy machine) is deferred in
    # time for Discord's deadline. The answer includes the next menu, since that is what the reply shows;
    # the time counts from when the person pressed, since Discord's deadline does.
    if not interaction.response.is_done():
        waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        done, _ = await asyncio.wait({answering}, timeout=max(0.0, bot.answer_within - waited))
        if not done:
            await _defer(interaction, edit)
    answer = await answering
    if answer is None:
        if not interaction.response.is_done():
            await interaction.response.defer()  # acknowledged, and nothing to say
        return
    content, view = answer
    if edit:
        await _show(interaction, content, view)
    elif interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True)
    else:
        await interaction.response.send_message(content, ephemeral=True)


async def _answer(
    interaction: discord.Interaction[Any],
    match_id: int,
    notation: str | None,
    run: Sequence[str],
    version: int | None,
    seen_version: int | None,
    locale: str,
    edit: bool,
) -> tuple[str, discord.ui.View | None] | None:
    """Plays the move (see ``play_move``) and lays out what the reply shows: what was played and, on a
    menu's own message, the menu that follows; None for a second click of the choice just played."""
    bot = bot_of(interaction)
    scope = scope_of(interaction)
    user = interaction.user.id
    answer = await play_move(bot.host, match_id, user, notation, run, version, scope, seen_version, locale)
    if answer is None:
        # A second click of the choice just played: the deferral acknowledged it; nothing to say.
        log.info("user %s clicked again a move already played in match %s", user, match_id)
        return None
    log.info("user %s moved in match %s (now at version %s)", user, match_id, answer.match.version)
    bot.kick_outbox()
    summary = lines_text(locale, answer.lines, bot.host.namer(answer.match))
    if not edit:
        return summary, None
    # The menu carries on through a multi-step turn: the same private message offers the next decision,
    # until the turn passes to someone else.
    text, view = await next_menu(bot, answer.match, user, locale)
    return f"{summary}\n{text}", view


async def next_menu(
    bot: Bot, match: MatchRecord, user_id: int, locale: str
) -> tuple[str, discord.ui.View | None]:
    """What a private message shows the user after their move or undo (see ``next_step``)."""
    after = await next_step(bot.host, match, user_id, locale)
    if after.my_turn:
        return move_menu(after.table, locale)
    table = after.table
    return render(locale, after.waiting, table.name), undo_view(match, locale) if table.may_undo else None


async def _defer(interaction: discord.Interaction[Any], edit: bool) -> None:
    """Acknowledge the interaction before its answer is ready: a menu keeps its message, which the
    answer then edits; a typed move shows that the bot is thinking."""
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def _show(interaction: discord.Interaction[Any], content: str, view: discord.ui.View | None) -> None:
    """Put ``content`` and ``view`` on the menu's message: in the answer itself, or after a deferral."""
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, view=view)
    else:
        await interaction.response.edit_message(content=content, view=view)


class OneMoveButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:one:(?P<match_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})",
):
    """Plays the seat's only legal move on the board it was made for."""

    def __init__(self, match_id: int, version: int, label: str = N_("Play")) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label)[:80],
                emoji="▶️",
                style=discord.ButtonStyle.success,
                custom_id=f"ba:one:{match_id}:{version}",
            )
        )
        self.match_id, self.version = match_id, version

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await play_notation(interaction, self.match_id, None, self.version, edit=True)


class MultiButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:multi:(?P<match_id>[0-9]{1,20}):(?P<version>[0-9]{1,20}):(?P<index>[0-9]{1,20})",
):
    """Opens a choice of several items at once (cards to exchange, to pay with, to bid)."""

    def __init__(self, match_id: int, version: int, index: int, label: str = N_("Choose several")) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                emoji="✳️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ba:multi:{match_id}:{version}:{index}",
            )
        )
        self.match_id, self.version, self.index = match_id, version, index

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        choice, table = await bot_of(interaction).host.multi_select(
            self.match_id, interaction.user.id, self.version, self.index, scope_of(interaction)
        )
        locale = await reader_locale(interaction)
        picks = plan_picks(locale, choice, table.name, MAX_SELECT_OPTIONS)
        select = PicksSelect(self.match_id, self.version, self.index, locale)
        for position, label in enumerate(picks.labels):
            select.item.add_option(label=label, value=str(position))
        select.item.min_values, select.item.max_values = picks.min_items, picks.max_items
        view = discord.ui.View(timeout=None)
        view.add_item(select)
        prompt = render(locale, picks.prompt, table.name)
        await interaction.response.edit_message(content=prompt, view=view)


MAX_SELECT_OPTIONS = 25


class PicksSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ba:picks:(?P<match_id>[0-9]{1,20}):(?P<version>[0-9]{1,20}):(?P<index>[0-9]{1,20})",
):
    """Plays the items chosen in a multi-select."""

    def __init__(self, match_id: int, version: int, index: int, locale: str = lang.DEFAULT) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=render(locale, CHOOSE_ITEMS), custom_id=f"ba:picks:{match_id}:{version}:{index}"
            )
        )
        self.match_id, self.version, self.index = match_id, version, index

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        choice, _ = await bot_of(interaction).host.multi_select(
            self.match_id, interaction.user.id, self.version, self.index, scope_of(interaction)
        )
        if not all(value.isascii() and value.isdigit() and len(value) <= 3 for value in self.item.values):
            raise StaleVersion(STALE_CHOICE)
        try:
            notation = choice.notation([int(value) for value in self.item.values])
        except ValueError as exc:
            raise EngineError(str(exc)) from exc
        await play_notation(interaction, self.match_id, notation, self.version, edit=True)


class UndoButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:undo:(?P<match_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})(?::(?P<menu>m))?",
):
    """Takes back the presser's latest move on the board it was made for. ``menu`` ("m"): the button of
    a private move menu, which the answer replaces; otherwise a post's, answered privately."""

    def __init__(
        self, match_id: int, version: int, locale: str = lang.DEFAULT, menu: str = "", row: int | None = None
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=render(locale, UNDO_LABEL),
                emoji="↩️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"ba:undo:{match_id}:{version}" + (":m" if menu else ""),
                row=row,
            )
        )
        self.match_id, self.version, self.menu = match_id, version, menu

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await take_back(interaction, self.match_id, self.version, edit=bool(self.menu))


def undo_view(match: MatchRecord, locale: str) -> discord.ui.View:
    """A private message's lone Undo button (the turn has passed to someone else)."""
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(match.id, match.version, locale, menu="m"))
    return view


async def take_back(
    interaction: discord.Interaction[Any], match_id: int, version: int | None, edit: bool = False
) -> None:
    """Undo the user's latest move and answer privately with their menu for the board as it is again;
    ``edit`` replaces the private message the button was on. The thread's line follows from the outbox.
    ``version`` binds a button to its board (None: a typed command)."""
    bot = bot_of(interaction)
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    locale = await reader_locale(interaction)
    match = await bot.host.undo(
        match_id, interaction.user.id, expected_version=version, scope=scope_of(interaction)
    )
    log.info(
        "user %s took back a move in match %s (now at version %s)",
        interaction.user.id,
        match_id,
        match.version,
    )
    bot.kick_outbox()
    done = lines_text(locale, [took_back(match)], bot.host.namer(match))
    text, view = await next_menu(bot, match, interaction.user.id, locale)
    if edit:
        await interaction.edit_original_response(content=f"{done}\n{text}", view=view)
    elif view is not None:
        await interaction.followup.send(f"{done}\n{text}", view=view, ephemeral=True)
    else:
        await interaction.followup.send(f"{done}\n{text}", ephemeral=True)
