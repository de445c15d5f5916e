"""Rules beyond the worked examples: setup, turn phases, auctions, Asso, closures, errors, notation."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.errors import NotationError, NotYourTurn, SetupError
from engine.fifth_avenue import PRESENTATION, RULES
from engine.fifth_avenue.rules import destinations

from .helpers import LotSpec, build, legal_texts, play, refused, texts

RED, YELLOW, BLUE = 0, 1, 2


def test_setup_follows_section_3() -> None:
    for seats in (2, 3, 4):
        st = RULES.setup(seats, 5, frozenset())
        shops = [lot.shops for lot in st.lots.values() if lot.shops]
        assert len(shops) == 7 and all(len(s) == 1 for s in shops)
        colours = Counter(k.split(".")[1] for k, lot in st.lots.items() if lot.shops)
        assert set(colours) == {"GY", "BR", "OR", "GN", "VI"} and max(colours.values()) == 2
        assert len([t for t in st.row if t]) == 20
        assert all(len(h) == 9 and sum(c.startswith("BK") for c in h) == 4 for h in st.hands)
        assert st.reserve == (3,) * seats and st.supply == (12,) * seats
        assert len(st.black) == 50 - 4 * seats
        assert (st.asso_colour is not None) == (seats == 2)
    assert RULES.setup(2, 5, frozenset()).asso_colour in ("blue", "green")


def test_setup_errors() -> None:
    with pytest.raises(SetupError):
        RULES.validate_setup(5, frozenset())
    with pytest.raises(SetupError) as info:
        RULES.validate_setup(3, frozenset({"teams"}))
    assert "six_lots" in info.value.allowed


def test_starting_placement_needs_an_empty_lot_in_a_new_district() -> None:
    st = RULES.setup(3, 2, frozenset())
    first = legal_texts(st, 0)
    assert all(not st.lots[t.split()[1]].shops for t in first)
    st = play(st, 0, first[0]).state
    st = play(st, 2, legal_texts(st, 2)[0]).state
    st = play(st, 1, legal_texts(st, 1)[0]).state
    district = first[0].split()[1].split(".")[0]
    st = play(st, 1, legal_texts(st, 1)[0]).state
    st = play(st, 2, legal_texts(st, 2)[0]).state
    assert all(not t.split()[1].startswith(district + ".") for t in legal_texts(st, 0))


def test_action_a_then_draw_then_move() -> None:
    st = build(pawns=("START", "START"))
    st = play(st, RED, "A").state
    assert st.reserve[RED] == 6 and st.supply[RED] == 9 and st.phase == "draw"
    assert len(legal_texts(st, RED)) == 10
    st = play(st, RED, "draw or,gy").state
    assert st.hands[RED] == ("GY4", "OR4") and st.phase == "move"
    assert legal_texts(st, RED) == ["move white 34W", "move white 34E", "move beige 34W", "move beige 34E"]
    st = play(st, RED, "move beige 34E").state
    assert st.active == YELLOW and st.phase == "action"


def test_a_with_an_empty_supply_and_draws_from_one_deck_are_automatic() -> None:
    st = build().model_copy(update={"supply": (0, 12, 12), "decks": ((), ("BR4",), (), (), ())})
    step = play(st, RED, "A")
    assert step.state.reserve[RED] == 3 and step.state.hands[RED] == ("BR4",)
    assert "red: draw BR (automatic)" in texts(step) and step.state.phase == "move"


def test_c_draws_a_black_card_and_a_return_runs_the_auctions_before_phase_2() -> None:
    st = build(pawns=("CP", "START"), tokens=(("34W", "42W", "52W"), ()), black=["BK6"] + ["BK4"] * 20)
    step = play(st, RED, "C white START")
    new = step.state
    assert "BK6" in new.hands[RED]
    assert "auctions for white: 34W, 42W, 52W, CP" in texts(step)
    # nobody holds coloured cards: every auction passes automatically and the turn resumes in phase 2
    assert new.phase == "draw" and new.tokens == ((), ()) and new.auction is None


def test_leaving_a_district_leaves_a_token_but_not_from_a_closed_one() -> None:
    assert destinations("START", ["34W"]) == ["42W", "TS", "34E"]
    assert destinations("34W", ["42W", "TS"]) == ["52W", "52E"]
    st = build(pawns=("42W", "34E"), closed=("42W",), phase="move", chosen="A")
    new = play(st, RED, "move white 52W").state
    assert new.tokens == ((), ())


def test_d_needs_a_pawn_on_an_open_district() -> None:
    st = build(pawns=("TS", "START"), closed=("TS",))
    assert not [t for t in legal_texts(st, RED) if t.startswith("D")]


def test_special_scoring_thresholds() -> None:
    lots: dict[str, LotSpec] = {f"{d}.GY": (BLUE, 1) for d in ("34W", "34E", "42W", "TS")}
    st = build(row=[None] * 8 + ["F", "J"] + ["A"] * 10, placed=5, lots=lots)
    step = play(st, RED, "B S9 52E.GY")
    assert step.state.scores == (0, 0, 6) and "special#2: blue +6" in texts(step)


def test_auction_winner_builds_and_discards() -> None:
    lots: dict[str, LotSpec] = {"TS.GY": "F"}
    st = build(
        lots=lots, hands={RED: ["BR5", "BK4"]}, pawns=("CP", "START"), tokens=(("TS",), ()), phase="move"
    )
    st = play(st, RED, "move white START").state
    assert RULES.to_act(st) == {RED}
    st = play(st, RED, "bid BR5,BK4").state  # yellow and blue hold nothing and pass automatically
    assert st.phase == "build" and legal_texts(st, RED) == ["build 0", "build 1", "build 2"]
    assert st.decks[1][-1] == "BR5" and st.black[-1] == "BK4" and st.black_up[-1]
    step = play(st, RED, "build 2")
    st = step.state
    assert st.lots["TS.BR"].owner == RED and st.lots["TS.BR"].count == 2 and st.reserve[RED] == 1
    # the CP auction follows; nobody holds a card, so it ends without a winner and the turn ends
    assert "auction CP: no winner" in texts(step) and st.auction is None and st.active == YELLOW


def test_cp_colour_is_fixed_by_the_first_coloured_card() -> None:
    hands = {RED: ["GY4"], YELLOW: ["OR6", "GY5", "BK4"]}
    st = build(hands=hands, pawns=("CP", "START"), phase="move")
    st = play(st, RED, "move white START").state
    st = play(st, RED, "bid GY4").state
    assert st.auction is not None and st.auction.cp_colour == "GY"
    err = refused(st, YELLOW, "bid OR6")
    assert err.message == "illegal: colour OR does not follow the Central Park colour GY"
    st = play(st, YELLOW, "bid GY5").state
    assert RULES.to_act(st) == {RED} or st.phase == "build"


def test_pass_returns_cards_and_lone_bidder_without_a_bid_still_acts() -> None:
    hands = {RED: ["GY4", "BK5"], YELLOW: ["GY6"], BLUE: ["GY5"]}
    st = build(hands=hands, pawns=("CP", "START"), phase="move")
    st = play(st, RED, "move white START").state
    st = play(st, RED, "bid GY4").state
    st = play(st, YELLOW, "bid GY6").state
    st = play(st, BLUE, "pass").state
    assert RULES.to_act(st) == {RED}
    st = play(st, RED, "pass").state
    assert st.hands[RED] == ("GY4", "BK5") and st.phase == "build" and st.auction is not None
    assert st.auction.winner == YELLOW and legal_texts(st, YELLOW) == ["build 0", "build 1"]
    assert refused(st, YELLOW, "close").message.startswith("illegal: close is not allowed now")


def test_asso_wins_cp_when_both_players_pass_and_builds_nothing() -> None:
    st = build(2, pawns=("CP", "START"), phase="move", black=["BK5", "BK6", "BK5"] + ["BK4"] * 5)
    step = play(st, RED, "move white START")
    assert "asso bid BK5,BK6,BK5=16" in texts(step) and "auction CP: asso wins" in texts(step)
    assert step.state.black[-3:] == ("BK5", "BK6", "BK5") and not any(step.state.black_up)
    assert step.state.active == 1


def test_outbidding_asso_puts_him_out() -> None:
    hands = {RED: ["GY4", "GY6", "BK6", "BK6"], YELLOW: []}
    st = build(2, hands=hands, pawns=("CP", "START"), phase="move", black=["BK4", "BK4"] + ["BK5"] * 5)
    st = play(st, RED, "move white START").state
    st = play(st, RED, "bid GY4").state  # yellow passes automatically, asso draws 8 and leads
    assert st.auction is not None and st.auction.high == 8 and RULES.to_act(st) == {RED}
    st = play(st, RED, "bid GY6").state
    assert st.phase == "build" and st.auction is not None and st.auction.winner == RED


def test_second_closure_ends_the_game_at_once() -> None:
    lots: dict[str, LotSpec] = {
        "42W.OR": "J",
        "42W.GY": "FP",
        "42W.GN": (RED, 1),
        "42W.VI": (YELLOW, 1),
        "42W.BR": (BLUE, 2),
    }
    st = build(lots=lots, hands={RED: ["GN4"]}, pawns=("CP", "START"), tokens=(("42W",), ()), phase="move")
    st = st.model_copy(update={"closed": ("52E",)})
    st = play(st, RED, "move white START").state
    step = play(st, RED, "bid GN4")
    step = play(step.state, RED, "close")
    assert step.state.phase == "over" and step.state.end_reason == "second closure"
    assert RULES.outcome(step.state) is not None and RULES.to_act(step.state) == frozenset()


def test_black_deck_reshuffles_when_a_face_up_card_reaches_the_top() -> None:
    st = build(pawns=("START", "START")).model_copy(
        update={"black": ("BK4", "BK6"), "black_up": (False, True)}
    )
    step = play(st, RED, "C white 34W")
    assert "black deck reshuffled" in texts(step) and step.state.black_up == (False,)


def test_errors_name_the_rule() -> None:
    st = build()
    with pytest.raises(NotYourTurn):
        play(st, YELLOW, "A")
    assert refused(st, RED, "B S9 TS.GY").message == "illegal: S9 is not a tile of the active group"
    assert "Allowed" in str(refused(st, RED, "move white 34W"))
    with pytest.raises(NotationError):
        RULES.parse("bid XX9")
    with pytest.raises(NotationError):
        RULES.parse("fly away")
    with pytest.raises(NotationError):
        RULES.parse("draw GY,GY")


def test_notation_is_case_insensitive() -> None:
    for text in ("place TS.GY", "A", "B S4 42W.OR", "C white 34W", "D TS", "draw GY,OR", "draw -", "draw GY"):
        assert RULES.notation(RULES.parse(text)) == text
        assert RULES.parse(text.lower()) == RULES.parse(text.upper())
    for text in ("move beige START", "bid OR4,BK5", "pass", "build 2", "close"):
        assert RULES.notation(RULES.parse(text.upper())) == text


def test_multi_select_offers_larger_bids() -> None:
    hands = {RED: ["GY4", "GY5", "BK6", "BK6", "OR4"]}
    st = build(hands=hands, pawns=("CP", "START"), phase="move")
    st = play(st, RED, "move white START").state
    menus = PRESENTATION.multi_selects(st, RED)
    assert [m.label for m in menus] == ["bid with GY and black cards", "bid with OR and black cards"]
    gy = menus[0]
    assert gy.items == ("GY5", "BK6", "BK6", "GY4") and gy.min_items == 1 and gy.max_items == 4
    new = RULES.apply(st, RED, RULES.parse(gy.notation(range(4)))).state
    assert new.auction is not None and new.auction.high == 21
    assert PRESENTATION.multi_selects(st, YELLOW) == []


def test_six_lots_x_holds_only_shops_and_sits_between_index_4_and_0() -> None:
    lots: dict[str, LotSpec] = {"TS.X": "F", "TS.BR": (RED, 1), "TS.VI": (YELLOW, 1)}
    st = build(six=True, lots=lots, pawns=("TS", "START"))
    assert any(t.endswith(" TS.X") for t in legal_texts(st, RED) if t.startswith("B "))
    step = play(st, RED, "D TS")
    assert step.state.scores == (2, 2, 0)  # BR: X(F)+OR; VI: GN+X(F) -> one type each
    # only X empty: nothing to bid for and no closure (the district is not full)
    full: dict[str, LotSpec] = {
        "TS.BR": (RED, 1),
        "TS.OR": "J",
        "TS.GY": "J",
        "TS.GN": "A",
        "TS.VI": (YELLOW, 1),
    }
    st = build(
        six=True, lots=full, hands={BLUE: ["GY4"]}, pawns=("CP", "START"), tokens=(("TS",), ()), phase="move"
    )
    st = play(st, RED, "move white START").state
    assert st.auction is not None and st.auction.sites[st.auction.site] == "CP"  # TS passed with no bids


def test_phase_two_draws_are_public_with_values() -> None:
    st = build(phase="draw", chosen="A")
    step = play(st, RED, "draw GY,BR")
    assert "red takes GY4,BR4" in texts(step)
