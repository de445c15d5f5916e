"""One host call tells a front end what a person may see and do in a match; ``act`` alone guards a move."""

from __future__ import annotations

import pytest

from engine.core.errors import AlreadyPlayed, MatchClosed, NotSeated, NotYourTurn, StaleVersion
from engine.host.service import GameHost
from engine.host.table import MOVED_ON, NOT_YOUR_TURN, no_hand
from lang.says import render
from tests.host.test_service import ANN, CY, started_pair, user_at


async def test_the_table_tells_each_person_where_they_stand(host: GameHost) -> None:
    match = await started_pair(host)
    mover, other = user_at(match, 0), user_at(match, 1)
    first = await host.table(match.id, mover)
    assert first.seat == 0 and first.to_act == (0,) and first.my_turn and first.refusal is None
    assert not first.may_undo and first.menu == ()  # a menu only when asked for
    waiting = await host.table(match.id, other)
    assert not waiting.my_turn and waiting.refusal is not None
    assert render("en", waiting.refusal, waiting.name) == f"Not your turn: waiting for {first.name(0)}"
    assert render("it", waiting.refusal, waiting.name) == f"Non è il tuo turno: si aspetta {first.name(0)}"
    stranger = await host.table(match.id, CY.user_id or 0)
    assert stranger.seat is None and stranger.refusal is not None
    assert render("en", stranger.refusal, stranger.name) == f"you are not playing in match #{match.id}"
    with pytest.raises(NotSeated) as refused:
        await host.table(match.id, CY.user_id or 0, seated=no_hand(match.id))
    assert refused.value.say == no_hand(match.id)

    played = await host.act(match.id, mover, "add 1")
    after = await host.table(played.match, mover, undo=True)
    assert not after.may_undo  # the toy's move drew a secret token: it cannot be taken back
    assert not after.my_turn and after.to_act == (1,)
    assert render("en", after.waiting, after.name) == f"Waiting for {after.name(1)}."


async def test_a_menu_is_for_the_person_to_act_and_for_the_board_as_it_is(host: GameHost) -> None:
    match = await started_pair(host)
    mover, other = user_at(match, 0), user_at(match, 1)
    menu = await host.menu(match.id, mover, "it")
    assert [entry.notation for entry in menu.menu] == ["add 1", "add 2"]
    with pytest.raises(NotYourTurn) as refused:
        await host.menu(match.id, other)
    assert refused.value.say == NOT_YOUR_TURN
    with pytest.raises(NotSeated):
        await host.menu(match.id, CY.user_id or 0)
    old = match.version
    moved = (await host.act(match.id, mover, "add 2")).match
    # An old Play button opens the current menu for the person to act, and is stale for anyone else.
    assert (await host.menu(match.id, other, version=old)).match.version == moved.version
    with pytest.raises(StaleVersion) as stale:
        await host.menu(match.id, mover, version=old)
    assert stale.value.say == MOVED_ON
    lobby = await host.create_match("toy", 2, creator=ANN)
    with pytest.raises(MatchClosed):
        await host.menu(lobby.id, ANN.user_id or 0)


async def test_a_second_press_of_the_same_move_is_told_apart_from_a_board_that_moved_on(
    host: GameHost,
) -> None:
    match = await started_pair(host)
    mover = user_at(match, 0)
    await host.act(match.id, mover, "add 1", expected_version=match.version)
    with pytest.raises(AlreadyPlayed):
        await host.act(match.id, mover, "add 1", expected_version=match.version)
    with pytest.raises(StaleVersion) as other_choice:
        await host.act(match.id, mover, "add 2", expected_version=match.version)
    assert not isinstance(other_choice.value, AlreadyPlayed)
    with pytest.raises(StaleVersion) as not_theirs:
        await host.act(match.id, user_at(match, 1), "add 1", expected_version=match.version)
    assert not isinstance(not_theirs.value, AlreadyPlayed)


async def test_the_only_move_is_played_only_when_there_is_one(host: GameHost) -> None:
    match = await started_pair(host)
    with pytest.raises(StaleVersion):
        await host.act(match.id, user_at(match, 0), None, expected_version=match.version)
    assert (await host.match(match.id)).version == match.version
