"""Rule details beyond the worked examples: build legality messages, the cash cap, penthouse draws,
the final round, stall end, the tournament tie-break and setup."""

from __future__ import annotations

import pytest

from engine.core.errors import NotationError, SetupError
from engine.skyline import RULES
from engine.skyline.scoring import places, tiebreak_notes

from .helpers import build, play, refused, texts

RED, BLUE = 0, 1


def test_setup_follows_section_3() -> None:
    st = RULES.setup(3, 5, frozenset())
    assert st.cash == (10, 10, 10) and st.stock == (("1", "1", "2"),) * 3
    assert st.supply[0] == (6, 5, 4, 3, 3) and st.neutral_supply == 6
    assert [len(h) for h in st.hands] == [3, 3, 3] and len(st.deck) == 33
    assert len(set(st.missions)) == 3 and len(st.spare_missions) == 3
    assert st.active == st.start and st.phase == "build"
    assert {RULES.setup(3, s, frozenset()).start for s in range(30)} == {0, 1, 2}


def test_setup_errors_name_the_choices() -> None:
    with pytest.raises(SetupError) as info:
        RULES.setup(5, 1, frozenset())
    assert info.value.allowed == ("2", "3", "4")
    with pytest.raises(SetupError) as info:
        RULES.setup(3, 1, frozenset({"expert"}))
    assert info.value.allowed == ("hidden", "tournament")


def test_build_error_messages() -> None:
    st = build(
        board={
            "A1": ["red1"],
            "B1": ["blue1", "blueS"],
            "C1": ["blue1", "red2"],
            "D1": ["redS"],
            "E1": ["blue1", "red2", "blue4", "red6"],
        },
        stock={RED: ["2", "4", "PH", "N", "S"]},
        cash={RED: 20},
    )
    assert refused(st, RED, "build 2 A1").message == "cannot build on your own floor"
    assert refused(st, RED, "build 2 B1").message == "cannot build on another player's Skyline floor"
    assert refused(st, RED, "build N B1").message == "neutral floors may not go on Skyline floors"
    assert refused(st, RED, "build S D1").message == "Skyline floors may not go on Skyline floors"
    assert refused(st, RED, "build 4 A2").message == "a 4 M floor belongs on level 3; A2 has height 0"
    assert refused(st, RED, "build 6 A2").message == "you have no 6 in stock"
    assert refused(st, RED, "build PH E1").message == "cannot build on your own floor"
    assert play(st, RED, "build 2 D1").state.cash[RED] == 20  # own Skyline floor: fee 0 (ruling 6)
    err = refused(st, RED, "endbuild")
    assert err.message.startswith("you must build at least one floor: e.g. build ")
    assert refused(st, RED, "buy 1").message.startswith("buy belongs to phase 3")
    poor = build(board={"A1": ["blue1"]}, stock={RED: ["2"]}, cash={RED: 1})
    assert refused(poor, RED, "build 2 A1").message == "you cannot pay the 2 M fee (you have 1 M)"


def test_penthouse_needs_participation() -> None:
    st = build(board={"A1": ["blue1", "green2", "blue4", "green6"]}, stock={RED: ["PH"]}, cash={RED: 20})
    assert (
        refused(st, RED, "build PH A1").message == "penthouse needs one of your floors lower in this building"
    )


def test_cash_cap_on_every_credit() -> None:
    st = build(board={"A1": ["blue1"]}, stock={RED: ["2"]}, cash={RED: 10, BLUE: 29})
    new = play(st, RED, "build 2 A1").state
    assert (new.cash[RED], new.cash[BLUE]) == (8, 30)
    st = build(phase="invest", stock={RED: ["6"]}, cash={RED: 29})
    assert play(st, RED, "sell 6").state.cash[RED] == 30


def test_second_penthouse_gives_no_skyline_and_third_only_once() -> None:
    tower = ["red1", "blue2", "red4", "N"]
    st = build(
        2,
        board={"A1": tower, "A2": tower},
        stock={RED: ["PH", "PH"]},
        cash={RED: 30},
        penthouse_seq=((5,), ()),
        skyline_received=(1, 0),
    )
    new = play(st, RED, "build PH A1").state
    assert new.skyline_received[RED] == 1 and new.trigger is None
    new = play(new, RED, "build PH A2").state
    assert new.trigger == RED and new.skyline_received[RED] == 2 and new.final_queue == (BLUE,)


def test_stall_end_after_two_rounds_without_builds() -> None:
    """§5.1 #2: 2 × N consecutive turns without a build end the game."""
    st = build(2, stock={RED: [], BLUE: []}, cash={RED: 0, BLUE: 0})
    turns = 0
    events: list[str] = []
    while RULES.outcome(st) is None:
        seat = st.active
        step = play(play(st, seat, "endbuild").state, seat, "endturn")
        events += texts(step)
        st = step.state
        turns += 1
    assert turns == 4 and "stall-end" in events and events[-1] == "winner red,blue"


def test_tournament_tie_break_without_penthouses() -> None:
    st = build(2, missions=("M1", "M2"), phase="over", cash={RED: 4, BLUE: 4}, start=RED)
    assert places(st) == (1, 1) and "shared victory" in tiebreak_notes(st)
    tour = st.model_copy(update={"tournament": True})
    assert places(tour) == (2, 1)  # (d) blue comes later in turn order from the start player
    richer = tour.model_copy(update={"cash": (9, 4)})
    assert places(richer) == (1, 2) and "tie-break (tournament): most cash" in tiebreak_notes(richer)


def test_notation_errors_explain_the_form() -> None:
    with pytest.raises(NotationError) as info:
        RULES.parse("build 3 C4")
    assert "unknown piece" in info.value.message
    with pytest.raises(NotationError):
        RULES.parse("exchange B01,B02")
    with pytest.raises(NotationError):
        RULES.parse("claim B01 on=A1")
    assert RULES.notation(RULES.parse("CLAIM b01 AT=c1,a1,b1")) == "claim B01 at=A1,B1,C1"
    assert RULES.notation(RULES.parse("exchange b33,B07,b20")) == "exchange B07,B20,B33"
