"""The host words what people read about matches outside the board (a lobby, the lists, a match's status,
the questions before resigning or abandoning) and guards the lobby, so every front end shows the same."""

from __future__ import annotations

from datetime import datetime
from typing import cast

import pytest

from engine.core.errors import LobbyError, NotSeated
from engine.host import lobby_words as words
from engine.host.clock import Pace
from engine.host.marks import Moment
from engine.host.ports import MatchListing, MatchRecord, MatchStatus, Scope
from engine.host.service import GameHost
from lang.says import render
from tests.host.test_service import ANN, BOB, CY, started_pair, user_at
from tests.host.toy_game import TOY, ToyState

GUILD = 77
HERE = Scope(user_id=ANN.user_id or 0, guild_id=GUILD)


class Marks:
    """Plain marks, so a test reads where each one went."""

    def person(self, user_id: int) -> str:
        return f"@{user_id}"

    def thread(self, thread_id: int) -> str:
        return f"thread {thread_id}"

    def address(self, match: MatchRecord) -> str | None:
        return f"https://example.org/{match.id}" if match.thread_id is not None else None

    def post_address(self, guild_id: int | None, channel_id: int, message_id: int) -> str | None:
        return f"https://example.org/{channel_id}/{message_id}" if guild_id else None

    def thread_address(self, guild_id: int, thread_id: int) -> str | None:
        return f"https://example.org/{guild_id}/{thread_id}"

    def role(self, role_id: int) -> str:
        return f"role {role_id}"

    def moment(self, when: datetime, style: Moment) -> str:
        return f"{style} {when:%Y-%m-%d}"

    def server(self, guild_id: int) -> str | None:
        return "Club" if guild_id == GUILD else None

    def linked(self, text: str, address: str) -> str:
        return f"<{text} -> {address}>"

    def strong(self, text: str) -> str:
        return f"*{text}*"

    def text(self, text: str) -> str:
        return text


MARKS = Marks()


async def never_asked() -> bool:
    raise AssertionError("the creator is never asked whether they organise")


async def test_a_lobby_reads_the_same_in_every_front_end(host: GameHost) -> None:
    lobby = await host.create_match("toy", 3, creator=ANN, guild_id=GUILD)
    lobby = await host.add_computer(lobby.id, "random")
    en = words.lobby_text(host, lobby, "en", MARKS).splitlines()
    assert en[0] == f"**Toy race** · match #{lobby.id} · waiting for players"
    assert en[1] == "Players 2/3: ann, Astor (computer) · easy"
    assert en[2:] == [
        "Options: none",
        "Clock: no clock.",
        f"Join with the button; @{ANN.user_id} starts when every seat is taken.",
    ]
    it = words.lobby_text(host, lobby, "it", MARKS).splitlines()
    assert it[0] == f"**Toy race** · partita n. {lobby.id} · in attesa di giocatori"
    assert it[1] == "Giocatori 2/3: ann, Astor (computer) · facile"
    assert it[2:4] == ["Opzioni: nessuna", "Tempo: nessun limite di tempo."]
    match = await started_pair(host)
    assert words.lobby_text(host, match, "it", MARKS).endswith(
        "La partita è iniziata: il tabellone è qui sotto."
    )


async def test_only_the_creator_adds_computer_players_of_the_levels_there_are(host: GameHost) -> None:
    lobby = await host.create_match("toy", 3, creator=ANN, guild_id=GUILD)
    with pytest.raises(LobbyError) as refused:
        await words.add_computer_of_level(
            host, lobby.id, "random", Scope(user_id=BOB.user_id or 0, guild_id=GUILD)
        )
    assert refused.value.say is not None
    assert (
        render("it", refused.value.say) == "solo chi ha creato la partita può aggiungere giocatori computer"
    )
    with pytest.raises(LobbyError) as unknown:
        await words.add_computer_of_level(host, lobby.id, "strong", HERE)
    assert list(unknown.value.allowed) == ["easy"]  # the toy has a random player and one of no level
    seated = await words.add_computer_of_level(host, lobby.id, "random", HERE)
    assert [p.bot for p in seated.players] == [None, "random"]
    assert words.levels_of(host, "toy") == ["random"]
    assert words.level_choice("it", "random") == "Facile: gioca a caso"
    with pytest.raises(LobbyError) as full:
        words.require_a_free_seat(2, 2)
    assert full.value.say is not None
    assert render("en", full.value.say) == "2 computer players leave no seat for you in a 2-seat match"
    words.require_a_free_seat(3, 2)


