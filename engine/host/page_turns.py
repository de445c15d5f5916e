"""A seat's turn on a whole page rather than in a chat menu (the web table): its moves in groups, the
choices of several items at once, and what a person reads after playing from the page or being refused.

The page acts for the seat its link opens; the person behind it is the seat's player, so a move from
the page goes through ``GameHost.act`` exactly as one from Discord does.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.errors import EngineError, NotSeated, StaleVersion
from engine.core.presentation import MultiSelect
from engine.core.say import Say
from engine.host.answers import lines_text, play_move
from engine.host.menu_pages import choice_title, plan_picks
from engine.host.menus import MenuEntry
from engine.host.ports import MatchRecord
from engine.host.service import GameHost
from engine.host.shortcuts import steps
from engine.host.text import GO_ON_ON_PAGE, HOST, refusal
from lang.says import render

# A page offers every item of a choice of several: no select's limit applies to a list of boxes.
ALL_ITEMS = 10_000

# A turn of at most this many moves shows them all at once; a longer one, each group folded.
FEW_MOVES = 12

# A page's move for a board that has moved on: the page shown with it has the board as it stands.
PAGE_STALE = HOST.say(
    "The board has changed since this page was drawn: here it is as it stands now. Choose again."
)

TAKEN_OVER = HOST.say("a computer player plays this seat now; its page can no longer play")


@dataclass(frozen=True, slots=True)
class PageMove:
    """One move a page offers: what it sends back (its ``notation``) and its words."""

    notation: str
    label: str


@dataclass(frozen=True, slots=True)
class MoveGroup:
    """Moves shown together under ``heading`` (the menu level they share; None for moves that stand
    alone, such as ending a phase)."""

    heading: str | None
    moves: tuple[PageMove, ...]


@dataclass(frozen=True, slots=True)
class PageChoice:
    """A choice of several items at once (cards to pay with, to exchange): its position among the seat's
    choices, its title, what to do, one label per item, and how few and how many to pick."""

    index: int
    title: str
    prompt: str
    items: tuple[str, ...]
    fewest: int
    most: int


@dataclass(frozen=True, slots=True)
class PageTurn:
    """What a seat may do on its page now: its moves in groups and its choices of several items."""

    groups: tuple[MoveGroup, ...]
    choices: tuple[PageChoice, ...]

    @property
    def open(self) -> bool:
        """Whether it has anything to do."""
        return bool(self.groups or self.choices)

    @property
    def few(self) -> bool:
        """Whether its moves are few enough to show every group open at once."""
        return sum(len(group.moves) for group in self.groups) <= FEW_MOVES or len(self.groups) <= 2


@dataclass(frozen=True, slots=True)
class PageAnswer:
    """What a page shows after a move sent from it: the ``lines`` of what was played (none when it was a
    second click of a move already played), or why nothing was (``refused``)."""

    lines: str = ""
    refused: str | None = None


def grouped(entries: Sequence[MenuEntry]) -> tuple[MoveGroup, ...]:
    """``entries`` gathered under their coarsest menu level, in the order the menu first meets each; the
    moves with no level come first, as one group without a heading."""
    groups: dict[str | None, list[PageMove]] = {None: []}
    for entry in entries:
        heading = entry.path[0][1] if entry.path else None
        groups.setdefault(heading, []).append(PageMove(entry.notation, entry.label))
    return tuple(MoveGroup(heading, tuple(moves)) for heading, moves in groups.items() if moves)


def page_turn(host: GameHost, match: MatchRecord, seat: int, locale: str) -> PageTurn:
    """``seat``'s moves and choices in ``match`` now, in ``locale``; nothing unless it must act."""
    if seat not in host.to_act(match):
        return PageTurn((), ())
    name = host.namer(match)
    choices = []
    for index, choice in enumerate(host.multi_selects(match, seat)):
        picks = plan_picks(locale, choice, name, ALL_ITEMS)
        choices.append(
            PageChoice(
                index,
                choice_title(locale, choice, name),
                render(locale, picks.prompt, name),
                picks.labels,
                picks.min_items,
                picks.max_items,
            )
        )
    return PageTurn(grouped(host.legal_menu(match, seat, locale)), tuple(choices))


def page_refusal(locale: str, error: EngineError, host: GameHost, match: MatchRecord) -> str:
    """Why a move sent from a page was refused, without the chat's hint (which names Discord's buttons and
    commands): the page shown with it is the board as it stands, with the moves open now."""
    if isinstance(error, StaleVersion):
        return render(locale, PAGE_STALE)
    plain = copy.copy(error)
    plain.hint = None
    return refusal(locale, plain, host.namer(match))


def how_many(choice: MultiSelect) -> Say:
    """How many items ``choice`` takes, for a person who ticked too few or too many."""
    fewest = min(choice.min_items, len(choice.items))
    most = min(choice.max_items, len(choice.items))
    if fewest == most:
        return HOST.say_n("tick {count} item", "tick {count} items", most)
    return HOST.say("tick from {fewest} to {most} items", fewest=fewest, most=most)


def _player_of(match: MatchRecord, seat: int) -> int:
    player = match.player_at(seat)
    if player is None or player.user_id is None:
        raise NotSeated(TAKEN_OVER)
    return player.user_id


async def play_from_page(
    host: GameHost, match: MatchRecord, seat: int, move: str, version: int, locale: str
) -> PageAnswer:
    """Play ``move`` (a notation the page offered, a shortcut's several included) for ``seat`` on the
    board at ``version``, as its player; what was played in words, or why it was refused (then nothing
    changed)."""
    try:
        answer = await play_move(
            host,
            match.id,
            _player_of(match, seat),
            move,
            steps(move),
            version,
            locale=locale,
            go_on=GO_ON_ON_PAGE,
        )
    except EngineError as refused:
        return PageAnswer(refused=page_refusal(locale, refused, host, match))
    if answer is None:
        return PageAnswer()
    return PageAnswer(lines_text(locale, answer.lines, host.namer(answer.match)))


async def pick_from_page(
    host: GameHost,
    match: MatchRecord,
    seat: int,
    index: int,
    picked: Sequence[int],
    version: int,
    locale: str,
) -> PageAnswer:
    """Play the items ``picked`` (their positions) of ``seat``'s choice number ``index`` on the board at
    ``version``, as its player; what was played, or why it was refused."""
    try:
        choice, _ = await host.multi_select(match.id, _player_of(match, seat), version, index)
        try:
            notation = choice.notation(picked)
        except ValueError:
            raise EngineError(how_many(choice)) from None
    except EngineError as refused:
        return PageAnswer(refused=page_refusal(locale, refused, host, match))
    return await play_from_page(host, match, seat, notation, version, locale)
