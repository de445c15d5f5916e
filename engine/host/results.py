"""What the host answers an accepted command with."""

from __future__ import annotations

from dataclasses import dataclass

from engine.host.ports import MatchRecord


@dataclass(frozen=True, slots=True)
class ActResult:
    """What an accepted command led to: the match as committed and the public lines it produced."""

    match: MatchRecord
    lines: tuple[str, ...]
    notation: str | None = None
    label: str | None = None  # the move as the player read it in the menu, in the language asked for
    # What went wrong after the move was stored (the computer players' moves that follow it): the move
    # stands, and the match waits for the computers to be run again.
    trouble: BaseException | None = None
