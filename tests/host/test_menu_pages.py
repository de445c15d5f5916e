"""The host plans a move menu, words the answer to a move, steps through a replay and keeps the line of
exports, in words every front end shows the same way."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from engine.core.errors import StaleVersion
from engine.core.presentation import MultiSelect
from engine.core.say import who
from engine.host.answers import lines_text, menu_choice, next_step, play_move, took_back
from engine.host.exports import ALREADY_ASKED, LINE_FULL, Answer, Export, ExportLine
from engine.host.history import Jump
from engine.host.menu_pages import Grid, plan_menu, plan_picks
from engine.host.menus import KEY
from engine.host.replay_steps import OWN_VIEW, jump_options, jump_target, step_lines, step_targets, step_title
from engine.host.replies import hand_lines, log_heading
from engine.host.service import GameHost
from engine.host.table import STALE_CHOICE
from engine.host.text import HOST
from engine.host.typed import Offer, Typed, offer_moves, read_offered
from lang.says import render
from tests.host.test_service import CY, started_pair, user_at


async def test_a_menu_of_one_move_is_one_tap_and_undo_goes_on_the_last_row(host: GameHost) -> None:
    match = await started_pair(host)
    table = await host.menu(match.id, user_at(match, 0), "it")
    one = replace(table, menu=table.menu[:1], may_undo=True)
    page = plan_menu(one, "it")
    assert page.one_move == one.menu[0].label
    assert page.controls == () and page.undo_row == 4
    assert render("it", page.text) == f"La tua unica mossa nella partita n. {match.id}:"
    assert render("en", page.text) == f"Your only move in match #{match.id}:"


async def test_a_menu_of_several_moves_is_buttons_within_the_grid(host: GameHost) -> None:
    match = await started_pair(host)
    table = await host.menu(match.id, user_at(match, 0), "en")
    page = plan_menu(table, "en")
    assert page.one_move is None and page.undo_row is None
    assert [c.kind for c in page.controls] == ["button", "button"]
    assert [c.options[0].value for c in page.controls] == ["=add 1", "=add 2"]
    assert render("en", page.text) == f"Your move in match #{match.id}: 2 possible moves. Pick one:"
    assert render("it", page.text).startswith(f"La tua mossa nella partita n. {match.id}: 2 mosse possibili")
    # A front end whose buttons cannot carry these options gets one select instead.
    narrow = plan_menu(table, "en", grid=Grid(fits=lambda option: False))
    assert [c.kind for c in narrow.controls] == ["select"]
    # Undo takes a row of its own when the moves leave one.
    undone = plan_menu(replace(table, may_undo=True), "en", grid=Grid(rows=2))
    assert undone.undo_row is not None and all(c.row < 2 for c in undone.controls)


async def test_a_menu_with_choices_of_several_items_puts_them_and_undo_last(host: GameHost) -> None:
    match = await started_pair(host)
    table = await host.menu(match.id, user_at(match, 0), "en")
    choice = MultiSelect(
        label="pay", template="pay {}", items=("a", "b", "c"), max_items=2, title=HOST.say("Choose several")
    )
    page = plan_menu(replace(table, choices=(choice,), may_undo=True), "it")
    assert [(slot.index, slot.row) for slot in page.choices] == [(0, 4)]
    assert page.undo_row == 4 and all(c.row < 4 for c in page.controls)
    picks = plan_picks("it", choice, table.name)
    assert picks.labels == ("a", "b", "c") and (picks.min_items, picks.max_items) == (1, 2)
    assert render("en", picks.prompt) == "Choose several: pick the items."
    assert render("it", picks.prompt) == "Scegline più di una: scegli gli elementi."
    assert plan_picks("en", choice, table.name, most=2).labels == ("a", "b")


async def test_a_move_answer_says_what_was_played_and_what_follows(host: GameHost) -> None:
    match = await started_pair(host)
    mover = user_at(match, 0)
    answer = await play_move(host, match.id, mover, "add 1", version=match.version)
    assert answer is not None and answer.refused is None
    name = host.namer(answer.match)
    assert lines_text("en", answer.lines, name) == "✅ You played: Add 1 to 0."
    assert lines_text("it", answer.lines, name) == "✅ Hai giocato: Add 1 to 0."
    # The same control pressed again is answered with nothing.
    assert await play_move(host, match.id, mover, "add 1", version=match.version) is None
    after = await next_step(host, answer.match, mover, "it")
    assert not after.my_turn
    assert render("en", after.waiting, after.table.name) == f"Waiting for {name(1)}."
    other = await next_step(host, answer.match, user_at(match, 1), "it")
    assert other.my_turn and [e.notation for e in other.table.menu] == ["add 1", "add 2"]
    back = took_back(answer.match)
    assert lines_text("it", [back], name) == f"↩️ Hai ripreso la tua mossa nella partita n. {match.id}."


def test_replay_steps_and_jumps_are_worded_and_one_is_chosen() -> None:
    assert step_targets(3, 10) == {"f": 0, "p": 2, "n": 4, "l": 10}
    assert step_targets(0, 0) == {"f": 0, "p": 0, "n": 0, "l": 0}
    assert render("en", step_title(0, 5)) == "the opening"
    assert render("it", step_title(2, 5)) == "mossa 2 di 5"
    said = step_lines("it", "Partita n. 4", 2, 5, [HOST.say("Match over")], True, str)
    assert said == ["Partita n. 4 · mossa 2 di 5", "Match over", render("it", OWN_VIEW)]
    assert render("it", OWN_VIEW) != OWN_VIEW.text
    places = [
        Jump(move=2, turn=1, seat=0, first=1),
        Jump(move=3, turn=2, seat=1, first=3, scoring=True, final=True, says=(HOST.say("Match over"),)),
        Jump(move=3, turn=2, seat=1, first=3),
    ]

    def name(seat: int) -> str:
        return render("en", HOST.say("{who}", who=who(seat)), lambda s: ["Ann", "Bob"][s])

    options = jump_options(places, 3, name, "it")
    assert [o.label for o in options] == ["Turno 1: Ann", "🏆 Punteggio finale, mossa 3", "Turno 2: Bob"]
    assert [o.about for o in options] == ["mosse da 1 a 2", "Match over", "mossa 3"]
    assert [o.chosen for o in options] == [False, True, False]
    assert jump_target(options[1].value) == 3


async def test_the_line_of_exports_is_short_one_each_and_late_answers_go_another_way() -> None:
    now = datetime(2026, 1, 1)
    delivered: list[tuple[int, str, bool]] = []
    done = asyncio.Event()

    async def deliver(export: Export, answer: Answer | Exception, in_time: bool) -> None:
        assert isinstance(answer, Answer)
        delivered.append((export.user_id, answer.text, in_time))
        if len(delivered) == 2:
            done.set()

    release = asyncio.Event()

    async def make() -> Answer:
        await release.wait()
        return Answer("drawn")

    line = ExportLine(lambda: now, deliver, most=2, answer_within=timedelta(minutes=14))
    first, said = line.ask(1, "en", make)
    assert first is not None and said is None
    assert line.ask(1, "en", make) == (None, ALREADY_ASKED)
    second, said = line.ask(2, "it", make)
    assert second is not None and said is not None
    assert render("it", said).startswith("Sei il numero 2 in coda")
    assert line.ask(3, "en", make) == (None, LINE_FULL)
    first.told.set()
    second.told.set()
    now += timedelta(minutes=15)  # the answers come too late for the requests themselves
    release.set()
    await asyncio.wait_for(done.wait(), 5)
    assert delivered == [(1, "drawn", False), (2, "drawn", False)] and line.in_line == 0
    assert await line.close() == []


async def test_hand_and_log_lines_are_worded_by_the_host(host: GameHost) -> None:
    match = await started_pair(host)
    table = await host.table(match.id, user_at(match, 0))
    lines = [render("it", say) for say in hand_lines(table)]
    assert lines == [
        f"La tua vista della partita n. {match.id}.",
        "Tocca a te: premi Gioca per scegliere la tua mossa.",
    ]
    assert render("it", log_heading(match.id, 3, as_file=True)) == (
        f"Partita n. {match.id}, le ultime 3 righe:"
    )
    assert render("en", log_heading(match.id, 3, as_file=False)) == f"Match #{match.id}:"


async def test_moves_offered_while_typing_carry_their_board_or_say_why_not(host: GameHost) -> None:
    match = await started_pair(host)
    everything = await offer_moves(host, match, user_at(match, 0), "")
    assert [label for label, _ in everything.choices] == ["Add 1 to 0", "Add 2 to 0"]
    # Typed words pick out the moves whose label has them all (the starts of words will do).
    offer = await offer_moves(host, match, user_at(match, 0), "ADD 2")
    assert offer.refusal is None
    assert offer.choices == (("Add 2 to 0", f"add 2 @{match.version}"),)
    # Notation still finds its move for those who type it.
    assert (await offer_moves(host, match, user_at(match, 0), "add 1")).choices[0][0] == "Add 1 to 0"
    assert read_offered(offer.choices[0][1]) == Typed("add 2", match.version)
    assert read_offered("add 2") == Typed("add 2", None)
    assert read_offered(f"#2 @{match.version}") == Typed(2, bound=match.version)
    waiting = await offer_moves(host, match, user_at(match, 1), "")
    assert waiting.choices == () and waiting.refusal is not None and waiting.name is not None
    assert render("it", waiting.refusal, waiting.name) == f"Non è il tuo turno: si aspetta {waiting.name(0)}"
    assert await offer_moves(host, match, CY.user_id or 0, "") == Offer()


async def test_a_select_value_that_is_a_key_no_move_has_now_is_refused_as_no_longer_on_offer(
    host: GameHost,
) -> None:
    match = await started_pair(host)
    mover = user_at(match, 0)
    # A value that fits is its own; a key is looked up in the menu of the board as it is now.
    assert await menu_choice(host, match.id, mover, match.version, "=add 1") == "=add 1"
    with pytest.raises(StaleVersion) as refused:
        await menu_choice(host, match.id, mover, match.version, KEY + "0" * 24)
    assert refused.value.say == STALE_CHOICE
    assert (await host.match(match.id)).version == match.version  # nothing was played
