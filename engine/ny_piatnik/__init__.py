"""Piatnik's *New York* (Sackson & Kübler, 1995): rules engine and computer players."""

from __future__ import annotations

from typing import Any

from engine.core.bots import RandomPolicy
from engine.core.contract import Policy
from engine.ny_piatnik.bots import GreedyPolicy
from engine.ny_piatnik.rules import NyPiatnikRules
from engine.ny_piatnik.strong import StrongPolicy

RULES = NyPiatnikRules()
POLICIES: dict[str, Policy[Any, Any]] = {
    "random": RandomPolicy(),
    "greedy": GreedyPolicy(),
    "strong": StrongPolicy(),
}

__all__ = ["POLICIES", "RULES", "GreedyPolicy", "NyPiatnikRules", "StrongPolicy"]
