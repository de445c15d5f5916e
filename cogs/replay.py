"""/replay: step through a match move by move, privately. Each step shows the board as it stood after that
move (the public board of the time, never today's, or for a seated player their own view of that time)
and what the move said, in the reader's language. The buttons carry the match, the move and the view, so
they keep working after a restart."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import lang
from cogs._animations import shortened_note
from cogs._components import Guarded, bot_of, scope_of
from cogs._exports import Answer, Exports
from cogs._lang import reader_locale
from cogs.lobby import thread_id_of
from engine.core.errors import CorruptRecord, NotSeated, StaleVersion
from engine.host.history import Jump, kept_log, unreadable
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.text import HOST
from lang import t
from lang.says import Namer, render

if TYPE_CHECKING:
    from cogs._bot import Bot

# The last move, whatever number it has.
LATEST = 10**9
# What each button does: its symbol and the move it goes to, from the move shown and the last one.
STEPS = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}


class ReplayButton(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ba:replay:(?P<match_id>[0-9]{1,20}):(?P<move>[0-9]{1,20}):(?P<own>[po]):(?P<kind>[fpnlv])",
):
    """A step of the replay: ``kind`` first, previous, next, last, or ``v`` to switch between the public
    board and the player's own view; ``own`` is ``o`` when the step shows the player's own view."""

    def __init__(
        self,
        match_id: int,
        move: int,
        own: str,
        kind: str,
        label: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label if kind == "v" else None,
                emoji=STEPS.get(kind),
                style=discord.ButtonStyle.secondary,
                custom_id=f"ba:replay:{match_id}:{move}:{own}:{kind}",
                disabled=disabled,
            )
        )
        self.match_id, self.move, self.own = match_id, move, own == "o"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        await show_move(interaction, self.match_id, self.move, self.own, edit=True)


class JumpSelect(
    Guarded,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ba:replay:jump:(?P<match_id>[0-9]{1,20}):(?P<own>[po])",
):
    """Jumps to the end of a turn or to a scoring; each option's value is ``t`` or ``s`` and the move."""

    def __init__(
        self,
        match_id: int,
        own: str,
        options: Sequence[discord.SelectOption] = (),
        locale: str = lang.DEFAULT,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=t(locale, "Jump to a turn or a scoring…"),
                custom_id=f"ba:replay:jump:{match_id}:{own}",
                options=list(options),
                row=1,
            )
        )
        self.match_id, self.own = match_id, own == "o"

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        value = self.item.values[0] if self.item.values else ""
        if not (value[:1] in ("t", "s") and value[1:].isascii() and value[1:].isdigit() and len(value) <= 12):
            raise StaleVersion(HOST.say("that choice is out of date: ask for /replay again"))
        await show_move(interaction, self.match_id, int(value[1:]), self.own, edit=True)


async def show_move(
    interaction: discord.Interaction[Any], match_id: int, move: int, own: bool, edit: bool = False
) -> None:
    """Answer privately (or, from a button, in place) with the board after ``move`` and its steps."""
    bot = bot_of(interaction)
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    locale = await reader_locale(interaction)
    match = await bot.host.match(match_id, scope_of(interaction))
    seat = match.seat_of(interaction.user.id)
    if own and seat is None:
        raise NotSeated(
            t(
                locale,
                "you are not playing in match #{number}, so it has no view of your own",
                number=match.id,
            )
        )
    kept = await kept_log(bot.host, match)
    try:
        shown = await bot.renderer.replay_step(match, kept, move, seat if own else None, locale)
    except CorruptRecord as exc:
        raise unreadable(match, exc) from None
    png = shown.png
    name = bot.notifier.namer(match)
    lines = [
        bot.notifier.heading(match, locale)
        + " · "
        + (
            t(locale, "the opening")
            if shown.move == 0
            else t(locale, "move {move} of {moves}", move=shown.move, moves=shown.moves)
        ),
        *(render(locale, say, name) for say in shown.says),
    ]
    if own:
        lines.append(t(locale, "Your own view at that moment: nobody else sees it."))
    controls = steps(match.id, shown.move, shown.moves, own, seat is not None, locale)
    if shown.places:
        options = jump_options(shown.places, shown.move, name, locale)
        controls.add_item(JumpSelect(match.id, "o" if own else "p", options, locale))
    files = [discord.File(io.BytesIO(png), filename="board.png")] if png is not None else []
    if edit:
        await interaction.edit_original_response(content="\n".join(lines), attachments=files, view=controls)
    else:
        await interaction.followup.send("\n".join(lines), files=files, view=controls, ephemeral=True)


