"""The worked examples E1–E12 of spec §11, one test each (named after the example id)."""

from __future__ import annotations

import re

from engine.core.errors import IllegalAction
from engine.ny_henn import RULES
from engine.ny_henn.city import city_error, street_value
from engine.ny_henn.rules import deal_starting_money, first_player
from engine.ny_henn.scoring import majority_points
from engine.ny_henn.state import HennState

from .helpers import build, city, legal_texts, play, refused, texts
from .spec import spec_text


def test_e1_starting_money_and_first_player() -> None:
    deck = ["Y9", "B8", "G4", "R5", "R5", "B5", "G6", "Y9", "G9", "B2", "R1", "R2"]
    hands, rest = deal_starting_money(deck, 3)
    assert hands == [["Y9", "B8", "G4"], ["R5", "R5", "B5", "G6"], ["Y9", "G9", "B2"]]
    assert rest == ["R1", "R2"]
    assert first_player(hands) == 2  # P3: as few cards as P1, lower total
    for seed in range(20):  # every real deal lies in 20..28
        state = RULES.setup(3, seed, frozenset())
        assert all(20 <= sum(int(c[1]) for c in h) <= 28 for h in state.hands)


def test_e2_taking_money() -> None:
    st = build(display=("B2", "G3", "Y6", "R8"))
    takes = [t for t in legal_texts(st, 0) if t.startswith("take")]
    assert takes == ["take B2", "take G3", "take Y6", "take R8", "take B2,G3"]
    assert "take B2,G3" in legal_texts(st, 0)
    err = refused(st, 0, "take B2,Y6")
    assert isinstance(err, IllegalAction) and err.message == "several cards total 8 > 5"
    assert refused(st, 0, "take G3,R8").message == "several cards total 11 > 5"
    step = play(st, 0, "take B2,G3")
    assert step.state.hands[0] == ("B2", "G3")


def test_e3_overpaying_ends_the_turn() -> None:
    st = build(hands={0: ["Y6", "Y5"]}, market={"Y": "T41"})
    step = play(st, 0, "buy slot=Y pay=Y6,Y5")
    new = step.state
    assert new.pending[0] == ("T41",) and new.hands[0] == ()
    assert new.phase == "placement" and not new.chain_open
    assert new.discard == ("Y6", "Y5")


def test_e4_two_exact_buys_a_swap_then_placement() -> None:
    st = build(
        hands={0: ["B4", "Y5", "Y4", "R2", "G1"]},
        cities={0: {(1, 0): "T07"}},
        reserves={0: ["T14"]},
        market={"B": "T09", "G": "T41", "Y": "T22", "R": "T47"},
        display=("B1", "G1", "Y1", "R1"),
    )
    st = play(st, 0, "buy slot=B pay=B4").state
    assert st.phase == "action" and st.chain_open and st.pending[0] == ("T09",)
    st = play(st, 0, "buy slot=Y pay=Y5,Y4").state
    assert st.phase == "action" and st.chain_open
    assert refused(st, 0, "redesign add tile=T09 at=0,-1").message == "tile T09 is pending, not in reserve"
    st = play(st, 0, "redesign swap tile=T14 at=1,0").state
    assert st.phase == "placement" and st.reserves[0] == ("T07",)
    err = refused(st, 0, "place tile=T09 at=-1,0")
    assert err.message == "edge mismatch with (0,0)"  # T09's E street faces S1's open W edge
    st = play(st, 0, "place tile=T22 at=0,1").state
    step = play(st, 0, "place tile=T09 at=0,-1")
    end = step.state
    assert city(end, 0) == {(0, 0): "S1", (1, 0): "T14", (0, 1): "T22", (0, -1): "T09"}
    assert end.reserves[0] == ("T07",) and end.hands[0] == ("G1", "R2")
    assert street_value(city(end, 0)) == 2
    refills = [t for t in texts(step) if t.startswith("refill")]
    assert refills == ["refill market.B=T01", "refill market.Y=T02"]  # display already full
    assert end.active == 1 and end.phase == "action"


E5_CITY = {(1, 0): "T41", (2, 0): "T21"}
E5_HOLE = {(1, 0): "T41", (2, 0): "T31", (0, 1): "T07", (2, 1): "T52", (0, 2): "T14"}


