"""Every write that changes a match tells its new version (``store.versions``) once committed, on every
backend; on PostgreSQL another process hears it too, through LISTEN/NOTIFY, and catches up on what it
missed while its listening connection was lost."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from data.postgres.versions import VersionListener
from engine.core.errors import StaleVersion
from engine.core.replay import LoggedAction
from engine.host.ports import MatchStatus
from engine.host.watch import Watcher
from tests.data.backends import AnyStore, Backdoor
from tests.data.test_store import ANN, BOB, draft, started, state

# Long enough for a busy machine; a test that passes never waits it out.
PATIENCE_S = 10.0


async def told(watcher: Watcher, than: int) -> int:
    """The version the watcher is told once it is past ``than`` (fails the test after ``PATIENCE_S``)."""
    version = await watcher.newer(than, PATIENCE_S)
    assert version is not None, f"no version after {than} was told"
    return version


async def test_every_change_of_a_match_tells_its_new_version_once_committed(store: AnyStore) -> None:
    lobby = await store.create_match(draft(2), ANN)
    with store.versions.watching(lobby.id) as watcher:
        joined = await store.add_player(lobby.id, lobby.version, BOB)
        assert watcher.version == joined.version == lobby.version + 1
        match = await started(store)  # another match: its versions are not this watcher's
        assert watcher.version == joined.version
    with store.versions.watching(match.id) as watcher:
        moved = await store.commit_action(
            match.id, match.version, LoggedAction(seat=0, notation="a"), state(1)
        )
        assert watcher.version == moved.version == match.version + 1
        undone = await store.undo_actions(match.id, moved.version, [moved.version], state(0))
        assert watcher.version == undone.version
        closed = await store.close_match(match.id, undone.version, MatchStatus.ABANDONED)
        assert watcher.version == closed.version == undone.version + 1
        assert store.versions.watchers(match.id) == 1


async def test_a_refused_write_tells_nothing(store: AnyStore) -> None:
    match = await started(store)
    with store.versions.watching(match.id) as watcher:
        with pytest.raises(StaleVersion):
            await store.commit_action(
                match.id, match.version - 1, LoggedAction(seat=0, notation="a"), state(1)
            )
        assert watcher.version == -1
    assert store.versions.watched() == frozenset()


@pytest.fixture
async def hearing(backdoor: Backdoor) -> AsyncIterator[tuple[AnyStore, VersionListener]]:
    """A store of another process on the PostgreSQL database of the test, hearing the others' writes,
    and what listens for it."""
    if backdoor.backend != "postgres":
        pytest.skip("one process holds a SQLite file: there is no other process to hear")
    other = await backdoor.open()
    async with other.hearing_others() as listener:
        assert isinstance(listener, VersionListener)
        yield other, listener


async def test_another_process_hears_each_new_version(
    store: AnyStore, hearing: tuple[AnyStore, VersionListener], backdoor: Backdoor
) -> None:
    beside, _ = hearing
    match = await started(store)
    with beside.versions.watching(match.id) as watcher:
        moved = await store.commit_action(
            match.id, match.version, LoggedAction(seat=0, notation="a"), state(1)
        )
        assert await told(watcher, match.version) == moved.version
        again = await store.commit_action(
            match.id, moved.version, LoggedAction(seat=1, notation="b"), state(2)
        )
        assert await told(watcher, moved.version) == again.version
        # A change behind the stores' backs (no version guard) tells nothing; the next guarded one does.
        await backdoor.execute("UPDATE matches SET updated_at = updated_at WHERE id = ?", match.id)
        closed = await store.close_match(match.id, again.version, MatchStatus.ABANDONED)
        assert await told(watcher, again.version) == closed.version


async def test_a_lost_listening_connection_is_opened_again_and_catches_up(
    store: AnyStore, hearing: tuple[AnyStore, VersionListener], backdoor: Backdoor
) -> None:
    beside, listener = hearing
    match = await started(store)
    with beside.versions.watching(match.id) as watcher:
        watcher.tell(match.version)
        # The listening connection is cut, and a move stored before it is opened again is read then.
        await backdoor.execute("SELECT pg_terminate_backend(?)", listener.server_pid)
        moved = await store.commit_action(
            match.id, match.version, LoggedAction(seat=0, notation="a"), state(1)
        )
        assert await told(watcher, match.version) == moved.version
        # And it listens again: the next move is heard as it is stored.
        again = await store.commit_action(
            match.id, moved.version, LoggedAction(seat=1, notation="b"), state(2)
        )
        assert await told(watcher, moved.version) == again.version
    assert listener.connections >= 2


async def test_hearing_ends_with_its_block(backdoor: Backdoor) -> None:
    if backdoor.backend != "postgres":
        pytest.skip("nothing to hear on SQLite")
    other = await backdoor.open()
    async with asyncio.timeout(PATIENCE_S):
        async with other.hearing_others() as listener:
            assert isinstance(listener, VersionListener)
            assert listener.listening.is_set()
        assert not listener.listening.is_set()
