"""Where a player's turn stands in a match's log: the board they last saw as theirs."""

from __future__ import annotations

from collections.abc import Sequence


def previous_turn_end(actions: Sequence[tuple[int, int]], seat: int, upto: int) -> int | None:
    """The version after ``seat``'s last action before its current turn, given the match's actions as
    (version, seat) in order and the version ``upto`` being shown: the board as that player left it.
    Their own steps of the current turn are skipped, so the answer stays put while the turn goes on.
    Before their first turn it is the board before the first action; None when nobody has acted."""
    played = [(version, by) for version, by in actions if version <= upto]
    index = _last_of_previous_turn(played, seat)
    if index >= 0:
        return played[index][0]
    return played[0][0] - 1 if played else None


def told_by_latest(latest: Sequence[tuple[int, int]], seat: int, upto: int) -> bool:
    """Whether the latest actions of a log up to ``upto`` (as ``previous_turn_end`` takes them, though
    not from the first) hold ``seat``'s previous turn, so that they give the same answer as the whole
    log: otherwise the answer lies further back."""
    played = [(version, by) for version, by in latest if version <= upto]
    return _last_of_previous_turn(played, seat) >= 0


def _last_of_previous_turn(played: Sequence[tuple[int, int]], seat: int) -> int:
    """The index in ``played`` of ``seat``'s last action before its current turn; -1 when there is none."""
    index = len(played) - 1
    while index >= 0 and played[index][1] == seat:
        index -= 1  # this turn's own steps
    while index >= 0 and played[index][1] != seat:
        index -= 1  # the others' moves since
    return index
