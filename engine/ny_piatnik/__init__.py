"""Piatnik's *New York* (Sackson & Kübler, 1995): rules engine, presentation and computer players."""

from __future__ import annotations

from typing import Any

from engine.core.bots import RandomPolicy
from engine.core.contract import Policy
from engine.ny_piatnik.bots import GreedyPolicy
from engine.ny_piatnik.presentation import NyPiatnikPresentation
from engine.ny_piatnik.rules import NyPiatnikRules
from engine.ny_piatnik.strong import StrongPolicy

RULES = NyPiatnikRules()
PRESENTATION = NyPiatnikPresentation()
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
    "NyPiatnikPresentation",
    "NyPiatnikRules",
    "StrongPolicy",
]
