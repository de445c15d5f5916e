"""One scenario per worked example of the spec (§11), named after its id."""

from __future__ import annotations

import re
import sys

from engine.ny1901.cards import LOT_INDEX, SUPPLY_TILES, cell
from engine.ny1901.scoring import final_outcome, final_totals, street_counts, strict_leader
from engine.ny1901.state import Building, NyState, free_workers
from tests.engine.ny1901.helpers import covered, on_lot, play, position, refused, texts, tile_at
from tests.engine.ny1901.spec import spec_text

BROWN, GREEN, YELLOW, BLUE = 0, 1, 2, 3


def test_every_worked_example_has_a_test() -> None:
    ids = re.findall(r"^\*\*(W\d+) ", spec_text(), flags=re.M)
    assert ids, "no worked examples found in the spec"
    names = {n for n in dir(sys.modules[__name__]) if n.startswith("test_")}
    missing = [i for i in ids if not any(n.startswith(f"test_{i.lower()}_") for n in names)]
    assert not missing, f"worked examples without a test: {missing}"


def test_w1_building_a_two() -> None:
    st = position(
        active=GREEN,
        owners={"G10": GREEN, "G11": GREEN, "G13": GREEN},
        workers=["G10", "G11", "G13"],
        market=["Y2", "B2", "R2", "G2"],
    )
    assert free_workers(st, GREEN) == 1
    st = play(st, GREEN, "take slot=1 lot=Y07").state
    assert free_workers(st, GREEN) == 0
    step = play(st, GREEN, "build tile=BR1 rot=90 at=11,8")
    st = step.state
    assert covered(st, 11, 8) == covered(st, 11, 9) == "BR1"
    assert free_workers(st, GREEN) == 1
    assert st.scores[GREEN] == 2
    assert len(st.supply[GREEN]) == 17
    assert "build tile=BR1 rot=90 at=11,8 → +2 (2)" in texts(step)[0]


def _wall(owner: int, cells: list[tuple[int, int]]) -> Building:
    return Building(tile="BR1", owner=owner, cells=tuple(sorted(cell(x, y) for x, y in cells)))


def test_w2_control_of_wall_street() -> None:
    buildings = [
        _wall(BROWN, [(1, 14), (2, 14)]),
        _wall(BROWN, [(6, 16), (7, 16)]),
        _wall(BROWN, [(8, 16), (9, 16)]),
        _wall(BROWN, [(11, 16), (12, 16)]),
        _wall(GREEN, [(13, 14), (14, 14)]),
        _wall(YELLOW, [(4, 13), (4, 14)]),
        _wall(BLUE, [(1, 16), (2, 16)]),
        _wall(BLUE, [(3, 16), (4, 16)]),
        _wall(BLUE, [(14, 16), (14, 17)]),
    ]
    st = position(4, buildings=buildings, streets=["wall"], action_cards=dict.fromkeys(range(4), ()))
    assert street_counts(st, "wall") == [4, 1, 1, 3]
    assert strict_leader(street_counts(st, "wall")) == BROWN
    assert final_totals(st)[0] == [5, 0, 0, 0]


def test_w3_one_building_several_streets() -> None:
    st = position(
        active=GREEN,
        owners={"G10": GREEN},
        workers=["G10"],
        market=["G2", "B2", "Y2", "R2"],
        streets=["broadway", "cedar", "wall"],
        action_cards=dict.fromkeys(range(3), ()),
    )
    st = play(st, GREEN, "take slot=1 lot=G13").state
    st = play(st, GREEN, "build tile=BR1 rot=90 at=4,6").state
    assert covered(st, 4, 6) == covered(st, 4, 7) == "BR1"
    totals, _ = final_totals(st)
    assert totals[GREEN] == 2 + 5 + 5
    assert totals[BROWN] == totals[YELLOW] == 0