def test_e5_illegal_placements() -> None:
    st = build(pending={0: ["T07", "T49"]}, cities={0: E5_CITY}, phase="placement")
    assert refused(st, 0, "place tile=T07 at=3,0").message == "edge mismatch with (2,0)"
    assert refused(st, 0, "place tile=T49 at=3,0").message == "not reachable without crossing a street"
    assert refused(st, 0, "place tile=T07 at=-1,-1").message == "touches the city only at a corner"
    assert city(play(st, 0, "place tile=T07 at=1,1").state, 0)[(1, 1)] == "T07"

    st = build(pending={0: ["T23"]}, cities={0: E5_HOLE}, phase="placement")
    assert city_error(city(st, 0)) is None
    err = refused(st, 0, "place tile=T23 at=1,2")
    assert err.message == "creates an enclosed empty area at (1,1)"
    assert "place tile=T23 at=-1,2" in err.allowed
    assert city(play(st, 0, "place tile=T23 at=-1,2").state, 0)[(-1, 2)] == "T23"


E6_CITY = {
    (-1, -1): "T04",
    (0, -1): "T50",
    (1, -1): "T47",
    (-1, 0): "T35",
    (1, 0): "T19",
    (0, 1): "T41",
    (1, 1): "T39",
    (0, 2): "T02",
}


def test_e6_street_scoring() -> None:
    st = build(cities={0: E6_CITY})
    c = city(st, 0)
    assert city_error(c) is None
    assert street_value(c) == 8
    view = RULES.view(st, None)
    assert view.players[0].street == 8  # type: ignore[attr-defined]


def test_e7_scoring_a() -> None:
    assert majority_points([3, 1, 0], (4,)) == [4, 0, 0]


def test_e8_scoring_b_tie() -> None:
    assert majority_points([4, 4, 2], (13, 6)) == [9, 9, 0]


def test_e9_scoring_c_double_tie() -> None:
    assert majority_points([3, 3, 2, 2], (20, 12, 5)) == [16, 16, 2, 2]


def _trigger_scoring(st: HennState, card: str, bag_size: int) -> tuple[HennState, list[str]]:
    """Take display.1 so that upkeep draws ``card`` first; the bag holds ``bag_size`` tiles."""
    st = st.model_copy(update={"deck": (card, "B9", "B9"), "bag": st.bag[:bag_size]})
    step = play(st, 0, f"take {st.display[0]}")
    return step.state, texts(step)


def test_e10_dirks_tiles() -> None:
    st = RULES.setup(2, 7, frozenset())
    assert len(st.bag) == 44 and len(st.dirk) == 6
    base = build(2, display=("B1", "G1", "Y1", "R1"))
    after_a, log = _trigger_scoring(base, "SCORE_A", 30)
    assert len(after_a.bag) == 24 and len(after_a.dirk) == 12
    assert log[1] == "scoring A" and any(t.startswith("dirk gets ") for t in log)
    assert after_a.display[0] == "B9"  # the same space is refilled after the scoring
    assert after_a.scored == ("A",)
    after_b, _ = _trigger_scoring(base, "SCORE_B", 14)
    assert len(after_b.bag) == 10 and len(after_b.dirk) == 10
    # Dirk's tiles count for majorities; he scores no streets.
    sk = build(2, dirk=["T44", "T45"], cities={0: {(1, 0): "T52"}}, display=("B1", "G1", "Y1", "R1"))
    after, log = _trigger_scoring(sk, "SCORE_A", 30)
    assert "score dirk SK=6 total=6" in log and after.dirk_score == 6
    assert after.scores == (0, 0)


def test_e11_two_player_money() -> None:
    st = RULES.setup(2, 3, frozenset())
    cards = list(st.deck) + [c for h in st.hands for c in h] + [c for c in st.display if c is not None]
    money = [c for c in cards if not c.startswith("SCORE")]
    assert len(money) == 72
    assert all(money.count(f"{b}{v}") == 2 for b in "BGYR" for v in range(1, 10))


def test_e12_gift_to_dirk() -> None:
    st = build(2, pending={0: ["T47"]}, reserves={0: ["T07"]}, phase="placement", dirk=[])
    assert "place tile=T47 dirk" in legal_texts(st, 0)
    err = refused(st, 0, "place tile=T07 dirk")
    assert err.message == "only tiles bought this turn can be given to Dirk"
    new = play(st, 0, "place tile=T47 dirk").state
    assert new.dirk == ("T47",) and new.pending[0] == ()


def test_every_example_has_a_test() -> None:
    ids = sorted(set(re.findall(r"\*\*(E\d+) —", spec_text())), key=lambda s: int(s[1:]))
    assert ids == [f"E{i}" for i in range(1, 13)]
    names = [n for n in globals() if n.startswith("test_e")]
    for example in ids:
        assert any(n.startswith(f"test_{example.lower()}_") for n in names), example
