"""Rules beyond the worked examples: the action chain, pass, redesigns, upkeep, game end (§4-§5)."""

from __future__ import annotations

import pytest

from engine.core.bots import RandomPolicy
from engine.core.errors import IllegalAction, NotationError
from engine.core.rng import Rng
from engine.ny_henn import RULES
from engine.ny_henn.cards import SCORE_A, SCORE_B

from .helpers import build, city, legal_texts, play, refused, texts


def test_payment_errors_name_the_rule() -> None:
    st = build(hands={0: ["Y4", "G9", "R2", "R3"]}, market={"Y": "T22", "R": "T47"})
    assert refused(st, 0, "buy slot=Y pay=G9").message == "payment must use bank Y only"
    assert refused(st, 0, "buy slot=Y pay=Y4").message == "payment 4 < price 9"
    assert refused(st, 0, "buy slot=R pay=R9").message == "you do not hold R9"
    err = refused(st, 0, "take B9")
    assert isinstance(err, IllegalAction) and err.message == "B9 is not on the display"
    assert "take B1" in err.allowed


def test_spare_card_ends_the_chain_ruling_6() -> None:
    st = build(hands={0: ["Y5", "Y4"]}, market={"Y": "T10"})  # Theatre, price 5
    assert "buy slot=Y pay=Y5" in legal_texts(st, 0)
    assert "buy slot=Y pay=Y5,Y4" not in legal_texts(st, 0)  # not minimal, but still accepted:
    new = play(st, 0, "buy slot=Y pay=Y5,Y4").state
    assert new.phase == "placement" and not new.chain_open
    exact = play(st, 0, "buy slot=Y pay=Y5").state
    assert exact.phase == "action" and exact.chain_open


def test_payment_list_exact_first() -> None:
    st = build(hands={0: ["Y5", "Y4", "Y3", "Y2"]}, market={"Y": "T22"})  # price 9
    buys = [t for t in legal_texts(st, 0) if t.startswith("buy slot=Y")]
    assert buys[:2] == ["buy slot=Y pay=Y5,Y4", "buy slot=Y pay=Y4,Y3,Y2"]
    assert set(buys[2:]) == {"buy slot=Y pay=Y5,Y3,Y2"}


def test_pass_only_when_nothing_else() -> None:
    st = build(hands={0: ["B1"]}, display=(None, None, None, None), deck_top=())
    assert legal_texts(st, 0) == ["pass"]
    step = play(st, 0, "pass")
    assert step.state.active == 1
    rich = build(hands={0: ["B9"]}, display=(None, None, None, None))
    msg = refused(rich, 0, "pass").message
    assert msg == "pass is allowed only when you can neither take money nor buy (§4.5)"


def test_exact_buy_then_pass_when_stuck() -> None:
    st = build(hands={0: ["B4"]}, market={"B": "T09"}, display=(None, None, None, None), deck_top=())
    st = play(st, 0, "buy slot=B pay=B4").state
    assert st.chain_open and legal_texts(st, 0)[-1] == "pass"
    st = play(st, 0, "pass").state
    assert st.phase == "placement"


def test_redesign_remove_and_its_limits() -> None:
    st = build(cities={0: {(1, 0): "T41", (0, 1): "T07", (1, 1): "T14"}})
    assert (
        refused(st, 0, "redesign remove at=0,0").message == "the start tile can never be removed or exchanged"
    )
    assert refused(st, 0, "redesign remove at=5,5").message == "no tile at (5,5)"
    new = play(st, 0, "redesign remove at=1,1").state
    assert new.reserves[0] == ("T14",) and (1, 1) not in city(new, 0)
    assert new.active == 1  # a redesign ends the chain
    ring = {
        (1, 0): "T41",
        (2, 0): "T31",
        (0, 1): "T07",
        (2, 1): "T52",
        (0, 2): "T14",
        (1, 2): "T23",
        (2, 2): "T22",
    }
    closed = build(cities={0: {**ring, (1, 1): "T42"}})
    assert refused(closed, 0, "redesign remove at=1,1").message == "creates an enclosed empty area at (1,1)"
    chain = build(cities={0: {(1, 0): "T41", (2, 0): "T42"}})
    assert refused(chain, 0, "redesign remove at=1,0").message == "not reachable without crossing a street"


def test_redesign_add_needs_a_reserve_tile() -> None:
    st = build(reserves={0: ["T07"]})
    assert refused(st, 0, "redesign add tile=T14 at=1,0").message == "tile T14 is not in your reserve"
    assert "redesign add tile=T07 at=1,0" in legal_texts(st, 0)
    new = play(st, 0, "redesign add tile=T07 at=1,0").state
    assert city(new, 0)[(1, 0)] == "T07" and new.reserves[0] == ()


def test_place_only_in_placement() -> None:
    st = build(pending={0: ["T07"]}, phase="placement")
    assert refused(st, 0, "take B1").message == "only place is possible in the placement step"
    assert "place tile=T07 reserve" in legal_texts(st, 0)
    assert "place tile=T07 dirk" not in legal_texts(st, 0)  # 3 players: no Dirk
    assert refused(st, 0, "place tile=T07 dirk").message == "Dirk takes part only in the 2-player game"
    action = build(hands={0: ["B1"]})
    assert refused(action, 0, "place tile=T07 reserve").message.startswith("place comes after your actions")


