"""Undone actions in the store: marked void with the undo's version, never deleted, and left out of
every read that replays or counts moves."""

from __future__ import annotations

import pytest

from engine.core.errors import MatchClosed, StaleVersion
from engine.core.replay import LoggedAction
from engine.host.ports import DeliveryDraft, MatchStatus, StoredBoard
from tests.data.backends import AnyStore, Backdoor
from tests.data.test_store import play, started, state


async def test_an_undo_voids_the_latest_actions_and_commits_the_board_before_them(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await play(store, await started(store), 4)
    v = match.version  # the actions are at versions v-3 .. v
    kept_before = await store.kept_actions(match.id)
    said = [DeliveryDraft(payload='{"lines": ["undo"]}')]
    undone = await store.undo_actions(match.id, v, [v - 1, v], state(v - 2), said)
    assert undone.version == v + 1 and undone.state_json == state(v - 2)
    assert [n.notation for n in await store.action_log(match.id)] == [f"m{v - 3}", f"m{v - 2}"]
    assert await store.kept_actions(match.id) == [
        (v - 3, LoggedAction(seat=(v - 3) % 2, notation=f"m{v - 3}")),
        (v - 2, LoggedAction(seat=(v - 2) % 2, notation=f"m{v - 2}")),
    ]
    assert await store.action_seats(match.id) == [(v - 3, (v - 3) % 2), (v - 2, (v - 2) % 2)]
    # Up to a version, and the last few of those, as a board post asks where a turn began.
    assert await store.action_seats(match.id, upto=v - 3) == [(v - 3, (v - 3) % 2)]
    assert await store.action_seats(match.id, latest=1) == [(v - 2, (v - 2) % 2)]
    assert await store.action_seats(match.id, upto=v, latest=5) == await store.action_seats(match.id)
    assert await store.action_seats(match.id, upto=v - 4, latest=5) == []
    # The last few of them, as the board post asks who may take a move back.
    assert await store.kept_actions(match.id, latest=1) == (await store.kept_actions(match.id))[-1:]
    assert await store.kept_actions(match.id, latest=5) == await store.kept_actions(match.id)
    # The seat's move at v-1 was taken back: its latest is the one before.
    assert await store.last_action_version(match.id, (v - 1) % 2) == v - 3
    assert await store.action_at(match.id, v) is None
    assert await store.board_at(match.id, undone.version) == StoredBoard(
        version=undone.version, state_json=state(v - 2)
    )
    # The past stays as it was: the undone actions still lead to the boards they made.
    opening = match.version - 4
    assert await store.board_at(match.id, v) == StoredBoard(
        version=opening, state_json=state(0), then=tuple(a for _, a in kept_before)
    )
    assert [d.version for d in await store.pending_deliveries()][-1] == undone.version
    # Play goes on after it, at the next version.
    after = await store.commit_action(
        match.id, undone.version, LoggedAction(seat=0, notation="mx"), state(99)
    )
    assert [n.notation for n in await store.action_log(match.id)] == [f"m{v - 3}", f"m{v - 2}", "mx"]
    assert after.version == v + 2
    # Nothing is deleted: the rows are still there, and the void list cannot be edited.
    assert await backdoor.fetch("SELECT COUNT(*) FROM actions WHERE match_id = ?", match.id) == [(5,)]
    assert await backdoor.fetch("SELECT version, undone_at FROM void_actions ORDER BY version") == [
        (v - 1, v + 1),
        (v, v + 1),
    ]
    with pytest.raises(backdoor.integrity_error, match="stays undone"):
        await backdoor.execute("DELETE FROM void_actions")


async def test_an_undo_needs_the_current_version_the_latest_actions_and_a_running_match(
    store: AnyStore,
) -> None:
    match = await play(store, await started(store), 3)
    v = match.version
    with pytest.raises(StaleVersion):
        await store.undo_actions(match.id, v - 1, [v], state(v - 1))
    with pytest.raises(ValueError, match="latest actions"):
        await store.undo_actions(match.id, v, [v - 1], state(v - 2))  # not the latest
    with pytest.raises(ValueError):
        await store.undo_actions(match.id, match.version, [], state(2))
    assert (await store.get_match(match.id)).version == match.version  # nothing changed
    closed = await store.close_match(match.id, match.version, MatchStatus.ABANDONED)
    with pytest.raises(MatchClosed):
        await store.undo_actions(match.id, closed.version, [v], state(v - 1))


async def test_the_log_remembers_which_actions_a_computer_played_for_a_person(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await play(store, await started(store), 1)
    stood_in = LoggedAction(seat=1, notation="for them", stand_in=True)
    match = await store.commit_action(match.id, match.version, stood_in, state(2))
    own = LoggedAction(seat=0, notation="mine")
    match = await store.commit_action(match.id, match.version, own, state(3))
    log = await store.kept_actions(match.id)
    assert [action.stand_in for _, action in log] == [False, True, False]
    assert await store.kept_actions(match.id, latest=2) == log[-2:]
    assert (await store.action_log(match.id))[1] == stood_in
    # A row written without the flag (as every row before it existed) reads as its seat's own move.
    await backdoor.execute(
        "INSERT INTO actions (match_id, version, seat, notation, created_at) VALUES (?, ?, ?, ?, ?)",
        match.id,
        match.version + 1,
        1,
        "old",
        "2026-01-01T00:00:00+00:00",
    )
    assert (await store.kept_actions(match.id))[-1] == (
        match.version + 1,
        LoggedAction(seat=1, notation="old"),
    )
