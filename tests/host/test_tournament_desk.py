"""The /tournament commands as the host runs them: who may run what, what each answers and to whom, and
that the announcements which follow are asked for once the answer is out."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from data.settings import SqliteSettings
from data.store import SqliteMatchStore
from data.tournaments import SqliteTournamentStore
from engine.core.errors import LobbyError
from engine.host.marks import PlainMarks
from engine.host.service import GameHost
from engine.host.text import refusal
from engine.host.tournament_desk import Answer, Caller, Person, TournamentDesk
from engine.host.tournaments import TournamentHost

GUILD, CHANNEL = 5, 9
ADMIN = Caller(1, "Admin", GUILD, CHANNEL, is_admin=True)
PEOPLE = [Caller(1000 + n, f"human{n}", GUILD, CHANNEL) for n in range(4)]


@dataclass
class Reply:
    """Records what the desk does, in order: "working", each answer, each tournament it publishes."""

    done: list[object] = field(default_factory=list)

    async def working(self) -> None:
        self.done.append("working")

    async def answer(self, answer: Answer) -> None:
        self.done.append(answer)

    def answers(self) -> list[Answer]:
        return [a for a in self.done if isinstance(a, Answer)]


def draw(title: str, subtitle: str, rows: Sequence[object], headings: Sequence[str]) -> bytes:
    return f"PNG {title} · {subtitle}".encode()


@dataclass
class Desk:
    desk: TournamentDesk
    reply: Reply
    kicked: list[bool]


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Desk]:
    store = await SqliteMatchStore.open(tmp_path / "t.db")
    reply, kicked = Reply(), []
    try:
        tournaments = TournamentHost(
            GameHost(store), SqliteTournamentStore.beside(store), seed_source=lambda: 7
        )
        desk = TournamentDesk(
            tournaments,
            SqliteSettings.beside(store),
            PlainMarks(),
            draw,
            lambda tournament_id: reply.done.append(f"publish {tournament_id}"),
            lambda: kicked.append(True),
        )
        yield Desk(desk, reply, kicked)
    finally:
        await store.close()


async def registered(d: Desk) -> int:
    """An open swiss cup of four people at tables of two; its number."""
    await d.desk.create(ADMIN, d.reply, "Spring cup", "ny_piatnik", "swiss", table_size=2, rounds=2)
    await d.desk.open(ADMIN, d.reply)
    for person in PEOPLE:
        await d.desk.join(person, d.reply)
    newest = (await d.desk.tournaments.of_server(GUILD))[0]
    d.reply.done.clear()
    return newest.id


async def test_only_organisers_run_a_tournament_and_the_players_answers_are_private(desk: Desk) -> None:
    with pytest.raises(LobbyError):
        await desk.desk.create(PEOPLE[0], desk.reply, "Cup", "ny_piatnik", "swiss")
    assert desk.reply.done == []  # refused before anything is said
    await desk.desk.create(ADMIN, desk.reply, "Cup", "ny_piatnik", "swiss")
    [created] = desk.reply.answers()
    assert created.message.text.startswith("Created tournament #") and not created.private

    await desk.desk.open(ADMIN, desk.reply)
    opened = desk.reply.answers()[-1]
    [record] = await desk.desk.tournaments.of_server(GUILD)
    assert [c.address for c in opened.message.controls] == [f"tjoin:{record.id}"]
    assert not opened.private

    italian = Caller(1000, "human0", GUILD, CHANNEL, spoken="it")
    await desk.desk.join(italian, desk.reply)
    joined = desk.reply.answers()[-1]
    assert joined.private and joined.message.text == "Sei iscritto a **Cup**."
    with pytest.raises(LobbyError):
        await desk.desk.start(PEOPLE[1], desk.reply)


async def test_start_answers_first_then_has_the_pairings_published(desk: Desk) -> None:
    number = await registered(desk)
    await desk.desk.start(ADMIN, desk.reply)
    working, answer, published = desk.reply.done
    assert working == "working" and published == f"publish {number}"
    assert isinstance(answer, Answer) and answer.message.text == "**Spring cup** has started with 4 players."

    await desk.desk.my_table(PEOPLE[2], desk.reply)
    mine = desk.reply.answers()[-1]
    assert mine.private and mine.message.text.startswith("Round 1, table ")


async def test_ending_a_round_that_takes_seats_asks_the_organiser_first(desk: Desk) -> None:
    number = await registered(desk)
    await desk.desk.start(ADMIN, desk.reply)
    desk.reply.done.clear()
    await desk.desk.advance(ADMIN, desk.reply)
    [asked] = desk.reply.done
    assert isinstance(asked, Answer) and asked.private
    assert "a computer takes the seats of **human" in asked.message.text
    plan = await desk.desk.tournaments.advance_plan(number)
    assert [c.address for c in asked.message.controls] == [
        f"tadvance:{action}:{number}:1:p{plan.fingerprint}" for action in ("end", "keep")
    ]
    assert len((await desk.desk.tournaments.get(number)).rounds) == 1  # nothing changed yet


async def test_the_organisers_commands_name_the_people_they_concern(desk: Desk) -> None:
    number = await registered(desk)
    await desk.desk.start(ADMIN, desk.reply)
    newcomer = Person(2000, "newbie")
    with pytest.raises(LobbyError):
        await desk.desk.replace(ADMIN, desk.reply, Person(3000, "Zed"), newcomer)
    await desk.desk.replace(ADMIN, desk.reply, Person(1000, "human0"), newcomer)
    took_over = desk.reply.answers()[-1]
    assert took_over.message.text == "@2000 takes over from human0." and took_over.message.mentions == (2000,)
    assert desk.kicked == [True]  # the newcomer's hand, and the thread told who plays the seat now
    desk.kicked.clear()

    desk.reply.done.clear()
    await desk.desk.drop(ADMIN, desk.reply, Person(1001, "human1"))
    assert desk.reply.done[0] == f"publish {number}"
    assert desk.reply.answers()[-1].message.text == "human1 is dropped from **Spring cup**."

    with pytest.raises(LobbyError):
        await desk.desk.organiser_role(Caller(1, "Organiser", GUILD, roles=(3,)), desk.reply, 3)
    await desk.desk.organiser_role(ADMIN, desk.reply, 3)
    role_set = desk.reply.answers()[-1]
    assert role_set.private and role_set.message.text == "@&3 can now run tournaments."
    await desk.desk.cancel(Caller(4, "Organiser", GUILD, roles=(3,)), desk.reply)
    assert desk.kicked == [True] and desk.reply.answers()[-1].message.text == "**Spring cup** is cancelled."


async def test_the_standings_come_with_their_image_and_are_found_by_name(desk: Desk) -> None:
    await desk.desk.create(ADMIN, desk.reply, "Empty cup", "ny_piatnik", "swiss")
    await desk.desk.standings(PEOPLE[0], desk.reply)
    nobody = desk.reply.answers()[-1]
    assert nobody.private and nobody.message.text == "**Empty cup** · nobody has registered yet"
    await desk.desk.cancel(ADMIN, desk.reply)

    number = await registered(desk)
    await desk.desk.start(ADMIN, desk.reply)
    await desk.desk.standings(PEOPLE[0], desk.reply, number)
    shown = desk.reply.answers()[-1]
    assert shown.private and shown.message.text.startswith("**Spring cup** · standings after round 1")
    assert shown.message.image == "PNG Spring cup · standings after round 1".encode()
    assert shown.message.filename == "standings.png"
    assert await desk.desk.choices(PEOPLE[0], "spring") == [(f"#{number} Spring cup (running)", number)]


async def test_a_refused_organiser_command_says_why_in_the_readers_language(desk: Desk) -> None:
    await registered(desk)
    with pytest.raises(LobbyError) as not_an_organiser:
        await desk.desk.close(PEOPLE[0], desk.reply)
    with pytest.raises(LobbyError) as not_playing:
        await desk.desk.drop(ADMIN, desk.reply, Person(3000, "Zed"))
    with pytest.raises(LobbyError) as unknown:
        await desk.desk.decide(ADMIN, desk.reply, 1, "human0, Zed")
    assert refusal("it", not_an_organiser.value).startswith(
        "Solo gli amministratori del server o il ruolo degli organizzatori di tornei possono farlo"
    )
    assert refusal("it", not_playing.value) == "Zed non gioca in Spring cup"
    assert refusal("it", unknown.value).startswith("Nessun giocatore di Spring cup si chiama zed")
    assert refusal("en", unknown.value).startswith("No player of Spring cup is called zed")