def test_w4_the_starting_property_counts() -> None:
    st = position(
        characters=["C-GRN", "C-BLU", "C-PNK"],
        owners={"P02": YELLOW},
        buildings=[on_lot("ST", YELLOW, "P02")],
        streets=["pine_thames"],
        action_cards=dict.fromkeys(range(3), ()),
    )
    assert final_totals(st)[0] == [0, 0, 5]


def test_w5_technology_thresholds() -> None:
    st = position(
        scores={BROWN: 5},
        owners={"Y03": BROWN, "Y11": BROWN, "Y07": BROWN, "Y10": BROWN},
        workers=["Y03", "Y11", "Y07", "Y10"],
    )
    assert (
        refused(st, BROWN, "build tile=SI1 rot=90 at=11,12").message
        == "P2: silver needs 6 points (you have 5)"
    )
    st = play(st, BROWN, "build tile=BR3 rot=90 at=11,12").state
    assert st.scores[BROWN] == 8
    st = play(st, BROWN, "boom tile=SI1 at=11,16").state  # R16: unlocked by the first build
    assert st.scores[BROWN] == 12
    rich = position(scores={BROWN: 17}, owners={"Y11": BROWN}, workers=["Y11"], market=[None] * 4, deck=[])
    assert refused(rich, BROWN, "build tile=GO1 at=11,16").message.startswith("P2: gold needs 18 points")


def test_w6_demolish_and_rebuild() -> None:
    st = position(
        4,
        active=BLUE,
        characters=["C-GRN", "C-BLU", "C-YEL", "C-RED"],
        scores={BLUE: 9},
        owners={"R01": BLUE, "R02": BLUE, "R05": BLUE},
        workers=["R05"],
        buildings=[on_lot("ST", BLUE, "R01"), on_lot("BR1", BLUE, "R02")],
        supply={BLUE: [t for t in SUPPLY_TILES if t != "BR1"]},
    )
    assert free_workers(st, BLUE) == 3
    step = play(st, BLUE, "rebuild tile=SI2 at=7,16")
    st = step.state
    assert [b.tile for b in st.buildings] == ["SI2"]
    assert free_workers(st, BLUE) == 4
    assert st.scores[BLUE] == 14
    assert "demolished ST,BR1; +5 (14)" in texts(step)[0]


def test_w7_bronze_over_bronze_is_illegal() -> None:
    st = position(
        characters=["C-GRN", "C-BLU", "C-YEL"],
        scores={BROWN: 2},
        owners={"G06": BROWN, "G05": BROWN},
        buildings=[on_lot("ST", BROWN, "G06"), on_lot("BR1", BROWN, "G05")],
        supply={BROWN: ["BR2", "BR3", "BR4", "BR5", "BR6"]},
    )
    assert refused(st, BROWN, "rebuild tile=BR5 at=3,3").message.startswith("P4: BR1 is bronze")
    st = play(st, BROWN, "rebuild tile=BR2 at=3,4").state
    assert st.scores[BROWN] == 4
    assert covered(st, 3, 4) == "BR2" and covered(st, 3, 3) == "BR1"


def test_w8_not_enough_workers() -> None:
    common = {
        "active": YELLOW,
        "scores": {YELLOW: 7},
        "buildings": [tile_at("BR5", YELLOW, 11, 13)],
    }
    full = position(
        owners={"Y03": YELLOW, "Y05": YELLOW, "Y02": YELLOW, "Y06": YELLOW, "Y07": YELLOW, "Y10": YELLOW},
        workers=["Y02", "Y06", "Y07", "Y10"],
        **common,  # type: ignore[arg-type]
    )
    err = refused(full, YELLOW, "rebuild tile=SI1 rot=90 at=11,12")
    assert err.message == "P7: 1 lot would be left empty but you have 0 free workers"
    three = position(
        owners={"Y03": YELLOW, "Y05": YELLOW, "Y02": YELLOW, "Y06": YELLOW, "Y07": YELLOW},
        workers=["Y02", "Y06", "Y07"],
        **common,  # type: ignore[arg-type]
    )
    st = play(three, YELLOW, "rebuild tile=SI1 rot=90 at=11,12").state
    assert st.scores[YELLOW] == 11
    assert st.workers[LOT_INDEX["Y05"]]
    assert free_workers(st, YELLOW) == 0


