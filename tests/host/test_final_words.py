"""The winner's line and the final standings of real seeded matches between greedy players, in English
and Italian: Skyline counts prestige points as its board does, and Piatnik's team game reads by teams,
with each team's combined score."""

from __future__ import annotations

from engine.core.contract import Outcome
from engine.core.rng import bot_rng
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.text import standings_lines, winners_line
from engine.registry import GAMES, POLICIES

NAMES = ("Ann", "Bob", "Cy", "Di")


def name(seat: int) -> str:
    return NAMES[seat]


def finished(slug: str, seats: int, seed: int, options: frozenset[str] = frozenset()) -> Outcome:
    """The outcome of a seeded match of ``slug`` between greedy players."""
    rules, greedy = GAMES[slug], POLICIES[slug]["greedy"]
    state = rules.setup(seats, seed, options)
    for ply in range(5000):
        outcome = rules.outcome(state)
        if outcome is not None:
            return outcome
        seat = min(rules.to_act(state))
        action = greedy.choose(rules, state, seat, rules.legal_actions(state, seat), bot_rng(seed, ply))
        state = rules.apply(state, seat, action).state
    raise AssertionError("the match did not end")


def record(slug: str, seats: int) -> MatchRecord:
    return MatchRecord(
        id=1,
        game=slug,
        options=frozenset(),
        seat_count=seats,
        seed=1,
        status=MatchStatus.FINISHED,
        version=1,
        created_at="2026-11-29T10:00:00",
        updated_at="2026-11-29T11:00:00",
    )


def test_skyline_counts_prestige_points_in_both_languages() -> None:
    outcome = finished("skyline", 3, 1)
    assert outcome.scores == (5, 4, 4) and outcome.places == (1, 2, 3)
    assert winners_line("en", outcome, name) == "🏆 Ann wins with 5 prestige points"
    assert winners_line("it", outcome, name) == "🏆 Ann vince con 5 punti prestigio"
    assert standings_lines("it", record("skyline", 3), outcome, name)[:4] == [
        "Classifica finale:",
        "1. Ann · 5 punti prestigio",
        "2. Bob · 4 punti prestigio",
        "3. Cy · 4 punti prestigio",
    ]


def test_a_team_game_reads_by_teams_with_their_combined_score() -> None:
    # Seed 1: Ann 21 + Cy 25 = 46 against Bob 28 + Di 25 = 53.
    outcome = finished("ny_piatnik", 4, 1, frozenset({"team"}))
    assert outcome.scores == (21, 28, 25, 25) and outcome.teams == ((0, 2), (1, 3))
    assert winners_line("en", outcome, name) == "🏆 Bob and Di win with 53 points"
    assert winners_line("it", outcome, name) == "🏆 Bob e Di vincono con 53 punti"
    assert standings_lines("en", record("ny_piatnik", 4), outcome, name)[:3] == [
        "Final standings:",
        "1. Bob and Di · 53 points",
        "2. Ann and Cy · 46 points",
    ]
    assert standings_lines("it", record("ny_piatnik", 4), outcome, name)[1:3] == [
        "1. Bob e Di · 53 punti",
        "2. Ann e Cy · 46 punti",
    ]


def test_a_game_without_teams_still_reads_seat_by_seat() -> None:
    outcome = finished("ny_piatnik", 3, 1)
    lines = standings_lines("en", record("ny_piatnik", 3), outcome, name)
    assert lines[1:4] == ["1. Cy · 34 points", "2. Ann · 28 points", "3. Bob · 27 points"]
    assert winners_line("it", outcome, name) == "🏆 Cy vince con 34 punti"


def test_a_seat_a_computer_took_over_says_whose_it_was_and_why() -> None:
    outcome = finished("skyline", 3, 1)
    players = (
        Player(user_id=1, name="Ann (computer)", bot="strong", seat=0, resigned=True),
        Player(user_id=2, name="Bob (computer)", bot="strong", seat=1, absent=True),
        Player(name="Astor (computer)", bot="greedy", seat=2),
    )
    match = record("skyline", 3).model_copy(update={"players": players})

    def symbol(seat: int) -> str:
        return f"🔴 {players[seat].name}"

    assert standings_lines("en", match, outcome, symbol)[1:4] == [
        "1. 🔴 Ann's seat (computer, after Ann resigned) · 5 prestige points",
        "2. 🔴 Bob's seat (computer, while Bob is away) · 4 prestige points",
        "3. 🔴 Astor (computer) · 4 prestige points",
    ]
    assert standings_lines("it", match, outcome, symbol)[1:3] == [
        "1. 🔴 posto di Ann (computer, dopo il ritiro di Ann) · 5 punti prestigio",
        "2. 🔴 posto di Bob (computer, mentre Bob è assente) · 4 punti prestigio",
    ]
