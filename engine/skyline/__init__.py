"""Hans van Tol's *Skyline of the World*: rules engine, presentation and computer players."""

from __future__ import annotations

from typing import Any

from engine.core.bots import RandomPolicy
from engine.core.contract import Policy
from engine.skyline.bots import GreedyPolicy
from engine.skyline.presentation import SkylinePresentation
from engine.skyline.rules import SkylineRules
from engine.skyline.strong import StrongPolicy

RULES = SkylineRules()
PRESENTATION = SkylinePresentation()
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
    "SkylinePresentation",
    "SkylineRules",
    "StrongPolicy",
]
