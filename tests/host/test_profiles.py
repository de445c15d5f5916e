"""What /leaderboard and /profile say, worded by the host for any front end's marks."""

from __future__ import annotations

import pytest

from data.ratings import SqliteRatings
from data.store import SqliteMatchStore
from engine.core.errors import LobbyError
from engine.host.marks import PlainMarks
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.profiles import Profiles
from engine.host.service import GameHost
from tests.host.test_service import ANN, BOB, started_pair, user_at


async def finished_pair(host: GameHost) -> MatchRecord:
    """A toy match played to its end, each seat adding 2 in turn."""
    match = await started_pair(host)
    while match.status is not MatchStatus.FINISHED:
        mover = (await host.table(match, user_at(match, 0))).to_act[0]
        match = (await host.act(match.id, user_at(match, mover), "add 2")).match
    return match


async def test_the_leaderboard_and_a_profile_read_in_both_languages(
    host: GameHost, store: SqliteMatchStore
) -> None:
    ratings = SqliteRatings.from_store(store)
    profiles = Profiles(host, ratings, PlainMarks())
    assert await profiles.leaderboard("en", "toy", None) == "Nobody is rated in Toy race yet."
    match = await finished_pair(host)
    assert await ratings.record(match)
    board = (await profiles.leaderboard("en", "toy", None)).splitlines()
    assert board[0] == "Toy race: the best players"
    assert sorted(line.split(" ")[1] for line in board[1:]) == ["@101", "@202"]
    assert "1 game, " in board[1] and " 1 win" in board[1] + board[2]
    italian = (await profiles.leaderboard("it", "toy", None)).splitlines()
    assert "1 partita" in italian[1] and "1 vittoria" in italian[1] + italian[2]

    ann = await profiles.profile("en", ANN.user_id or 0, "Ann *the* first", None, asked_by=ANN.user_id or 0)
    lines = ann.splitlines()
    assert lines[0] == "Ann *the* first"
    assert lines[2] == "Latest matches:"
    assert f"match #{match.id}: " in lines[3] and "against bob" in lines[3]
    italian_profile = await profiles.profile("it", ANN.user_id or 0, "Ann", None, asked_by=ANN.user_id or 0)
    assert "Ultime partite:" in italian_profile and "contro bob" in italian_profile


async def test_in_direct_messages_a_profile_is_ones_own(host: GameHost, store: SqliteMatchStore) -> None:
    profiles = Profiles(host, SqliteRatings.from_store(store), PlainMarks())
    with pytest.raises(LobbyError) as refused:
        await profiles.profile("it", ANN.user_id or 0, "Ann", None, asked_by=BOB.user_id or 0)
    assert "profilo" in refused.value.message
    empty = await profiles.profile("en", BOB.user_id or 0, "Bob", 99, asked_by=ANN.user_id or 0)
    assert empty.splitlines() == ["Bob", "No rated matches yet."]
