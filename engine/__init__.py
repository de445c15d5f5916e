"""Pure game engines and the game-agnostic host.

``engine.GAMES`` maps each slug to its rules object (see ``engine.registry``). The registry is loaded
lazily so that game packages can import ``engine.core`` without an import cycle.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in {"GAMES", "POLICIES", "get_game", "get_policy"}:
        from engine import registry

        return getattr(registry, name)
    raise AttributeError(name)
