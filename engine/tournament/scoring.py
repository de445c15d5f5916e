"""Placement points, byes, per-player tallies and the seeded coin behind the last tie-break.

Default placement points: a table of ``s`` gives place ``p`` the points ``(s - p) / (s - 1)``, so a win is
worth 1 and last place 0 at every table size (2 players: 1/0; 3: 1, 1/2, 0; 4: 1, 2/3, 1/3, 0). Two reasons:
a Swiss round mixes table sizes (4+3+3+3), and with this scale every table hands out 1/2 point per player
on average, so nobody gains or loses from the size of the table they were put at; and a 2-player game
scores like chess (1, 0, a draw 1/2 each). Tied places share the points of the places they cover (two
players tied for first at a table of 4 get (1 + 2/3) / 2 each). A bye scores a middle place at the
preferred size (1/2 on the default scale), the value of an average game.

Points are kept as exact fractions inside, so equal totals compare equal whatever order they were added in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from engine.core.rng import Rng
from engine.tournament.models import PlayedRound, TournamentConfig

# Rng streams of this package, away from the ones the games use (engine.core.rng).
COIN_STREAM = 0x7C01 << 32
ROUND_STREAM = 0x7C02 << 32


def default_points(size: int) -> tuple[Fraction, ...]:
    """Points per place at a table of ``size``: 1 for a win down to 0 for last, evenly spaced."""
    return tuple(Fraction(size - place, size - 1) for place in range(1, size + 1))


def exact_points(config: TournamentConfig, size: int) -> tuple[Fraction, ...]:
    """Points per place (best first) at a table of ``size`` under ``config``, as exact fractions."""
    row = (config.points or {}).get(size)
    return default_points(size) if row is None else tuple(Fraction(p) for p in row)


def table_points(config: TournamentConfig, size: int) -> tuple[float, ...]:
    """Points per place (best first) at a table of ``size`` under ``config``."""
    return tuple(float(p) for p in exact_points(config, size))


def exact_placement_points(config: TournamentConfig, places: Sequence[int]) -> tuple[Fraction, ...]:
    """Points per player for one game's ``places`` (1 = first); tied players share their places' points.

    Places may be written either way for ties (1, 1, 3 or 1, 1, 2): a group of tied players always
    covers the positions right after everyone placed strictly better.
    """
    row = exact_points(config, len(places))
    out = [Fraction(0)] * len(places)
    order = sorted(range(len(places)), key=lambda i: places[i])
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and places[order[end]] == places[order[start]]:
            end += 1
        share = sum(row[start:end], Fraction(0)) / (end - start)
        for i in order[start:end]:
            out[i] = share
        start = end
    return tuple(out)


def placement_points(config: TournamentConfig, places: Sequence[int]) -> tuple[float, ...]:
    """Tournament points per player for one game's ``places``; see ``exact_placement_points``."""
    return tuple(float(p) for p in exact_placement_points(config, places))


def exact_bye_points(config: TournamentConfig) -> Fraction:
    """What a bye scores: ``bye_points`` if set, else the median place points at the preferred size."""
    if config.bye_points is not None:
        return Fraction(config.bye_points)
    row = exact_points(config, config.preferred)
    mid = len(row) // 2
    return row[mid] if len(row) % 2 else (row[mid - 1] + row[mid]) / 2


def coin_order(players: Iterable[str], seed: int) -> dict[str, int]:
    """A seeded random rank per player (0 wins the coin); it does not depend on the order given."""
    ordered = Rng.from_seed(seed, COIN_STREAM).shuffled(sorted(set(players)))
    return {player: i for i, player in enumerate(ordered)}


def round_rng(seed: int, number: int) -> Rng:
    """The generator for pairing round ``number`` of the tournament with ``seed``."""
    return Rng.from_seed(seed, ROUND_STREAM | number)


@dataclass(slots=True)
class Tally:
    """Everything the standings need about one player, summed over the results known so far."""

    player: str
    points: Fraction = Fraction(0)
    game_score: int = 0
    played: int = 0
    byes: int = 0
    # One entry per game played: the other players at the table.
    opponents: list[tuple[str, ...]] = field(default_factory=list)
    # Points of the latest game played (elimination ranks players knocked out together by it).
    last_points: Fraction = Fraction(0)


def tallies(
    config: TournamentConfig, players: Sequence[str], history: Sequence[PlayedRound]
) -> dict[str, Tally]:
    """A tally per player from every result and bye in ``history`` (tables still playing count nothing)."""
    out = {p: Tally(p) for p in players}
    bye = exact_bye_points(config)
    for played in history:
        for player in played.round.byes:
            out[player].points += bye
            out[player].byes += 1
        for result in played.results:
            gained = exact_placement_points(config, result.places)
            for player, points, score in zip(result.players, gained, result.scores, strict=True):
                tally = out[player]
                tally.points += points
                tally.last_points = points
                tally.game_score += score
                tally.played += 1
                tally.opponents.append(tuple(p for p in result.players if p != player))
    return out


def opponents_strength(tally: Tally, everyone: Mapping[str, Tally]) -> Fraction:
    """Buchholz for tables: per game the mean tournament points of the opponents, averaged over games.

    Means rather than sums, so a player is not rewarded for sitting at larger tables or punished for a
    bye (a bye has no opponents and is left out). 0 for a player with no game yet.
    """
    if not tally.opponents:
        return Fraction(0)
    per_game = [sum((everyone[o].points for o in opps), Fraction(0)) / len(opps) for opps in tally.opponents]
    return sum(per_game, Fraction(0)) / len(per_game)
