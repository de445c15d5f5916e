"""League points: scaled to the seats so that a win is worth the same at any table, ties sharing the
places they span, computers scoring nothing though their places count, and a table that ranks only
those who played enough."""

from __future__ import annotations

from engine.core.contract import Outcome
from engine.host.league import RANKED_AFTER, WIN_POINTS, place_points, season_table, shared_points
from engine.host.ports import MatchRecord, MatchStatus, Player


def finished(
    match_id: int, game: str, players: list[Player], places: tuple[int, ...]
) -> tuple[MatchRecord, Outcome]:
    seated = [p.model_copy(update={"seat": seat}) for seat, p in enumerate(players)]
    match = MatchRecord(
        id=match_id,
        game=game,
        seat_count=len(players),
        options=frozenset(),
        version=9,
        seed=1,
        status=MatchStatus.FINISHED,
        players=seated,
        created_at="2026-11-01T00:00:00+00:00",
        updated_at="2026-11-01T00:00:00+00:00",
    )
    return match, Outcome(scores=tuple(0 for _ in places), places=places, reason="end")


ANN, BOB, CY = (Player(user_id=n, name=name) for n, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")))
ASTOR = Player(name="Astor (computer)", bot="greedy")


def test_points_are_scaled_to_the_seats_and_ties_share() -> None:
    assert [place_points(p, 2) for p in (1, 2)] == [WIN_POINTS, 0.0]
    assert [place_points(p, 3) for p in (1, 2, 3)] == [WIN_POINTS, WIN_POINTS / 2, 0.0]
    assert round(place_points(2, 4), 2) == round(WIN_POINTS * 2 / 3, 2)
    # Two sharing first of three split the points of first and second.
    assert shared_points((1, 1, 3), 0) == shared_points((1, 1, 3), 1) == (WIN_POINTS + WIN_POINTS / 2) / 2
    assert shared_points((1, 1, 3), 2) == 0.0


def test_the_table_ranks_those_who_played_enough_and_counts_computers_places() -> None:
    games = [finished(n, "ny1901", [ANN, BOB, ASTOR], (1, 3, 2)) for n in range(1, RANKED_AFTER + 1)]
    games.append(finished(99, "skyline", [CY, ASTOR], (1, 2)))
    table = season_table(games)
    assert [r.name for r in table] == ["Ann", "Bob", "Cy"]  # Cy won more per match, but too few matches
    ann, bob, cy = table
    assert (ann.points, ann.matches, ann.wins, ann.best_game, ann.ranked) == (
        WIN_POINTS * RANKED_AFTER,
        RANKED_AFTER,
        RANKED_AFTER,
        "ny1901",
        True,
    )
    assert bob.points == 0.0 and bob.ranked  # behind the computer, last of three
    assert (cy.points, cy.matches, cy.ranked) == (WIN_POINTS, 1, False)
    assert all(r.user_id is not None for r in table)  # the computer has no row
