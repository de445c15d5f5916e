"""The rating arithmetic of engine.host.ratings: who gains, who drops, ties, computers and teams."""

from __future__ import annotations

import pytest

from engine.core.contract import Outcome
from engine.host.ports import MatchRecord, MatchStatus, Player, SeatOffer
from engine.host.ratings import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Profile,
    RatedPerson,
    Rating,
    display_rating,
    places_as_rated,
    rate_match,
    rate_people,
    rated_people,
    rated_seats,
    win_chances,
)

ANN, BOB, CY, DI = 101, 202, 303, 404


def outcome(*places: int) -> Outcome:
    return Outcome(scores=tuple(10 - p for p in places), places=places, reason="test")


def test_a_newcomer_shows_1000_and_the_scale_is_documented() -> None:
    fresh = Rating()
    assert (fresh.mu, fresh.sigma, fresh.games, fresh.wins) == (DEFAULT_MU, DEFAULT_SIGMA, 0, 0)
    assert fresh.ordinal == pytest.approx(0.0)
    assert fresh.display == 1000
    assert display_rating(25.0, 1.0) == 1000 + 25 * 22
    assert display_rating(-20.0, 8.0) == 0  # never negative


def test_the_winner_gains_and_the_loser_drops() -> None:
    new = rate_match({}, [ANN, BOB], outcome(1, 2))
    assert set(new) == {ANN, BOB}
    assert new[ANN].mu > DEFAULT_MU > new[BOB].mu
    assert new[ANN].display > 1000 > new[BOB].display
    # Both are better known now.
    assert new[ANN].sigma < DEFAULT_SIGMA and new[BOB].sigma < DEFAULT_SIGMA
    assert (new[ANN].games, new[ANN].wins) == (1, 1)
    assert (new[BOB].games, new[BOB].wins) == (1, 0)


def test_places_order_a_multiplayer_match() -> None:
    new = rate_match({}, [CY, ANN, DI, BOB], outcome(3, 1, 4, 2))
    assert new[ANN].mu > new[BOB].mu > new[CY].mu > new[DI].mu


def test_tied_players_move_equally() -> None:
    new = rate_match({}, [ANN, BOB, CY], outcome(1, 1, 3))
    assert new[ANN] == new[BOB]
    assert new[ANN].mu > new[CY].mu
    assert new[ANN].wins == new[BOB].wins == 1
    drawn = rate_match({}, [ANN, BOB], outcome(1, 1))
    assert drawn[ANN].mu == pytest.approx(DEFAULT_MU) and drawn[BOB].mu == pytest.approx(DEFAULT_MU)


def test_computer_seats_are_left_out_but_still_order_the_humans() -> None:
    # A computer came second; the humans are rated as if first and second of two.
    with_computer = rate_match({}, [ANN, None, BOB], outcome(1, 2, 3))
    alone = rate_match({}, [ANN, BOB], outcome(1, 2))
    assert with_computer == alone
    # A computer winning does not change who of the humans did better.
    behind = rate_match({}, [None, BOB, ANN], outcome(1, 3, 2))
    assert behind[ANN].mu > behind[BOB].mu
    assert behind[ANN].wins == behind[BOB].wins == 0


def test_a_match_with_one_human_changes_nothing() -> None:
    veteran = Rating(mu=30.0, sigma=3.0, games=9, wins=5)
    assert rate_match({ANN: veteran}, [ANN, None, None], outcome(1, 2, 3)) == {}
    assert rate_match({}, [None, None], outcome(1, 2)) == {}


def test_current_ratings_are_the_starting_point() -> None:
    strong = Rating(mu=35.0, sigma=2.0, games=40, wins=25)
    new = rate_match({ANN: strong}, [ANN, BOB], outcome(2, 1))
    # The favourite is well known, so its rating moves less than the newcomer's; its record carries on.
    assert new[ANN].mu < strong.mu and new[BOB].mu > DEFAULT_MU
    assert strong.mu - new[ANN].mu < new[BOB].mu - DEFAULT_MU
    assert (new[ANN].games, new[ANN].wins) == (41, 25)
    # An upset moves ratings more than the expected result.
    expected = rate_match({ANN: strong}, [ANN, BOB], outcome(1, 2))
    assert expected[ANN].mu - strong.mu < strong.mu - new[ANN].mu


def test_a_team_game_moves_partners_together() -> None:
    # Seats 0 and 2 play against 1 and 3; partners share their team's place.
    new = rate_match({}, [ANN, BOB, CY, DI], outcome(1, 2, 1, 2))
    assert new[ANN] == new[CY] and new[BOB] == new[DI]
    assert new[ANN].mu > DEFAULT_MU > new[BOB].mu
    assert new[ANN].wins == new[CY].wins == 1 and new[BOB].wins == new[DI].wins == 0


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="places 3 seats"):
        rate_match({}, [ANN, BOB], outcome(1, 2, 3))
    with pytest.raises(ValueError, match="two seats"):
        rate_match({}, [ANN, ANN], outcome(1, 2))


