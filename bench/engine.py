"""Engine speed figures for ``python bot.py bench``: legal-action listing, apply, whole matches."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.core.contract import GameRules, Policy, dump_state, load_state
from engine.core.rng import bot_rng
from engine.host.selfplay import play_match


def percentile(samples: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``samples`` by nearest rank."""
    ordered = sorted(samples)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def bench_engine(
    rules: GameRules[Any, Any],
    policy: Policy[Any, Any],
    seats: int,
    options: frozenset[str] = frozenset(),
    matches: int = 20,
    seconds: float = 10.0,
) -> dict[str, Any]:
    """Time ``legal_actions`` and ``apply`` at every position of computer-only matches, then whole matches.

    Figures are milliseconds per call (p50/p99), matches per second and mean state JSON size. ``apply`` is
    timed as a real move pays it: the stored state loaded, the action applied, the new state dumped.
    """
    legal_ms: list[float] = []
    apply_ms: list[float] = []
    state_bytes: list[int] = []
    deadline = time.perf_counter() + seconds / 2
    for seed in range(1, matches + 1):
        if time.perf_counter() > deadline:
            break
        state = rules.setup(seats, seed, options)
        stored = dump_state(state)
        ply = 0
        while rules.outcome(state) is None and ply < 5_000:
            seat = min(rules.to_act(state))
            t0 = time.perf_counter()
            legal = rules.legal_actions(state, seat)
            t1 = time.perf_counter()
            action = policy.choose(rules, state, seat, legal, bot_rng(seed, ply))
            t2 = time.perf_counter()
            state = rules.apply(load_state(rules, stored), seat, action).state
            stored = dump_state(state)
            t3 = time.perf_counter()
            legal_ms.append((t1 - t0) * 1000)
            apply_ms.append((t3 - t2) * 1000)
            if seed == 1:
                state_bytes.append(len(stored))
            ply += 1
    played = 0
    start = time.perf_counter()
    deadline = start + seconds / 2
    while played < matches and time.perf_counter() < deadline:
        play_match(rules, seats, 1000 + played, options, [policy])
        played += 1
    elapsed = time.perf_counter() - start
    return {
        "legal_ms": {"p50": round(percentile(legal_ms, 0.5), 4), "p99": round(percentile(legal_ms, 0.99), 4)},
        "apply_ms": {"p50": round(percentile(apply_ms, 0.5), 4), "p99": round(percentile(apply_ms, 0.99), 4)},
        "selfplay_games_per_s": round(played / elapsed, 2) if elapsed > 0 else 0.0,
        "state_json_bytes": round(statistics.fmean(state_bytes)) if state_bytes else 0,
    }


def greedy_first_rate(
    rules: GameRules[Any, Any],
    greedy: Policy[Any, Any],
    others: Policy[Any, Any],
    seats: int = 3,
    matches: int = 100,
    first_seed: int = 1000,
) -> float:
    """Share of matches in which one ``greedy`` seat (rotating) finishes first, ties included, against
    ``others`` in every other seat; match i uses seed ``first_seed + i``."""
    firsts = 0
    for i in range(matches):
        seed, seat_of_greedy = first_seed + i, i % seats
        state = rules.setup(seats, seed, frozenset())
        ply = 0
        while (outcome := rules.outcome(state)) is None and ply < 5_000:
            seat = min(rules.to_act(state))
            policy = greedy if seat == seat_of_greedy else others
            action = policy.choose(rules, state, seat, rules.legal_actions(state, seat), bot_rng(seed, ply))
            state = rules.apply(state, seat, action).state
            ply += 1
        firsts += outcome is not None and outcome.places[seat_of_greedy] == 1
    return firsts / matches


class TimeBudget:
    """Keeps ``bench`` within its time by doing less work (fewer samples) when the machine is slow.

    Each part is declared with the seconds its full work takes on a quiet machine, and optionally a
    fixed cost that does not shrink with the work (starting a bot, say). Before a part runs, ``share``
    says which fraction of its full work fits: 1 while every part still to run fits in the time left
    at the pace seen so far, else the time left (after the fixed costs) over what their work would take,
    never below ``floor``, so that every figure keeps some samples. ``spent`` records what a part took;
    parts that run for a set time however fast the machine (``paced=False``) leave the pace alone.
    """

    def __init__(
        self,
        seconds: float,
        parts: dict[str, float],
        fixed: dict[str, float] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        floor: float = 0.15,
    ) -> None:
        self._clock = clock
        self.deadline = clock() + seconds
        self._pending = dict(parts)
        self._fixed = dict(fixed or {})
        self._floor = floor
        self._actual = 0.0  # seconds taken by the paced parts done so far
        self._nominal = 0.0  # what they would have taken on a quiet machine, for the share they did
        self.shares: dict[str, float] = {}

    @property
    def pace(self) -> float:
        """How many times slower than a quiet machine the paced parts ran (1 before any)."""
        return self._actual / self._nominal if self._nominal > 0 else 1.0

    def left(self) -> float:
        """Seconds until the deadline (negative once past it)."""
        return self.deadline - self._clock()

    def share(self, part: str) -> float:
        fixed = self.pace * sum(self._fixed.get(p, 0.0) for p in self._pending)
        needed = self.pace * sum(self._pending.values())
        room = self.left() - fixed
        share = 1.0 if needed <= room else max(self._floor, min(1.0, room / needed))
        self.shares[part] = share
        return share

    def spent(self, part: str, seconds: float, paced: bool = True) -> None:
        nominal = self._fixed.pop(part, 0.0) + self._pending.pop(part, 0.0) * self.shares.get(part, 1.0)
        if paced and nominal > 0:
            self._actual += seconds
            self._nominal += nominal

    def scaled(self, part: str, full: int, least: int = 1) -> int:
        """``full`` units of work (samples, moves) times the share of ``part``, at least ``least``."""
        return max(least, min(full, round(full * self.share(part))))
