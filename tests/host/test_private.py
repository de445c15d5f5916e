"""What players read outside the board post, in English and Italian: a match's heading, the private
message of a notice, the notes when a match moves, the messages when the bot cannot reach a player or
the match's place, and a match clock's words."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.core.contract import Outcome
from engine.core.say import Say
from engine.host.clock import Pace, Reminder, SeatClock
from engine.host.clock_words import clock_reminder, time_left
from engine.host.marks import PlainMarks
from engine.host.ports import LivePost, MatchRecord, MatchStatus, Notice, Player
from engine.host.post_words import board_post_text
from engine.host.posts import BoardPost
from engine.host.private import (
    call_list,
    dm_closed,
    humans,
    match_heading,
    moved_note,
    nowhere_left,
    private_reader,
    private_text,
)
from engine.host.reminders import your_turn
from lang.says import render

NOON = datetime(2026, 11, 29, 12, tzinfo=UTC)
MATCH = MatchRecord(
    id=12,
    game="ny1901",
    options=frozenset(),
    seat_count=3,
    seed=1,
    status=MatchStatus.ACTIVE,
    version=3,
    pace=Pace.NONE,
    created_at="2026-11-29T00:00:00",
    updated_at="2026-11-29T00:00:00",
    players=(
        Player(user_id=100, name="Ada", seat=0),
        Player(user_id=None, name="Robo", seat=1, bot="random"),
        Player(user_id=102, name="Cy", seat=2),
    ),
)


def name(seat: int) -> str:
    return ["Ada", "Robo", "Cy"][seat]


def test_people_are_called_by_mention_and_computers_by_name() -> None:
    assert humans(MATCH) == [100, 102]
    assert call_list(MATCH, (0, 1, 2), lambda user: f"@{user}") == "@100, **Robo**, @102"


def test_the_heading_names_the_game_and_the_match_in_the_readers_language() -> None:
    assert match_heading("en", "New York 1901", 12) == "**New York 1901** · match #12"
    assert match_heading("it", "New York 1901", 12) == "**New York 1901** · partita n. 12"


def test_a_private_message_says_where_what_happened_and_whose_turn_it_is() -> None:
    notice = Notice(says=(Say(domain="bigapple", text="Ada built."),), to_act=(0,))
    heading = match_heading("en", "New York 1901", 12)
    text = private_text("en", heading, 0, notice, name, "Town", "https://chat/thread")
    assert text.splitlines() == [
        "**New York 1901** · match #12 on **Town**",
        "Thread: https://chat/thread",
        "• Ada built.",
        "▶ It is your turn: press **Play** below, or use `/move` in the thread.",
    ]
    # Not their turn, no server nor thread known: only the heading and the lines.
    assert private_text("en", heading, 2, notice, name).splitlines() == [heading, "• Ada built."]
    italian = private_text("it", match_heading("it", "New York 1901", 12), 0, notice, name, "Town")
    assert "su **Town**" in italian and "Tocca a te: premi **Gioca** qui sotto" in italian


def test_a_moved_match_says_why_and_where_it_goes_on() -> None:
    assert render("en", moved_note(12, deleted=True, in_channel=False)) == (
        "The thread of match #12 was deleted; the match goes on here."
    )
    assert render("en", moved_note(12, deleted=False, in_channel=True)) == (
        "The thread of match #12 was closed to me, and I cannot open a new one: "
        "the match goes on in this channel."
    )
    assert "partita n. 12" in render("it", moved_note(12, deleted=True, in_channel=False))


def test_players_out_of_reach_are_told_how_to_go_on() -> None:
    text = nowhere_left("en", "**Game** · match #12")
    assert text.startswith("**Game** · match #12: I can no longer post in its thread or channel.")
    assert render("en", dm_closed("@ada")).startswith("@ada, I cannot send you direct messages")
    assert render("it", dm_closed("@ada")).startswith("@ada, non posso mandarti messaggi diretti")


def test_the_turn_reminder_calls_the_seat_as_the_front_end_names_it() -> None:
    assert render("en", your_turn(2), name) == "Cy, it is your turn."
    assert render("it", your_turn(2), name) == "Cy, tocca a te."


def test_a_clock_says_the_time_left_or_when_its_player_is_back() -> None:
    running = SeatClock(match_id=12, seat=0, user_id=100, started_at=NOON, deadline=NOON + timedelta(hours=5))
    assert time_left("en", running, NOON, PlainMarks()) == "5 h left"
    assert time_left("it", running, NOON, PlainMarks()) == "restano 5 h"
    away = running.model_copy(update={"started_at": NOON + timedelta(days=1)})
    back = (NOON + timedelta(days=1)).isoformat(" ", "minutes")
    assert time_left("en", away, NOON, PlainMarks()) == f"away until {back}"


def test_a_clock_reminder_names_the_match_its_game_and_the_time_left() -> None:
    assert clock_reminder("en", Reminder.HALF, 12, "New York 1901", timedelta(minutes=35)) == (
        "half of your time for match #12 (New York 1901) is gone: 35 min left to move."
    )
    assert clock_reminder("it", Reminder.LAST, 12, "New York 1901", timedelta(days=3)) == (
        "la partita n. 12 (New York 1901) ti aspetta: restano 3 giorni, "
        "poi il tuo turno lo gioca un computer."
    )


def test_a_computers_hand_has_no_reader_but_a_person_away_reads_what_is_theirs() -> None:
    assert private_reader(MATCH, 0, Notice()) == 100
    assert private_reader(MATCH, 1, Notice()) is None
    away = MATCH.model_copy(
        update={"players": (Player(user_id=100, name="Ada", seat=0, bot="random", absent=True),)}
    )
    assert private_reader(away, 0, Notice()) is None
    assert private_reader(away, 0, Notice(personal=True)) == 100


def plan(**changes: Any) -> BoardPost:
    shown = LivePost(match_id=12, channel_id=0, message_id=0, version=3, to_act=(0,), lines=())
    fields: dict[str, Any] = {
        "body": ("• Ada built.",),
        "call": (0, 1),
        "outcome": None,
        "everyone": False,
        "continuing": False,
        "since_seat": None,
        "undo": False,
        "shown": shown,
    }
    return BoardPost(**(fields | changes))


def test_a_board_post_has_its_heading_lines_and_call_with_the_time_left() -> None:
    def calls(seats: Sequence[int]) -> str:
        return call_list(MATCH, seats, lambda user: f"@{user}")

    text = board_post_text("en", plan(), "**Game** · match #12", name, calls, {0: "5 h left"})
    assert text.splitlines() == ["**Game** · match #12", "• Ada built.", "▶ @100, **Robo** to act · 5 h left"]
    italian = board_post_text("it", plan(), "H", name, calls, {})
    assert italian.splitlines()[-1] == "▶ di turno: @100, **Robo**"
    won = Outcome(scores=(7, 3, 2), places=(1, 2, 3), reason="end")
    final = board_post_text("en", plan(outcome=won, call=()), "H", name, calls, {})
    assert final.splitlines() == ["🏆 Ada wins with 7 points", "H", "• Ada built."]
