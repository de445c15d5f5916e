"""What the bot says about tournaments of its own accord, as the host sends it through a front end's
``Sender``: the pairings in private and in the channel, the reminders at the tables, the standings and
telling the organiser once when the channel is lost."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from data.settings import SqliteSettings
from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.host import tournament_posts as tposts
from engine.host.marks import PlainMarks
from engine.host.outbox import Backoff
from engine.host.outgoing import Outgoing, Refused, Sent, TryLater
from engine.host.ports import MatchRecord
from engine.host.service import GameHost
from engine.host.tournament_sending import Announcements, table_thread_name
from engine.host.tournaments import TournamentHost, TournamentRecord

GUILD, CHANNEL, ORGANISER = 5, 9, 77
PEOPLE = (1000, 1001, 1002, 1003)


class Marks(PlainMarks):
    """Plain marks that link a thread and name a server."""

    def thread_address(self, guild_id: int, thread_id: int) -> str | None:
        return f"https://example.org/{guild_id}/{thread_id}"

    def server(self, guild_id: int) -> str | None:
        return "Club"


@dataclass
class Clock:
    now: datetime = datetime(2026, 6, 1, 8, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class Sender:
    """Records what is sent; refuses the people in ``closed`` and the channels in ``gone``, and fails
    for now the channels in ``busy``."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int, Outgoing]] = []
        self.closed: set[int] = set()
        self.gone: set[int] = set()
        self.busy: set[int] = set()

    def _sent(self, kind: str, where: int, message: Outgoing) -> Sent:
        self.sent.append((kind, where, message))
        return Sent(where, len(self.sent))

    async def to_channel(self, channel_id: int, message: Outgoing) -> Sent:
        if channel_id in self.gone:
            raise Refused("no such channel", gone=True)
        if channel_id in self.busy:
            raise TryLater("busy")
        return self._sent("channel", channel_id, message)

    async def to_person(self, user_id: int, message: Outgoing) -> Sent:
        if user_id in self.closed:
            raise Refused("closed direct messages")
        return self._sent("person", user_id, message)

    async def to_match(self, match: MatchRecord, message: Outgoing) -> Sent:
        raise AssertionError("tournament posts name their channel or thread")

    async def edit(self, where: Sent, message: Outgoing) -> None:
        raise AssertionError("tournament posts are not edited")

    def to(self, kind: str) -> list[tuple[int, Outgoing]]:
        return [(where, message) for sent_kind, where, message in self.sent if sent_kind == kind]


class Venue:
    """A tournament's channel, lost when ``lost`` says so; a match's thread is opened as 5000 + its id."""

    def __init__(self, store: SqliteMatchStore) -> None:
        self.store = store
        self.lost: Refused | None = None
        self.opened: list[int] = []

    async def reach(self, channel_id: int) -> None:
        if self.lost is not None:
            raise self.lost

    async def open_thread(self, match: MatchRecord) -> None:
        self.opened.append(match.id)
        await self.store.set_thread(match.id, 5000 + match.id)


def draw(title: str, subtitle: str, rows: Sequence[object], headings: Sequence[str]) -> bytes:
    return f"PNG {title} · {subtitle} · {len(rows)} rows".encode()


@dataclass
class Rig:
    tournaments: TournamentHost
    sender: Sender
    venue: Venue
    clock: Clock
    announcements: Announcements


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    clock = Clock()
    try:
        tournaments = TournamentHost(
            GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 7, clock=clock
        )
        sender, venue = Sender(), Venue(store)
        announcements = Announcements(
            tournaments, SqliteSettings.beside(store), sender, Marks(), venue, draw, Backoff[int](base=60)
        )
        yield Rig(tournaments, sender, venue, clock, announcements)
    finally:
        await store.close()


async def cup(tournaments: TournamentHost) -> TournamentRecord:
    """A started swiss cup of four people at tables of two, a day per round, in channel ``CHANNEL``."""
    record = await tournaments.create(
        "Spring cup",
        "ny_piatnik",
        "swiss",
        rounds=2,
        table_size=2,
        deadline_hours=24,
        guild_id=GUILD,
        channel_id=CHANNEL,
        creator_id=ORGANISER,
    )
    await tournaments.open_registration(record.id)
    for user_id in PEOPLE:
        await tournaments.join(record.id, user_id, f"human{user_id}")
    return (await tournaments.start(record.id)).tournament


async def test_each_player_hears_their_pairing_in_private_then_the_channel_calls_the_others(rig: Rig) -> None:
    record = await cup(rig.tournaments)
    rig.sender.closed.add(PEOPLE[0])  # one closed door: the others still hear where they play
    assert await rig.announcements.publish(record.id)

    record = await rig.tournaments.get(record.id)
    rnd = record.rounds[0]
    assert len(rig.venue.opened) == 2  # each table's thread opened first, so the messages link it
    private = rig.sender.to("person")
    assert [user_id for user_id, _ in private] == list(PEOPLE[1:])
    for user_id, message in private:
        assert message.nonce == tposts.pairing_nonce(record, 1, user_id)
        assert message.mentions == ()  # a private message calls nobody
        table = next(t for t in rnd.tables if f"u{user_id}" in t.players)
        match = await rig.tournaments.host.match(table.match_id or 0)
        assert message.text.splitlines()[0] == "**Spring cup** on **Club** · round 1"
        assert f"https://example.org/{GUILD}/{match.thread_id}" in message.text

    [(channel, post)] = rig.sender.to("channel")
    assert channel == CHANNEL and post.nonce == f"bt{record.id}-r1-pairings"
    assert post.mentions == (PEOPLE[0],)  # only the one no private message reached
    assert post.text.splitlines()[0] == "**Spring cup** · round 1"
    assert all(f"#{5000 + (t.match_id or 0)}" in post.text for t in rnd.tables)
    assert all(f"@{user_id}" in post.text for user_id in PEOPLE)

    rig.sender.sent.clear()
    assert await rig.announcements.publish(record.id)
    assert rig.sender.sent == []  # recorded: never sent twice


