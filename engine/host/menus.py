"""Menus of legal moves small enough for a chat select menu (at most 25 options), in words.

A long list of moves is grouped level by level, by the menu levels the game names for its actions
(``GameRules.menu_path``), one more at each level, until the list splits; a level that still has too
many groups is paged. Each option either plays a notation or opens a narrower menu; its label is what the
reader sees, its value the notation or the level's key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lang import DEFAULT, t, tn

MAX_OPTIONS = 25
LABEL_LIMIT = 100  # a select option's label
PLAY = "="
OPEN = "?"


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


def clip(label: str) -> str:
    """``label`` cut to a select option's 100 characters, marked with an ellipsis when cut."""
    return label if len(label) <= LABEL_LIMIT else label[: LABEL_LIMIT - 1] + "…"


def _play(entry: MenuEntry) -> MenuOption:
    return MenuOption(label=clip(entry.label), value=PLAY + entry.notation)


def build_menu(
    entries: Sequence[MenuEntry], prefix: str = "", page: int = 0, locale: str = DEFAULT
) -> list[MenuOption]:
    """The options to show for the moves under the menu level ``prefix`` (all when empty), labelled in
    ``locale``. Order follows ``entries`` (the rules' stable order); never more than 25 options."""
    chosen = [e for e in entries if not prefix or any(key == prefix for key, _ in e.path)]
    if len(chosen) <= MAX_OPTIONS:
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