def test_rated_seats_names_the_humans_by_seat() -> None:
    match = MatchRecord(
        id=1,
        game="toy",
        options=frozenset(),
        seat_count=4,
        seed=1,
        status=MatchStatus.FINISHED,
        version=9,
        players=(
            Player(user_id=BOB, name="bob", seat=2),
            Player(name="computer", bot="greedy", seat=0),
            Player(user_id=ANN, name="ann", seat=1),
        ),
        created_at="t",
        updated_at="t",
    )
    assert rated_seats(match) == [None, ANN, BOB, None]


def test_win_chances_favour_the_stronger_player() -> None:
    weak, strong = Rating(), Rating(mu=32.0, sigma=3.0)
    chances = win_chances([weak, strong])
    assert chances[1] > chances[0] and sum(chances) == pytest.approx(1.0)
    assert win_chances([weak]) == [1.0] and win_chances([]) == []


def test_an_empty_profile_has_default_standings() -> None:
    standing = Profile(user_id=ANN).standing("toy")
    assert standing.rating == Rating() and standing.rank is None and standing.display == 1000


def test_people_read_the_places_the_rating_counts_with_the_best_who_played_on_first() -> None:
    match = MatchRecord(
        id=1,
        game="toy",
        options=frozenset(),
        seat_count=3,
        seed=1,
        status=MatchStatus.FINISHED,
        version=9,
        players=(
            Player(user_id=BOB, name="bob (computer)", bot="greedy", seat=0, resigned=True),
            Player(user_id=ANN, name="ann", seat=1),
            Player(name="Astor (computer)", bot="greedy", seat=2),
        ),
        created_at="t",
        updated_at="t",
    )
    # Bob's seat, played out by a computer after he resigned, came first: he is counted last.
    assert places_as_rated(match, outcome(1, 2, 3)).places == (3, 1, 2)
    assert places_as_rated(match, outcome(2, 1, 2)).places == (3, 1, 2)
    assert places_as_rated(match, outcome(1, 1, 3)).places == (3, 1, 2)
    unresigned = match.model_copy(update={"players": (match.players[1], match.players[2])})
    assert places_as_rated(unresigned, outcome(2, 1, 3)).places == (2, 1, 3)


def finished(*players: Player) -> MatchRecord:
    return MatchRecord(
        id=1,
        game="toy",
        options=frozenset(),
        seat_count=3,
        seed=1,
        status=MatchStatus.FINISHED,
        version=50,
        players=players,
        created_at="t",
        updated_at="t",
    )


def taken(seat: int, version: int, newcomer: int, leaver: int, resigned: bool, offer: int = 1) -> SeatOffer:
    return SeatOffer(
        id=offer,
        match_id=1,
        seat=seat,
        offered_by=ANN,
        offered_version=version - 1,
        taken_by=newcomer,
        taken_version=version,
        leaver_id=leaver,
        leaver_name="someone",
        leaver_resigned=resigned,
    )


def test_a_newcomer_counts_from_their_first_move_and_who_resigned_the_seat_stays_last() -> None:
    match = finished(
        Player(user_id=ANN, name="ann", seat=0),
        Player(user_id=CY, name="cy", seat=1),
        Player(name="computer", bot="greedy", seat=2),
    )
    handed = [taken(1, 20, CY, BOB, resigned=True)]
    # Cy moved at version 25, after taking Bob's seat at 20: rated with the seat's place; Bob last.
    people = rated_people(match, outcome(2, 1, 3), handed, [(5, 1), (25, 1), (26, 0)])
    assert sorted(people, key=lambda p: p.user_id) == [
        RatedPerson(user_id=ANN, seat=0, place=2),
        RatedPerson(user_id=BOB, seat=1, place=4),
        RatedPerson(user_id=CY, seat=1, place=1),
    ]
    new = rate_people({}, people)
    assert new[CY].wins == 1 and new[BOB].mu < new[ANN].mu < new[CY].mu
    # Only Bob's own move (version 5) was before the handover: Cy never played, and is not rated.
    idle = rated_people(match, outcome(2, 1, 3), handed, [(5, 1), (26, 0)])
    assert {p.user_id for p in idle} == {ANN, BOB}


def test_who_left_a_seat_after_timeouts_is_not_rated_when_someone_took_it() -> None:
    match = finished(
        Player(user_id=ANN, name="ann", seat=0),
        Player(user_id=CY, name="cy", seat=1),
        Player(user_id=DI, name="di", seat=2),
    )
    people = rated_people(match, outcome(1, 2, 3), [taken(1, 20, CY, BOB, resigned=False)], [(21, 1)])
    assert {(p.user_id, p.place) for p in people} == {(ANN, 1), (CY, 2), (DI, 3)}


def test_a_newcomer_who_resigned_in_turn_is_rated_last_only_if_they_moved() -> None:
    match = finished(
        Player(user_id=ANN, name="ann", seat=0),
        Player(user_id=DI, name="di", seat=1),
        Player(user_id=BOB, name="bob", seat=2),
    )
    chain = [taken(1, 20, CY, ANN + 1, resigned=True), taken(1, 40, DI, CY, resigned=True, offer=2)]
    moved = rated_people(match, outcome(3, 1, 2), chain, [(30, 1), (41, 1)])
    assert {(p.user_id, p.place) for p in moved} == {(ANN, 3), (BOB, 2), (DI, 1), (ANN + 1, 4), (CY, 4)}
    still = rated_people(match, outcome(3, 1, 2), chain, [(41, 1)])
    assert CY not in {p.user_id for p in still}
