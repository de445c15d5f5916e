"""Computer players that work for every game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.contract import GameRules
from engine.core.rng import Rng


class RandomPolicy:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(
        self, rules: GameRules[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: Rng
    ) -> Any:
        return rng.choice(legal)
