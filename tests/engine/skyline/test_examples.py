"""The worked examples W1–W9 of spec §11, one test each (named after the example id)."""

from __future__ import annotations

import re

from engine.skyline import RULES
from engine.skyline.scoring import places, score
from engine.skyline.state import income_groups

from .helpers import build, legal_texts, play, refused, stack, texts
from .spec import spec_text

RED, BLUE, GREEN, PURPLE = 0, 1, 2, 3


def test_w1_linking_buildings_raises_income() -> None:
    st = build(
        2,
        board={"A3": ["red1", "blue2", "red4", "blue6"], "B3": ["blue1"], "C3": ["red1"], "D3": ["blue1"]},
        cash={RED: 5, BLUE: 10},
        stock={RED: [], BLUE: ["2"]},
        active=RED,
        phase="invest",
        built_any=True,
    )
    assert income_groups(st.board, BLUE) == (7, (2, 8))  # {A3, B3}
    step = play(st, RED, "endturn")
    st = step.state
    assert "income blue 7 A3,B3" in texts(step) and st.cash[BLUE] == 17 and st.active == BLUE
    st = play(st, BLUE, "build 2 C3").state
    assert (st.cash[BLUE], st.cash[RED]) == (15, 7)
    st = play(play(st, BLUE, "endbuild").state, BLUE, "endturn").state
    # Red has nothing to build; with 7 M it must buy before ending its turn (§4.3).
    st = play(play(play(st, RED, "endbuild").state, RED, "buy 1").state, RED, "endturn").state
    assert st.active == BLUE and st.last_income[BLUE] == 10 and st.cash[BLUE] == 25


def test_w2_penthouse_on_an_orange_site() -> None:
    st = build(
        4,
        board={"C2": ["red1", "blue2", "red4", "blue6"]},
        cash={RED: 12, BLUE: 10},
        stock={RED: ["PH"]},
        hands={s: [] for s in range(4)},
    )
    deck = st.deck
    step = play(st, RED, "build PH C2")
    new = step.state
    assert (new.cash[RED], new.cash[BLUE]) == (2, 20)
    assert new.stock[RED] == ("S",) and new.skyline_received[RED] == 1
    assert [new.hands[s] for s in (BLUE, GREEN, PURPLE)] == [(deck[0],), (deck[1],), (deck[2],)]
    assert new.hands[RED] == () and new.deck == deck[3:]
    assert texts(step)[-4:] == ["draw blue", "draw green", "draw purple", "skyline red +1"]
    privates = [(e.text, e.audience) for e in step.events if not e.is_public]
    assert (f"draw {deck[0]}", frozenset({BLUE})) in privates
    sc = score(new, RED)
    assert sc.penthouses + sc.orange == 2


def test_w3_neutral_floors() -> None:
    # (a) a free neutral on one's own floor, then a 6 on the neutral pays the bank.
    st = build(board={"F1": ["blue1", "red2"]}, stock={RED: ["N"], BLUE: ["4", "6"]}, cash={RED: 3})
    st = play(st, RED, "build N F1").state
    assert st.cash[RED] == 3 and stack(st, "F1") == ("blue1", "red2", "N")
    blue = st.model_copy(update={"active": BLUE, "built_any": False})
    assert refused(blue, BLUE, "build 4 F1").message == "a 4 M floor belongs on level 3; F1 has height 3"
    after = play(blue, BLUE, "build 6 F1").state
    assert after.cash[BLUE] == 4 and sum(after.cash) == sum(blue.cash) - 6
    # (b) neutral pays the owner below, the penthouse on it pays the bank.
    st = build(board={"D4": ["blue1", "red2", "blue4"]}, stock={RED: ["N", "PH"]}, cash={RED: 15})
    st = play(st, RED, "build N D4").state
    assert (st.cash[RED], st.cash[BLUE]) == (10, 15)
    st = play(st, RED, "build PH D4").state
    assert (st.cash[RED], st.cash[BLUE]) == (0, 15)
    # (c) nothing goes on a penthouse or a full building; one neutral bought per turn.
    st = build(board={"D4": ["blue1", "red2", "blue4", "N", "bluePH"]}, stock={RED: ["N"]}, cash={RED: 20})
    assert refused(st, RED, "build N D4").message == "D4 is complete (5 floors)"
    st = build(phase="invest", cash={RED: 20})
    assert refused(st, RED, "buy N,N").message == "only one neutral floor may be bought per turn"
    st = play(st, RED, "buy N").state
    assert refused(st, RED, "buy N").message == "only one neutral floor may be bought per turn"


