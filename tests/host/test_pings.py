"""The host's turn reminders, on an injected clock and a front end that records what it was asked to send:
who a new turn's post mentions, what is held through quiet hours, and how a due reminder is delivered,
refused for good or tried again later."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

from engine.core.say import Say
from engine.host.clock import Pace
from engine.host.notify import Channel, NotifyPrefs, QuietHours, TurnPing, Via
from engine.host.pings import NOTIFY, RETRY_AFTER, Refused, TryLater, TurnPings
from engine.host.ports import Delivery, MatchRecord, MatchStatus, Notice, Player
from lang.says import render

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

    async def live_post(self, match_id: int) -> None:
        return None


class Sender:
    """A front end that records what it sends, refusing or failing when told to."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int, str]] = []
        self.failure: Exception | None = None

    async def mention(self, match: MatchRecord, ping: TurnPing, text: Say) -> None:
        self.sent.append(("mention", ping.user_id, render("it", text, lambda seat: f"@{seat}")))

    async def message(self, match: MatchRecord, ping: TurnPing, notice: Notice) -> None:
        if self.failure is not None:
            raise self.failure
        assert notice.to_act == (ping.seat,)  # the message says it is their turn
        self.sent.append(("message", ping.user_id, ""))

    async def dm_closed(self, match: MatchRecord, user_id: int) -> None:
        self.sent.append(("closed", user_id, ""))


def pings(settings: dict[int, str]) -> tuple[TurnPings, Ledger, Sender, list[datetime]]:
    async def get(scope: str, owner: int, key: str) -> str | None:
        assert key == NOTIFY
        return settings.get(owner)

    ledger, sender, now = Ledger(), Sender(), [NOON]
    host = SimpleNamespace(match=lambda _: _match(), to_act=lambda _: (0,))
    keeper = TurnPings(
        cast(Any, host),
        cast(Any, SimpleNamespace(get=get)),
        cast(Any, ledger),
        cast(Any, ledger),
        sender,
        lambda: now[0],
    )
    return keeper, ledger, sender, now


async def _match() -> MatchRecord:
    return MATCH


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
    assert sender.sent == [("message", 100, "")]
    assert await keeper.sweep() == 0  # once told, never again


async def test_quiet_hours_hold_the_reminder_until_they_end_then_it_is_said_in_the_thread() -> None:
    quiet = QuietHours(start=10, end=14, zone="UTC")
    keeper, ledger, sender, now = pings({100: NotifyPrefs(quiet=quiet).model_dump_json()})
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
    assert sender.sent == [("mention", 100, "@0, tocca a te.")]


async def test_a_refused_message_is_told_in_the_thread_once_and_a_failed_one_is_tried_again() -> None:
    keeper, ledger, sender, _ = pings({100: NotifyPrefs(channel=Channel.DM).model_dump_json()})
    ping = TurnPing(match_id=5, turn=4, seat=0, user_id=100, started_at=NOON, due_at=NOON)
    ledger.pings = [ping]
    sender.failure = Refused("closed")
    assert await keeper.sweep() == 1
    assert sender.sent == [("closed", 100, "")]
    ledger.pings, ledger.refused, sender.sent = [ping], {100}, []
    keeper.saved([ping])  # as a new turn's post saves it
    assert await keeper.sweep() == 1
    assert sender.sent == [("mention", 100, "@0, tocca a te.")]
    ledger.pings, sender.failure = [ping], TryLater("busy")
    keeper.saved([ping])
    assert await keeper.sweep() == 0
    assert ledger.released == [NOON + RETRY_AFTER]


async def test_an_unreadable_choice_is_the_default() -> None:
    keeper, *_ = pings({100: "{not json"})
    assert await keeper.prefs(100) == NotifyPrefs()
