"""The ratings stores (SQLite and PostgreSQL): recording finished matches once, leaderboards, profiles and
durability."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest

from data.backend import AnyRatings
from data.postgres.ratings import PostgresRatings
from data.postgres.store import PostgresMatchStore
from data.ratings import SqliteRatings
from data.store import SqliteMatchStore
from engine.core.contract import Outcome
from engine.core.errors import CorruptRecord, MatchNotFound
from engine.core.replay import LoggedAction
from engine.host.ports import MatchRecord, MatchStatus, NewMatch, Player
from engine.host.ratings import Rating, places_with_resignations, rate_match
from tests.data.backends import AnyStore, Backdoor

ANN = Player(user_id=101, name="ann")
BOB = Player(user_id=202, name="bob")
CY = Player(user_id=303, name="cy")
ROBOT = Player(name="robot", bot="greedy")


def clock() -> str:
    return "2025-01-01T00:00:00.000+00:00"


@pytest.fixture
async def store(backdoor: Backdoor) -> AnyStore:
    """A match store on each backend (see tests/data/backends.py), on a fixed clock."""
    return await backdoor.open(clock=clock)


@pytest.fixture
def ratings(store: AnyStore) -> AnyRatings:
    if isinstance(store, PostgresMatchStore):
        return PostgresRatings(store.database, clock=clock)
    return SqliteRatings.from_store(store)


def result(*places: int) -> Outcome:
    return Outcome(scores=tuple(100 - 10 * p for p in places), places=places, reason="game over")


async def finished(
    store: AnyStore,
    players: tuple[Player, ...],
    places: tuple[int, ...],
    game: str = "toy",
    guild_id: int | None = None,
) -> MatchRecord:
    """A match played through the store's public API: seated in the given order, finished with
    ``places`` (by seat) by its one move."""
    draft = NewMatch(game=game, seat_count=len(players), seed=5, guild_id=guild_id)
    match = await store.create_match(draft, players[0])
    for player in players[1:]:
        match = await store.add_player(match.id, match.version, player)
    seated = [p.model_copy(update={"seat": i}) for i, p in enumerate(players)]
    match = await store.start_match(match.id, match.version, seated, '{"turn": 0}')
    return await store.commit_action(
        match.id,
        match.version,
        LoggedAction(seat=0, notation="end"),
        '{"turn": 1}',
        status=MatchStatus.FINISHED,
        result_json=result(*places).model_dump_json(),
    )


async def test_recording_is_idempotent(store: AnyStore, ratings: AnyRatings) -> None:
    match = await finished(store, (ANN, BOB), (1, 2))
    assert await ratings.record(match) is True
    after = await ratings.ratings("toy", [101, 202])
    assert after[101].display > 1000 > after[202].display
    assert (after[101].games, after[101].wins, after[202].games, after[202].wins) == (1, 1, 1, 0)
    # A second call (a retry after a crash, a catch-up pass) changes nothing.
    assert await ratings.record(match) is False
    assert await ratings.record(match, result(2, 1)) is False
    assert await ratings.ratings("toy", [101, 202]) == after
    assert await ratings.ratings("other", [101]) == {101: Rating()}


async def test_recorded_ratings_are_the_pure_computation(store: AnyStore, ratings: AnyRatings) -> None:
    first = await finished(store, (ANN, BOB, CY), (2, 1, 3))
    second = await finished(store, (CY, ROBOT, ANN), (1, 2, 3))
    assert await ratings.record(first) and await ratings.record(second)
    expected = rate_match({}, [101, 202, 303], result(2, 1, 3))
    expected |= rate_match(expected, [303, None, 101], result(1, 2, 3))
    assert await ratings.ratings("toy", [101, 202, 303]) == expected


async def test_changes_show_each_players_move(store: AnyStore, ratings: AnyRatings) -> None:
    match = await finished(store, (ANN, ROBOT, BOB), (2, 1, 3))
    await ratings.record(match)
    changes = await ratings.changes(match.id)
    assert [(c.user_id, c.seat, c.seats, c.place, c.score) for c in changes] == [
        (101, 0, 3, 2, 80),
        (202, 2, 3, 3, 70),
    ]
    assert changes[0].before == changes[1].before == 1000
    assert changes[0].delta > 0 > changes[1].delta
    assert changes[0].at == clock() and changes[0].game == "toy"


async def test_matches_with_one_human_are_marked_but_change_nothing(
    store: AnyStore, ratings: AnyRatings
) -> None:
    match = await finished(store, (ANN, ROBOT), (1, 2))
    assert await ratings.record(match) is False
    assert await ratings.record(match) is False
    assert await ratings.ratings("toy", [101]) == {101: Rating()}
    assert await ratings.changes(match.id) == []
    assert await ratings.leaderboard("toy") == []


async def test_only_finished_stored_matches_are_rated(store: AnyStore, ratings: AnyRatings) -> None:
    match = await finished(store, (ANN, BOB), (1, 2))
    with pytest.raises(ValueError, match="only finished"):
        await ratings.record(match.model_copy(update={"status": MatchStatus.ACTIVE}))
    with pytest.raises(MatchNotFound):
        await ratings.record(match.model_copy(update={"id": 999}))
    with pytest.raises(ValueError, match="places 3 seats"):
        await ratings.record(match, result(1, 2, 3))
    with pytest.raises(CorruptRecord, match="result of match"):
        await ratings.record(match.model_copy(update={"result_json": '{"places": "x"}'}))
    # None of those marked the match: it can still be rated.
    assert await ratings.record(match) is True


async def test_the_outcome_given_wins_over_the_stored_one(store: AnyStore, ratings: AnyRatings) -> None:
    match = await finished(store, (ANN, BOB), (1, 2))
    assert await ratings.record(match, result(2, 1))
    after = await ratings.ratings("toy", [101, 202])
    assert after[202].wins == 1 and after[101].wins == 0


async def test_leaderboard_orders_by_rating(store: AnyStore, ratings: AnyRatings) -> None:
    # Ann beats everyone, bob beats cy; cy never wins.
    for players, places in [
        ((ANN, BOB), (1, 2)),
        ((BOB, CY), (1, 2)),
        ((CY, ANN), (2, 1)),
        ((ANN, BOB, CY), (1, 2, 3)),
    ]:
        await ratings.record(await finished(store, players, places))
    await ratings.record(await finished(store, (CY, BOB), (1, 2), game="chess"))
    board = await ratings.leaderboard("toy")
    assert [(row.rank, row.user_id, row.games, row.wins) for row in board] == [
        (1, 101, 3, 3),
        (2, 202, 3, 1),
        (3, 303, 3, 0),
    ]
    assert board[0].rating > board[1].rating > board[2].rating
    assert [row.user_id for row in await ratings.leaderboard("toy", limit=2)] == [101, 202]
    assert await ratings.leaderboard("toy", min_games=4) == []
    assert [row.user_id for row in await ratings.leaderboard("chess")] == [303, 202]
    assert await ratings.leaderboard("nothing") == []


async def test_leaderboard_ties_share_a_rank(store: AnyStore, ratings: AnyRatings) -> None:
    await ratings.record(await finished(store, (ANN, BOB, CY), (1, 1, 3)))
    board = await ratings.leaderboard("toy")
    assert [(row.rank, row.user_id) for row in board] == [(1, 101), (1, 202), (3, 303)]


async def test_profile_lists_games_and_recent_matches(store: AnyStore, ratings: AnyRatings) -> None:
    played = []
    for n, game in zip(range(4), itertools.cycle(["toy", "chess"]), strict=False):
        match = await finished(store, (ANN, BOB), (1, 2) if n % 2 == 0 else (2, 1), game=game)
        await ratings.record(match)
        played.append(match.id)
    profile = await ratings.profile(101, recent=3)
    assert profile.user_id == 101
    assert [(s.game, s.rating.games, s.rating.wins) for s in profile.games] == [
        ("chess", 2, 0),
        ("toy", 2, 2),
    ]
    assert [s.rank for s in profile.games] == [2, 1]
    assert profile.standing("toy").display > 1000 > profile.standing("chess").display
    # Newest first, each with the rating before and after.
    assert [r.match_id for r in profile.recent] == played[::-1][:3]
    assert [(r.game, r.place) for r in profile.recent] == [("chess", 2), ("toy", 1), ("chess", 2)]
    assert profile.recent[0].before == profile.recent[2].after
    assert profile.recent[1].delta > 0 > profile.recent[0].delta
    # One game's history: its matches only, still newest first.
    toys = await ratings.profile(101, recent=5, game="toy")
    assert [r.match_id for r in toys.recent] == [played[2], played[0]]
    assert (await ratings.profile(101, game="toy", guild_id=9)).recent == ()
    stranger = await ratings.profile(999)
    assert stranger.games == () and stranger.recent == ()
    assert stranger.standing("toy").rating == Rating()


async def test_a_server_sees_only_its_own_players_and_matches(store: AnyStore, ratings: AnyRatings) -> None:
    home = await finished(store, (ANN, BOB), (2, 1), guild_id=1)
    await ratings.record(home)
    for _ in range(2):  # cy beats ann twice on another server
        await ratings.record(await finished(store, (ANN, CY), (2, 1), guild_id=2))
    assert [row.user_id for row in await ratings.leaderboard("toy", guild_id=1)] == [202, 101]
    assert [row.user_id for row in await ratings.leaderboard("toy", guild_id=2)] == [303, 101]
    assert {row.user_id for row in await ratings.leaderboard("toy")} == {101, 202, 303}
    assert await ratings.leaderboard("toy", guild_id=3) == []
    seen_home = await ratings.profile(101, guild_id=1)
    assert [r.match_id for r in seen_home.recent] == [home.id]
    assert [(s.game, s.rank) for s in seen_home.games] == [("toy", 2)]  # ranked among server 1's players
    assert (await ratings.profile(303, guild_id=1)).games == ()
    assert len((await ratings.profile(101)).recent) == 3


async def test_ratings_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    async with await SqliteMatchStore.open(path) as store:
        ratings = SqliteRatings.from_store(store)
        match = await finished(store, (ANN, BOB), (1, 2))
        assert await ratings.record(match)
        before = await ratings.profile(101)
    async with await SqliteMatchStore.open(path) as store:
        ratings = SqliteRatings.from_store(store)
        assert await ratings.profile(101) == before
        assert await ratings.record(await store.get_match(match.id)) is False
        assert [row.user_id for row in await ratings.leaderboard("toy")] == [101, 202]


async def test_corrupt_rating_rows_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    async with await SqliteMatchStore.open(path) as store:
        await SqliteRatings.from_store(store).record(await finished(store, (ANN, BOB), (1, 2)))
    raw = sqlite3.connect(path)
    with raw:
        raw.execute("UPDATE ratings SET games = 'many' WHERE user_id = 101")
    raw.close()
    async with await SqliteMatchStore.open(path) as store:
        ratings = SqliteRatings.from_store(store)
        with pytest.raises(CorruptRecord, match="rating of user 101"):
            await ratings.ratings("toy", [101])
        with pytest.raises(CorruptRecord):
            await ratings.leaderboard("toy")


async def test_a_player_who_resigned_is_rated_last_even_when_their_computer_won(
    store: AnyStore, ratings: AnyRatings
) -> None:
    draft = NewMatch(game="toy", seat_count=3, seed=5)
    match = await store.create_match(draft, ANN)
    for player in (BOB, CY):
        match = await store.add_player(match.id, match.version, player)
    seated = [p.model_copy(update={"seat": i}) for i, p in enumerate((ANN, BOB, CY))]
    match = await store.start_match(match.id, match.version, seated, '{"turn": 0}')
    quitter = ANN.model_copy(update={"seat": 0, "bot": "greedy", "name": "ann (computer)", "resigned": True})
    match = await store.replace_player(match.id, match.version, 0, quitter)
    assert match.player_at(0) == quitter  # the store keeps the resignation
    match = await store.commit_action(
        match.id,
        match.version,
        LoggedAction(seat=0, notation="end"),
        '{"turn": 1}',
        status=MatchStatus.FINISHED,
        result_json=result(1, 2, 3).model_dump_json(),  # the computer won Ann's seat
    )
    assert await ratings.record(match)
    changes = {c.user_id: c for c in await ratings.changes(match.id)}
    assert (changes[101].place, changes[202].place, changes[303].place) == (4, 2, 3)
    assert changes[101].delta < 0 < changes[202].delta
    expected = rate_match({}, [101, 202, 303], result(4, 2, 3))
    assert await ratings.ratings("toy", [101, 202, 303]) == expected


def test_resignations_share_the_last_place() -> None:
    assert places_with_resignations((1, 2, 3), ()) == (1, 2, 3)
    assert places_with_resignations((1, 2, 3), {0}) == (4, 2, 3)
    assert places_with_resignations((1, 1, 3, 4), {1, 3}) == (1, 4, 3, 4)
    assert places_with_resignations((2, 1), {0, 1}) == (1, 1)  # all quit: nobody is ahead of anyone
