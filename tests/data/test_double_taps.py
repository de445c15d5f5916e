"""A command tapped twice at once, on every backend: both requests read what they read before either
writes (see ``Backdoor.interleaved``), and exactly one is carried out; the other gets the refusal it
would get one after the other, and the database is as after one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

from data.postgres.settings import PostgresSettings
from data.settings import SqliteSettings
from data.store import SqliteMatchStore
from engine.core.errors import LobbyError
from engine.host.absence import come_back, go_away
from engine.host.clock import ALLOWANCES, Pace, SeatClock
from engine.host.ports import Delivery, MatchRecord, MatchStatus, Player
from engine.host.service import ActResult, GameHost
from tests.data.backends import AnyStore, Backdoor
from tests.data.test_store import ANN, BOB, draft
from tests.data.test_store_clocks import DAY, NOON, timed
from tests.host.conftest import TOY_GAMES, TOY_POLICIES, TOY_PRESENTATIONS

CAT = Player(user_id=303, name="cat")

T = TypeVar("T")


def one_refused(results: Sequence[T | BaseException], refusal: type[Exception], saying: str) -> T:
    """The one result that is not ``refusal`` (which the other is, saying ``saying``)."""
    refused = [r for r in results if isinstance(r, refusal)]
    kept = [r for r in results if not isinstance(r, BaseException)]
    assert len(refused) == 1 and len(kept) == 1, results
    assert saying in str(refused[0])
    return kept[0]


async def test_away_on_tapped_twice_begins_one_absence_and_pauses_the_turn_once(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await timed(store)  # ann's turn runs until a day after noon
    other = await backdoor.open()  # a second process on the same database
    results = await backdoor.interleaved(
        match.id, [store, other], [go_away(store, 101, 3, NOON), go_away(other, 101, 3, NOON)]
    )
    ends, moved = one_refused(results, LobbyError, "you are away already")
    assert ends == NOON + 3 * DAY and [c.deadline for c in moved] == [NOON + 4 * DAY]
    assert await store.absences([101], NOON - DAY) == {101: [(NOON, NOON + 3 * DAY)]}
    assert (await store.seat_clocks(match.id))[0].deadline == NOON + 4 * DAY


async def test_away_on_tapped_twice_near_the_months_end_of_days_grants_them_once(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await timed(store)
    await go_away(store, 101, 4, NOON - 10 * DAY)  # over by noon: ten days are left this month
    other = await backdoor.open()
    later = NOON + 7 * DAY  # after the first of the two ends: only the days left stand between them
    results = await backdoor.interleaved(
        match.id, [store, other], [go_away(store, 101, 6, NOON), go_away(other, 101, 6, later)]
    )
    one_refused(results, LobbyError, "more days this month")
    assert len((await store.absences([101], NOON - DAY))[101]) == 1


async def test_away_off_tapped_twice_ends_the_absence_once_and_gives_the_time_back_once(
    store: AnyStore, backdoor: Backdoor
) -> None:
    match = await timed(store)
    await go_away(store, 101, 3, NOON)
    other = await backdoor.open()
    results = await backdoor.interleaved(
        match.id, [store, other], [come_back(store, 101, NOON + DAY), come_back(other, 101, NOON + DAY)]
    )
    moved = one_refused(results, LobbyError, "you are not away")
    assert [c.deadline for c in moved] == [NOON + 2 * DAY]
    assert await store.absences([101], NOON - DAY) == {101: [(NOON, NOON + DAY)]}
    assert (await store.seat_clocks(match.id))[0].deadline == NOON + 2 * DAY


# ----------------------------------------------------------------------------------------------- lobbies


def hosts(*stores: AnyStore) -> list[GameHost]:
    """A game host of the toy game on each store, as each bot process has its own."""
    return [
        GameHost(store, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES)
        for store in stores
    ]


async def lobby(host: GameHost, seats: int, *joiners: Player) -> MatchRecord:
    match = await host.create_match("toy", seats, creator=ANN, seed=5)
    for player in joiners:
        match = await host.join(match.id, player)
    return match


def begun(deliveries: Sequence[Delivery], match_id: int) -> list[int]:
    """The versions of the match's "… begins" notices among ``deliveries``."""
    return [
        d.version
        for d in deliveries
        if d.match_id == match_id and json.loads(d.payload).get("headline", "").endswith(" begins")
    ]


async def seated(store: AnyStore, match_id: int) -> list[str]:
    return sorted(p.name for p in (await store.get_match(match_id)).players)


async def test_join_tapped_twice_seats_the_person_once(store: AnyStore, backdoor: Backdoor) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = await lobby(first, 3)
    results = await backdoor.interleaved(
        match.id, [store, other], [first.join(match.id, BOB), second.join(match.id, BOB)]
    )
    one_refused(results, LobbyError, "you have already joined")
    assert await seated(store, match.id) == ["ann", "bob"]


