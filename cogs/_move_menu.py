"""A player's private menu of moves: the button that opens it, its selects and buttons, playing what
is chosen there, and taking a move back."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs._components import bot_of, chosen, scope_of
from cogs._lang import reader_locale
from cogs._reply import reply
from engine.core.errors import EngineError, StaleVersion
from engine.host import controls
from engine.host.answers import (
    after_change,
    lines_text,
    menu_choice,
    play_move,
    took_back,
    what_follows_stored,
)
from engine.host.controls import Pressed
from engine.host.menu_pages import plan_picks
from engine.host.menus import MAX_OPTIONS, parse_value
from engine.host.outgoing import Outgoing
from engine.host.shortcuts import steps
from engine.host.table import STALE_CHOICE
from lang.says import render

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


async def open_menu(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Play: opens the seat's menu of legal moves, privately."""
    await send_move_menu(interaction, pressed.number("match_id"), pressed.number("version"))


async def send_move_menu(
    interaction: discord.Interaction[Any], match_id: int, version: int | None, prefix: str = "", page: int = 0
) -> None:
    """Answer privately with a select of the user's legal moves (grouped and paged to fit); a group or a
    page of the menu replaces the menu it was chosen in."""
    locale = await reader_locale(interaction)
    table = await bot_of(interaction).host.menu(
        match_id, interaction.user.id, locale, version, scope_of(interaction)
    )
    in_place = bool(prefix or page) and not interaction.response.is_done()
    await reply(interaction, controls.menu(table, locale, prefix, page), edit=in_place)


async def select_move(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """A move menu's select (a menu may hold several, one per group, told apart by their ``slot``)."""
    values = chosen(interaction)
    await choose(
        interaction, pressed.number("match_id"), pressed.number("version"), values[0] if values else ""
    )


async def pick_move(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """One choice of a short move menu, as a button: like the select's option."""
    await choose(interaction, pressed.number("match_id"), pressed.number("version"), pressed.part("value"))


async def choose(interaction: discord.Interaction[Any], match_id: int, version: int, value: str) -> None:
    """Act on a menu value: play its notation, or narrow the menu to its group."""
    host = bot_of(interaction).host
    value = await menu_choice(host, match_id, interaction.user.id, version, value, scope_of(interaction))
    try:
        kind, chosen, page = parse_value(value)
    except ValueError:
        raise StaleVersion(STALE_CHOICE) from None
    if kind == "open":
        await send_move_menu(interaction, match_id, version, chosen, page)
        return
    await play_notation(interaction, match_id, chosen, version, edit=True, run=steps(chosen))


async def play_notation(
    interaction: discord.Interaction[Any],
    match_id: int,
    notation: str | int | None,
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
            # A menu keeps its message, which the answer then edits; a typed move shows that the bot
            # is thinking.
            await interaction.response.defer(ephemeral=not edit, thinking=not edit)
    answered = await answering
    if answered is None:
        if not interaction.response.is_done():
            await interaction.response.defer()  # acknowledged, and nothing to say
        return
    answer, played = answered
    await reply_after_change(interaction, answer, played, locale, edit)


async def reply_after_change(
    interaction: discord.Interaction[Any], answer: Outgoing, done: str, locale: str, edit: bool
) -> None:
    """Send ``answer`` to a person whose move (or undo) is stored; should that fail, they still read
    what was ``done`` and that it stands, never that nothing changed."""
    try:
        await reply(interaction, answer, edit=edit)
    except Exception as exc:
        await reply(interaction, after_change(done, exc, locale), edit=edit)


async def _answer(
    interaction: discord.Interaction[Any],
    match_id: int,
    notation: str | int | None,
    run: Sequence[str],
    version: int | None,
    seen_version: int | None,
    locale: str,
    edit: bool,
) -> tuple[Outgoing, str] | None:
    """Plays the move (see ``play_move``) and what the reply shows: what was played and, on a menu's own
    message, what follows (see ``what_follows``), with what was played in words alone; None for a
    second click of the choice just played."""
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
    played = lines_text(locale, answer.lines, bot.host.namer(answer.match))
    if not edit or answer.troubled:
        return Outgoing(played), played
    # The menu carries on through a multi-step turn: the same private message offers the next decision,
    # until the turn passes to someone else.
    return await what_follows_stored(bot.host, answer.match, user, locale, answer.lines), played


async def play_one(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Plays the seat's only legal move on the board it was made for."""
    await play_notation(interaction, pressed.number("match_id"), None, pressed.number("version"), edit=True)


async def open_picks(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Opens a choice of several items at once (cards to exchange, to pay with, to bid)."""
    match_id, version, index = pressed.number("match_id"), pressed.number("version"), pressed.number("index")
    choice, table = await bot_of(interaction).host.multi_select(
        match_id, interaction.user.id, version, index, scope_of(interaction)
    )
    locale = await reader_locale(interaction)
    picks = plan_picks(locale, choice, table.name, MAX_OPTIONS)
    prompt = render(locale, picks.prompt, table.name)
    await reply(
        interaction, Outgoing(prompt, controls.picks(match_id, version, index, picks, locale)), edit=True
    )


async def play_picks(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Plays the items chosen in a choice of several."""
    match_id, version = pressed.number("match_id"), pressed.number("version")
    choice, _ = await bot_of(interaction).host.multi_select(
        match_id, interaction.user.id, version, pressed.number("index"), scope_of(interaction)
    )
    values = chosen(interaction)
    if not all(value.isascii() and value.isdigit() and len(value) <= 3 for value in values):
        raise StaleVersion(STALE_CHOICE)
    try:
        notation = choice.notation([int(value) for value in values])
    except ValueError as exc:
        raise EngineError(str(exc)) from exc
    await play_notation(interaction, match_id, notation, version, edit=True)


async def undo(interaction: discord.Interaction[Any], pressed: Pressed) -> None:
    """Undo: takes back the presser's latest move on the board it was made for. On a private menu
    (``menu``), the answer replaces the menu; a post's is answered privately."""
    match_id, version = pressed.number("match_id"), pressed.number("version")
    await take_back(interaction, match_id, version, edit=bool(pressed.part("menu")))


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
    done = [took_back(match)]
    answer = await what_follows_stored(bot.host, match, interaction.user.id, locale, done)
    await reply_after_change(
        interaction, answer, lines_text(locale, done, bot.host.namer(match)), locale, edit
    )
