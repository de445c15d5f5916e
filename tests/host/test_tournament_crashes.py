"""A tournament survives a crash after any one of its writes: the process dies right after the N-th
committed write, a fresh process opens the same file, and the tournament goes on to the very end it
would have reached without the crash, with no orphan match and every announcement made once."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from data.db import Database
from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.host.ports import MatchStatus
from engine.host.service import GameHost
from engine.host.tournaments import TournamentHost, TournamentStatus
from tests.host.conftest import TOY_GAMES, TOY_POLICIES, TOY_PRESENTATIONS

ENTRANTS = 4


class Crash(BaseException):
    """The process dies: nothing after the write that raised it runs."""


def crash_after(database: Database, writes: int | None) -> Callable[[], int]:
    """Make ``database`` die right after its ``writes``-th committed write (never, with None); returns
    a function telling how many writes were committed."""
    committed = 0
    write: Callable[[Any], Awaitable[Any]] = database.write

    async def counting(body: Any) -> Any:
        nonlocal committed
        result = await write(body)
        committed += 1
        if committed == writes:
            raise Crash(f"killed after write {committed}")
        return result

    database.write = counting  # type: ignore[method-assign]
    return lambda: committed


async def drive(tournaments: TournamentHost, posted: Counter[str]) -> int:
    """What an organiser and the bot do, from wherever things stand: create, open, fill and start the
    tournament, let it run, post its announcements. ``posted`` counts the tries of each announcement
    (Discord keeps one message per nonce, and each announcement has its own). Returns the tournament id.
    """
    ids = await tournaments.store.tournament_ids(list(TournamentStatus))
    if ids:
        record = await tournaments.get(ids[0])
    else:
        record = await tournaments.create("Crash cup", "toy", "swiss", rounds=2, table_size=2)
    if record.status is TournamentStatus.DRAFT:
        record = await tournaments.open_registration(record.id)
    while len(record.entrants) < ENTRANTS and record.status is TournamentStatus.REGISTRATION:
        record = await tournaments.add_computer(record.id, "random")
    if record.status in (TournamentStatus.REGISTRATION, TournamentStatus.CLOSED):
        await tournaments.start(record.id)
    await tournaments.host.resume()
    await tournaments.play_tables()
    await tournaments.process(record.id)
    record, due = await tournaments.announcements(record.id)
    for key in due:
        posted[f"{record.id}-{key}"] += 1
        await tournaments.mark_announced(record.id, key)
    return record.id


async def play(path: Path, posted: Counter[str], crash_at: int | None = None) -> tuple[int, int | None]:
    """One process on ``path``: drive the tournament, dying after write ``crash_at`` if given. Returns
    the writes committed and the tournament id (None when it died)."""
    store = await SqliteMatchStore.open(path)
    writes = crash_after(store.database, crash_at)
    host = GameHost(store, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES)
    tournaments = TournamentHost(host, SqliteTournamentStore.beside(store), seed_source=lambda: 5)
    try:
        tid = await drive(tournaments, posted)
        return writes(), tid
    except Crash:
        return writes(), None
    finally:
        await store.close()


async def outcome(path: Path) -> tuple[Any, ...]:
    """What the tournament came to: status, rounds with their tables and results, final standings, and
    the matches the file holds that no table of it owns."""
    store = await SqliteMatchStore.open(path)
    try:
        host = GameHost(store, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES)
        tournaments = TournamentHost(host, SqliteTournamentStore.beside(store))
        [tid] = await tournaments.store.tournament_ids(list(TournamentStatus))
        record = await tournaments.get(tid)
        owned = {t.match_id for r in record.rounds for t in r.tables}
        every = await store.list_matches(limit=1000)
        orphans = [m.id for m in every if m.id not in owned]
        lobbies = [m.id for m in every if m.status is MatchStatus.LOBBY]
        rounds = [(r.round, [(t.players, t.result) for t in r.tables]) for r in record.rounds]
        ranking = [(s.player, s.points) for s in tournaments.standings(record)]
        return record.status, rounds, ranking, orphans, lobbies, tuple(record.announced or ())
    finally:
        await store.close()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, tuple[Any, ...]]:
    """The uncrashed run: how many writes it makes, and its outcome."""
    import asyncio

    path = tmp_path_factory.mktemp("reference") / "t.db"
    posted: Counter[str] = Counter()
    writes, tid = asyncio.run(play(path, posted))
    assert tid is not None
    return writes, asyncio.run(outcome(path))


async def test_the_reference_tournament_finishes_with_every_announcement(
    reference: tuple[int, tuple[Any, ...]],
) -> None:
    writes, (status, rounds, _, orphans, lobbies, announced) = reference
    assert status is TournamentStatus.FINISHED and len(rounds) == 2 and not orphans and not lobbies
    assert announced == ("r1-pairings", "r1-standings", "r2-pairings", "r2-standings", "final")
    assert writes > 40


async def test_a_crash_after_any_write_is_recovered(
    tmp_path: Path, reference: tuple[int, tuple[Any, ...]]
) -> None:
    writes, expected = reference
    for crash_at in range(1, writes + 1):
        path = tmp_path / f"crash-{crash_at}.db"
        posted: Counter[str] = Counter()
        done, tid = await play(path, posted, crash_at)
        assert tid is None and done == crash_at, f"the run did not stop at write {crash_at}"
        _, tid = await play(path, posted)  # the restart
        assert tid is not None
        assert await outcome(path) == expected, f"a crash after write {crash_at} changed the tournament"
        assert sorted(posted) == sorted(f"{tid}-{key}" for key in expected[-1])
        # Tried again only when the crash fell between posting it and recording that: same nonce, one post.
        retried = [key for key, tries in posted.items() if tries > 1]
        assert len(retried) <= 1 and max(posted.values()) <= 2, (crash_at, posted)