def test_w4_skyline_floors() -> None:
    for board, fee_to in (({}, None), ({"B6": ["blue1"]}, BLUE), ({"B6": ["red1"]}, RED)):
        site = "A6" if not board else "B6"
        st = build(board=board, stock={RED: ["S", "S"]}, cash={RED: 10})
        new = play(st, RED, f"build S {site}").state
        if fee_to is None:
            assert new.cash[RED] == 5 and sum(new.cash) == sum(st.cash) - 5
        elif fee_to == BLUE:
            assert (new.cash[RED], new.cash[BLUE]) == (5, 15)
        else:
            assert new.cash[RED] == 10
        assert refused(new, RED, "build S A5").message == "only one Skyline floor per turn"
    st = build(stock={RED: ["S"]})
    assert refused(st, RED, "build S C2").message == "Skyline floors may not go on orange sites"


def test_w5_us_bank_tower_four_in_a_row() -> None:
    st = build(
        board={"A1": ["red1"], "B1": ["red1"], "C1": ["blue1", "red2"], "D1": ["red1"]},
        hands={RED: ["B01", "B03", "B05"]},
        cash={RED: 10},
    )
    claims = [t for t in legal_texts(st, RED) if t.startswith("claim")]
    assert claims == ["claim B01", "claim B05"]  # B05 is the four in a row itself (I4, LIB)
    step = play(st, RED, "claim B01")
    assert texts(step) == ["red: claim B01 at=A1,B1,C1 +5"]
    assert step.state.cash[RED] == 15 and step.state.claimed[RED] == ("B01",)
    assert refused(step.state, RED, "claim B05").message == "only one bonus card may be claimed per turn"
    again = st.model_copy(update={"claimed_this_turn": False})
    assert play(again, RED, "claim B01 at=A1,B1,C1").state.cash[RED] == 15
    assert refused(again, RED, "claim B01 at=B1,C1,D1").message == "B1,C1,D1 is not a placement of B01"
    assert refused(st, RED, "claim B03").message == "B03 is not satisfied"
    assert refused(st, RED, "claim B01 at=A1,A2,A3").message == "B01 is not satisfied at A1,A2,A3"


def test_w6_selling_and_exchanging() -> None:
    st = build(phase="invest", stock={RED: ["1", "6"]}, cash={RED: 10}, hands={RED: ["B07", "B20", "B33"]})
    step = play(st, RED, "sell 6,1")
    assert step.state.cash[RED] == 13 and step.state.stock[RED] == ()
    assert step.state.supply[RED][3] == st.supply[RED][3] + 1
    step = play(step.state, RED, "exchange B07,B20,B33")
    assert step.state.cash[RED] == 18 and step.state.hands[RED] == ()
    assert texts(step) == ["red: exchange 3 cards +5"]
    assert all("B07" not in t for t in texts(step))
    assert refused(st, RED, "sell S").message == "Skyline floors cannot be sold"