def _w9(tiles: int) -> NyState:
    return position(
        active=GREEN,
        owners={"G11": GREEN, "G13": GREEN, "G10": GREEN, "G09": GREEN},
        workers=["G11", "G13", "G10", "G09"],
        supply={GREEN: SUPPLY_TILES[:tiles]},
    )


def test_w9_construction_boom_and_the_end() -> None:
    step = play(_w9(5), GREEN, "build tile=BR1 at=2,6")
    st = step.state
    assert len(st.supply[GREEN]) == 4
    assert st.trigger == GREEN and st.end_reason == "tiles"
    assert st.active == YELLOW and st.final_left == (YELLOW, BROWN)
    assert any("END TRIGGERED" in t for t in texts(step))
    st = play(_w9(6), GREEN, "build tile=BR1 at=2,6").state
    assert st.active == GREEN and st.trigger is None
    st = play(st, GREEN, "boom tile=BR2 rot=90 at=4,6").state
    assert len(st.supply[GREEN]) == 4 and st.trigger == GREEN and st.active == YELLOW


def test_w10_land_grab_forbids_three_cell_lots() -> None:
    st = position(active=GREEN, owners={"G10": GREEN}, workers=["G10"], market=["G3", "Y2", "R2", "B2"])
    after_g3 = play(st, GREEN, "take slot=1 lot=G07").state
    assert refused(after_g3, GREEN, "grab slot=3 lot=R10").message == (
        "grab: Land Grab forbids 3-cell lots this turn"
    )
    st = play(st, GREEN, "take slot=2 lot=Y07").state
    assert (
        refused(st, GREEN, "grab slot=1 lot=G07").message == "grab: Land Grab forbids 3-cell lots this turn"
    )
    st = play(st, GREEN, "grab slot=3 lot=R10").state
    assert "A-GRAB" not in st.action_cards[GREEN]


def test_w11_end_by_the_market_and_final_round() -> None:
    st = position(4, active=0, owners={"G10": 0}, workers=["G10"], market=["G2", "B2", "Y2", "R2"], deck=[])
    st = play(st, 0, "take slot=1 lot=G13").state
    if st.active == 0:
        st = play(st, 0, "end").state
    assert st.trigger == 0 and st.end_reason == "market"
    order = []
    while not st.over:
        order.append(st.active)
        st = play(st, st.active, "pass").state
    assert order == [1, 2, 3]
    assert final_outcome(st).scores is not None


def test_w12_tie_break() -> None:
    plain = {"streets": [], "action_cards": dict.fromkeys(range(3), ())}
    st = position(scores={0: 61, 1: 61, 2: 10}, legend_of={0: "LSI", 1: "LPR"}, **plain)  # type: ignore[arg-type]
    assert final_outcome(st).places == (1, 2, 3)
    golds_a = [tile_at("GO1", 0, 1, 2 + k) for k in range(3)]
    golds_b = [tile_at("GO1", 1, 11, 2 + k) for k in range(2)]
    st = position(scores={0: 61, 1: 61, 2: 10}, buildings=golds_a + golds_b, **plain)  # type: ignore[arg-type]
    assert final_outcome(st).places == (1, 2, 3)
    golds_b.append(tile_at("GO1", 1, 11, 8))
    st = position(scores={0: 61, 1: 61, 2: 10}, buildings=golds_a + golds_b, **plain)  # type: ignore[arg-type]
    assert final_outcome(st).places == (1, 1, 3)


def test_w13_unused_action_cards() -> None:
    st = position(streets=[], action_cards={0: ("A-BOOM", "A-SHIFT"), 1: (), 2: ()})
    assert final_totals(st)[0] == [2, 0, 0]
