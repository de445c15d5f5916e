"""Wilko Manz's *Fifth Avenue*: rules engine, presentation and computer players."""

from __future__ import annotations

from typing import Any

from engine.core.bots import RandomPolicy
from engine.core.contract import Policy
from engine.fifth_avenue.bots import GreedyPolicy
from engine.fifth_avenue.presentation import FifthAvenuePresentation
from engine.fifth_avenue.rules import FifthAvenueRules
from engine.fifth_avenue.strong import StrongPolicy

RULES = FifthAvenueRules()
PRESENTATION = FifthAvenuePresentation()
POLICIES: dict[str, Policy[Any, Any]] = {
    "random": RandomPolicy(),
    "greedy": GreedyPolicy(),
    "strong": StrongPolicy(),
}

__all__ = ["POLICIES", "PRESENTATION", "RULES", "FifthAvenuePresentation", "FifthAvenueRules", "GreedyPolicy"]
