"""A move menu as a front end lays it out: which entries are selects and which are buttons, on which rows,
where the choices of several items at once and the Undo button go, and what the menu says above them.

The host plans the page from a person's ``Table`` (see ``GameHost.menu``) and the grid the front end
offers (rows, buttons per row, and which options its buttons can carry); the front end only turns each
planned control into a component of its own. Everything here is data: no front end is named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.core.presentation import MultiSelect
from engine.core.say import Say
from engine.host.menus import BUTTONS_PER_ROW, MAX_OPTIONS, MAX_ROWS, MenuOption, Slot, clip, lay_out
from engine.host.table import Table
from engine.host.text import HOST
from lang.says import Namer, render

# The placeholders of a select of moves and of a select of several items.
CHOOSE_MOVE = HOST.say("Choose a move…")
CHOOSE_ITEMS = HOST.say("Choose the items…")


@dataclass(frozen=True, slots=True)
class Grid:
    """The room a front end gives a menu: ``rows`` of at most ``per_row`` buttons; ``fits`` says whether
    an option can be a button there (its label and value within the front end's limits)."""

    rows: int = MAX_ROWS
    per_row: int = BUTTONS_PER_ROW
    fits: Callable[[MenuOption], bool] = lambda option: True


@dataclass(frozen=True, slots=True)
class ChoiceSlot:
    """A button that opens the choice of several items at position ``index`` of the table's choices,
    labelled ``label`` (in the reader's language), on ``row``."""

    index: int
    label: str
    row: int


@dataclass(frozen=True, slots=True)
class MenuPage:
    """One page of a move menu: ``text`` above it; either the only move (``one_move``, its label: one tap
    plays it) or the ``controls`` of the moves; the ``choices`` of several items; and the row of the Undo
    button (None: no Undo)."""

    text: Say
    controls: tuple[Slot, ...] = ()
    one_move: str | None = None
    choices: tuple[ChoiceSlot, ...] = ()
    undo_row: int | None = None


def plan_menu(table: Table, locale: str, prefix: str = "", page: int = 0, grid: Grid = Grid()) -> MenuPage:
    """``table``'s move menu at the ``prefix`` level (the top when empty) and ``page``, in ``locale``,
    laid out in ``grid``, with an Undo button on the last row when the player may take back their latest
    move."""
    match, entries, undo = table.match, table.menu, table.may_undo
    last = grid.rows - 1
    choices = table.choices if not prefix else ()
    if len(entries) == 1 and not choices:
        # One legal move: one tap plays it.
        text = HOST.say("Your only move in match #{number}:", number=match.id)
        return MenuPage(text, one_move=entries[0].label, undo_row=last if undo else None)
    # Several-card choices (and Undo beside them) fill the last rows, as many as their buttons need.
    trailing = len(choices) + (1 if undo else 0) if choices else 0
    rows = grid.rows - -(-trailing // grid.per_row)
    controls = lay_out(entries, prefix, page, locale, rows, grid.fits)
    undo_row = None if choices else room_for_one_button(controls, rows, grid.per_row)
    if undo and not choices and undo_row is None:
        # No row has room for Undo: the moves make do with one row fewer.
        controls = lay_out(entries, prefix, page, locale, rows - 1, grid.fits)
        undo_row = rows - 1
    slots = tuple(
        ChoiceSlot(index, choice_title(locale, choice, table.name), rows + index // grid.per_row)
        for index, choice in enumerate(choices)
    )
    if choices:
        # Undo comes last, after every choice, so it is never read as one of them.
        undo_row = last
    text = HOST.say_n(
        "Your move in match #{number}: {count} possible move. Pick it:",
        "Your move in match #{number}: {count} possible moves. Pick one:",
        len(entries),
        number=match.id,
    )
    if prefix:
        group = next((label for e in entries for key, label in e.path if key == prefix), prefix)
        text = HOST.say("{group}: pick one.", group=group)
    return MenuPage(text, tuple(controls), choices=slots, undo_row=undo_row if undo else None)


def room_for_one_button(controls: Sequence[Slot], rows: int, per_row: int = BUTTONS_PER_ROW) -> int | None:
    """A row of ``rows`` where one more button fits beside ``controls``: an empty one, else the last row
    of buttons with room left; None when every row is full (a select fills its row)."""
    used = {c.row for c in controls}
    free = [row for row in range(rows) if row not in used]
    if free:
        return free[-1]
    buttons = [c.row for c in controls if c.kind == "button"]
    selects = {c.row for c in controls if c.kind != "button"}
    for row in sorted(set(buttons) - selects, reverse=True):
        if buttons.count(row) < per_row:
            return row
    return None


# What a choice of several items is called when its game gives it no title of its own.
CHOOSE_SEVERAL = HOST.say("Choose several")


def choice_title(locale: str, choice: MultiSelect, name: Namer) -> str:
    """What a choice of several items is called, in ``locale``: in words, never its notation."""
    return render(locale, choice.title or CHOOSE_SEVERAL, name)


@dataclass(frozen=True, slots=True)
class Picks:
    """The items of a choice of several at once as a front end offers them: ``prompt`` above, one label
    per item offered (at most ``most`` of them, in the order of the choice's items; an item's value is its
    position), and how few and how many may be picked."""

    prompt: Say
    labels: tuple[str, ...]
    min_items: int
    max_items: int


def plan_picks(locale: str, choice: MultiSelect, name: Namer, most: int = MAX_OPTIONS) -> Picks:
    """``choice``'s items in ``locale``, at most ``most`` of them."""
    shown = choice.items[:most]
    labels = [render(locale, item, name) for item in choice.item_labels] or list(shown)
    prompt = HOST.say("{choice}: pick the items.", choice=choice.title or choice.label)
    return Picks(
        prompt,
        tuple(clip(label) for label in labels[: len(shown)]),
        min(choice.min_items, len(shown)),
        min(choice.max_items, len(shown)),
    )
