"""Measures the table of seat advantages shipped with the project (``engine/host/seat_advantage.json``):
for every game and seat count, as many self-play matches of the strongest computer player as a time
share allows, matches numbered from the seed without a gap, so that
``python bot.py seat-advantage --game G --players N --matches M --seed S`` gives each row again.

``python -m bench.seat_table [--seconds TOTAL] [--workers W] [--seed S] [--out FILE]``
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from engine.host.seat_advantage import (
    DEFAULT_SEED,
    TABLE_FILE,
    SeatAdvantage,
    match_places,
    strongest_policy,
    summarise,
    table_plan,
)

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "engine" / "host" / TABLE_FILE


def measure_for(
    pool: ProcessPoolExecutor, game: str, players: int, seed: int, seconds: float, workers: int
) -> SeatAdvantage:
    """Plays matches seed, seed + 1, ... of ``game`` with ``players`` seats, ``workers`` at a time,
    starting no new one after ``seconds`` (at least one per worker), and sums up all of them."""
    policy = strongest_policy(game)
    deadline = time.monotonic() + seconds
    running: deque[Future[tuple[int, ...]]] = deque()
    places: list[tuple[int, ...]] = []
    started = 0
    while True:
        while len(running) < workers and (started < workers or time.monotonic() < deadline):
            running.append(pool.submit(match_places, game, players, seed + started, (), policy))
            started += 1
        if not running:
            break
        # Results are taken in the order the matches were started, so the rows cover matches without a gap.
        places.append(running.popleft().result())
    return summarise(game, players, (), seed, policy, places)


def build(seconds: float, workers: int, seed: int) -> dict[str, Any]:
    """The whole table, ``seconds`` shared equally among the games and seat counts."""
    plan = table_plan()
    share = seconds / len(plan)
    rows = []
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        for game, players in plan:
            started = time.monotonic()
            row = measure_for(pool, game, players, seed, share, workers)
            rows.append(row.model_dump(mode="json"))
            print(
                f"{game} {players}: {row.matches} matches in {time.monotonic() - started:.0f} s, "
                f"{list(row.first_rate_by_seat)}",
                file=sys.stderr,
                flush=True,
            )
    return {"seconds": seconds, "workers": workers, "measurements": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=600.0, help="for the whole table")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    table = build(args.seconds, args.workers, args.seed)
    args.out.write_text(as_text(table), encoding="utf-8")
    return 0


def as_text(table: dict[str, Any]) -> str:
    """The table as JSON with one measurement a line, so that a new measurement reads as a small diff."""
    rows = ",\n".join("  " + json.dumps(row) for row in table["measurements"])
    head = {key: value for key, value in table.items() if key != "measurements"}
    return json.dumps(head)[:-1] + ', "measurements": [\n' + rows + "\n]}\n"


if __name__ == "__main__":
    sys.exit(main())
