"""What people read about a tournament and what a front end posts of its own accord, as the host words
and plans them (``engine.host.tournament_words``, ``engine.host.tournament_posts``), in English and in
Italian."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.core.errors import LobbyError, MatchNotFound
from engine.host import tournament_posts as tposts
from engine.host import tournament_words as words
from engine.host.marks import PlainMarks
from engine.host.service import GameHost
from engine.host.text import refusal
from engine.host.tournaments import RoundRecord, TournamentHost, TournamentRecord
from lang.says import render


@pytest.fixture
async def tournaments(tmp_path: Path) -> AsyncIterator[TournamentHost]:
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    try:
        yield TournamentHost(GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 7)
    finally:
        await store.close()


async def running(tournaments: TournamentHost, guild_id: int = 5) -> TournamentRecord:
    """A started swiss cup on server ``guild_id``: two people and six computers at tables of four."""
    record = await tournaments.create(
        "Spring cup", "ny_piatnik", "swiss", rounds=2, table_size=4, guild_id=guild_id
    )
    await tournaments.open_registration(record.id)
    for n in range(2):
        await tournaments.join(record.id, 1000 + n, f"human{n}")
    for _ in range(6):
        await tournaments.add_computer(record.id, "greedy")
    return (await tournaments.start(record.id)).tournament


class Marked(PlainMarks):
    """Plain marks that set a player apart with "@" and write a thread as "<thread id>"."""

    def strong(self, text: str) -> str:
        return f"@{text}"

    def thread(self, thread_id: int) -> str:
        return f"<thread {thread_id}>"


class Linked(PlainMarks):
    def thread(self, thread_id: int) -> str:
        return f"<#{thread_id}>"


async def test_a_player_reads_their_table_and_pairings_in_their_language(tournaments: TournamentHost) -> None:
    record = await running(tournaments)
    rnd = record.rounds[0]
    mine = words.my_table(record, 1000)
    assert render("en", mine).startswith("Round 1, table ") and "playing, with " in render("en", mine)
    assert render("it", mine).startswith("Turno 1, tavolo ") and "in corso, con " in render("it", mine)
    with pytest.raises(LobbyError) as outsider:
        words.my_table(record, 42)
    assert refusal("en", outsider.value) == "You are not playing in **Spring cup**"

    entrant, table = tposts.pairing_recipients(record, rnd)[0]
    assert entrant.user_id == 1000 and table is not None and entrant.key in table.players
    message = words.pairing_message("it", record, rnd, entrant, "Club", "https://example.org/t/9")
    assert message.splitlines()[0] == "**Spring cup** su **Club** · turno 1"
    assert message.splitlines()[1].startswith("Giochi al tavolo ")
    assert message.splitlines()[2] == "Thread: https://example.org/t/9"
    english = words.pairing_message("en", record, rnd, entrant, None, None)
    assert english.splitlines()[0] == "**Spring cup** · round 1" and len(english.splitlines()) == 2

    post = words.pairings_post("en", record, rnd, {1: 77}, Marked())
    lines = post.splitlines()
    assert lines[0] == "**Spring cup** · round 1"
    assert lines[1].startswith("Table 1 (match #") and "<thread 77>): @" in lines[1]
    assert lines[2].startswith("Table 2 (match #") and "thread" not in lines[2]
    assert (
        words.pairings_post("it", record, rnd, {}, Marked())
        .splitlines()[1]
        .startswith("Tavolo 1 (partita n. ")
    )


async def test_the_channel_calls_only_the_people_no_private_message_reached(
    tournaments: TournamentHost,
) -> None:
    record = await running(tournaments)
    rnd = record.rounds[0]
    told = [entrant.user_id for entrant, _ in tposts.pairing_recipients(record, rnd)]
    assert told == [1000, 1001]  # people only: the computers hear nothing
    assert tposts.unreached(record, rnd, {1000}) == [1001]
    assert tposts.unreached(record, rnd, {1000, 1001}) == []


async def test_the_standings_fit_one_message_with_their_legend(tournaments: TournamentHost) -> None:
    record = await running(tournaments)
    message = words.standings_message("en", record)
    assert message.startswith("**Spring cup** · standings after round 1\n```\n  # player")
    assert "ℹ️ points: tournament points" in message
    assert words.standings_message("it", record).startswith("**Spring cup** · classifica dopo il turno 1")
    short = words.standings_message("en", record, limit=700)
    assert len(short) <= 700 and "… and " in short and short.endswith("games played.")
    headings, rows = words.standings_image("en", record)
    assert headings[:2] == ("#", "player") and len(rows) == 8
    assert words.nobody_yet("it", record) == "**Spring cup** · non si è ancora iscritto nessuno"


async def test_each_due_announcement_is_planned_with_a_nonce_of_its_own(tournaments: TournamentHost) -> None:
    record = await running(tournaments)
    pairings = tposts.plan_announcement(record, "r1-pairings")
    assert (pairings.kind, pairings.round, pairings.nonce) == ("pairings", 1, f"bt{record.id}-r1-pairings")
    assert tposts.plan_announcement(record, "r2-half").kind == "reminder"
    assert tposts.plan_announcement(record, "r2-last").round == 2
    assert tposts.plan_announcement(record, "r3-standings").kind == "standings"
    final = tposts.plan_announcement(record, "final")
    assert final.kind == "final" and final.round is None
    assert len(tposts.reminder_nonce(pairings, 12)) <= tposts.NONCE_LIMIT
    nonce = tposts.pairing_nonce(record, 1, 2**62)
    assert nonce == tposts.pairing_nonce(record, 1, 2**62) != tposts.pairing_nonce(record, 2, 2**62)
    assert len(nonce) <= tposts.NONCE_LIMIT
    deadline, tables = await tposts.tables_to_remind(tournaments, record, 1)
    assert deadline is None and tables == []  # no deadline, nobody to remind


async def test_a_server_finds_its_own_tournaments_only(tournaments: TournamentHost) -> None:
    record = await running(tournaments, guild_id=5)
    assert (await tposts.find_tournament(tournaments, 5, None)).id == record.id
    assert (await tposts.tournament_here(tournaments, 5, record.id)).id == record.id
    for guild, number in ((6, record.id), (5, 999), (None, record.id)):
        with pytest.raises(MatchNotFound) as missing:
            await tposts.tournament_here(tournaments, guild, number)
        assert str(number) in refusal("en", missing.value)
    with pytest.raises(LobbyError) as none:
        await tposts.find_tournament(tournaments, 6, None)
    assert refusal("it", none.value) == "Su questo server non c'è nessun torneo aperto"
    second = await tournaments.create("Autumn cup", "ny_piatnik", "swiss", guild_id=5)
    with pytest.raises(LobbyError) as several:
        await tposts.find_tournament(tournaments, 5, None)
    assert list(several.value.allowed) == [
        f"#{second.id} Autumn cup (draft)",
        f"#{record.id} Spring cup (running)",
    ]
    choices = await tposts.tournament_choices(tournaments, 5, "spring")
    assert [(n, render("it", status), name) for n, status, name in choices] == [
        (record.id, "in corso", f"#{record.id} Spring cup")
    ]


async def test_organisers_and_named_players_are_checked_by_the_host(tournaments: TournamentHost) -> None:
    record = await running(tournaments)
    assert await tposts.may_organise(tournaments, 5, True, [])
    assert not await tposts.may_organise(tournaments, 5, False, [3])
    await tournaments.set_organiser_role(5, 3)
    assert await tposts.may_organise(tournaments, 5, False, [3])
    assert not await tposts.may_organise(tournaments, None, False, [3])
    with pytest.raises(LobbyError):
        await tposts.require_organiser(tournaments, 5, False, [4])
    assert tposts.named_order(record, " HUMAN1, human0 ") == ["u1001", "u1000"]
    with pytest.raises(LobbyError) as unknown:
        tposts.named_order(record, "human0, zed")
    assert "zed" in unknown.value.message and "human0" in unknown.value.allowed
    assert tposts.entrant_for(record, 1001, "Bob").key == "u1001"
    with pytest.raises(LobbyError):
        tposts.entrant_for(record, 7, "Zed")


async def test_the_question_before_a_round_ends_names_who_loses_a_seat(tournaments: TournamentHost) -> None:
    record = await running(tournaments)
    plan = await tournaments.advance_plan(record.id)
    assert plan.takes_seats
    threads = {table.match_id: 100 + table.number for table in plan.open_tables if table.match_id}
    question = words.advance_question("en", record, plan, threads, Linked())
    lines = question.splitlines()
    assert lines[0] == "Round 1 of **Spring cup** still has tables playing."
    assert any("a computer takes the seats of **human" in line and ", <#10" in line for line in lines)
    assert lines[-1].startswith("End round 1 now?")
    italian = words.advance_question("it", record, plan, {}, PlainMarks(), limit=300)
    assert len(italian) <= 300 and "partita n. " not in italian.splitlines()[-1]


def test_a_thread_name_keeps_its_round_and_table_within_the_limit() -> None:
    name = words.thread_name("en", "A" * 200, 3, 12)
    assert len(name) == words.THREAD_NAME_LIMIT and name.endswith("… · R3 · T12")
    assert words.thread_name("it", "Cup", 1, 2) == "Cup · Turno 1 · Tav. 2"


class Recorder:
    """An announcer that records what it is handed; its channel is lost at ``lose_at`` (a kind)."""

    def __init__(self, lose_at: str | None = None) -> None:
        self.lose_at = lose_at
        self.done: list[str] = []

    async def reach(self, record: TournamentRecord) -> None:
        if self.lose_at == "reach":
            raise tposts.ChannelLost(True)

    async def tell_pairings(self, record: TournamentRecord, rnd: RoundRecord, open_threads: bool) -> set[int]:
        self.done.append(f"dm r{rnd.round.number} {'open' if open_threads else 'as is'}")
        return {1000}

    async def announce(
        self, record: TournamentRecord, announcement: tposts.Announcement, reached: set[int]
    ) -> None:
        if announcement.kind == self.lose_at:
            raise tposts.ChannelLost(False)
        self.done.append(f"{announcement.key} reached {sorted(reached)}")

    async def channel_lost(self, record: TournamentRecord, lost: tposts.ChannelLost) -> None:
        self.done.append(f"organiser told, deleted={lost.deleted}")


async def test_publishing_tells_the_pairings_in_private_before_the_channel(
    tournaments: TournamentHost,
) -> None:
    record = await running(tournaments)
    await tournaments.store.save_tournament(record.model_copy(update={"channel_id": 9}), record.version)
    announcer = Recorder()
    await tposts.publish(tournaments, record.id, announcer)
    assert announcer.done == ["dm r1 open", "r1-pairings reached [1000]"]
    again = Recorder()
    await tposts.publish(tournaments, record.id, again)
    assert again.done == []  # recorded: never due again


async def test_a_lost_channel_is_told_and_its_players_still_hear_their_pairings(
    tournaments: TournamentHost,
) -> None:
    record = await running(tournaments)
    await tournaments.store.save_tournament(record.model_copy(update={"channel_id": 9}), record.version)
    gone = Recorder(lose_at="reach")
    await tposts.publish(tournaments, record.id, gone)
    assert gone.done == ["organiser told, deleted=True", "dm r1 as is"]
    assert tournaments.due_announcements(await tournaments.get(record.id)) == []


async def test_a_channel_refusing_the_post_after_the_pairings_went_out_tells_nobody_twice(
    tournaments: TournamentHost,
) -> None:
    record = await running(tournaments)
    await tournaments.store.save_tournament(record.model_copy(update={"channel_id": 9}), record.version)
    refusing = Recorder(lose_at="pairings")
    await tposts.publish(tournaments, record.id, refusing)
    assert refusing.done == ["dm r1 open", "organiser told, deleted=False"]
    assert tournaments.due_announcements(await tournaments.get(record.id)) == []