def test_scoring_card_is_resolved_during_refill() -> None:
    cities = {0: {(1, 0): "T52"}, 1: {(1, 0): "T53", (2, 0): "T42"}}
    st = build(cities=cities, display=("B1", "G1", "Y1", "R1"))
    st = st.model_copy(update={"deck": (SCORE_B, "B9", SCORE_A, "G9")})
    step = play(st, 0, "take B1,G1")
    log = texts(step)
    assert log.index("scoring B") < log.index("refill display.1=B9") < log.index("scoring A")
    assert step.state.display[:2] == ("B9", "G9")
    # B: SK tie P1/P2 share 13+6 -> 9 each; PK P2 alone -> 12. A: SK tie -> 6 // 2 = 3; PK 5.
    assert step.state.scores == (9 + 3, 9 + 12 + 3 + 5, 0)
    assert step.state.scored == ("B", "A")


def test_money_exhaustion_leaves_spaces_empty() -> None:
    st = build(display=("B1", "G1", "Y1", "R1"), deck_top=())
    st = st.model_copy(update={"discard": ("R7",)})
    step = play(st, 0, "take B1,G1")
    assert "reshuffle discard n=1" in texts(step)
    assert step.state.display == ("R7", None, "Y1", "R1")


def test_empty_bag_with_full_market_continues_ruling_12() -> None:
    st = build(hands={0: ["B4"]}, market={"B": "T09"}, bag=["T01"])
    st = play(st, 0, "buy slot=B pay=B4").state
    st = play(st, 0, "take B1").state
    new = play(st, 0, "place tile=T09 reserve").state
    assert new.bag == () and new.market[0] == "T01" and new.phase == "action"


def test_game_end_award_and_final_placement() -> None:
    hands = {0: ["B4", "G5", "Y3"], 1: ["G5", "Y9", "R2"], 2: ["R1"]}
    st = build(hands=hands, market={"B": "T09", "G": "T41", "Y": "T22", "R": "T47"}, bag=[])
    st = play(st, 0, "buy slot=B pay=B4").state
    st = play(st, 0, "take B1").state
    step = play(st, 0, "place tile=T09 at=0,-1")
    log = texts(step)
    assert log[-7:] == [
        "gameend",
        "reveal P1 B:1 G:5 Y:3 R:0",
        "reveal P2 B:0 G:5 Y:9 R:2",
        "reveal P3 B:0 G:0 Y:0 R:1",
        "award slot=G none",
        "award slot=Y P2 T22",
        "award slot=R P2 T47",
    ]
    st = step.state
    assert st.phase == "final" and RULES.to_act(st) == {1}
    assert "place tile=T22 dirk" not in legal_texts(st, 1)
    st = play(st, 1, "place tile=T22 at=1,0").state
    step = play(st, 1, "place tile=T47 reserve")
    end = step.state
    assert end.phase == "over" and end.scored == ("C",)
    outcome = RULES.outcome(end)
    assert outcome is not None
    # C: P1 theatre 17 + street 2 (T09's N and E edges); P2 station 18; reserve tiles never score.
    assert outcome.scores == (19, 18, 0) and outcome.places == (1, 2, 3)
    assert texts(step)[-1] == "winner P1"


def test_notation_errors() -> None:
    for text, start in [
        ("", "empty action"),
        ("fly away", "unknown action"),
        ("take", "take lists the cards"),
        ("take Q9", "unknown money card"),
        ("buy slot=Q pay=B1", "unknown slot"),
        ("buy slot=B", "buy needs slot= and pay="),
        ("place tile=T99 reserve", "unknown tile"),
        ("place tile=T01 at=a,b", "a cell is written"),
        ("place tile=T01", "place needs exactly one of"),
        ("redesign move at=1,0", "redesign needs add"),
        ("redesign add at=1,0", "redesign add needs tile="),
    ]:
        with pytest.raises(NotationError) as info:
            RULES.parse(text)
        assert info.value.message.startswith(start), text
    assert RULES.notation(RULES.parse("BUY SLOT=y PAY=y4,Y5")) == "buy slot=Y pay=Y5,Y4"


def test_advance_is_apply_without_the_log() -> None:
    # Whole random matches (2 and 3 seats: scoring rounds, Dirk, the game end and final placements).
    rand = RandomPolicy()
    kinds = set()
    for seats, seed in ((3, 41), (2, 42)):
        state = RULES.setup(seats, seed, frozenset())
        ply = 0
        while RULES.outcome(state) is None:
            seat = min(RULES.to_act(state))
            action = rand.choose(RULES, state, seat, RULES.legal_actions(state, seat), Rng.from_seed(ply))
            kinds.add(action.kind)
            step = RULES.apply(state, seat, action).state
            assert RULES.advance(state, seat, action) == step.model_copy(
                update={"last_move": state.last_move, "changed": state.changed}
            )
            state, ply = step, ply + 1
        assert "C" in state.scored
    assert {"take", "buy", "place"} <= kinds
    with pytest.raises(IllegalAction):
        RULES.advance(state, 0, RULES.parse("pass"))
