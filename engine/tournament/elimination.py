"""Single elimination with table advancement.

Each round seats the remaining players at tables; the best ``advance`` of each table go on (default: half
the table rounded down, at least one), players given a bye go on automatically, and once the remaining
players fit one table (``min_size``..``max_size``) that final table decides the winner.

Table sizes follow ``table_sizes``' policy (fewest byes, then the preferred size), with one more rule: the
number of players going on must itself lead to a legal final. When winners and byes alone cannot get
there, the fewest "lucky losers" needed go on too (as in tennis): the knocked-out players with the best
placement points in this round, then game score, then the coin. So 5 players at tables of exactly 4 with
2 going on sit 4 + a bye, and the best third place joins the 2 winners and the bye in the final of 4;
6 players at 3..4 sit 3+3 and the better of the two second places joins the two winners in a final of 3.
A configured ``advance`` is scaled for tables of another size (``advance * size // preferred``, kept
between 1 and size - 1), so 2 of 4 means 1 of 3 and 2 of 5.

Seeding: players are ordered by standing (the seeded coin in round 1, which makes the first draw random),
byes go to the best-placed among those with the fewest byes so far, and the rest are dealt to tables in a
snake (1, 2, 3, 3, 2, 1, ...) so the strongest meet as late as possible.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from engine.core.errors import SetupError
from engine.tournament.models import PlayedRound, Round, Table, TableResult, TournamentConfig
from engine.tournament.scoring import exact_placement_points
from engine.tournament.sizes import exact_partition


def advancing(config: TournamentConfig, size: int) -> int:
    """How many players go on from a (non-final) table of ``size`` by their own placing."""
    return _advancing(size, config.advance, config.preferred)


class Plan(NamedTuple):
    """How a round with a given number of players is played."""

    sizes: tuple[int, ...]  # table sizes, largest first; the players not seated get byes
    lucky: int = 0  # best players knocked out who go on all the same, to reach a legal final

    def is_final(self, k: int) -> bool:
        return len(self.sizes) == 1 and self.sizes[0] == k


def round_plan(config: TournamentConfig, k: int) -> Plan | None:
    """How a round with ``k`` players is played (one table of ``k``: the final); ``None`` if ``k`` is
    smaller than the smallest table.
    """
    return _plan(k, config.min_size, config.max_size, config.preferred, config.advance)


def rounds_needed(config: TournamentConfig, n: int) -> int | None:
    """The number of rounds from ``n`` players to the final, inclusive; ``None`` if ``n < min_size``."""
    rounds = 0
    k = n
    while True:
        plan = round_plan(config, k)
        if plan is None:
            return None
        rounds += 1
        if plan.is_final(k):
            return rounds
        k = _going_on(k, plan, config.advance, config.preferred)


def _going_on(k: int, plan: Plan, advance: int | None, preferred: int) -> int:
    return k - sum(plan.sizes) + sum(_advancing(s, advance, preferred) for s in plan.sizes) + plan.lucky


@lru_cache(maxsize=4096)
def _advancing(size: int, advance: int | None, preferred: int) -> int:
    if advance is None:
        return max(1, size // 2)
    return max(1, min(size - 1, advance * size // preferred))


@lru_cache(maxsize=4096)
def _plan(k: int, lo: int, hi: int, preferred: int, advance: int | None) -> Plan | None:
    if lo <= k <= hi:
        return Plan((k,))
    if k < lo:
        return None
    for byes in range(k - lo + 1):
        sizes = exact_partition(k - byes, lo, hi, preferred)
        if sizes is None:
            continue
        plan = Plan(sizes)
        out = sum(sizes) - sum(_advancing(s, advance, preferred) for s in sizes)
        # Fewest lucky losers that lead to a legal final; at least one player must still go out. Every
        # field from lo up has a plan (by induction: the counts below k that go on cover lo..k-1), so
        # the first split usually works and deeper searches stay rare.
        for lucky in range(out):
            plan = Plan(sizes, lucky)
            if _plan(_going_on(k, plan, advance, preferred), lo, hi, preferred, advance) is not None:
                return plan
    return None


def is_final(played: Round) -> bool:
    """Whether ``played`` is a final: one table and no byes (any earlier round has byes or more tables,
    since its players did not fit one table).
    """
    return len(played.tables) == 1 and not played.byes


@dataclass(slots=True)
class Progress:
    """Who is still in after the results so far."""

    alive: list[str]  # not knocked out and in the latest round (or no round yet), in entry order
    eliminated: dict[str, int] = field(default_factory=dict)  # player -> round that knocked them out
    last_round: dict[str, int] = field(default_factory=dict)  # player -> latest round seated or given a bye
    champion: str | None = None


def table_order(result: TableResult, coin: Mapping[str, int]) -> list[str]:
    """The players of a finished table best first: place, then the game score, then the coin."""
    index = {p: i for i, p in enumerate(result.players)}
    return sorted(
        result.players,
        key=lambda p: (result.places[index[p]], -result.scores[index[p]], coin[p]),
    )


def progress(
    config: TournamentConfig, players: Sequence[str], history: Sequence[PlayedRound], coin: Mapping[str, int]
) -> Progress:
    """Replay ``history``: who went on from each table, who went out in which round, the champion."""
    state = Progress(alive=list(players))
    for played in history:
        rnd = played.round
        going_on: set[str] = set(rnd.byes)
        seated = [p for t in rnd.tables for p in t.players]
        for p in [*seated, *rnd.byes]:
            state.last_round[p] = rnd.number
        done = {r.table for r in played.results}
        # A table still playing keeps its players in until its result arrives.
        going_on.update(p for t in rnd.tables if t.number not in done for p in t.players)
        final = is_final(rnd)
        plan = round_plan(config, len(seated) + len(rnd.byes))
        # The plan tells how many lucky losers this round has, unless withdrawals changed the round.
        lucky = plan.lucky if plan is not None and plan.sizes == _sizes(rnd) else 0
        out: list[tuple[Fraction, int, int, str]] = []  # knocked out, with their lucky-loser sort key
        for result in played.results:
            ranked = table_order(result, coin)
            keep = 1 if final else advancing(config, len(ranked))
            going_on.update(ranked[:keep])
            gained = dict(zip(result.players, exact_placement_points(config, result.places), strict=True))
            scores = dict(zip(result.players, result.scores, strict=True))
            out.extend((-gained[p], -scores[p], coin[p], p) for p in ranked[keep:])
            if final:
                state.champion = ranked[0]
        if lucky and not played.complete:
            # Who is lucky is known only once every table is done; until then nobody here is out.
            going_on.update(p for *_, p in out)
        else:
            out.sort()
            going_on.update(p for *_, p in out[:lucky])
            for *_, p in out[lucky:]:
                state.eliminated[p] = rnd.number
        state.alive = [p for p in players if p in going_on]
    return state


def _sizes(rnd: Round) -> tuple[int, ...]:
    return tuple(sorted((len(t.players) for t in rnd.tables), reverse=True))


def pair_elimination(
    config: TournamentConfig, number: int, ranked: Sequence[str], byes: Mapping[str, int]
) -> Round:
    """Round ``number`` for the players still in, ``ranked`` best first; ``byes`` counts earlier byes.

    Raises ``SetupError`` when fewer players remain than the smallest table.
    """
    k = len(ranked)
    plan = round_plan(config, k)
    if plan is None:
        raise SetupError(f"{k} players cannot fill a table of {config.min_size}", [str(config.min_size)])
    if plan.is_final(k):
        return Round(number=number, tables=(Table(number=1, players=tuple(ranked)),))
    position = {p: i for i, p in enumerate(ranked)}
    bye_count = k - sum(plan.sizes)
    # Byes are a free pass: the best-placed get them, but never a second one while someone has none.
    passing = sorted(ranked, key=lambda p: (byes[p], position[p]))[:bye_count]
    free_pass = set(passing)
    playing = [p for p in ranked if p not in free_pass]
    tables = _snake(playing, plan.sizes)
    return Round(
        number=number,
        tables=tuple(Table(number=i + 1, players=tuple(t)) for i, t in enumerate(tables)),
        byes=tuple(sorted(passing, key=position.__getitem__)),
    )


def _snake(ranked: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal ``ranked`` (best first) to tables of ``sizes`` in snake order, skipping full tables."""
    tables: list[list[str]] = [[] for _ in sizes]
    lane = [*range(len(sizes)), *reversed(range(len(sizes)))]
    step = 0
    for player in ranked:
        while len(tables[lane[step % len(lane)]]) >= sizes[lane[step % len(lane)]]:
            step += 1
        tables[lane[step % len(lane)]].append(player)
        step += 1
    return tables


def standing_key(
    player: str, state: Progress, last_points: Fraction, dropped: bool
) -> tuple[int, int, Fraction]:
    """The elimination part of a player's sort key: later rounds first; within a round, players still in
    (the champion, in the end), then those who withdrew while still in, then those knocked out; then the
    placement points of the latest game.
    """
    status = 2 if player in state.eliminated else int(dropped)
    return (-state.last_round.get(player, 0), status, -last_points)
