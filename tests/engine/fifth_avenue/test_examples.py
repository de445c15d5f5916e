"""The worked examples E1–E15 of spec §11, one test each (named after the example id)."""

from __future__ import annotations

import re

from engine.core.contract import Step
from engine.fifth_avenue import RULES
from engine.fifth_avenue.rules import building_limit, scorable, shop_targets, snake_order
from engine.fifth_avenue.scoring import cp_value, district_scores
from engine.fifth_avenue.state import FifthState

from .helpers import LotSpec, build, legal_texts, play, refused, texts
from .spec import spec_text

RED, YELLOW, BLUE, GREEN = 0, 1, 2, 3


def test_e1_starting_placement_order() -> None:
    assert snake_order(4) == (0, 3, 2, 1, 1, 2, 3, 0)
    assert snake_order(3) == (0, 2, 1, 1, 2, 0)
    assert snake_order(2) == (0, 1, 1, 0)
    st = RULES.setup(4, 7, frozenset())
    seen = []
    while st.phase == "setup":
        (seat,) = RULES.to_act(st)
        seen.append(seat)
        st = RULES.apply(st, seat, RULES.legal_actions(st, seat)[0]).state
    assert seen == [0, 3, 2, 1, 1, 2, 3, 0]
    assert RULES.to_act(st) == {0}


def test_e2_movement_with_a_closed_district() -> None:
    st = build(pawns=("TS", "34W"), closed=("52E",), phase="move", chosen="A")
    assert legal_texts(st, 0) == ["move white 52W", "move white CP", "move beige 42W", "move beige TS"]
    new = play(st, 0, "move white CP").state
    assert new.pawns == ("CP", "34W") and new.tokens[0] == ("TS",)
    assert new.active == 1 and new.phase == "action"


def test_e3_scorable_districts() -> None:
    assert scorable(build(pawns=("52E", "START"))) == ["52E"]
    assert [t for t in legal_texts(build(pawns=("52E", "START")), 0) if t.startswith("D")] == ["D 52E"]
    assert [t for t in legal_texts(build(pawns=("34W", "TS")), 0) if t.startswith("D")] == ["D 34W", "D TS"]
    none = build(pawns=("START", "CP"))
    assert not [t for t in legal_texts(none, 0) if t.startswith("D")]
    assert refused(none, 0, "D TS").message == "illegal: D TS is not allowed now"


def _row(s4: str, s5: str) -> list[str | None]:
    return [None, None, None, s4, s5] + ["P"] * 15


def test_e4_shop_groups_and_the_first_special_scoring() -> None:
    st = build(
        row=_row("F", "A"),
        placed=2,
        lots={"34E.GY": (RED, 1), "42W.GN": (RED, 1), "52W.BR": (RED, 1), "TS.OR": (BLUE, 1)},
    )
    step = play(st, RED, "B S4 34W.GY")
    new = step.state
    assert new.lots["34W.GY"].shops == ("F",)
    assert new.cp_pile == ("A",) and new.row[3] is None and new.row[4] is None
    assert new.placed == 3
    assert new.scores == (4, 0, 0)  # red builds in 3 districts, blue in 1
    assert "shop S5 -> CP" in texts(step) and "special#1: red +4" in texts(step)
    # the active group is now group 3: its tiles are offered, group 1/2 slots are refused
    assert any(t.startswith("B S6 ") for t in legal_texts(new.model_copy(update={"phase": "action"}), RED))
    # a 3-tile group: the second placed tile sends the third to the CP pile
    three = build(row=["F", "J", "A"] + ["P"] * 17)
    after = play(three, RED, "B S1 34W.GY").state
    assert after.cp_pile == () and after.row[:3] == (None, "J", "A")
    after = play(after.model_copy(update={"phase": "action"}), RED, "B S3 34W.BR").state
    assert after.cp_pile == ("J",) and after.row[:3] == (None, None, None) and after.placed == 2


