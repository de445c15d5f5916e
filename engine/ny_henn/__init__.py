"""Dirk Henn's *New York*: rules engine and computer players."""

from __future__ import annotations

from typing import Any

from engine.core.bots import RandomPolicy
from engine.core.contract import Policy
from engine.ny_henn.bots import GreedyPolicy
from engine.ny_henn.rules import NyHennRules
from engine.ny_henn.strong import StrongPolicy

RULES = NyHennRules()
POLICIES: dict[str, Policy[Any, Any]] = {
    "random": RandomPolicy(),
    "greedy": GreedyPolicy(),
    "strong": StrongPolicy(),
}

__all__ = ["POLICIES", "RULES", "GreedyPolicy", "NyHennRules", "StrongPolicy"]
