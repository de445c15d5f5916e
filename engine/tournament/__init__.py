"""Tournaments over any game: formats, pairings and standings, all pure.

Three formats (``TournamentConfig.format``):

- ``swiss``: each round groups players of similar points at tables of the allowed sizes, avoiding
  rematches and rotating byes fairly (``engine.tournament.swiss``).
- ``elimination``: the best of each table go on until one final table decides the winner
  (``engine.tournament.elimination``).
- ``roundrobin``: every pair of players meets at least once; fields of up to 16
  (``engine.tournament.roundrobin``).

Table sizes follow ``table_sizes`` (fewest byes, then the preferred size); points and tie-breaks are
described in ``engine.tournament.scoring`` and ``standings``. Usage::

    config = TournamentConfig(format="swiss", min_size=3, max_size=4)
    history: list[PlayedRound] = []
    while not is_finished(config, players, history, dropped):
        rnd = pair_round(config, players, history, dropped, seed=seed)
        ...  # play each table, then TableResult.from_outcome(table.number, seats, outcome)
        history.append(PlayedRound(round=rnd, results=results))
    table = standings(config, players, history, dropped, seed=seed)
"""

from engine.tournament.formats import check_field, is_finished, pair_round, standings, total_rounds
from engine.tournament.models import (
    FORMATS,
    Format,
    PlayedRound,
    Round,
    Standing,
    Table,
    TableResult,
    TournamentConfig,
)
from engine.tournament.scoring import placement_points, table_points
from engine.tournament.sizes import table_sizes

__all__ = [
    "FORMATS",
    "Format",
    "PlayedRound",
    "Round",
    "Standing",
    "Table",
    "TableResult",
    "TournamentConfig",
    "check_field",
    "is_finished",
    "pair_round",
    "placement_points",
    "standings",
    "table_points",
    "table_sizes",
    "total_rounds",
]
