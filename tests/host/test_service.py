"""GameHost against the real SQLite store, with a toy game so the rules stay out of the way."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import pytest

from data.checkpoints import CHECKPOINT_EVERY
from data.store import SqliteMatchStore
from engine.core.errors import (
    CorruptRecord,
    EngineError,
    IllegalAction,
    LobbyError,
    MatchClosed,
    MatchNotFound,
    NotationError,
    NotSeated,
    NotYourTurn,
    SetupError,
    StaleVersion,
)
from engine.core.replay import replay
from engine.host.outbox import Backoff
from engine.host.ports import Delivery, MatchRecord, MatchStatus, Notice, Player, Scope
from engine.host.service import GameHost
from tests.host.conftest import TOY_GAMES, TOY_POLICIES, TOY_PRESENTATIONS
from tests.host.test_outbox import ManualClock
from tests.host.toy_game import TOY, ToyState

ANN = Player(user_id=101, name="ann")
BOB = Player(user_id=202, name="bob")
CY = Player(user_id=303, name="cy")


async def started_pair(host: GameHost, seed: int = 7) -> MatchRecord:
    match = await host.create_match("toy", 2, creator=ANN, seed=seed)
    await host.join(match.id, BOB)
    await host.start(match.id, by_user=ANN.user_id)
    return await host.match(match.id)


def user_at(match: MatchRecord, seat: int) -> int:
    player = match.player_at(seat)
    assert player is not None and player.user_id is not None
    return player.user_id


class Recorder:
    """A notifier that remembers what it was asked to send, and can fail on demand."""

    def __init__(self, failures: int = 0) -> None:
        self.sent: list[tuple[int | None, Notice]] = []
        self.failures = failures

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("discord is down")
        self.sent.append((delivery.seat, notice))


async def test_start_seats_players_by_seed_and_queues_notices(host: GameHost) -> None:
    first = await started_pair(host, seed=7)
    again = await started_pair(host, seed=7)
    assert first.status is MatchStatus.ACTIVE
    assert sorted(cast(int, p.seat) for p in first.players) == [0, 1]
    assert [p.name for p in sorted(first.players, key=lambda p: p.seat or 0)] == [
        p.name for p in sorted(again.players, key=lambda p: p.seat or 0)
    ]
    recorder = Recorder()
    assert await host.flush(recorder) == 6  # per match: one public post, one hand per seat
    public = [n for seat, n in recorder.sent if seat is None]
    assert public[0].headline == "Toy race begins" and public[0].to_act == (0,)
    assert public[0].lines[1] == "a race to 10"  # the game's own setup log follows the seats
    assert (await host.public_log(first))[0] == "a race to 10"


async def test_act_by_notation_and_by_slot(host: GameHost, store: SqliteMatchStore) -> None:
    match = await started_pair(host)
    result = await host.act(match.id, user_at(match, 0), "add 2", expected_version=match.version)
    assert result.notation == "add 2"
    assert result.lines == ("S1 adds 2 => 2",)
    assert result.match.version == match.version + 1
    result = await host.act(match.id, user_at(match, 1), 0)  # slot 0 = "add 1"
    assert result.notation == "add 1"
    log = await store.action_log(match.id)
    assert [(e.seat, e.notation) for e in log] == [(0, "add 2"), (1, "add 1")]


async def test_refusals_change_nothing(host: GameHost, store: SqliteMatchStore) -> None:
    match = await started_pair(host)
    first, second = user_at(match, 0), user_at(match, 1)
    before = await store.get_match(match.id)
    pending = len(await store.pending_deliveries())
    assert CY.user_id is not None
    cases: list[tuple[type[EngineError], int, str | int, int | None]] = [
        (NotSeated, CY.user_id, "add 1", None),
        (NotYourTurn, second, "add 1", None),
        (NotationError, first, "jump 3", None),
        (IllegalAction, first, "add 3", None),
        (IllegalAction, first, 5, None),
        (StaleVersion, first, "add 1", match.version - 1),
    ]
    for error, user, move, version in cases:
        with pytest.raises(error) as caught:
            await host.act(match.id, user, move, expected_version=version)
        assert caught.value.message
    with pytest.raises(MatchNotFound):
        await host.act(9999, first, "add 1")
    after = await store.get_match(match.id)
    assert after == before
    assert len(await store.pending_deliveries()) == pending


async def test_error_messages_say_what_is_allowed(host: GameHost) -> None:
    match = await started_pair(host)
    with pytest.raises(IllegalAction) as caught:
        await host.act(match.id, user_at(match, 0), 7)
    assert "choose 0 to 1" in caught.value.message
    assert caught.value.allowed == ("add 1", "add 2")
    with pytest.raises(NotYourTurn) as waiting:
        await host.act(match.id, user_at(match, 1), "add 1")
    assert waiting.value.message == "it is not your turn; waiting for bob"


async def test_lobby_rules(host: GameHost) -> None:
    with pytest.raises(SetupError):
        await host.create_match("toy", 5, creator=ANN)
    with pytest.raises(SetupError):
        await host.create_match("toy", 2, frozenset({"short"}), creator=ANN)
    with pytest.raises(SetupError):
        await host.create_match("chess", 2, creator=ANN)
    match = await host.create_match("toy", 2, creator=ANN, seed=1)
    with pytest.raises(LobbyError):
        await host.start(match.id, by_user=ANN.user_id)  # one player short
    with pytest.raises(MatchClosed):
        await host.act(match.id, ANN.user_id or 0, "add 1")  # not seated yet -> lobby
    with pytest.raises(LobbyError):
        await host.join(match.id, ANN)  # already in
    await host.join(match.id, BOB)
    with pytest.raises(LobbyError):
        await host.join(match.id, CY)  # full
    await host.leave(match.id, BOB.user_id or 0)
    await host.join(match.id, CY)
    with pytest.raises(LobbyError):
        await host.start(match.id, by_user=CY.user_id)  # not the creator
    await host.start(match.id, by_user=ANN.user_id)
    with pytest.raises(LobbyError):
        await host.leave(match.id, CY.user_id or 0)


async def test_computer_players_act_until_a_human_must(host: GameHost, store: SqliteMatchStore) -> None:
    match = await host.create_match("toy", 3, creator=ANN, seed=3)
    await host.add_computer(match.id, "two")
    await host.add_computer(match.id, "two")
    await host.start(match.id)
    match = await host.match(match.id)
    human = match.seat_of(ANN.user_id or 0)
    state = cast(ToyState, host.state_of(match))
    assert TOY.to_act(state) == {human}  # the computers before the human already moved
    while match.status is MatchStatus.ACTIVE:
        result = await host.act(match.id, ANN.user_id or 0, "add 1")
        match = result.match
    assert match.status is MatchStatus.FINISHED
    outcome = host.outcome(match)
    assert outcome is not None and sorted(outcome.places)[0] == 1
    with pytest.raises(MatchClosed):
        await host.act(match.id, ANN.user_id or 0, "add 1")
    log = await store.action_log(match.id)
    replayed, _ = replay(TOY, 3, match.seed, match.options, log)
    assert replayed == host.state_of(match)


async def test_simultaneous_submissions_apply_once(db_path: Path, host: GameHost) -> None:
    match = await started_pair(host)
    other_store = await SqliteMatchStore.open(db_path)
    try:
        other_host = GameHost(
            other_store, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES
        )
        user = user_at(match, 0)
        results = await asyncio.gather(
            host.act(match.id, user, "add 1", expected_version=match.version),
            other_host.act(match.id, user, "add 2", expected_version=match.version),
            return_exceptions=True,
        )
    finally:
        await other_store.close()
    accepted = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(accepted) == 1 and len(refused) == 1
    assert isinstance(refused[0], StaleVersion)
    assert len(await host.store.action_log(match.id)) == 1


async def test_restart_keeps_everything_and_computers_resume(db_path: Path) -> None:
    store = await SqliteMatchStore.open(db_path)
    host = GameHost(store, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES)
    match = await host.create_match("toy", 2, creator=ANN, seed=11)
    await host.join(match.id, BOB)
    await host.start(match.id)
    match = await host.match(match.id)
    await host.act(match.id, user_at(match, 0), "add 2")
    # The second player leaves the table mid-game: hand the seat over, as if the bot crashed right after.
    seat1 = match.player_at(1)
    assert seat1 is not None
    current = await store.get_match(match.id)
    await store.replace_player(match.id, current.version, 1, seat1.model_copy(update={"bot": "two"}))
    await store.close()

    reopened = await SqliteMatchStore.open(db_path)
    try:
        fresh_host = GameHost(
            reopened, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES
        )
        resumed = await fresh_host.resume()
        assert [m.id for m in resumed] == [match.id]
        after = await fresh_host.match(match.id)
        log = await reopened.action_log(match.id)
        assert [(e.seat, e.notation) for e in log] == [(0, "add 2"), (1, "add 2")]
        assert TOY.to_act(cast(ToyState, fresh_host.state_of(after))) == {0}
    finally:
        await reopened.close()


async def test_a_seat_dealt_nothing_secret_gets_no_opening_hand_message(store: SqliteMatchStore) -> None:
    host = GameHost(store)  # the real games: Piatnik deals no cards before its preliminary round
    match = await host.create_match("ny_piatnik", 3, seed=2)
    for person in (ANN, BOB, Player(user_id=3, name="cy")):
        await host.join(match.id, person)
    await host.start(match.id)
    recorder = Recorder()
    await host.flush(recorder)
    assert [seat for seat, _ in recorder.sent] == [None]


async def test_nothing_secret_is_sent_once_the_match_is_over(host: GameHost) -> None:
    match = await started_pair(host)
    await host.flush(Recorder())
    moves = 0
    while moves < 12:
        match = await host.match(match.id)
        if match.status is MatchStatus.FINISHED:
            break
        moves += 1
        seat = min(TOY.to_act(cast(ToyState, host.state_of(match))))
        recorder = Recorder()
        await host.act(match.id, user_at(match, seat), "add 2")
        await host.flush(recorder)
    assert match.status is MatchStatus.FINISHED and moves > 2
    # The last move drew a token like every other, but the final post is the only message.
    assert [(seat, notice.finished) for seat, notice in recorder.sent] == [(None, True)]


async def test_failed_deliveries_are_retried_after_their_destinations_back_off(
    store: SqliteMatchStore,
) -> None:
    clock = ManualClock()
    host = GameHost(
        store,
        games=TOY_GAMES,
        presentations=TOY_PRESENTATIONS,
        policies=TOY_POLICIES,
        backoff=Backoff(base=5.0, clock=clock),
    )
    await started_pair(host)
    flaky = Recorder(failures=1)
    assert await host.flush(flaky) == 2  # the first of three failed and stays pending
    assert await host.flush(flaky) == 0  # its destination waits; the others had nothing more
    clock.now += 5.0
    assert await host.flush(flaky) == 1
    assert await host.flush(flaky) == 0
    assert len(flaky.sent) == 3


class Gated(Recorder):
    """A notifier whose thread posts wait until ``opened`` is set (a slow Discord for threads only)."""

    def __init__(self) -> None:
        super().__init__()
        self.opened = asyncio.Event()

    async def deliver(self, match: MatchRecord, delivery: Delivery, notice: Notice) -> None:
        if delivery.seat is None:
            await self.opened.wait()
        await super().deliver(match, delivery, notice)


async def test_dispatch_starts_each_destination_once_and_returns_while_they_send(host: GameHost) -> None:
    match = await started_pair(host)
    slow = Gated()
    kicks: list[int] = []
    first = await host.dispatch(slow, when_sent=lambda: kicks.append(1))
    assert len(first) == 3  # the thread and each seat's messages, each by a sender of its own
    for _ in range(10):  # until the two seats' senders end; the thread's waits
        if sum(sender.done() for sender in first) >= 2:
            break
        running = [sender for sender in first if not sender.done()]
        await asyncio.wait(running, timeout=5, return_when=asyncio.FIRST_COMPLETED)
    assert sorted(cast(int, seat) for seat, _ in slow.sent) == [0, 1]  # the hands went out; the board waits
    # A move meanwhile: the thread's sender is still busy, so only the seat it told starts again.
    await host.act(match.id, user_at(match, 0), "add 1")
    second = await host.dispatch(slow, when_sent=lambda: kicks.append(2))
    assert len(second) == 1
    await asyncio.gather(*second)
    assert [seat for seat, _ in slow.sent] == [0, 1, 0] and kicks == [1, 1, 2]
    slow.opened.set()
    assert await asyncio.gather(*first) == [1, 1, 1]
    # The thread's second notice waited for its first, and the next dispatch sends it.
    assert await host.flush(slow) == 1
    public = [notice for seat, notice in slow.sent if seat is None]
    assert len(public) == 2 and public[0].headline == "Toy race begins"
    assert public[1].lines == ("S1 adds 1 => 1",)


async def test_private_lines_reach_only_their_seat(host: GameHost) -> None:
    match = await started_pair(host)
    await host.flush(Recorder())
    await host.act(match.id, user_at(match, 0), "add 1")
    recorder = Recorder()
    await host.flush(recorder)
    by_seat = {seat: notice for seat, notice in recorder.sent}
    assert set(by_seat) == {None, 0}
    assert by_seat[None].lines == ("S1 adds 1 => 1",)
    assert by_seat[0].lines[0].startswith("you drew ")


async def test_abandon_needs_the_creator_or_an_admin(host: GameHost) -> None:
    match = await started_pair(host)
    with pytest.raises(LobbyError):
        await host.abandon(match.id, by_user=BOB.user_id)
    closed = await host.abandon(match.id, by_user=BOB.user_id, is_admin=True)
    assert closed.status is MatchStatus.ABANDONED
    with pytest.raises(MatchClosed):
        await host.act(match.id, user_at(match, 0), "add 1")
    with pytest.raises(MatchClosed):
        await host.abandon(match.id, by_user=ANN.user_id)


async def test_resign_hands_the_seat_to_a_computer(host: GameHost) -> None:
    match = await started_pair(host)
    resigning = user_at(match, 1)
    await host.act(match.id, user_at(match, 0), "add 1")
    after = await host.resign(match.id, resigning, policy="two")
    taken_over = after.player_at(1)
    assert taken_over is not None and taken_over.bot == "two" and taken_over.user_id == resigning
    assert TOY.to_act(cast(ToyState, host.state_of(after))) == {
        0
    }  # the computer already played seat 1's turn
    await host.act(match.id, user_at(match, 0), "add 1")
    with pytest.raises(NotSeated):
        await host.act(match.id, resigning, "add 1")


async def test_corrupt_snapshot_is_reported_and_nothing_changes(db_path: Path, host: GameHost) -> None:
    match = await started_pair(host)
    with sqlite3.connect(db_path) as raw:
        raw.execute("UPDATE matches SET state_json = ? WHERE id = ?", ("{not json", match.id))
    with pytest.raises(CorruptRecord) as caught:
        await host.act(match.id, user_at(match, 0), "add 1")
    assert f"match {match.id}" in caught.value.message
    assert len(await host.store.action_log(match.id)) == 0


async def test_a_snapshot_is_read_once_while_its_stored_text_stays_the_same(
    db_path: Path, host: GameHost
) -> None:
    match = await started_pair(host)
    await host.act(match.id, user_at(match, 0), "add 1")
    latest = await host.match(match.id)
    assert host.state_of(latest) is host.state_of(await host.match(match.id))
    # The same version with other text (a damaged row) is read afresh, and found unreadable.
    with sqlite3.connect(db_path) as raw:
        raw.execute("UPDATE matches SET state_json = ? WHERE id = ?", ("{not json", match.id))
    with pytest.raises(CorruptRecord):
        host.state_of(await host.match(match.id))


async def test_a_failed_notice_holds_back_later_ones_to_the_same_place(host: GameHost) -> None:
    match = await started_pair(host)
    await host.flush(Recorder())
    await host.act(match.id, user_at(match, 0), "add 1")
    await host.act(match.id, user_at(match, 1), "add 1")
    flaky = Recorder(failures=1)
    await host.flush(flaky)
    # The first public post failed, so the second waits; the private notices went out.
    assert [seat for seat, _ in flaky.sent] == [0, 1]
    await host.flush(flaky)
    public = [notice.lines for seat, notice in flaky.sent if seat is None]
    assert public == [("S1 adds 1 => 1",), ("S2 adds 1 => 2",)]


async def test_a_match_is_seen_only_from_its_own_server_or_by_its_players_in_dms(host: GameHost) -> None:
    match = await host.create_match("toy", 2, creator=ANN, seed=3, guild_id=1)
    await host.join(match.id, BOB)
    await host.start(match.id, by_user=ANN.user_id)
    started = await host.match(match.id)
    home, elsewhere = Scope(user_id=CY.user_id or 0, guild_id=1), Scope(user_id=ANN.user_id or 0, guild_id=2)
    assert (await host.match(match.id, home)).id == match.id
    assert (await host.match(match.id, Scope(user_id=BOB.user_id or 0))).id == match.id  # a player's DMs
    refusals = []
    for scope in (elsewhere, Scope(user_id=CY.user_id or 0)):
        for attempt in (
            host.match(match.id, scope),
            host.find_match(scope, match.id),
            host.act(match.id, user_at(started, 0), "add 1", scope=scope),
            host.abandon(match.id, ANN.user_id, is_admin=True, scope=scope),
            host.resign(match.id, BOB.user_id or 0, policy="two", scope=scope),
        ):
            with pytest.raises(MatchNotFound) as refused:
                await attempt
            refusals.append(str(refused.value))
    with pytest.raises(MatchNotFound) as unknown:
        await host.match(match.id + 1000, home)
    # Another server's match and a number that does not exist get the very same answer.
    assert {r.replace(str(match.id), "N") for r in refusals} == {
        str(unknown.value).replace(str(match.id + 1000), "N")
    }
    assert (await host.match(match.id)).version == started.version  # nothing was changed


async def test_a_match_nobody_created_is_abandoned_only_by_organisers(host: GameHost) -> None:
    table = await host.create_match("toy", 2, seed=5)  # as a tournament creates its tables
    await host.join(table.id, ANN)
    await host.join(table.id, BOB)
    await host.start(table.id)
    with pytest.raises(LobbyError):
        await host.abandon(table.id, by_user=ANN.user_id)
    closed = await host.abandon(table.id, by_user=CY.user_id, is_admin=True)
    assert closed.status is MatchStatus.ABANDONED


async def test_a_typed_move_is_refused_once_the_seat_has_moved_since_it_was_seen(host: GameHost) -> None:
    match = await started_pair(host)
    first, second = user_at(match, 0), user_at(match, 1)
    seen = match.version
    await host.act(match.id, first, "add 1", seen_version=seen)
    # The other seat moving after that board was seen does not make its own typed move stale...
    await host.act(match.id, second, "add 1", seen_version=seen)
    # ...but a command of the first seat sent with that board is a repeat: it is refused.
    with pytest.raises(StaleVersion):
        await host.act(match.id, first, "add 1", seen_version=seen)
    assert [entry.seat for entry in await host.store.action_log(match.id)] == [0, 1]
    await host.act(match.id, first, "add 2", seen_version=(await host.match(match.id)).version)
    assert len(await host.store.action_log(match.id)) == 3


@pytest.mark.parametrize(
    ("game", "seats", "options"), [("skyline", 3, {"hidden"}), ("ny_piatnik", 4, {"team"})]
)
async def test_log_lines_name_public_moves_only(
    store: SqliteMatchStore, caplog: pytest.LogCaptureFixture, game: str, seats: int, options: set[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    host = GameHost(store)
    match = await host.create_match(game, seats, frozenset(options), seed=11)
    for _ in range(seats):
        await host.add_computer(match.id)
    await host.start(match.id)
    record = await host.match(match.id)
    assert record.status is MatchStatus.FINISHED
    rules = host.rules(game)
    state = rules.setup(seats, record.seed, record.options)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    private_moves = 0
    for entry in await store.action_log(match.id):
        action = rules.parse(entry.notation)
        step = rules.apply(state, entry.seat, action)
        if rules.is_public_action(state, entry.seat, action):
            assert f"played {entry.notation} (" in logged
        else:
            private_moves += 1
            assert f"played {entry.notation} (" not in logged
        for event in step.events:
            if not event.is_public:
                assert event.text not in logged
        state = step.state
    assert private_moves and "played a private move" in logged


async def test_a_stored_move_or_game_that_cannot_be_read_is_a_corrupt_record(
    host: GameHost, store: SqliteMatchStore, db_path: Path
) -> None:
    match = await started_pair(host)
    await host.act(match.id, user_at(match, 0), "add 1")
    with sqlite3.connect(db_path) as raw:
        raw.execute("PRAGMA ignore_check_constraints = ON")
        raw.execute("DROP TRIGGER actions_no_update")
        raw.execute("UPDATE actions SET notation = 'dance' WHERE match_id = ?", (match.id,))
    raw.close()
    with pytest.raises(CorruptRecord) as history:
        await host.public_log(await host.match(match.id))
    assert "move 1" in history.value.message and "'dance'" in history.value.message
    assert "admin can abandon" in history.value.message
    other = await started_pair(host, seed=9)
    with sqlite3.connect(db_path) as raw:
        raw.execute("UPDATE matches SET game = 'chess' WHERE id = ?", (other.id,))
    raw.close()
    with pytest.raises(CorruptRecord, match="stored as a game of 'chess'"):
        await host.match(other.id)


async def test_an_unreadable_notice_is_settled_without_quoting_it(
    host: GameHost, store: SqliteMatchStore, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    match = await started_pair(host)
    with sqlite3.connect(db_path) as raw:
        raw.execute(
            'UPDATE deliveries SET payload = \'{"lines": "you hold SECRET-HAND-42", "to_act": 1}\' '
            "WHERE match_id = ? AND seat = 0",
            (match.id,),
        )
    raw.close()
    recorder = Recorder()
    await host.flush(recorder)
    assert [seat for seat, _ in recorder.sent] == [None, 1]  # the others went out
    assert await store.pending_deliveries() == []
    assert "SECRET-HAND-42" not in "\n".join(r.getMessage() for r in caplog.records)


class WaitsForTheLoop:
    """A computer player that decides only once the event loop has run something else while it thinks:
    one that thought on the loop itself would wait in vain (and give up after a while)."""

    name = "patient"

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.loop_ran = threading.Event()
        self.thought_while_the_loop_ran = 0

    def choose(self, rules: object, state: object, seat: int, legal: Sequence[object], rng: object) -> object:
        self.loop_ran.clear()
        self.thinking.set()
        if self.loop_ran.wait(timeout=2):
            self.thought_while_the_loop_ran += 1
        self.thinking.clear()
        return legal[-1]


async def test_computer_players_think_off_the_event_loop(store: SqliteMatchStore) -> None:
    patient = WaitsForTheLoop()
    host = GameHost(
        store, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies={"toy": {"patient": patient}}
    )
    match = await host.create_match("toy", 2, creator=ANN, seed=3)
    await host.add_computer(match.id, "patient")
    thinking = asyncio.create_task(host.start(match.id, by_user=ANN.user_id))
    while not thinking.done():
        if patient.thinking.is_set():
            patient.loop_ran.set()  # the loop's own work, done while the computer thinks
        await asyncio.sleep(0)
    match = (await thinking).match
    computer = next(p.seat for p in match.players if p.bot is not None)
    moves = [a for a in await store.action_log(match.id) if a.seat == computer]
    assert moves and patient.thought_while_the_loop_ran == len(moves)


async def test_resume_pages_through_every_active_match(store: SqliteMatchStore) -> None:
    host = GameHost(store, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES)
    made = []
    for seed in range(5):
        match = await host.create_match("toy", 2, creator=ANN, seed=seed)
        await host.join(match.id, BOB)
        await host.start(match.id)
        made.append(match.id)
    # Pages of two: every active match is still found, in order, each once.
    assert await host._all_ids([MatchStatus.ACTIVE], page=2) == made
    assert await store.match_ids([MatchStatus.ACTIVE], 2, after=made[1]) == made[2:4]


async def test_the_board_at_every_version_comes_back_from_checkpoints_and_the_log(
    store: SqliteMatchStore,
) -> None:
    host = GameHost(store)  # the real games: a whole match of computers crosses several checkpoints
    match = await host.create_match("ny_piatnik", 3, creator=ANN, seed=5)
    await host.add_computer(match.id, "greedy")
    await host.add_computer(match.id, "greedy")
    await host.start(match.id)
    match = await host.match(match.id)
    human = match.seat_of(ANN.user_id or 0)
    assert human is not None
    while match.status is MatchStatus.ACTIVE:
        notation = host.legal_notations(match, human)[0]
        match = (await host.act(match.id, ANN.user_id or 0, notation)).match
    kept = await store.kept_actions(match.id)
    assert kept[-1][0] > 2 * CHECKPOINT_EVERY
    rules = host.rules("ny_piatnik")
    opening = kept[0][0] - 1
    fresh = GameHost(store)  # knows no recent state: every board is a checkpoint plus a replay
    for version in range(opening, match.version + 1):
        played = [action for at, action in kept if at <= version]
        expected, _ = replay(rules, 3, match.seed, match.options, played)
        assert await fresh.state_at(match, version) == expected, version
        # The views at a version, kept or not, are those of that board.
        for seat in (None, human):
            shown = rules.view(expected, seat)
            assert await host.view_at(match, version, seat) == shown, (version, seat)
            assert await fresh.view_at(match, version, seat) == shown, (version, seat)