def test_e5_shop_placement_targets() -> None:
    st = build(lots={"42E.GY": "F", "42E.VI": "JA", "42E.OR": (RED, 2), "42E.GN": (BLUE, 1)})
    assert [t for t in shop_targets(st) if t.startswith("42E.")] == ["42E.GY", "42E.BR"]
    assert (
        refused(st, RED, "B S1 42E.VI").message
        == "illegal: 42E.VI cannot take a shop (buildings, 2 shops or closed)"
    )
    assert refused(st, RED, "B S1 42E.OR").message.startswith("illegal: 42E.OR cannot take a shop")


def test_e6_district_scoring() -> None:
    lots: dict[str, LotSpec] = {
        "34W.OR": "J",
        "34W.BR": (BLUE, 2),
        "34W.GN": (YELLOW, 1),
        "TS.GY": "FJ",
        "TS.VI": "F",
        "TS.BR": (BLUE, 2),
        "TS.OR": (YELLOW, 1),
        "TS.GN": (RED, 2),
        "52W.VI": "FJ",
        "52W.GN": "AP",
        "52W.GY": "A",
        "52W.BR": (BLUE, 2),
        "52W.OR": (YELLOW, 1),
    }
    st = build(lots=lots, pawns=("34W", "TS"))
    assert district_scores(st.lots, "34W", 3, False) == [0, 2, 4]
    assert district_scores(st.lots, "TS", 3, False) == [6, 3, 4]
    assert district_scores(st.lots, "52W", 3, False) == [0, 8, 10]
    step = play(st, RED, "D 34W")
    assert step.state.scores == (0, 2, 4) and "score 34W: yellow +2, blue +4" in texts(step)


def test_e7_d_black_cards() -> None:
    st = build(4, lots={"TS.OR": (RED, 1), "TS.GN": (YELLOW, 1)}, pawns=("TS", "START"), active=BLUE)
    new = play(st, BLUE, "D TS").state
    assert [len(h) for h in new.hands] == [0, 0, 3, 1]


def test_e8_building_count() -> None:
    assert building_limit(["GY4", "GY4", "BK4", "BK4"]) == 3
    assert building_limit(["VI4", "VI4", "BK5", "BK6", "BK6"]) == 1
    assert building_limit(["OR5", "BK4"]) == 2


def _auction(
    seats: int, lots: dict[str, LotSpec], hands: dict[int, list[str]], black: list[str] | None = None
) -> Step[FifthState]:
    """Red (seat 0) returns white from CP with a white token on the district's site."""
    district = next(iter(lots)).split(".")[0]
    st = build(
        seats,
        lots=lots,
        hands=hands,
        pawns=("CP", "START"),
        tokens=((district,), ()),
        phase="move",
        black=black,
    )
    return play(st, RED, "move white START")


def test_e9_eligible_colours() -> None:
    lots: dict[str, LotSpec] = {"34E.OR": (RED, 1), "34E.GN": (YELLOW, 1), "34E.VI": "F"}
    hands = {s: ["GY4", "BR4", "OR4", "GN4", "VI4", "BK4"] for s in range(4)}
    st = _auction(4, lots, hands).state
    au = st.auction
    assert au is not None and au.sites == ("34E", "CP")
    assert au.eligible == (("OR",), ("GN",), ("BR", "GY"), ("BR", "GY"))
    assert legal_texts(st, RED) == ["bid OR4", "pass"]  # the minimal bid; larger ones via multi-select
    assert refused(st, RED, "bid VI4").message == "illegal: colour VI not eligible (you own a lot there)"
    assert refused(st, RED, "bid BK4").message == "illegal: first bid needs a coloured card"


def test_e10_full_district_means_a_closure_attempt() -> None:
    lots: dict[str, LotSpec] = {
        "34E.OR": (RED, 1),
        "34E.GN": (YELLOW, 1),
        "34E.BR": (BLUE, 1),
        "34E.VI": "F",
        "34E.GY": "J",
    }
    st = _auction(4, lots, {GREEN: ["VI4"]}).state  # red, yellow, blue hold nothing: passed automatically
    au = st.auction
    assert au is not None and au.eligible == (("OR",), ("GN",), ("BR",), ("VI", "GY"))
    assert RULES.to_act(st) == {GREEN}
    step = play(st, GREEN, "bid VI4")
    new = step.state
    assert "34E" in new.closed and "green: close (automatic)" in texts(step)
    assert new.scores == (1, 1, 1, 3)  # closer: 3 buildings; others floor(3/2), floor(2/2), floor(2/2)
    assert all(new.lots[f"34E.{c}"].empty for c in ("OR", "VI", "BR", "GN", "GY"))