async def test_a_match_opens_with_its_computer_players_seated(host: GameHost) -> None:
    with pytest.raises(LobbyError):
        await words.open_match(host, "toy", 2, frozenset(), ANN, GUILD, None, Pace.NONE, computers=2)
    assert await host.survey(HERE) == MatchListing()  # nothing was opened
    match = await words.open_match(
        host, "toy", 3, frozenset({"long"}), ANN, GUILD, 5, Pace.FAST, computers=2, level="random"
    )
    assert [p.bot for p in match.players] == [None, "random", "random"]
    assert (match.options, match.channel_id, match.pace) == (frozenset({"long"}), 5, Pace.FAST)
    assert words.thread_title(host, match) == f"Toy race #{match.id}"


async def test_options_are_suggested_with_what_they_do(host: GameHost) -> None:
    assert words.option_suggestions(host, "toy", "lo", "en") == [("long — race to 20 instead of 10", "long")]
    assert words.option_suggestions(host, "toy", "x, l", "en") == [
        ("x,long — race to 20 instead of 10", "x,long")
    ]
    assert words.option_suggestions(host, "no such game", "", "en") == []


async def test_the_list_of_open_matches_names_each_and_its_wait(host: GameHost) -> None:
    assert await words.open_list(host, HERE, "it", MARKS) == (
        "Nessuna partita aperta qui. Aprine una con `/partita nuova`."
    )
    lobby = await host.create_match("toy", 2, creator=ANN, guild_id=GUILD)
    playing = await host.create_match("toy", 2, creator=ANN, guild_id=GUILD)
    await host.join(playing.id, BOB)
    await host.start(playing.id)
    await host.store.set_thread(playing.id, 900)
    lines = (await words.open_list(host, HERE, "en", MARKS)).splitlines()
    assert lines[0].startswith(f"#{playing.id} Toy race · in play · waiting for ")
    assert lines[0].endswith(" · 2/2 players in thread 900")
    assert lines[1] == f"#{lobby.id} Toy race · waiting for players · 1/2 players"
    italian = (await words.open_list(host, HERE, "it", MARKS)).splitlines()
    assert italian[1] == f"#{lobby.id} Toy race · in attesa di giocatori · 1/2 giocatori"


async def test_history_and_status_tell_who_won(host: GameHost) -> None:
    assert await words.history_list(host, HERE, "en", MARKS, host.namer) == "No finished matches here yet."
    match = await host.create_match("toy", 2, creator=ANN, guild_id=GUILD)
    await host.join(match.id, BOB)
    await host.start(match.id)
    match = await host.match(match.id)
    status = await words.status_text(host, match, "it", MARKS)
    waited = user_at(match, min(TOY.to_act(cast(ToyState, host.state_of(match)))))
    assert status.splitlines()[-1] == f"Si aspetta {'ann' if waited == ANN.user_id else 'bob'}."
    while match.status is MatchStatus.ACTIVE:
        seat = min(TOY.to_act(cast(ToyState, host.state_of(match))))
        match = (await host.act(match.id, user_at(match, seat), "add 2")).match
    outcome = host.outcome(match)
    assert outcome is not None
    winner = host.namer(match)(outcome.places.index(1))
    history = await words.history_list(host, HERE, "en", MARKS, host.namer)
    assert history == f"#{match.id} Toy race · date {match.updated_at[:10]} · 🏆 {winner} wins with 1 point"
    italian = await words.history_list(host, HERE, "it", MARKS, host.namer)
    assert italian.endswith(f"🏆 {winner} vince con 1 punto")
    over = (await words.status_text(host, match, "en", MARKS)).splitlines()
    assert over[1:4] == [
        f"Players 2/2: {match.players[0].name}, {match.players[1].name}",
        "Options: none",
        "Clock: no clock.",
    ]
    assert over[4] == f"🏆 {winner} wins with 1 point" and over[5] == "Final standings:"


