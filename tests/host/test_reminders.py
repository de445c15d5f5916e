"""What the bot tells a player of its own accord, worded by the host and handed to a sender that records
it: a clock's reminder by direct message or in the thread, in the reader's language; a refused direct
message said in the thread instead, once; the note that someone's direct messages are closed, once per
match; and the link to the turn's post, written by the front end's marks."""

from __future__ import annotations

import pytest

from data.store import SqliteMatchStore
from engine.host import controls
from engine.host.clock import Reminder
from engine.host.herald import ClockHerald
from engine.host.languages import LANGUAGE
from engine.host.living import LivingMessages
from engine.host.notify import Channel, NotifyPrefs, QuietHours
from engine.host.outbox import DestinationGone
from engine.host.outgoing import Outgoing, Refused, Sent
from engine.host.pings import NOTIFY, TurnPings
from engine.host.ports import LivePost, MatchRecord
from engine.host.reminders import Reminders
from engine.host.service import GameHost
from engine.host.timekeeper import Timekeeper
from tests.host.test_clock import Clock, seat_to_act, started_match
from tests.host.test_lobby_words import MARKS


class Settings:
    """The settings port, in memory."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, int, str], str] = {}

    async def get(self, scope: str, owner: int, key: str) -> str | None:
        return self.values.get((scope, owner, key))

    async def set(self, scope: str, owner: int, key: str, value: str | None) -> None:
        if value is None:
            self.values.pop((scope, owner, key), None)
        else:
            self.values[(scope, owner, key)] = value


class Sender:
    """The sender port, recording what it sends; the direct messages of ``closed`` people are refused, and
    with ``nowhere`` the match has no place left to post."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int, Outgoing]] = []
        self.tried: list[tuple[str, int]] = []
        self.closed: set[int] = set()
        self.nowhere = False

    async def to_channel(self, channel_id: int, message: Outgoing) -> Sent:
        raise AssertionError("reminders go to a person or to a match")

    async def to_person(self, user_id: int, message: Outgoing) -> Sent:
        self.tried.append(("person", user_id))
        if user_id in self.closed:
            raise Refused("Cannot send messages to this user")
        self.sent.append(("person", user_id, message))
        return Sent(1, len(self.sent))

    async def to_match(self, match: MatchRecord, message: Outgoing) -> Sent:
        self.tried.append(("match", match.id))
        if self.nowhere:
            raise Refused("the thread and its channel are gone", gone=True)
        self.sent.append(("match", match.id, message))
        return Sent(2, len(self.sent))

    async def edit(self, where: Sent, message: Outgoing) -> None:
        self.sent.append(("edit", where.message_id, message))


class Told:
    """A started match on a clock, and the host's reminders of it through a recording sender."""

    def __init__(self, host: GameHost, match: MatchRecord, store: SqliteMatchStore, clock: Clock) -> None:
        self.host, self.match, self.store, self.clock = host, match, store, clock
        self.settings, self.sender = Settings(), Sender()
        self.reminders = Reminders(host, self.settings, store, self.sender, MARKS)
        self.pings = TurnPings(host, self.settings, store, store, self.reminders, clock)
        herald = ClockHerald(self.pings)
        self.keeper = Timekeeper(host, herald, quiet_of=herald.quiet_of)
        player = match.player_at(seat_to_act(host, match))
        assert player is not None and player.user_id is not None
        self.user_id = player.user_id

    def choose(self, prefs: NotifyPrefs, language: str | None = None) -> None:
        self.settings.values[("user", self.user_id, NOTIFY)] = prefs.model_dump_json()
        if language is not None:
            self.settings.values[("user", self.user_id, LANGUAGE)] = language

    async def half_time(self) -> list[Reminder | None]:
        """Half of the turn's day gone: the reminders the clock fired."""
        self.clock.advance(hours=12)
        return [fired.reminder for fired in await self.keeper.sweep()]


@pytest.fixture
async def told(store: SqliteMatchStore) -> Told:
    clock = Clock()
    host, match = await started_match(store, clock)
    return Told(host, match, store, clock)


async def test_a_clock_reminder_by_message_is_in_the_readers_language_with_the_board_controls(
    told: Told,
) -> None:
    told.choose(NotifyPrefs(channel=Channel.DM), "it")
    assert await told.half_time() == [Reminder.HALF]
    [(where, user_id, message)] = told.sender.sent
    assert (where, user_id) == ("person", told.user_id)
    assert message.text.startswith(f"⏳ Metà del tuo tempo per la partita n. {told.match.id} (")
    assert "per muovere" in message.text
    assert message.controls == controls.board(told.match.id, told.match.version, "it")
    assert message.mentions == ()


async def test_a_clock_reminder_in_the_thread_calls_its_player(told: Told) -> None:
    told.choose(NotifyPrefs(), "it")
    assert await told.half_time() == [Reminder.HALF]
    [(where, match_id, message)] = told.sender.sent
    assert (where, match_id) == ("match", told.match.id)
    assert message.text.startswith(f"⏳ @{told.user_id}, metà del tuo tempo per la partita n. ")
    assert message.mentions == (told.user_id,) and message.controls == ()


async def test_a_refused_message_falls_back_to_the_thread_once(told: Told) -> None:
    told.choose(NotifyPrefs(channel=Channel.DM))
    told.sender.closed.add(told.user_id)
    assert await told.half_time() == [Reminder.HALF]
    assert told.sender.tried == [("person", told.user_id), ("match", told.match.id)]
    [(where, _, message)] = told.sender.sent
    assert where == "match" and message.mentions == (told.user_id,)
    assert message.text.startswith(f"⏳ @{told.user_id}, half of your time for match #{told.match.id} (")
    assert await told.keeper.sweep() == []  # said once
    assert len(told.sender.sent) == 1


