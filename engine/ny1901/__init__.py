"""New York 1901 (La Salle, Blue Orange 2015): rules engine, presentation and computer players."""

from __future__ import annotations

from typing import Any

from engine.core.bots import RandomPolicy
from engine.core.contract import Policy
from engine.ny1901.bots import GreedyPolicy
from engine.ny1901.presentation import Ny1901Presentation
from engine.ny1901.rules import Ny1901Rules
from engine.ny1901.strong import strong_policy

RULES = Ny1901Rules()
PRESENTATION = Ny1901Presentation()
POLICIES: dict[str, Policy[Any, Any]] = {
    "random": RandomPolicy(),
    "greedy": GreedyPolicy(),
    "strong": strong_policy(),
}

__all__ = ["POLICIES", "PRESENTATION", "RULES", "GreedyPolicy", "Ny1901Presentation", "Ny1901Rules"]