async def test_a_lost_channel_tells_the_organiser_once_and_the_players_still_hear(rig: Rig) -> None:
    record = await cup(rig.tournaments)
    rig.venue.lost = Refused("deleted", gone=True)
    assert await rig.announcements.publish(record.id)
    [(organiser, told)] = [(who, m) for who, m in rig.sender.to("person") if who == ORGANISER]
    assert organiser == ORGANISER and "was deleted" in told.text and "**Club**" in told.text
    assert sorted(who for who, _ in rig.sender.to("person") if who != ORGANISER) == list(PEOPLE)
    assert rig.venue.opened == []  # no thread opened in a channel that is gone
    assert rig.sender.to("channel") == []

    # Half the round's day is gone: the channel is still lost, but the organiser heard it already.
    rig.clock.now += timedelta(hours=13)
    rig.sender.sent.clear()
    rig.venue.lost = Refused("no permission")
    assert await rig.announcements.publish(record.id)
    assert [who for who, _ in rig.sender.to("person")] == []


async def test_a_refused_post_is_a_lost_channel_and_a_failure_for_now_is_tried_again(rig: Rig) -> None:
    record = await cup(rig.tournaments)
    rig.sender.busy.add(CHANNEL)
    assert not await rig.announcements.publish(record.id)  # left for the back-off
    assert rig.tournaments.due_announcements(await rig.tournaments.get(record.id)) == ["r1-pairings"]
    assert not await rig.announcements.publish(record.id)  # still waiting: nothing is tried
    assert len(rig.sender.to("person")) == len(PEOPLE)  # the first try's private messages only

    rig.announcements.backoff.succeeded(record.id)
    rig.sender.busy.clear()
    rig.sender.gone.add(CHANNEL)
    assert await rig.announcements.publish(record.id)
    told = [m.text for who, m in rig.sender.to("person") if who == ORGANISER]
    assert len(told) == 1 and "was deleted" in told[0]
    assert rig.tournaments.due_announcements(await rig.tournaments.get(record.id)) == []


async def test_the_tables_still_playing_are_reminded_in_their_threads(rig: Rig) -> None:
    record = await cup(rig.tournaments)
    assert await rig.announcements.publish(record.id)  # the pairings open the threads
    rig.sender.sent.clear()
    rig.clock.now += timedelta(hours=13)
    assert await rig.announcements.publish(record.id)

    record = await rig.tournaments.get(record.id)
    reminders = rig.sender.to("channel")
    assert len(reminders) == 2
    for table in record.rounds[0].tables:
        match = await rig.tournaments.host.match(table.match_id or 0)
        people = tuple(p.user_id for p in match.players if p.user_id is not None)
        [message] = [m for thread, m in reminders if thread == match.thread_id]
        assert message.mentions == people
        assert message.text.startswith("⏳ " + ", ".join(f"@{user_id}" for user_id in people))
        assert "round 1 of **Spring cup** ends " in message.text
        announcement = tposts.plan_announcement(record, "r1-half")
        assert message.nonce == tposts.reminder_nonce(announcement, table.number)


async def test_the_standings_and_the_winner_are_posted_with_their_image(rig: Rig) -> None:
    record = await rig.tournaments.create(
        "Robot cup", "ny_piatnik", "swiss", rounds=1, table_size=2, guild_id=GUILD, channel_id=CHANNEL
    )
    for _ in range(2):
        await rig.tournaments.add_computer(record.id, "greedy")
    await rig.tournaments.start(record.id)
    await rig.tournaments.play_tables()
    assert await rig.announcements.publish(record.id)

    posts = [message for _, message in rig.sender.to("channel")]
    assert [m.nonce for m in posts] == [
        f"bt{record.id}-{key}" for key in ("r1-pairings", "r1-standings", "final")
    ]
    standings, final = posts[1], posts[2]
    assert standings.filename == final.filename == "standings.png"
    assert standings.image == b"PNG Robot cup \xc2\xb7 standings after round 1 \xc2\xb7 2 rows"
    assert final.image is not None and b"final standings" in final.image
    assert final.text.startswith("🏆 **Robot cup** is over: ") and final.mentions == ()  # a computer won


async def test_a_table_thread_is_named_after_its_tournament_round_and_table(rig: Rig) -> None:
    record = await cup(rig.tournaments)
    table = record.rounds[0].tables[1]
    match = await rig.tournaments.host.match(table.match_id or 0)
    settings = rig.announcements.settings
    assert await table_thread_name(rig.tournaments, settings, match) == "Spring cup · R1 · T2"
    await settings.set("guild", GUILD, "language", "it")
    assert await table_thread_name(rig.tournaments, settings, match) == "Spring cup · Turno 1 · Tav. 2"
