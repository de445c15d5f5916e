"""The host's turn reminders, on an injected clock and a sender that records what it was asked to send:
who a new turn's post mentions, what is held through quiet hours, and how a due reminder is delivered,
refused for good or tried again later."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

from engine.host import controls
from engine.host.clock import Pace
from engine.host.languages import LANGUAGE, SPOKEN
from engine.host.marks import PlainMarks
from engine.host.notify import Channel, NotifyPrefs, QuietHours, TurnPing, Via
from engine.host.outgoing import Outgoing, Sent
from engine.host.pings import NOTIFY, RETRY_AFTER, Refused, TryLater, TurnPings
from engine.host.ports import Delivery, LivePrivate, MatchRecord, MatchStatus, Notice, Player
from engine.host.reminders import Reminders

NOON = datetime(2026, 11, 29, 12, tzinfo=UTC)
MATCH = MatchRecord(
    id=5,
    game="toy",
    options=frozenset(),
    seat_count=2,
    seed=1,
    status=MatchStatus.ACTIVE,
    version=4,
    pace=Pace.NONE,
    created_at="2026-11-29T00:00:00",
    updated_at="2026-11-29T00:00:00",
    players=(Player(user_id=100, name="Ada", seat=0), Player(user_id=101, name="Bo", seat=1)),
)


class Ledger:
    """The ping rows and the few post facts the reminders read, in memory."""

    def __init__(self) -> None:
        self.pings: list[TurnPing] = []
        self.refused: set[int] = set()
        self.released: list[datetime] = []
        self.living: dict[int, LivePrivate] = {}

    async def turn_pings(self, match_id: int, turn: int | None = None) -> list[TurnPing]:
        rows = [p for p in self.pings if turn is None or p.turn == turn]
        return sorted(rows, key=lambda p: -p.turn)

    async def due_pings(self, now: datetime, limit: int = 100) -> list[TurnPing]:
        return [p for p in self.pings if not p.sent and p.due_at <= now]

    async def next_ping_due(self) -> datetime | None:
        return min((p.due_at for p in self.pings if not p.sent), default=None)

    async def settle_ping(self, ping: TurnPing, via: Via, due_at: datetime | None = None) -> bool:
        self.pings.remove(ping)
        self.pings.append(ping.model_copy(update={"via": via, "due_at": due_at or ping.due_at}))
        return True

    async def release_ping(self, ping: TurnPing, due_at: datetime) -> None:
        self.released.append(due_at)

    async def drop_pings(self, match_id: int, before: int | None = None) -> None:
        self.pings = [p for p in self.pings if before is not None and p.turn >= before]

    async def has_private_notice(self, match_id: int, version: int, seat: int) -> bool:
        return False

    async def dm_refused(self, match_id: int, user_id: int) -> bool:
        return user_id in self.refused

    async def remember_dm_refused(self, match_id: int, user_id: int) -> bool:
        self.refused.add(user_id)
        return True

    async def live_post(self, match_id: int) -> None:
        return None

    async def live_private(self, match_id: int, seat: int) -> LivePrivate | None:
        return self.living.get(seat)

    async def save_live_private(self, message: LivePrivate) -> None:
        self.living[message.seat] = message


class Sender:
    """The sender port, recording what it sends (to a person, or to the match's thread), and refusing or
    failing messages to a person when told to."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int, Outgoing]] = []
        self.failure: Exception | None = None

    async def to_channel(self, channel_id: int, message: Outgoing) -> Sent:
        raise AssertionError("reminders go to a person or to a match")

    async def to_person(self, user_id: int, message: Outgoing) -> Sent:
        if self.failure is not None:
            raise self.failure
        self.sent.append(("message", user_id, message))
        return Sent(1, len(self.sent))

    async def to_match(self, match: MatchRecord, message: Outgoing) -> Sent:
        self.sent.append(("thread", match.id, message))
        return Sent(2, len(self.sent))

    async def edit(self, where: Sent, message: Outgoing) -> None:
        self.sent.append(("edit", where.message_id, message))


def pings(
    settings: dict[int, str], languages: dict[int, str] | None = None
) -> tuple[TurnPings, Ledger, Sender, list[datetime]]:
    async def get(scope: str, owner: int, key: str) -> str | None:
        if key == LANGUAGE:
            return (languages or {}).get(owner) if scope == "user" else None
        if key == SPOKEN:
            return None
        assert key == NOTIFY
        return settings.get(owner)

    ledger, sender, now = Ledger(), Sender(), [NOON]
    host = SimpleNamespace(
        match=lambda _: _match(),
        to_act=lambda _: (0,),
        rules=lambda _: SimpleNamespace(title="Toy race"),
        namer=lambda match: lambda seat: match.players[seat].name,
    )
    settings_store = cast(Any, SimpleNamespace(get=get))
    reminders = Reminders(cast(Any, host), settings_store, cast(Any, ledger), sender, PlainMarks())
    keeper = TurnPings(
        cast(Any, host), settings_store, cast(Any, ledger), cast(Any, ledger), reminders, lambda: now[0]
    )
    return keeper, ledger, sender, now


async def _match() -> MatchRecord:
    return MATCH


def said(sender: Sender) -> list[tuple[str, int, str, tuple[int, ...]]]:
    """What was sent, where, saying what and calling whom."""
    return [(how, to, message.text, message.mentions) for how, to, message in sender.sent]


async def test_a_thread_player_is_mentioned_and_a_message_player_is_held_for_the_sweep() -> None:
    keeper, ledger, sender, _ = pings({100: NotifyPrefs(channel=Channel.DM).model_dump_json()})
    turn = await keeper.begin(
        MATCH, Delivery(id=1, match_id=5, version=4, payload="{}"), Notice(to_act=(0, 1)), (0, 1), False
    )
    assert turn.mention == [101]
    assert turn.pings is not None
    assert [(p.seat, p.via) for p in turn.pings] == [(0, Via.HELD), (1, Via.MENTION)]
    ledger.pings = list(turn.pings)
    assert await keeper.sweep() == 1
    [(how, user_id, message)] = sender.sent
    assert (how, user_id) == ("message", 100)
    assert "It is your turn" in message.text  # the message says it is their turn
    assert message.controls == controls.board(5, 4, "en") and message.mentions == ()
    assert await keeper.sweep() == 0  # once told, never again


async def test_quiet_hours_hold_the_reminder_until_they_end_then_it_is_said_in_the_thread() -> None:
    quiet = QuietHours(start=10, end=14, zone="UTC")
    keeper, ledger, sender, now = pings({100: NotifyPrefs(quiet=quiet).model_dump_json()}, {100: "it"})
    turn = await keeper.begin(
        MATCH, Delivery(id=1, match_id=5, version=4, payload="{}"), Notice(to_act=(0,)), (0,), False
    )
    assert turn.mention == [] and turn.pings is not None
    [held] = turn.pings
    assert held.due_at == NOON + timedelta(hours=2)
    ledger.pings = [held]
    assert await keeper.sweep() == 0
    now[0] = NOON + timedelta(hours=2)
    assert await keeper.sweep() == 1
    assert said(sender) == [("thread", 5, "@100, tocca a te.", (100,))]


async def test_a_refused_message_is_told_in_the_thread_once_and_a_failed_one_is_tried_again() -> None:
    keeper, ledger, sender, _ = pings({100: NotifyPrefs(channel=Channel.DM).model_dump_json()}, {100: "it"})
    ping = TurnPing(match_id=5, turn=4, seat=0, user_id=100, started_at=NOON, due_at=NOON)
    ledger.pings = [ping]
    sender.failure = Refused("closed")
    assert await keeper.sweep() == 1
    [(how, match_id, note)] = sender.sent
    assert (how, match_id, note.mentions) == ("thread", 5, (100,))
    assert note.text.startswith("@100, ") and note.controls == (controls.hand(5, "it"),)
    ledger.pings, ledger.refused, sender.sent = [ping], {100}, []
    keeper.saved([ping])  # as a new turn's post saves it
    assert await keeper.sweep() == 1
    assert said(sender) == [("thread", 5, "@100, tocca a te.", (100,))]
    ledger.pings, sender.failure = [ping], TryLater("busy")
    keeper.saved([ping])
    assert await keeper.sweep() == 0
    assert ledger.released == [NOON + RETRY_AFTER]


async def test_an_unreadable_choice_is_the_default() -> None:
    keeper, *_ = pings({100: "{not json"})
    assert await keeper.prefs(100) == NotifyPrefs()
