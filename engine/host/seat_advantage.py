"""How much the first seat matters: engine-only self-play of a game's strongest computer player in every
seat, the share of matches each seat finished first with its 95% Wilson interval, and the table of those
figures measured for every game and seat count and shipped beside this module (``seat_advantage.json``).

Seats are taken as the rules deal them (seat 0 plays first). A seat that shares first place with others
counts as having finished first, as the game's places say (tied seats share a place): each seat's rate is
then a plain share of matches, its interval a binomial one, and the rates add up to 1 plus the share of
matches whose first place was shared (once per extra seat sharing it).
"""

from __future__ import annotations

import json
import math
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict

from engine.core.errors import EngineError, SetupError
from engine.host.selfplay import play_match
from engine.host.service import STRONGEST_FIRST
from engine.registry import GAMES, POLICIES, get_game, get_policy

DEFAULT_SEED = 1
TABLE_FILE = "seat_advantage.json"
DIGITS = 4  # rates and bounds are rounded to this many decimals, so the table and the command agree


class SeatAdvantage(BaseModel):
    """One measurement: ``matches`` self-play matches of ``game`` with ``players`` seats, match ``i``
    dealt with seed ``seed + i``, ``policy`` in every seat."""

    model_config = ConfigDict(frozen=True)

    game: str
    players: int
    options: tuple[str, ...] = ()
    matches: int
    seed: int
    policy: str
    first_rate_by_seat: tuple[float, ...]
    ci95: tuple[tuple[float, float], ...]
    # The seats that finished first in each match, in match order: the figures can be checked against
    # them, and any prefix of them replayed.
    firsts: tuple[tuple[int, ...], ...] = ()

    def line(self) -> dict[str, Any]:
        """What ``python bot.py seat-advantage`` prints, as the command-line contract spells it."""
        return {
            "game": self.game,
            "players": self.players,
            "matches": self.matches,
            "first_rate_by_seat": list(self.first_rate_by_seat),
            "ci95": [list(bounds) for bounds in self.ci95],
        }


def strongest_policy(game: str) -> str:
    """The name of ``game``'s strongest computer player. Raises ``SetupError`` for an unknown game."""
    available = POLICIES[get_game(game).name]
    return next((name for name in STRONGEST_FIRST if name in available), next(iter(available)))


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% with the default ``z``); (0, 1) without trials."""
    if trials == 0:
        return (0.0, 1.0)
    rate = successes / trials
    centre = rate + z * z / (2 * trials)
    spread = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return (max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale))


def first_seats(places: Sequence[int]) -> tuple[int, ...]:
    """The seats that finished first (several when they share first place)."""
    return tuple(seat for seat, place in enumerate(places) if place == 1)


def match_places(
    game: str, players: int, seed: int, options: tuple[str, ...], policy: str
) -> tuple[int, ...]:
    """The places of one self-play match of ``policy`` in every seat. Raises ``EngineError`` when the
    match fails or does not end."""
    rules = get_game(game)
    result = play_match(rules, players, seed, frozenset(options), [get_policy(game, policy)])
    if result.outcome is None:
        raise EngineError(f"{game} with {players} players, seed {seed}: {result.error}")
    return tuple(result.outcome.places)


def summarise(
    game: str,
    players: int,
    options: tuple[str, ...],
    seed: int,
    policy: str,
    places: Sequence[Sequence[int]],
) -> SeatAdvantage:
    """The rates and intervals of the matches whose places are ``places``."""
    return from_firsts(game, players, options, seed, policy, [first_seats(match) for match in places])


def from_firsts(
    game: str,
    players: int,
    options: tuple[str, ...],
    seed: int,
    policy: str,
    winners: Sequence[Sequence[int]],
) -> SeatAdvantage:
    """The rates and intervals of matches whose first seats were ``winners`` (one tuple per match)."""
    firsts = [0] * players
    for match in winners:
        for seat in match:
            firsts[seat] += 1
    count = len(winners)
    return SeatAdvantage(
        game=game,
        players=players,
        options=options,
        matches=count,
        seed=seed,
        policy=policy,
        first_rate_by_seat=tuple(round(f / count, DIGITS) for f in firsts),
        ci95=tuple(
            (round(lo, DIGITS), round(hi, DIGITS)) for lo, hi in (wilson_interval(f, count) for f in firsts)
        ),
        firsts=tuple(tuple(match) for match in winners),
    )


def measure(
    game: str,
    players: int,
    matches: int,
    seed: int = DEFAULT_SEED,
    options: frozenset[str] = frozenset(),
    workers: int = 1,
) -> SeatAdvantage:
    """Plays ``matches`` self-play matches (match ``i`` with seed ``seed + i``) of ``game``'s strongest
    computer player in every seat, on ``workers`` processes (the figures do not depend on how many).

    Raises ``SetupError`` for an unknown game, a seat count or option the game does not allow, or fewer
    than one match; ``EngineError`` when a match fails."""
    rules = get_game(game)
    rules.validate_setup(players, options)
    if matches < 1:
        raise SetupError(f"the number of matches must be at least 1, not {matches}")
    policy = strongest_policy(rules.name)
    ordered = tuple(sorted(options))
    jobs = [(rules.name, players, seed + i, ordered, policy) for i in range(matches)]
    if workers <= 1 or matches == 1:
        places = [match_places(*job) for job in jobs]
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(workers, matches), mp_context=context) as pool:
            places = list(pool.map(match_places, *zip(*jobs, strict=True)))
    return summarise(rules.name, players, ordered, seed, policy, places)


@cache
def measured_table() -> tuple[SeatAdvantage, ...]:
    """The figures shipped with the project, one per game and seat count (without options)."""
    text = resources.files(__package__ or "engine.host").joinpath(TABLE_FILE).read_text(encoding="utf-8")
    return tuple(SeatAdvantage.model_validate(row) for row in json.loads(text)["measurements"])


def measured(game: str, players: int) -> SeatAdvantage | None:
    """The shipped figures of ``game`` with ``players`` seats, if they were measured."""
    return next((m for m in measured_table() if m.game == game and m.players == players), None)


def table_plan() -> list[tuple[str, int]]:
    """Every game and seat count the shipped table covers."""
    return [(slug, seats) for slug, rules in sorted(GAMES.items()) for seats in rules.seat_counts]
