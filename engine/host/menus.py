"""Menus of legal moves small enough for a chat select menu (at most 25 options), in words.

A long list of moves is grouped level by level, by the menu levels the game names for its actions
(``GameRules.menu_path``), one more at each level, until the list splits; a level that still has too
many groups is paged. Each option either plays a notation or opens a narrower menu; its label is what the
reader sees, its value the notation or the level's key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from lang import DEFAULT, t, tn

MAX_OPTIONS = 25
LABEL_LIMIT = 100  # a select option's label
VALUE_LIMIT = 100  # a select option's value
MAX_ROWS = 5  # rows of controls in a message
BUTTONS_PER_ROW = 5
# Buttons share a row while their labels together stay short enough to read side by side on a phone.
ROW_WIDTH = 60
MAX_BUTTON_CHOICES = 10
PLAY = "="
OPEN = "?"
STEP = ";"  # joins the moves of a shortcut (a run of moves offered as one choice) in a value
KEY = "#"  # starts the short key that stands for a value too long for a select option


@dataclass(frozen=True, slots=True)
class MenuEntry:
    """One legal move: its notation, its label and its menu levels as (key, label), coarsest first."""

    notation: str
    label: str
    path: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class MenuOption:
    """One entry: ``value`` is ``=notation`` (play it) or ``?key|page`` (open that group)."""

    label: str
    value: str
    count: int = 1  # notations behind this option
    full: str = ""  # the whole label when ``label`` is cut to fit a button

    @property
    def whole_label(self) -> str:
        return self.full or self.label

    @property
    def fits_button(self) -> bool:
        return len(self.label) <= BUTTON_LABEL_LIMIT

    @property
    def is_shortcut(self) -> bool:
        """Whether choosing it plays a run of moves (``engine.host.shortcuts``)."""
        return self.value.startswith(PLAY) and STEP in self.value


def open_value(prefix: str, page: int = 0) -> str:
    return f"{OPEN}{prefix}|{page}"


def parse_value(value: str) -> tuple[str, str, int]:
    """``("play", notation, 0)`` or ``("open", prefix, page)``; raises ``ValueError`` otherwise."""
    if value.startswith(PLAY):
        return "play", value[len(PLAY) :], 0
    if value.startswith(OPEN) and "|" in value:
        prefix, _, page = value[len(OPEN) :].rpartition("|")
        return "open", prefix, int(page)
    raise ValueError(f"not a menu value: {value!r}")


def option_value(value: str) -> str:
    """``value`` as a select option carries it: whole when it fits in an option's 100 characters, else a
    short key of it (see ``unkey``), so that two long values that begin alike never read the same."""
    if len(value) <= VALUE_LIMIT:
        return value
    return KEY + hashlib.blake2b(value.encode(), digest_size=12).hexdigest()


def unkey(value: str, entries: Sequence[MenuEntry]) -> str | None:
    """The menu value that the select option ``value`` stands for in the menu of ``entries``: the value
    itself unless it is a key (see ``option_value``), else the value of the move or group it is the key of;
    None when no move or group of ``entries`` has that key (the menu it came from has moved on)."""
    if not value.startswith(KEY):
        return value
    return next((offered for offered in offered_values(entries) if option_value(offered) == value), None)


def offered_values(entries: Sequence[MenuEntry]) -> Iterator[str]:
    """Every value a menu of ``entries`` can offer: each move, and each group and page of groups."""
    for entry in entries:
        yield PLAY + entry.notation
    prefixes = dict.fromkeys(["", *(key for entry in entries for key, _ in entry.path)])
    pages = len(entries) // (MAX_OPTIONS - 2) + 1
    for prefix in prefixes:
        for page in range(pages):
            yield open_value(prefix, page)


def clip(label: str) -> str:
    """``label`` cut to a select option's 100 characters, marked with an ellipsis when cut."""
    return label if len(label) <= LABEL_LIMIT else label[: LABEL_LIMIT - 1] + "…"


def _play(entry: MenuEntry) -> MenuOption:
    return MenuOption(label=clip(entry.label), value=PLAY + entry.notation)


