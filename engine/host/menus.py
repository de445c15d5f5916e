"""Menus of legal moves small enough for a chat select menu (at most 25 options).

A long list of notations is grouped level by level: by the menu levels the game names for its actions
(``menu_path``), or by default by leading tokens (words, and the parts of ``key=value`` and ``A-B``
words), one more at each level, until the list splits; a level that still has too many groups is paged.
Each option either plays a notation or opens a narrower menu.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

MAX_OPTIONS = 25
PLAY = "="
OPEN = "?"


@dataclass(frozen=True, slots=True)
class MenuOption:
    """One entry: ``value`` is ``=notation`` (play it) or ``?prefix|page`` (open that group)."""

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


_TOKEN = re.compile(r"[^ =,\-]+[ =,\-]?|[ =,\-]")


def _tokens(notation: str) -> list[str]:
    """``"play red=RJ at=LEX-57"`` -> ``["play ", "red=", "RJ ", "at=", "LEX-", "57"]``."""
    return _TOKEN.findall(notation)


def token_path(notation: str) -> tuple[str, ...]:
    """The default menu levels of a notation: its leading tokens, one more at each level."""
    tokens = _tokens(notation)
    return tuple("".join(tokens[:k]) for k in range(1, len(tokens) + 1))


def build_menu(
    notations: Sequence[str],
    prefix: str = "",
    page: int = 0,
    paths: Sequence[Sequence[str]] | None = None,
) -> list[MenuOption]:
    """The options to show for the notations under the menu level ``prefix`` (all when empty).

    ``paths`` gives each notation's menu levels, coarsest first, each key naming its level on its own
    (e.g. ``"build GO5"``, ``"build GO5 on lot B07"``); an empty path means ``token_path``. Order follows
    ``notations`` (the rules' stable order). The result never exceeds 25 options.
    """
    given = list(paths) if paths is not None else [()] * len(notations)
    entries = [(tuple(path) or token_path(n), n) for path, n in zip(given, notations, strict=True)]
    chosen = [(path, n) for path, n in entries if not prefix or prefix in path]
    if len(chosen) <= MAX_OPTIONS:
        return [MenuOption(label=n, value=PLAY + n) for _, n in chosen]
    depth = chosen[0][0].index(prefix) + 1 if prefix else 0
    max_depth = max(len(path) for path, _ in chosen)
    groups: dict[str, list[str]] = {}
    while True:
        groups = {}
        for path, notation in chosen:
            groups.setdefault(path[depth] if depth < len(path) else notation, []).append(notation)
        if len(groups) > 1 or depth >= max_depth - 1:
            break
        depth += 1  # every notation shares this level: look one level further
    options = [
        MenuOption(
            label=items[0] if len(items) == 1 else f"{key.rstrip(' =,-')} … ({len(items)} choices)",
            value=PLAY + items[0] if len(items) == 1 else open_value(key),
            count=len(items),
        )
        for key, items in groups.items()
    ]
    if len(options) <= MAX_OPTIONS:
        return options
    per_page = MAX_OPTIONS - 2  # room for "previous" and "next"
    pages = (len(options) + per_page - 1) // per_page
    page = max(0, min(page, pages - 1))
    shown = options[page * per_page : (page + 1) * per_page]
    if page > 0:
        shown.insert(
            0, MenuOption(label=f"◀ previous (page {page} of {pages})", value=open_value(prefix, page - 1))
        )
    if page < pages - 1:
        shown.append(
            MenuOption(label=f"next ▶ (page {page + 2} of {pages})", value=open_value(prefix, page + 1))
        )
    return shown
