"""A whole tournament between computer players, for ``python bot.py tournament-sim``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.host.tournaments import TournamentHost, TournamentRecord, TournamentStatus


def standings_rows(tournaments: TournamentHost, record: TournamentRecord) -> list[dict[str, Any]]:
    return [
        {"player": record.name_of(s.player), "rank": s.rank, "points": round(s.points, 3)}
        for s in tournaments.standings(record)
    ]


def standings_text(
    tournaments: TournamentHost, record: TournamentRecord, after_round: int | None = None
) -> list[str]:
    """Rank, name, points and the tie-break figures, one line per entrant (now, or after a round)."""
    lines = []
    for s in tournaments.standings(record, after_round):
        note = " (dropped)" if s.dropped else ""
        lines.append(
            f"{s.rank:>3}. {record.name_of(s.player):<14} {s.points:>6.2f} pts  score {s.game_score:>4}  "
            f"opp {s.opponents_strength:>5.2f}  played {s.played}{note}"
        )
    return lines


async def simulate(
    tournaments: TournamentHost,
    game: str,
    players: int,
    format: str,
    options: frozenset[str],
    table_size: int | None,
    rounds: int | None,
    seed: int,
    print_line: Callable[[str], None],
) -> list[dict[str, Any]]:
    """Create the tournament, fill it with computer players, play it out; returns the final standings.

    The standings after each round are printed from the tournament's own announcements."""
    record = await tournaments.create(
        f"Simulated {format}", game, format, options, table_size=table_size, rounds=rounds, seed=seed
    )
    for number in range(players):
        record = await tournaments.add_computer(record.id, ("greedy", "random")[number % 2])
    await tournaments.start(record.id)
    await tournaments.play_tables()
    record, due = await tournaments.announcements(record.id)
    for key in due:
        if key.endswith("-standings"):
            number = int(key[1:].split("-")[0])
            print_line(f"== {record.name}: standings after round {number}")
            for line in standings_text(tournaments, record, number):
                print_line(line)
        record = await tournaments.mark_announced(record.id, key)
    if record.status is not TournamentStatus.FINISHED:
        raise RuntimeError(f"the tournament stopped while {record.status.value}")
    return standings_rows(tournaments, record)