def steps(match_id: int, move: int, moves: int, own: bool, seated: bool, locale: str) -> discord.ui.View:
    """The ⏮ ◀ ▶ ⏭ buttons around ``move`` of ``moves``, and for a seated player the switch of view."""
    view = discord.ui.View(timeout=None)
    mode = "o" if own else "p"
    targets = {"f": 0, "p": max(0, move - 1), "n": min(moves, move + 1), "l": moves}
    for kind, target in targets.items():
        view.add_item(ReplayButton(match_id, target, mode, kind, disabled=target == move))
    if seated:
        label = t(locale, "Public board") if own else t(locale, "My view")
        view.add_item(ReplayButton(match_id, move, "p" if own else "o", "v", label=label))
    return view


async def send_animation(interaction: discord.Interaction[Any], match: MatchRecord) -> None:
    """Answer privately with the animation of ``match`` so far: the public board after every move, once
    its turn in the line of exports comes (see ``cogs._exports``)."""
    bot = bot_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = await reader_locale(interaction)

    async def answer() -> Answer:
        animation = await bot.animator.of(match)
        text = t(
            locale, "{match}, move by move: save it or share it.", match=bot.notifier.heading(match, locale)
        )
        note = shortened_note(locale, animation)
        return Answer(f"{text}\n{note}" if note else text, animation.gif, f"match-{match.id}.gif")

    await exports_of(bot).ask(interaction, locale, answer)


def exports_of(bot: Bot) -> Exports:
    """The bot's line of exports, kept by the replay cog."""
    # The cog is found by name, not by its class: loading the extension imports this module afresh, with a
    # class of its own.
    exports = getattr(bot.get_cog("Replay"), "exports", None)
    if not isinstance(exports, Exports):
        raise RuntimeError("the replay cog is not loaded")
    return exports


def clipped(text: str, most: int = 100) -> str:
    """``text`` within a select option's limit, cut with an ellipsis."""
    return text if len(text) <= most else text[: most - 1] + "…"


def jump_options(places: Sequence[Jump], move: int, name: Namer, locale: str) -> list[discord.SelectOption]:
    """The select's options: each turn's end and each scoring, the one holding ``move`` chosen."""
    options = []
    for place in places:
        if place.final:
            label = t(locale, "🏆 Final scoring, move {move}", move=place.move)
            value = f"s{place.move}"
        elif place.scoring:
            label = t(locale, "🏆 Scoring, move {move}", move=place.move)
            value = f"s{place.move}"
        else:
            label = t(locale, "Turn {turn}: {player}", turn=place.turn, player=name(place.seat or 0))
            value = f"t{place.move}"
        if place.scoring and place.says:
            about = render(locale, place.says[0], name)
        elif place.first >= place.move:
            about = t(locale, "move {move}", move=place.move)
        else:
            about = t(locale, "moves {first} to {last}", first=place.first, last=place.move)
        here = place.move == move if place.scoring else place.first <= move <= place.move
        options.append(
            discord.SelectOption(label=clipped(label), value=value, description=clipped(about), default=here)
        )
    # One default at most: a scoring shown is chosen rather than the turn that holds it.
    chosen = [o for o in options if o.default]
    keep = next((o for o in reversed(chosen) if o.value.startswith("s")), chosen[0] if chosen else None)
    for option in chosen:
        option.default = option is keep
    return options


class Replay(commands.Cog):
    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.exports = Exports(bot)

    async def cog_unload(self) -> None:
        await self.exports.close()

    @app_commands.command(name="replay", description="Step through a match move by move, privately")
    @app_commands.describe(
        match="The match number (default: this thread's match)",
        move="The move to show (0: the opening; default: the latest)",
        export="Send the animation of the whole match so far instead, to save or share",
    )
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        match: int | None = None,
        move: int | None = None,
        export: bool = False,
    ) -> None:
        record = await self.bot.host.find_match(
            scope_of(interaction), match, thread_id_of(interaction), list(MatchStatus)
        )
        if export:
            await send_animation(interaction, record)
        else:
            await show_move(interaction, record.id, LATEST if move is None else max(0, move), own=False)


async def setup(bot: Bot) -> None:
    await bot.add_cog(Replay(bot))