def test_e11_raising_must_exceed() -> None:
    lots: dict[str, LotSpec] = {"TS.GY": "F"}
    hands = {RED: ["BR4", "BR5", "BK5", "BK5"], YELLOW: ["BR6", "BR4", "BK4", "BK5", "BK6"]}
    st = play(_auction(3, lots, hands).state, RED, "bid BR4,BR5,BK5,BK5").state
    assert st.auction is not None and st.auction.high == 19 and RULES.to_act(st) == {YELLOW}
    assert refused(st, YELLOW, "bid BR4,BK4,BK5,BK6").message == "illegal: total 19 does not exceed 19"
    new = play(st, YELLOW, "bid BR4,BR6,BK4,BK6").state
    assert new.auction is not None and new.auction.high == 20


def test_e12_closure_scoring() -> None:
    lots: dict[str, LotSpec] = {
        "42W.OR": "J",
        "42W.GY": "FP",
        "42W.GN": (RED, 1),
        "42W.VI": (YELLOW, 1),
        "42W.BR": (BLUE, 2),
    }
    st = _auction(3, lots, {RED: ["GN4"]}).state
    st = play(st, RED, "bid GN4").state  # yellow and blue hold no card: passed automatically
    assert st.phase == "build" and legal_texts(st, RED) == [
        "build 0",
        "build 1",
        "build 2",
        "build 3",
        "close",
    ]
    step = play(st, RED, "close")
    assert step.state.scores == (4, 2, 3)
    assert "closure 42W by red: red +4, yellow +2, blue +3" in texts(step)
    assert step.state.closed == ("42W",)


def test_e13_asso_bid_range() -> None:
    for deck, line in (
        (["BK4", "BK4"], "asso bid BK4,BK4=8"),
        (["BK6", "BK5", "BK4", "BK6"], "asso bid BK6,BK5,BK4,BK6=21"),
        (["BK5", "BK6", "BK5"], "asso bid BK5,BK6,BK5=16"),
    ):
        step = _auction(2, {"TS.GY": "F"}, {}, black=deck + ["BK4"] * 10)
        assert line in texts(step)


def test_e14_asso_builds_on_the_best_empty_lots() -> None:
    base: dict[str, LotSpec] = {"TS.GY": "F", "TS.OR": (RED, 2)}
    step = _auction(2, {**base, "TS.VI": "J"}, {})
    assert "asso build TS.GN" in texts(step) and "asso build TS.BR" not in texts(step)
    assert step.state.lots["TS.GN"].owner == -1 and step.state.asso_supply == 17
    step = _auction(2, {**base, "TS.VI": "F"}, {})
    assert "asso build TS.BR" in texts(step) and "asso build TS.GN" in texts(step)


def test_e15_final_central_park() -> None:
    assert 3 * cp_value(["F", "F", "J"]) == 9
    assert 3 * cp_value(["F", "J", "A"]) == 15
    assert 3 * cp_value(["P", "P", "P"]) == 6
    pile = ("F", "J", "A", "P", "F", "F", "J", "A")
    st = build(row=[None] * 18 + ["F", "J"], placed=11).model_copy(
        update={"cp_pile": pile[:7], "cp_buildings": (3, 0, 0)}
    )
    new = play(st, RED, "B S19 TS.GY").state
    assert new.phase == "over" and len(new.cp_revealed) == 3
    assert new.scores[0] == 3 * cp_value(new.cp_revealed)


def test_every_example_in_the_spec_has_a_test() -> None:
    ids = sorted(set(re.findall(r"\*\*(E\d+)\b", spec_text())), key=lambda e: int(e[1:]))
    assert ids == [f"E{i}" for i in range(1, 16)]
    names = {name for name in globals() if name.startswith("test_e")}
    missing = [e for e in ids if not any(n.startswith(f"test_{e.lower()}_") for n in names)]
    assert not missing, f"no scenario test for {missing}"
