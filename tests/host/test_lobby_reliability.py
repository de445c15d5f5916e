"""A lobby that asks for a minimum reliability: a person who played too few of their turns in time is
refused a seat and told what is asked and what they did; a newcomer, a computer and the creator are let
in; the lobby message says what it asks."""

from __future__ import annotations

import pytest

from data.store import SqliteMatchStore
from engine.core.errors import LobbyError
from engine.core.replay import LoggedAction
from engine.host.lobby_words import lobby_text
from engine.host.marks import PlainMarks
from engine.host.ports import MatchRecord, MatchStatus, Player
from engine.host.service import GameHost
from engine.host.text import refusal
from tests.data.test_store import ANN, BOB, CY, started, state

DEE = Player(user_id=404, name="dee")
STRICT_REFUSAL = (
    "This table asks for players who played at least 80% of their turns in time; you played {share}% "
    "{over}. You can open a match of your own with /game new."
)


async def played(store: SqliteMatchStore, joiner: Player, turns: list[bool]) -> None:
    """A match of ann (seat 0, always in time) and ``joiner`` (seat 1), who takes one turn after each of
    ann's: played by a computer where ``turns`` says so, abandoned at the end."""
    match = await started(store, joiner)
    for number, stand_in in enumerate(turns):
        for seat, by_computer in ((0, False), (1, stand_in)):
            action = LoggedAction(seat=seat, notation=f"m{number}{seat}", stand_in=by_computer)
            match = await store.commit_action(match.id, match.version, action, state(match.version))
    await store.close_match(match.id, match.version, MatchStatus.ABANDONED)


async def refused(host: GameHost, match: MatchRecord, player: Player) -> str:
    """What ``player`` reads when refused a seat in ``match``, which is left as it was."""
    with pytest.raises(LobbyError) as caught:
        await host.join(match.id, player)
    assert await host.match(match.id) == match
    return refusal("en", caught.value)


async def test_a_person_below_the_minimum_is_refused_and_told_both_shares(
    host: GameHost, store: SqliteMatchStore
) -> None:
    await played(store, BOB, [False, True, True])  # bob played 1 of his 3 turns in time
    strict = await host.create_match("toy", 3, creator=ANN, least_reliability=0.8)
    assert strict.least_reliability == 0.8
    said = await refused(host, strict, BOB)
    assert said == STRICT_REFUSAL.format(share=33, over="in your last match")
    await played(store, BOB, [False, False])  # 3 of 5 now, over two matches
    said = await refused(host, strict, BOB)
    assert said == STRICT_REFUSAL.format(share=60, over="over your last 2 matches")
    # A lobby that asks for nothing seats him.
    relaxed = await host.create_match("toy", 2, creator=ANN)
    assert BOB.user_id in {p.user_id for p in (await host.join(relaxed.id, BOB)).players}


async def test_a_newcomer_a_computer_and_one_exactly_at_the_minimum_are_seated(
    host: GameHost, store: SqliteMatchStore
) -> None:
    await played(store, DEE, [False, False, False, True, False])  # dee: 4 of 5, exactly 80%
    strict = await host.create_match("toy", 3, creator=ANN, least_reliability=0.8)
    strict = await host.join(strict.id, CY)  # no turn to judge cy by yet: taken at his word
    strict = await host.add_computer(strict.id, "two")
    assert [(p.user_id, p.bot) for p in strict.players] == [
        (ANN.user_id, None),
        (CY.user_id, None),
        (None, "two"),
    ]
    other = await host.create_match("toy", 2, creator=ANN, least_reliability=0.8)
    assert [p.name for p in (await host.join(other.id, DEE)).players] == ["ann", "dee"]


async def test_the_creator_is_never_refused_from_their_own_lobby(
    host: GameHost, store: SqliteMatchStore
) -> None:
    await played(store, BOB, [True, True])  # bob played none of his turns in time
    own = await host.create_match("toy", 2, creator=BOB, least_reliability=0.9)
    own = await host.leave(own.id, BOB.user_id or 0)
    own = await host.join(own.id, BOB)
    assert [p.user_id for p in own.players] == [BOB.user_id]
    # Ann, who played every turn in time, is seated beside him.
    assert [p.user_id for p in (await host.join(own.id, ANN)).players] == [BOB.user_id, ANN.user_id]


async def test_the_lobby_message_says_what_it_asks(host: GameHost) -> None:
    strict = await host.create_match("toy", 2, creator=ANN, least_reliability=0.75)
    text = lobby_text(host, strict, "en", PlainMarks())
    assert "Open to players who played at least 75% of their turns in time." in text
    plain = lobby_text(host, await host.create_match("toy", 2, creator=ANN), "en", PlainMarks())
    assert "in time" not in plain