def build_menu(
    entries: Sequence[MenuEntry],
    prefix: str = "",
    page: int = 0,
    locale: str = DEFAULT,
    grouped: bool = False,
) -> list[MenuOption]:
    """The options to show for the moves under the menu level ``prefix`` (all when empty), labelled in
    ``locale``. Order follows ``entries`` (the rules' stable order); never more than 25 options. A short
    list is shown whole unless ``grouped``."""
    chosen = [e for e in entries if not prefix or any(key == prefix for key, _ in e.path)]
    if len(chosen) <= MAX_OPTIONS and not (grouped and any(e.path for e in chosen)):
        return [_play(e) for e in chosen]
    keys = [[key for key, _ in e.path] for e in chosen]
    depth = keys[0].index(prefix) + 1 if prefix and prefix in keys[0] else 0
    max_depth = max(len(k) for k in keys)
    groups: dict[str, list[MenuEntry]] = {}
    while True:
        groups = {}
        for entry in chosen:
            key = entry.path[depth][0] if depth < len(entry.path) else PLAY + entry.notation
            groups.setdefault(key, []).append(entry)
        if len(groups) > 1 or depth >= max_depth - 1:
            break
        depth += 1  # every move shares this level: look one level further
    options = []
    for key, members in groups.items():
        if len(members) == 1:
            options.append(_play(members[0]))
            continue
        # The count goes last, so a long label is cut before it rather than the count being lost.
        label = dict(members[0].path)[key][: LABEL_LIMIT - 24]
        counted = tn(
            locale, "{label} … ({count} choice)", "{label} … ({count} choices)", len(members), label=label
        )
        options.append(MenuOption(label=clip(counted), value=open_value(key), count=len(members)))
    if len(options) <= MAX_OPTIONS:
        return options
    per_page = MAX_OPTIONS - 2  # room for "previous" and "next"
    pages = (len(options) + per_page - 1) // per_page
    page = max(0, min(page, pages - 1))
    shown = options[page * per_page : (page + 1) * per_page]
    if page > 0:
        back = t(locale, "◀ previous (page {page} of {pages})", page=page, pages=pages)
        shown.insert(0, MenuOption(label=back, value=open_value(prefix, page - 1)))
    if page < pages - 1:
        forward = t(locale, "next ▶ (page {page} of {pages})", page=page + 2, pages=pages)
        shown.append(MenuOption(label=forward, value=open_value(prefix, page + 1)))
    return shown


@dataclass(frozen=True, slots=True)
class Slot:
    """One control of a move menu on its row: a button for one option, or a select of several (with
    ``placeholder`` naming its group; empty for the menu's main list)."""

    kind: Literal["button", "select"]
    row: int
    options: tuple[MenuOption, ...]
    placeholder: str = ""


BUTTON_LABEL_LIMIT = 80


def as_buttons(options: Sequence[MenuOption]) -> list[MenuOption]:
    """``options`` with labels cut to a button's 80 characters where that keeps them apart; a label
    that would then read like another's stays whole (and its option in a select)."""
    cut = [
        o.label if len(o.label) <= BUTTON_LABEL_LIMIT else o.label[: BUTTON_LABEL_LIMIT - 1] + "…"
        for o in options
    ]
    return [
        MenuOption(label=short, value=o.value, count=o.count, full=o.label)
        if short != o.label and cut.count(short) == 1
        else o
        for o, short in zip(options, cut, strict=True)
    ]


def button_rows(options: Sequence[MenuOption], rows: int) -> list[tuple[int, MenuOption]] | None:
    """``options`` laid out as buttons in at most ``rows`` rows: (row, option) pairs, each option on the
    first row with room for it (so the order holds unless a long label would waste a row); None when
    they do not fit (then they belong in a select)."""
    if len(options) > MAX_BUTTON_CHOICES:
        return None
    widths: list[int] = []
    counts: list[int] = []
    laid_out: list[tuple[int, MenuOption]] = []
    for option in options:
        wide = len(option.label) + 4  # a button's padding
        row = next(
            (n for n in range(len(widths)) if widths[n] + wide <= ROW_WIDTH and counts[n] < BUTTONS_PER_ROW),
            len(widths),
        )
        if row == len(widths):
            widths.append(0)
            counts.append(0)
        widths[row] += wide
        counts[row] += 1
        laid_out.append((row, option))
    return sorted(laid_out, key=lambda pair: pair[0]) if len(widths) <= rows else None


