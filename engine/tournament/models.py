"""Tournament value models: the configuration, rounds as paired, results as played, standings.

Players are plain strings chosen by the host (user ids, computer names); the tournament code never
looks inside them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Literal

from pydantic import model_validator

from engine.core.contract import Frozen, Outcome
from engine.core.errors import SetupError

Format = Literal["swiss", "elimination", "roundrobin"]
FORMATS: tuple[Format, ...] = ("swiss", "elimination", "roundrobin")


class TournamentConfig(Frozen):
    """How a tournament is run.

    ``min_size``..``max_size`` is the table size range the game allows (e.g. 3..4) and ``preferred_size``
    the size to use as often as possible (default: ``max_size``). ``rounds`` is for Swiss only (default:
    ``total_rounds`` computes one); ``advance`` for elimination only (default: half of each table, rounded
    down, at least one). ``points`` maps a table size to the points of each place, best first (default:
    ``default_points``); ``bye_points`` is what a bye scores (default: a middle place at the preferred size).

    Construction raises ``SetupError`` for a combination that cannot work (``min_size > max_size``, a
    points row of the wrong length, ``rounds`` in an elimination, ...).
    """

    format: Format
    min_size: int
    max_size: int
    preferred_size: int | None = None
    rounds: int | None = None
    advance: int | None = None
    points: dict[int, tuple[float, ...]] | None = None
    bye_points: float | None = None

    @property
    def preferred(self) -> int:
        """The preferred table size, ``max_size`` when none was given."""
        return self.max_size if self.preferred_size is None else self.preferred_size

    @model_validator(mode="after")
    def _consistent(self) -> TournamentConfig:
        # SetupError is not a ValueError, so pydantic lets it through unwrapped: the host shows it as is.
        if self.min_size < 2:
            raise SetupError(f"tables need at least 2 players, not {self.min_size}", ["2"])
        if self.max_size < self.min_size:
            raise SetupError(
                f"the largest table ({self.max_size}) is smaller than the smallest ({self.min_size})",
                [str(n) for n in range(self.min_size, self.min_size + 5)],
            )
        if not self.min_size <= self.preferred <= self.max_size:
            raise SetupError(
                f"preferred table size {self.preferred} is outside {self.min_size}..{self.max_size}",
                [str(n) for n in range(self.min_size, self.max_size + 1)],
            )
        if self.rounds is not None:
            if self.format != "swiss":
                raise SetupError(f"a {self.format} tournament computes its own number of rounds")
            if self.rounds < 1:
                raise SetupError(f"a Swiss tournament needs at least one round, not {self.rounds}")
        if self.advance is not None:
            if self.format != "elimination":
                raise SetupError("only an elimination tournament has players advancing from tables")
            if not 1 <= self.advance < self.preferred:
                raise SetupError(
                    f"{self.advance} of {self.preferred} cannot go on: a table needs a winner and a loser",
                    [str(n) for n in range(1, self.preferred)],
                )
        for size, row in (self.points or {}).items():
            if not self.min_size <= size <= self.max_size:
                raise SetupError(
                    f"points are given for tables of {size}, outside {self.min_size}..{self.max_size}",
                    [str(n) for n in range(self.min_size, self.max_size + 1)],
                )
            if len(row) != size:
                raise SetupError(f"a table of {size} needs {size} place points, not {len(row)}")
            if any(not math.isfinite(p) for p in row) or any(a < b for a, b in pairwise(row)):
                raise SetupError(f"place points for tables of {size} must be finite and never rise: {row}")
        if self.bye_points is not None and not math.isfinite(self.bye_points):
            raise SetupError("bye points must be a number")
        return self


class Table(Frozen):
    """One table of a round: its number (1 = top table) and its players."""

    number: int
    players: tuple[str, ...]


class Round(Frozen):
    """The pairing of one round: the tables and the players who sit out with a bye."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    def table(self, number: int) -> Table:
        """The table numbered ``number``; raises ``KeyError`` if the round has none."""
        for table in self.tables:
            if table.number == number:
                return table
        raise KeyError(number)


class TableResult(Frozen):
    """The finished game of one table: per player (same order as ``players``) their place and score.

    ``places`` follow ``Outcome``: 1 is first and tied players share a place.
    """

    table: int
    players: tuple[str, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]

    @model_validator(mode="after")
    def _aligned(self) -> TableResult:
        if not len(self.players) == len(self.places) == len(self.scores):
            raise ValueError("players, places and scores must have the same length")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"a player sits twice at table {self.table}")
        if any(p < 1 for p in self.places):
            raise ValueError("places start at 1")
        return self

    @classmethod
    def from_outcome(cls, table: int, seats: Sequence[str], outcome: Outcome) -> TableResult:
        """The result of ``table`` from a match outcome; ``seats`` are the players in seat order."""
        return cls(table=table, players=tuple(seats), places=outcome.places, scores=outcome.scores)


class PlayedRound(Frozen):
    """A round with the results known so far (a table still playing has no result yet)."""

    round: Round
    results: tuple[TableResult, ...] = ()

    @model_validator(mode="after")
    def _matching(self) -> PlayedRound:
        seen: set[int] = set()
        for result in self.results:
            try:
                table = self.round.table(result.table)
            except KeyError:
                raise ValueError(f"round {self.round.number} has no table {result.table}") from None
            if set(table.players) != set(result.players) or len(table.players) != len(result.players):
                raise ValueError(f"the result of table {result.table} names other players than the table")
            if result.table in seen:
                raise ValueError(f"table {result.table} has two results")
            seen.add(result.table)
        return self

    @property
    def complete(self) -> bool:
        """Whether every table has a result."""
        return len(self.results) == len(self.round.tables)

    @property
    def pending(self) -> tuple[int, ...]:
        """Numbers of the tables still without a result."""
        done = {r.table for r in self.results}
        return tuple(t.number for t in self.round.tables if t.number not in done)


class Standing(Frozen):
    """One line of the standings.

    ``points`` are tournament points (placements and byes); ``game_score`` the sum of the player's own
    game scores; ``opponents_strength`` the Buchholz-style mean of the opponents' tournament points (see
    ``standings``). ``eliminated_round`` is the elimination round that knocked the player out (``None``
    while still in, and in the other formats).
    """

    player: str
    rank: int
    points: float
    game_score: int
    opponents_strength: float
    played: int
    byes: int
    dropped: bool = False
    eliminated_round: int | None = None