async def test_my_games_lists_my_turns_first_and_leads_to_the_first(host: GameHost) -> None:
    empty = await words.my_games(host, CY.user_id or 0, "it", MARKS)
    assert empty.text == "Non sei in nessuna partita in corso. Iniziane una con `/partita nuova`."
    assert empty.next_address is None
    match = await host.create_match("toy", 2, creator=ANN, guild_id=GUILD)
    await host.join(match.id, BOB)
    await host.start(match.id)
    await host.store.set_thread(match.id, 900)
    match = await host.match(match.id)
    mover = user_at(match, min(TOY.to_act(cast(ToyState, host.state_of(match)))))
    other = ANN.user_id if mover == BOB.user_id else BOB.user_id
    mine = await words.my_games(host, mover, "en", MARKS)
    lines = mine.text.splitlines()
    assert lines[0] == "**Your turn:**"
    assert lines[1] == (
        f"• <#{match.id} Toy race on **Club** · last move relative {match.updated_at[:10]}"
        f" -> https://example.org/{match.id}>"
    )
    assert mine.next_address == f"https://example.org/{match.id}"
    assert render("it", mine.next_label) == "Prossima partita che ti aspetta"
    theirs = await words.my_games(host, other or 0, "it", MARKS)
    assert theirs.text.splitlines()[0] == "**Aspetti gli altri:**" and theirs.next_address is None
    # Once they resign, the match is listed as theirs no more: a computer plays their seat.
    await host.resign(match.id, other or 0, resigned=True)
    given_up = (await words.my_games(host, other or 0, "en", MARKS)).text.splitlines()
    assert given_up[0] == "**You resigned (a computer plays your seat):**" and len(given_up) == 2


async def test_resigning_and_abandoning_are_asked_first(host: GameHost) -> None:
    lobby = await host.create_match("toy", 2, creator=ANN, guild_id=GUILD)
    with pytest.raises(LobbyError) as early:
        words.resign_question(lobby, ANN.user_id or 0)
    assert early.value.say is not None
    assert render("it", early.value.say) == (
        f"la partita n. {lobby.id} non è in corso: non c'è niente da cui ritirarsi"
    )
    match = await started_pair(host)
    with pytest.raises(NotSeated):
        words.resign_question(match, CY.user_id or 0)
    asked = render("en", words.resign_question(match, ANN.user_id or 0))
    assert asked.startswith(f"Resign match #{match.id}? A computer plays your seat")
    assert render("it", words.welcome_back(match.id)) == (
        f"Bentornato: il tuo posto nella partita n. {match.id} è di nuovo tuo."
    )
    assert render("it", words.opened(match.id, "#t")) == f"La partita n. {match.id} è aperta in #t."

    async def organiser() -> bool:
        return False

    question = await words.abandon_question(host, lobby.id, HERE, never_asked, "it")
    assert question.text == f"Abbandonare la partita n. {lobby.id} per tutti? Non si può tornare indietro."
    assert question.match.id == lobby.id and question.match.version == lobby.version
    with pytest.raises(LobbyError):
        await words.abandon_question(
            host, lobby.id, Scope(user_id=BOB.user_id or 0, guild_id=GUILD), organiser, "en"
        )