def test_w7_end_of_the_game() -> None:
    board = {
        "A1": ["green1", "red2", "green4", "red6", "greenPH"],
        "A2": ["green1", "red2", "green4", "red6", "greenPH"],
        "A3": ["green1", "red2", "green4", "N"],  # the fee goes to the bank
    }
    st = build(
        4,
        board=board,
        stock={RED: [], BLUE: [], GREEN: ["PH"], PURPLE: []},
        cash={RED: 0, BLUE: 0, GREEN: 20, PURPLE: 0},
        active=GREEN,
        penthouse_seq=((), (), (1, 2), ()),
        skyline_received=(0, 0, 1, 0),
    )
    step = play(st, GREEN, "build PH A3")
    st = step.state
    assert "trigger green" in texts(step) and st.trigger == GREEN and st.final_queue == (PURPLE, RED, BLUE)
    assert st.stock[GREEN] == ("S",) and st.skyline_received[GREEN] == 2
    st = play(st, GREEN, "build S F6").state
    st = play(play(st, GREEN, "endbuild").state, GREEN, "endturn").state
    order = []
    while RULES.outcome(st) is None:
        order.append(st.active)
        seat = st.active
        st = play(play(st, seat, "endbuild").state, seat, "endturn").state
    assert order == [PURPLE, RED, BLUE]
    assert RULES.to_act(st) == frozenset()


def _w8_board(red_mission_ph: bool) -> dict[str, list[str]]:
    # Red: penthouses on C2 (orange) and F1 and the mission M1 (A1-A4) topped.
    # Blue: penthouses on E4 and B5 (both orange) and E1.
    tower = ["red1", "blue2", "red4", "blue6"]
    board = {
        "C2": [*tower, "redPH"],
        "F1": [*tower, "redPH"],
        "E4": [*tower, "bluePH"],
        "B5": [*tower, "bluePH"],
        "E1": [*tower, "bluePH"],
    }
    if red_mission_ph:
        board.update({s: ["red1"] for s in ("A1", "A2", "A3", "A4")})
    return board


def test_w8_prestige_and_tie_breaks() -> None:
    st = build(2, board=_w8_board(True), missions=("M1", "M2"), phase="over")
    red, blue = score(st, RED), score(st, BLUE)
    assert (red.penthouses, red.orange, red.mission, red.total) == (2, 1, True, 5)
    assert (blue.penthouses, blue.orange, blue.mission, blue.total) == (3, 2, False, 5)
    assert places(st) == (2, 1)  # blue wins on penthouses
    outcome = RULES.outcome(st)
    assert outcome is not None and outcome.scores == (5, 5) and outcome.places == (2, 1)
    # Equal PP, penthouses and mission: shared in the standard game, earlier third penthouse in tournament.
    tower = ["red1", "blue2", "red4", "blue6"]
    even = {f"{c}1": [*tower, "redPH"] for c in "ABC"} | {f"{c}6": [*tower, "bluePH"] for c in "ABC"}
    st = build(2, board=even, missions=("M5", "M6"), phase="over", penthouse_seq=((10, 20, 40), (11, 21, 31)))
    assert places(st) == (1, 1)
    tour = st.model_copy(update={"tournament": True})
    assert places(tour) == (2, 1)


def test_w9_forced_build_and_forced_buy() -> None:
    st = build(stock={RED: ["2"]}, cash={RED: 3})
    assert legal_texts(st, RED)[-1] == "endbuild" and not any(
        t.startswith("build") for t in legal_texts(st, RED)
    )
    st = play(st, RED, "endbuild").state
    assert st.phase == "invest"
    err = refused(st, RED, "endturn")
    assert err.message == "you must buy a floor: you can afford a 1 M floor"
    assert "buy 1" in err.allowed and "endturn" not in err.allowed
    assert play(play(st, RED, "buy 1").state, RED, "endturn").state.active == BLUE
    broke = st.model_copy(update={"cash": (0, *st.cash[1:])})
    assert play(broke, RED, "endturn").state.active == BLUE


def test_every_example_has_a_test() -> None:
    ids = sorted(set(re.findall(r"\*\*(W\d+) —", spec_text())), key=lambda s: int(s[1:]))
    assert ids == [f"W{i}" for i in range(1, 10)]
    names = [n for n in globals() if n.startswith("test_w")]
    for example in ids:
        assert any(n.startswith(f"test_{example.lower()}_") for n in names), example
