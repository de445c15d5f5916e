"""The registry of games: slug -> rules object, slug -> presentation (how it reads in chat), and slug ->
computer players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.contract import GameRules, Policy
from engine.core.errors import SetupError
from engine.core.presentation import GamePresentation
from engine.fifth_avenue import POLICIES as _FIFTH_POLICIES
from engine.fifth_avenue import PRESENTATION as _FIFTH_PRESENTATION
from engine.fifth_avenue import RULES as _FIFTH
from engine.ny1901 import POLICIES as _NY1901_POLICIES
from engine.ny1901 import PRESENTATION as _NY1901_PRESENTATION
from engine.ny1901 import RULES as _NY1901
from engine.ny_henn import POLICIES as _HENN_POLICIES
from engine.ny_henn import PRESENTATION as _HENN_PRESENTATION
from engine.ny_henn import RULES as _HENN
from engine.ny_piatnik import POLICIES as _PIATNIK_POLICIES
from engine.ny_piatnik import PRESENTATION as _PIATNIK_PRESENTATION
from engine.ny_piatnik import RULES as _PIATNIK
from engine.skyline import POLICIES as _SKYLINE_POLICIES
from engine.skyline import PRESENTATION as _SKYLINE_PRESENTATION
from engine.skyline import RULES as _SKYLINE

GAMES: Mapping[str, GameRules[Any, Any]] = {
    _FIFTH.name: _FIFTH,
    _NY1901.name: _NY1901,
    _HENN.name: _HENN,
    _PIATNIK.name: _PIATNIK,
    _SKYLINE.name: _SKYLINE,
}

PRESENTATIONS: Mapping[str, GamePresentation[Any, Any]] = {
    _FIFTH.name: _FIFTH_PRESENTATION,
    _NY1901.name: _NY1901_PRESENTATION,
    _HENN.name: _HENN_PRESENTATION,
    _PIATNIK.name: _PIATNIK_PRESENTATION,
    _SKYLINE.name: _SKYLINE_PRESENTATION,
}

POLICIES: Mapping[str, Mapping[str, Policy[Any, Any]]] = {
    _FIFTH.name: _FIFTH_POLICIES,
    _NY1901.name: _NY1901_POLICIES,
    _HENN.name: _HENN_POLICIES,
    _PIATNIK.name: _PIATNIK_POLICIES,
    _SKYLINE.name: _SKYLINE_POLICIES,
}


def get_game(slug: str) -> GameRules[Any, Any]:
    """The rules for ``slug``; raises ``SetupError`` listing the known games."""
    try:
        return GAMES[slug.strip().lower()]
    except KeyError:
        raise SetupError(f"unknown game: {slug!r}", sorted(GAMES)) from None


def get_presentation(slug: str) -> GamePresentation[Any, Any]:
    """How the game ``slug`` reads in chat; raises ``SetupError`` listing the known games."""
    return PRESENTATIONS[get_game(slug).name]


def get_policy(slug: str, name: str) -> Policy[Any, Any]:
    """The computer player ``name`` for game ``slug``; raises ``SetupError`` listing the known ones."""
    policies = POLICIES[get_game(slug).name]
    try:
        return policies[name]
    except KeyError:
        raise SetupError(f"unknown computer player for {slug}: {name!r}", sorted(policies)) from None