async def test_two_people_joining_for_the_last_seat_seat_one(store: AnyStore, backdoor: Backdoor) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = await lobby(first, 2)
    results = await backdoor.interleaved(
        match.id, [store, other], [first.join(match.id, BOB), second.join(match.id, CAT)]
    )
    joined = one_refused(results, LobbyError, "is full: all 2 seats are taken")
    assert (
        await seated(store, match.id) == sorted(p.name for p in joined.players) and len(joined.players) == 2
    )


async def test_leave_tapped_twice_takes_the_person_out_once(store: AnyStore, backdoor: Backdoor) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = await lobby(first, 3, BOB, CAT)
    results = await backdoor.interleaved(
        match.id, [store, other], [first.leave(match.id, 202), second.leave(match.id, 202)]
    )
    one_refused(results, LobbyError, "you have not joined match")
    assert await seated(store, match.id) == ["ann", "cat"]


async def test_add_computer_tapped_twice_for_the_last_seat_adds_one(
    store: AnyStore, backdoor: Backdoor
) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = await lobby(first, 3, BOB)
    results = await backdoor.interleaved(
        match.id, [store, other], [first.add_computer(match.id, "two"), second.add_computer(match.id, "two")]
    )
    one_refused(results, LobbyError, "is full: all 3 seats are taken")
    assert len((await store.get_match(match.id)).players) == 3