def lay_out(
    entries: Sequence[MenuEntry],
    prefix: str = "",
    page: int = 0,
    locale: str = DEFAULT,
    rows: int = MAX_ROWS,
    fits: Callable[[MenuOption], bool] = lambda option: True,
) -> list[Slot]:
    """The controls that offer the moves under ``prefix`` in ``rows`` rows, so that a move takes as few
    taps as can be: a button is one tap, a select two (open it, pick). ``fits`` says whether an option
    can be a button. At the top of the menu, each group of at most 25 moves is a select of its own (no
    tap to open the group), the other choices are buttons and what cannot be a button goes in one more
    select. Otherwise a few choices are buttons, and many are one select."""
    options = as_buttons(build_menu(entries, prefix, page, locale))
    top = not prefix and not page
    if top and not any(o.value.startswith(OPEN) and parse_value(o.value)[1] == "" for o in options):
        grouped = _by_group(entries, options, locale, rows, fits)
        if grouped is not None and any(c.placeholder for c in grouped):
            return grouped
    else:
        grouped = None
    laid = button_rows(options, rows) if all(o.fits_button and fits(o) for o in options) else None
    if laid is not None:
        return [Slot("button", row, (option,)) for row, option in laid]
    if top and not any(c.placeholder for c in grouped or ()) and any(o.is_shortcut for o in options):
        # A short menu with shortcuts that cannot all be buttons still gives each group its own select,
        # so that the single moves and the shortcuts stay one tap where a row is left for them.
        regrouped = as_buttons(build_menu(entries, prefix, page, locale, grouped=True))
        grouped = _by_group(entries, regrouped, locale, rows, fits) or grouped
    return grouped or [Slot("select", 0, whole(options))]


def whole(options: Sequence[MenuOption]) -> tuple[MenuOption, ...]:
    """``options`` as a select shows them: with their whole labels."""
    return tuple(MenuOption(label=o.whole_label, value=o.value, count=o.count) for o in options)


def _by_group(
    entries: Sequence[MenuEntry],
    options: Sequence[MenuOption],
    locale: str,
    rows: int,
    fits: Callable[[MenuOption], bool],
) -> list[Slot] | None:
    """The top level with each group of at most 25 moves as its own select, the other choices as
    buttons (but for the shortcuts that do not fit) and the rest in one more select; None when that
    takes more than ``rows`` rows or has no button."""
    own: list[tuple[MenuOption, tuple[MenuOption, ...]]] = []
    buttons: list[MenuOption] = []
    rest: list[MenuOption] = []
    for option in options:
        if option.value.startswith(OPEN):
            members = tuple(build_menu(entries, parse_value(option.value)[1], 0, locale))
            if all(member.value.startswith(PLAY) for member in members):
                own.append((option, members))
                continue
        (buttons if option.fits_button and fits(option) else rest).append(option)
    # Shortcuts take a button only where one is left: when the buttons need more rows than there are,
    # the last shortcuts join the one more select, and the single moves keep the layout they had.
    shortcuts = sum(1 for option in buttons if option.is_shortcut)
    for spilled in range(shortcuts + 1):
        kept = [o for o in buttons if not o.is_shortcut] + [o for o in buttons if o.is_shortcut][
            : shortcuts - spilled
        ]
        spill = [*rest, *(o for o in buttons if o not in kept)]
        selects = len(own) + (1 if spill else 0)
        laid = button_rows(kept, rows - selects) if selects < rows else None
        if laid is not None:
            break
    if laid is None or (not own and not buttons):
        return None
    buttons, rest = kept, spill
    controls = [
        Slot("select", row, members, placeholder=group.whole_label)
        for row, (group, members) in enumerate(own)
    ]
    if rest:
        controls.append(Slot("select", len(own), whole(rest)))
    return controls + [Slot("button", selects + row, (option,)) for row, option in laid]
