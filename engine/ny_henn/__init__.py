"""Dirk Henn's *New York*: rules engine, presentation and computer players."""

from __future__ import annotations

from typing import Any

from engine.core.bots import RandomPolicy
from engine.core.contract import Policy
from engine.ny_henn.bots import GreedyPolicy
from engine.ny_henn.presentation import NyHennPresentation
from engine.ny_henn.rules import NyHennRules
from engine.ny_henn.strong import StrongPolicy

RULES = NyHennRules()
PRESENTATION = NyHennPresentation()
POLICIES: dict[str, Policy[Any, Any]] = {
    "random": RandomPolicy(),
    "greedy": GreedyPolicy(),
    "strong": StrongPolicy(),
}

__all__ = [
    "POLICIES",
    "PRESENTATION",
    "RULES",
    "GreedyPolicy",
    "NyHennPresentation",
    "NyHennRules",
    "StrongPolicy",
]
