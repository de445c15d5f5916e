"""A person's reliability and career figures, from finished matches written to a real store: a turn a
computer played for them is not played in time, and the seat's turns after they resigned are not theirs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from data.store import SqliteMatchStore
from engine.core.contract import Outcome
from engine.core.replay import LoggedAction
from engine.host.career import career
from engine.host.ports import MatchRecord, MatchStatus
from engine.host.reliability import reliability
from tests.data.test_store import ANN, BOB, started, state

START = datetime(2026, 4, 1, 12, 0, tzinfo=UTC)


async def finished(
    store: SqliteMatchStore,
    moves: list[tuple[int, bool]],
    places: tuple[int, int],
    resigned: int | None = None,
) -> MatchRecord:
    """A match of ann (seat 0) and bob (seat 1) with ``moves`` (seat, a computer's) played, the seat
    ``resigned`` given up to a computer before them, ended in ``places``."""
    match = await started(store)
    if resigned is not None:
        player = match.player_at(resigned)
        assert player is not None
        computer = player.model_copy(update={"bot": "greedy", "resigned": True})
        match = await store.replace_player(match.id, match.version, resigned, computer)
    for number, (seat, stand_in) in enumerate(moves):
        action = LoggedAction(seat=seat, notation=f"m{number}", stand_in=stand_in)
        match = await store.commit_action(match.id, match.version, action, state(number))
    result = Outcome(scores=(0, 0), places=places, reason="over").model_dump_json()
    return await store.close_match(match.id, match.version, MatchStatus.FINISHED, result)


async def test_reliability_counts_the_turns_a_person_played_before_their_deadline(db_path: Path) -> None:
    ticks = (START + timedelta(minutes=10 * n) for n in range(10_000))
    async with await SqliteMatchStore.open(db_path, clock=lambda: next(ticks).isoformat()) as store:
        assert await reliability(store, ANN.user_id or 0) is None
        # Ann's second turn (two moves) was finished by a computer; bob played all of his.
        await finished(store, [(0, False), (1, False), (0, False), (0, True), (1, False), (0, False)], (2, 1))
        assert await reliability(store, ANN.user_id or 0) == 2 / 3
        assert await reliability(store, BOB.user_id or 0) == 1
        # Bob resigned before his last two turns: the computer's turns in his seat are not his.
        await finished(
            store, [(0, False), (1, False), (0, False), (1, True), (0, False), (1, True)], (1, 2), 1
        )
        assert await reliability(store, BOB.user_id or 0) == 1
        assert await reliability(store, ANN.user_id or 0) == 5 / 6
        # Somebody else's turns never count for ann, and a server's reliability is its own matches'.
        assert await reliability(store, 999) is None
        assert await reliability(store, ANN.user_id or 0, guild_id=12345) is None

        # A match abandoned after ann's time ran out counts as well: she vanished from it.
        abandoned = await started(store)
        timed_out = LoggedAction(seat=0, notation="x", stand_in=True)
        abandoned = await store.commit_action(abandoned.id, abandoned.version, timed_out, state(1))
        await store.close_match(abandoned.id, abandoned.version, MatchStatus.ABANDONED)
        assert await reliability(store, ANN.user_id or 0) == 5 / 7

        figures = await career(store, ANN.user_id or 0)
        [game] = figures.games
        assert (game.matches, game.wins, game.average_place) == (2, 1, 1.5)  # finished matches only
        assert figures.reliability == 5 / 7
        # Each of ann's own turns whose beginning is known took one tick, ten minutes.
        assert game.turn_median_s == 600


async def test_a_resigned_seat_is_last_in_the_career_places(db_path: Path) -> None:
    async with await SqliteMatchStore.open(db_path) as store:
        await finished(store, [(0, False), (1, True)], (2, 1), resigned=1)
        [bob] = (await career(store, BOB.user_id or 0)).games
        [ann] = (await career(store, ANN.user_id or 0)).games
        assert (bob.wins, bob.average_place) == (0, 2) and (ann.wins, ann.average_place) == (1, 1)
