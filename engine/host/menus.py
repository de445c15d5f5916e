"""Menus of legal moves small enough for a chat select menu (at most 25 options).

A long list of notations is grouped by its leading tokens (words, and the parts of ``key=value`` and
``A-B`` words): first by the first token, then by the first two, and so on, until the list splits; a
level that still has too many groups is paged. Each option either plays a notation or opens a
narrower menu.
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


def _group_key(notation: str, depth: int) -> str:
    return "".join(_tokens(notation)[:depth])


def build_menu(notations: Sequence[str], prefix: str = "", page: int = 0) -> list[MenuOption]:
    """The options to show for the notations that start with ``prefix`` (all when empty).

    Order follows ``notations`` (the rules' stable order). The result never exceeds 25 options.
    """
    chosen = [n for n in notations if n.startswith(prefix)]
    if len(chosen) <= MAX_OPTIONS:
        return [MenuOption(label=n, value=PLAY + n) for n in chosen]
    depth = len(_tokens(prefix)) + 1
    groups: dict[str, list[str]] = {}
    max_depth = max(len(_tokens(n)) for n in chosen)
    while True:
        groups = {}
        for notation in chosen:
            groups.setdefault(_group_key(notation, depth), []).append(notation)
        if len(groups) > 1 or depth >= max_depth:
            break
        depth += 1  # every notation shares this word: look one word further
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
