"""Plain-text pieces shared by every front end (the CLI demo and the Discord posts)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.contract import Outcome
from engine.host.ports import MatchRecord


def standings_lines(match: MatchRecord, outcome: Outcome) -> list[str]:
    """A small table: place, seat, name, score, then the game's own breakdown lines."""
    rows = sorted(range(len(outcome.places)), key=lambda s: (outcome.places[s], s))
    lines = ["Final standings:"]
    for seat in rows:
        player = match.player_at(seat)
        name = player.name if player else "?"
        lines.append(f"  {outcome.places[seat]}. S{seat + 1} {name:<12} {outcome.scores[seat]:>4} points")
    lines.extend(f"  {detail}" for detail in outcome.details)
    return lines


def clip_lines(lines: Sequence[str], budget: int) -> list[str]:
    """The last lines that fit in ``budget`` characters, preceded by a note of how many were left out."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        if used + len(line) + 1 > budget:
            break
        kept.append(line)
        used += len(line) + 1
    kept.reverse()
    skipped = len(lines) - len(kept)
    return ([f"… {skipped} earlier line(s)"] if skipped else []) + kept