async def test_once_the_thread_said_the_messages_are_closed_reminders_go_there_at_once(told: Told) -> None:
    told.choose(NotifyPrefs(channel=Channel.DM))
    await told.store.remember_dm_refused(told.match.id, told.user_id)
    assert await told.half_time() == [Reminder.HALF]
    assert told.sender.tried == [("match", told.match.id)]


async def test_no_clock_reminder_reaches_a_player_in_their_quiet_hours(told: Told) -> None:
    told.choose(NotifyPrefs(quiet=QuietHours(start=20, end=8, zone="UTC")))
    assert await told.half_time() == []  # 21:00
    assert told.sender.tried == []


async def test_the_note_that_messages_are_closed_is_said_once_per_match(told: Told) -> None:
    told.choose(NotifyPrefs(), "it")
    await told.reminders.dm_closed(told.match, told.user_id)
    await told.reminders.dm_closed(told.match, told.user_id)
    [(where, match_id, note)] = told.sender.sent
    assert (where, match_id) == ("match", told.match.id)
    assert note.text.startswith(f"@{told.user_id}, non posso mandarti messaggi diretti")
    assert note.controls == (controls.hand(told.match.id, "it"),) and note.mentions == (told.user_id,)
    assert await told.store.dm_refused(told.match.id, told.user_id)


async def test_a_match_with_nowhere_left_to_post_is_not_told_and_says_so(told: Told) -> None:
    told.sender.nowhere = True
    with pytest.raises(DestinationGone):
        await told.reminders.dm_closed(told.match, told.user_id)
    assert not await told.store.dm_refused(told.match.id, told.user_id)


async def test_a_turn_mention_links_to_the_turns_post_as_the_front_end_writes_it(told: Told) -> None:
    seat = seat_to_act(told.host, told.match)
    await told.store.save_live_post(
        LivePost(match_id=told.match.id, channel_id=30, message_id=40, to_act=(seat,), lines=(), version=1)
    )
    served = told.match.model_copy(update={"guild_id": 9})
    await told.reminders.turn_in_thread(served, seat, told.user_id)
    await told.reminders.turn_in_thread(told.match, seat, told.user_id)  # no server: no address
    said = [message.text for _, _, message in told.sender.sent]
    assert said == [
        f"@{told.user_id}, it is your turn. https://example.org/30/40",
        f"@{told.user_id}, it is your turn.",
    ]


async def test_a_seat_that_changed_hands_never_edits_the_leavers_message_for_the_newcomer(
    told: Told,
) -> None:
    # A send to the one who left may finish after the seat changed hands and keep their message as the
    # seat's living one: the newcomer's hand then goes out as a message of their own.
    living = LivingMessages(told.store, told.sender, told.settings)
    seat, leaver, newcomer = 1, 501, 502
    match = told.match
    await living.show(match, seat, leaver, Outgoing("leaver's hand", silent=True), 3, True, True)
    await living.show(match, seat, newcomer, Outgoing("newcomer's hand", silent=True), 4, False, True)
    edits = [m for kind, _, m in told.sender.sent if kind == "edit"]
    new = [(user, m.text) for kind, user, m in told.sender.sent if kind == "person"]
    assert new == [(leaver, "leaver's hand"), (newcomer, "newcomer's hand")]
    # The leaver's message only loses its controls: nothing of the newcomer's is edited into it.
    assert [m.text.splitlines()[0] for m in edits] == ["leaver's hand"] and not edits[0].controls
    kept = await told.store.live_private(match.id, seat)
    assert kept is not None and kept.user_id == newcomer and kept.text == "newcomer's hand"
    # The newcomer's own message is edited in place from now on.
    await living.show(match, seat, newcomer, Outgoing("newcomer's next hand", silent=True), 5, False, True)
    assert told.sender.sent[-1][0] == "edit" and told.sender.sent[-1][2].text == "newcomer's next hand"


async def test_the_leavers_message_loses_its_controls_in_their_language_even_when_the_newcomer_is_not_reached(
    told: Told,
) -> None:
    living = LivingMessages(told.store, told.sender, told.settings)
    seat, leaver, newcomer = 1, 501, 502
    match = told.match
    told.settings.values[("user", leaver, LANGUAGE)] = "it"
    shown = controls.board(match.id, 3, "it")
    await living.show(match, seat, leaver, Outgoing("leaver's hand", shown), 3, True, True)
    told.sender.closed.add(newcomer)
    with pytest.raises(Refused):
        await living.show(match, seat, newcomer, Outgoing("newcomer's hand", silent=True), 4, True, True)
    [edit] = [m for kind, _, m in told.sender.sent if kind == "edit"]
    assert not edit.controls and edit.text.splitlines() == [
        "leaver's hand",
        "⏹️ Questo posto non è più tuo: ora lo gioca qualcun altro.",
    ]
    kept = await told.store.live_private(match.id, seat)
    assert kept is not None and (kept.user_id, kept.turn) == (leaver, False)
    # Tried again, the newcomer's hand never edits the leaver's message, which says its word once.
    with pytest.raises(Refused):
        await living.show(match, seat, newcomer, Outgoing("newcomer's hand", silent=True), 5, True, True)
    assert [kind for kind, _, _ in told.sender.sent].count("edit") == 1
