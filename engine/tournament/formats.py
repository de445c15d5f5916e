"""The public entry points: check a field, count rounds, pair the next round, rank the players.

Every function is pure. The host keeps, per tournament, the config, the entrants (``players``, fixed at
the start, in any order), the rounds with their results (``history``), the withdrawn players
(``dropped``) and one integer ``seed``; the same inputs always give the same pairing and standings.
Pairing derives its generator from the seed and the round number, and the last tie-break is a coin
drawn once from the seed, so standings shown between rounds and pairings agree on every tie.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from engine.core.errors import MatchClosed, SetupError
from engine.tournament import elimination, roundrobin, swiss
from engine.tournament.models import PlayedRound, Round, Standing, TournamentConfig
from engine.tournament.scoring import Tally, coin_order, opponents_strength, round_rng, tallies


def check_field(config: TournamentConfig, n_players: int) -> None:
    """Raise ``SetupError`` (listing field sizes that work) when ``n_players`` cannot play ``config``."""
    if n_players < config.min_size:
        raise SetupError(
            f"a tournament at tables of {config.min_size}..{config.max_size} needs at least "
            f"{config.min_size} players, not {n_players}",
            [f"{config.min_size} or more players"],
        )
    if config.format == "roundrobin" and n_players > roundrobin.MAX_FIELD:
        raise SetupError(
            f"a round robin takes at most {roundrobin.MAX_FIELD} players, not {n_players}; "
            "use Swiss or elimination for larger fields",
            [str(n) for n in range(config.min_size, roundrobin.MAX_FIELD + 1)],
        )


def total_rounds(config: TournamentConfig, n_players: int) -> int:
    """Rounds the tournament takes for ``n_players`` entrants with no withdrawals.

    Swiss: ``config.rounds``, else the rounds a field of that size needs to find a clear leader (the least
    ``r`` with ``preferred ** r >= n``, plus one at tables of three or more, where one game separates
    players less sharply). Elimination: down to the final, inclusive. Round robin: until every pair met.
    Raises ``SetupError`` as ``check_field``.
    """
    check_field(config, n_players)
    if config.format == "swiss":
        if config.rounds is not None:
            return config.rounds
        rounds = 1
        while config.preferred**rounds < n_players:
            rounds += 1
        return rounds + (config.preferred > 2)
    if config.format == "elimination":
        needed = elimination.rounds_needed(config, n_players)
        assert needed is not None  # every field from min_size up has a plan (lucky losers fill gaps)
        return needed
    return roundrobin.rounds_needed(config, n_players)


def pair_round(
    config: TournamentConfig,
    players: Sequence[str],
    history: Sequence[PlayedRound],
    dropped: Collection[str] = frozenset(),
    *,
    seed: int,
) -> Round:
    """The next round (numbered ``len(history) + 1``) for the entrants not in ``dropped``.

    Raises ``SetupError`` if the field cannot play ``config`` (see ``check_field``), ``MatchClosed`` while a
    table of the last round has no result or once the tournament is over, and ``ValueError`` for
    inconsistent input (a player twice, a stranger in the history, rounds out of order).
    """
    _check_inputs(players, history, dropped)
    check_field(config, len(players))
    for played in history:
        if not played.complete:
            raise MatchClosed(
                f"round {played.round.number} is still being played",
                [f"table {n}" for n in played.pending],
            )
    if is_finished(config, players, history, dropped):
        raise MatchClosed("the tournament is over")
    number = len(history) + 1
    gone = set(dropped)
    if config.format == "roundrobin":
        order = roundrobin.seating(players, seed)
        return roundrobin.pair_roundrobin(
            config, number, order, gone, _bye_counts(players, history), _met(history)
        )

    counts = tallies(config, players, history)
    ranked = _ranked(players, counts, coin_order(players, seed))
    byes = {p: counts[p].byes for p in players}
    if config.format == "elimination":
        state = elimination.progress(config, players, history, coin_order(players, seed))
        still_in = set(state.alive) - gone
        return elimination.pair_elimination(config, number, [p for p in ranked if p in still_in], byes)
    active = [p for p in ranked if p not in gone]
    points = {p: counts[p].points for p in players}
    return swiss.pair_swiss(config, number, active, points, byes, _met(history), round_rng(seed, number))


def is_finished(
    config: TournamentConfig,
    players: Sequence[str],
    history: Sequence[PlayedRound],
    dropped: Collection[str] = frozenset(),
) -> bool:
    """Whether no round is left to pair: every result is in and the format's end is reached, or too few
    active players remain to fill a table. Raises ``ValueError`` for inconsistent input.
    """
    _check_inputs(players, history, dropped)
    if any(not played.complete for played in history):
        return False
    gone = set(dropped)
    active = [p for p in players if p not in gone]
    if len(active) < config.min_size:
        return True
    if config.format == "swiss":
        return len(history) >= total_rounds(config, len(players))
    if config.format == "elimination":
        # The coin only decides who goes on, never how many, so any seed gives the same answer here.
        state = elimination.progress(config, players, history, coin_order(players, 0))
        return state.champion is not None or len(set(state.alive) - gone) < config.min_size
    if roundrobin.uses_circle(config) or not gone:
        # Fixed schedules (the circle method; the covering one while nobody withdrew) run their course.
        return len(history) >= roundrobin.rounds_needed(config, len(players))
    met = _met(history)
    return all(frozenset((a, b)) in met for i, a in enumerate(active) for b in active[i + 1 :])


def standings(
    config: TournamentConfig,
    players: Sequence[str],
    history: Sequence[PlayedRound],
    dropped: Collection[str] = frozenset(),
    *,
    seed: int,
) -> list[Standing]:
    """Every entrant ranked, best first, from the results known so far (dropped players keep theirs).

    Order: tournament points; then (1) the sum of the player's own game scores; (2) opponents' strength,
    per game the mean tournament points of the opponents, averaged over the games played; (3) a coin
    seeded by ``seed``. In an elimination the stage comes before all of that: a later last round first;
    within a round, players still in (in the end, the champion), then those who withdrew while in, then
    those knocked out; then the placement points of their last game. Ranks are 1..n with no ties (the
    coin settles every one). Raises ``ValueError`` for inconsistent input.
    """
    _check_inputs(players, history, dropped)
    counts = tallies(config, players, history)
    coin = coin_order(players, seed)
    strength = {p: opponents_strength(counts[p], counts) for p in players}
    gone = set(dropped)
    eliminated: Mapping[str, int] = {}
    # Outside elimination every player shares the same stage prefix, so only the base key decides.
    stage: dict[str, tuple[int, int, Fraction]] = dict.fromkeys(players, (0, 0, Fraction(0)))
    if config.format == "elimination":
        state = elimination.progress(config, players, history, coin)
        eliminated = state.eliminated
        stage = {p: elimination.standing_key(p, state, counts[p].last_points, p in gone) for p in players}
    keys = {p: (*stage[p], *_base_key(counts[p], strength[p], coin[p])) for p in players}

    return [
        Standing(
            player=p,
            rank=rank,
            points=float(counts[p].points),
            game_score=counts[p].game_score,
            opponents_strength=float(strength[p]),
            played=counts[p].played,
            byes=counts[p].byes,
            dropped=p in gone,
            eliminated_round=eliminated.get(p),
        )
        for rank, p in enumerate(sorted(players, key=keys.__getitem__), start=1)
    ]


def _base_key(tally: Tally, strength: Fraction, coin: int) -> tuple[Fraction, int, Fraction, int]:
    return (-tally.points, -tally.game_score, -strength, coin)


def _ranked(players: Sequence[str], counts: Mapping[str, Tally], coin: Mapping[str, int]) -> list[str]:
    """Players by points, game score, opponents' strength and coin (the standings' order)."""
    strength = {p: opponents_strength(counts[p], counts) for p in players}
    return sorted(players, key=lambda p: _base_key(counts[p], strength[p], coin[p]))


def _met(history: Sequence[PlayedRound]) -> Counter[frozenset[str]]:
    """How often each pair of players shared a table."""
    met: Counter[frozenset[str]] = Counter()
    for played in history:
        for table in played.round.tables:
            for i, a in enumerate(table.players):
                for b in table.players[i + 1 :]:
                    met[frozenset((a, b))] += 1
    return met


def _bye_counts(players: Sequence[str], history: Sequence[PlayedRound]) -> dict[str, int]:
    counts = dict.fromkeys(players, 0)
    for played in history:
        for p in played.round.byes:
            counts[p] += 1
    return counts


def _check_inputs(players: Sequence[str], history: Sequence[PlayedRound], dropped: Collection[str]) -> None:
    entrants = set(players)
    if len(entrants) != len(players):
        raise ValueError("a player is entered twice")
    strangers = set(dropped) - entrants
    if strangers:
        raise ValueError(f"dropped players who never entered: {sorted(strangers)}")
    for i, played in enumerate(history, start=1):
        rnd = played.round
        if rnd.number != i:
            raise ValueError(f"round {rnd.number} is listed as round {i}")
        present = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
        if len(set(present)) != len(present):
            raise ValueError(f"a player appears twice in round {i}")
        if set(present) - entrants:
            raise ValueError(f"round {i} names players who never entered: {sorted(set(present) - entrants)}")