async def test_computers_added_at_once_to_free_seats_get_names_of_their_own(
    store: AnyStore, backdoor: Backdoor
) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = await lobby(first, 3)
    results = await backdoor.interleaved(
        match.id, [store, other], [first.add_computer(match.id, "two"), second.add_computer(match.id, "two")]
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    names = await seated(store, match.id)
    assert len(names) == len(set(names)) == 3


async def test_start_tapped_twice_starts_the_match_once(store: AnyStore, backdoor: Backdoor) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = await lobby(first, 2, BOB)
    results = await backdoor.interleaved(
        match.id, [store, other], [first.start(match.id, ANN.user_id), second.start(match.id, ANN.user_id)]
    )
    started = one_refused(results, LobbyError, "the lobby is closed")
    assert started.match.status is MatchStatus.ACTIVE and started.match.version == match.version + 1
    assert begun(await store.pending_deliveries(), match.id) == [started.match.version]


async def test_a_leave_racing_the_start_lets_one_of_them_through(store: AnyStore, backdoor: Backdoor) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = await lobby(first, 2, BOB)
    results = await backdoor.interleaved(
        match.id, [store, other], [first.start(match.id, ANN.user_id), second.leave(match.id, 202)]
    )
    refused = [r for r in results if isinstance(r, LobbyError)]
    assert len(refused) == 1 and len(results) == 2, results
    now = await store.get_match(match.id)
    if isinstance(results[0], ActResult):  # started first: the leave came too late
        assert "the lobby is closed" in str(refused[0]) and now.status is MatchStatus.ACTIVE
    else:  # bob left first: the start finds a seat empty
        assert "the match needs 2 players and has 1" in str(refused[0])
        assert now.status is MatchStatus.LOBBY and [p.name for p in now.players] == ["ann"]


async def test_rematch_tapped_twice_makes_and_starts_one_rematch(store: AnyStore, backdoor: Backdoor) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = await lobby(first, 3)
    match = await first.add_computer(match.id, "two")
    match = await first.add_computer(match.id, "random")
    played = (await first.start(match.id)).match
    over = await store.close_match(played.id, played.version, MatchStatus.FINISHED)
    before = {m.id for m in (await store.list_matches())}
    results = await backdoor.interleaved(
        over.id, [store, other], [first.rematch(over.id, 101), second.rematch(over.id, 101)]
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    made = {m.id for m in (await store.list_matches())} - before
    assert made == {r.id for r in results if isinstance(r, MatchRecord)} and len(made) == 1
    (rematch_id,) = made
    rematch = await store.get_match(rematch_id)
    assert rematch.status is MatchStatus.ACTIVE and len(rematch.players) == 3
    assert sorted(p.name for p in rematch.players) == sorted(p.name for p in over.players)
    assert len(begun(await store.pending_deliveries(), rematch_id)) == 1


# ---------------------------------------------------------------------------------------------- settings


def settings_of(store: AnyStore) -> SqliteSettings | PostgresSettings:
    if isinstance(store, SqliteMatchStore):
        return SqliteSettings.beside(store)
    return PostgresSettings(store.database)


async def test_a_setting_chosen_twice_at_once_is_stored_once(store: AnyStore, backdoor: Backdoor) -> None:
    match = await store.create_match(draft(2), ANN)  # only for the lock the two writes wait behind
    other = await backdoor.open()
    first, second = settings_of(store), settings_of(other)
    results = await backdoor.interleaved(
        match.id,
        [store, other],
        [first.set("user", 101, "locale", "it"), second.set("user", 101, "locale", "it")],
    )
    assert results == [None, None]
    assert await backdoor.fetch("SELECT value FROM user_settings WHERE user_id = ?", 101) == [("it",)]
    results = await backdoor.interleaved(
        match.id,
        [store, other],
        [first.set("guild", 7, "locale", "en"), second.set("guild", 7, "locale", "it")],
    )
    assert results == [None, None]
    (kept,) = await backdoor.fetch("SELECT value FROM guild_settings WHERE guild_id = ?", 7)
    assert kept[0] in ("en", "it") and await first.get("guild", 7, "locale") == kept[0]


async def test_of_two_processes_swapping_a_setting_from_one_value_only_one_does(
    store: AnyStore, backdoor: Backdoor
) -> None:
    # Two bots on one database that find a league's season over both try to mark it closed: one posts.
    match = await store.create_match(draft(2), ANN)
    other = await backdoor.open()
    first, second = settings_of(store), settings_of(other)
    for held, wanted in ((None, "1"), ("1", "2")):
        swaps = [
            first.swap("guild", 7, "season", held, wanted),
            second.swap("guild", 7, "season", held, wanted),
        ]
        results = await backdoor.interleaved(match.id, [store, other], swaps)
        assert sorted(r for r in results if isinstance(r, bool)) == [False, True], results
    assert await first.get("guild", 7, "season") == "2"
    # A swap from a value the setting does not hold changes nothing.
    assert not await second.swap("guild", 7, "season", "1", "3")
    assert await second.get("guild", 7, "season") == "2"


async def test_a_return_to_ones_seat_tapped_twice_gives_it_back_once(
    store: AnyStore, backdoor: Backdoor
) -> None:
    first, second = hosts(store, other := await backdoor.open())
    match = (await first.start((await lobby(first, 2, BOB)).id)).match
    seat = match.seat_of(101)
    assert seat is not None
    kept = Player(user_id=101, name="ann (computer)", bot="two", absent=True, seat=seat)
    match = await store.replace_player(match.id, match.version, seat, kept)  # her time ran out twice
    results = await backdoor.interleaved(
        match.id, [store, other], [first.back(match.id, 101), second.back(match.id, 101)]
    )
    returned = one_refused(results, LobbyError, "is already yours")
    assert returned.version == match.version + 1
    ann = (await store.get_match(match.id)).player_at(seat)
    assert ann is not None and (ann.name, ann.bot, ann.absent) == ("ann", None, False)


# ------------------------------------------------------------------------------------- a move and /away


class AwayWhileTheMoveIsWorkedOut:
    """The store of a bot process in which ``/away on`` of ``user_id`` (from another process, on
    ``other``) is written once this process has read the absences for a move's clocks and before it
    writes the move: the moment two requests at once can meet."""

    def __init__(self, store: AnyStore, other: AnyStore, user_id: int, now: datetime) -> None:
        self._store, self._other, self._user_id, self._now = store, other, user_id, now
        self.went_away: tuple[datetime, list[SeatClock]] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def seat_clocks(self, match_id: int) -> list[SeatClock]:
        if self.went_away is None:
            self.went_away = await go_away(self._other, self._user_id, 3, self._now)
        return await self._store.seat_clocks(match_id)


async def test_a_turn_begun_while_its_player_goes_away_waits_for_their_return(
    store: AnyStore, backdoor: Backdoor
) -> None:
    def clock() -> datetime:
        return NOON

    host = GameHost(
        store, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES, clock=clock
    )
    match = await host.create_match("toy", 2, creator=ANN, seed=5, pace=Pace.DAILY)
    match = await host.join(match.id, BOB)
    match = (await host.start(match.id, ANN.user_id)).match
    first = match.players[0].user_id
    second = next(p.user_id for p in match.players if p.user_id != first)
    assert first is not None and second is not None
    racing = AwayWhileTheMoveIsWorkedOut(store, await backdoor.open(), second, NOON)
    mover = GameHost(
        racing, games=TOY_GAMES, presentations=TOY_PRESENTATIONS, policies=TOY_POLICIES, clock=clock
    )
    await mover.act(match.id, first, "add 1")
    assert racing.went_away is not None
    ends, _ = racing.went_away
    (theirs,) = [c for c in await store.seat_clocks(match.id) if c.user_id == second]
    # Their turn began during the absence: its time runs from the end of it, as /away promises.
    assert theirs.started_at == ends == NOON + 3 * DAY
    assert theirs.deadline == ends + ALLOWANCES[Pace.DAILY].per_move + theirs.bank
