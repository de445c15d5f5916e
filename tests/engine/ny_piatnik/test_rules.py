"""Rules details: the §4.9 messages, events, variants V1–V4, supply, deck exhaustion, scoring ties."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, NotationError, NotYourTurn, SetupError
from engine.core.rng import Rng
from engine.ny_piatnik import RULES
from engine.ny_piatnik.actions import Action
from engine.ny_piatnik.cards import COLOUR_INDEX, PARAMS
from engine.ny_piatnik.state import NyState, back_counts

from .helpers import build, owner, play, refused, supply_of, texts

FILLER = ["MAD", "38", "BWY", "42"]


def hands_for(seats: int, **special: list[str]) -> dict[int, list[str]]:
    """Every seat gets a playable filler hand; ``s0=[...]`` etc. override single seats."""
    hands = {s: list(FILLER) for s in range(seats)}
    for key, cards in special.items():
        hands[int(key[1:])] = cards
    return hands


def legal_texts(st: NyState, seat: int) -> list[str]:
    return [RULES.notation(a) for a in RULES.legal_actions(st, seat)]


# --- §4.9 messages -----------------------------------------------------------------------------


def test_not_your_turn() -> None:
    st = build(3, hands=hands_for(3, s0=["PARK", "49", "LEX", "34"]))
    with pytest.raises(NotYourTurn) as info:
        play(st, 1, "play red=MAD blue=38")
    assert info.value.message == "not your turn"
    assert RULES.legal_actions(st, 1) == []


@pytest.mark.parametrize(
    ("hand", "text", "message"),
    [
        (["PARK", "49", "LEX", "34"], "play red=BWY blue=49", "card not in your hand: BWY"),
        (
            ["PARK", "49", "LEX", "34"],
            "play red=49 blue=PARK",
            "a pair needs one red-back and one blue-back card",
        ),
        (["BWY", "BJ", "LEX", "34"], "play red=BWY blue=BJ", "at= is required when a joker is played"),
        (["PARK", "49", "LEX", "34"], "play red=PARK blue=49 colour=red", "colour= is not allowed here"),
        (["PARK", "49", "LEX", "34"], "play red=PARK blue=49 pay=2", "pay=2 does not match the price 0"),
    ],
)
def test_pair_messages(hand: list[str], text: str, message: str) -> None:
    st = build(3, hands=hands_for(3, s0=hand))
    err = refused(st, 0, text)
    assert isinstance(err, IllegalAction)
    assert err.message == message
    assert err.allowed  # the legal alternatives are listed


def test_not_enough_money_and_no_supply() -> None:
    st = build(
        3, owners={"PARK-49": "blue"}, money={0: 0}, hands=hands_for(3, s0=["PARK", "49", "LEX", "34"])
    )
    assert refused(st, 0, "play red=PARK blue=49").message == "not enough money: cost 1, you have 0"
    st = build(3, supply={"red": 0}, hands=hands_for(3, s0=["PARK", "49", "LEX", "34"]))
    assert refused(st, 0, "play red=PARK blue=49").message == "no pieces left in supply"


@pytest.mark.parametrize(
    ("hand", "owners", "text", "message"),
    [
        (["SAN-R", "49", "LEX", "34"], {}, "play red=SAN-R blue=49", "single event cards are played alone"),
        (
            ["BAU-R", "STAT-B", "LEX", "34"],
            {},
            "play red=BAU-R blue=STAT-B",
            "two event cards cannot be paired",
        ),
        (
            ["BAU-R", "49", "LEX", "34"],
            {"PARK-49": "red"},
            "play red=BAU-R blue=49 at=PARK-49",
            "Bauloewe must target an opponent's building",
        ),
        (
            ["BAU-R", "49", "LEX", "34"],
            {"PARK-49": "blue"},
            "play red=BAU-R blue=49",
            "at= is required when a joker is played",
        ),
        (
            ["STAT-R", "53", "LEX", "34"],
            {"PARK-53": "red"},
            "play red=STAT-R blue=53",
            "Statik: no opponent house leads line 53",
        ),
        (
            ["STAT-R", "BJ", "LEX", "34"],
            {"PARK-53": "blue"},
            "play red=STAT-R blue=BJ",
            "line= is required when Statik is paired with a joker",
        ),
        (
            ["STAT-B", "PARK", "LEX", "34"],
            {"PARK-53": "blue", "PARK-34": "yellow"},
            "play red=PARK blue=STAT-B",
            "victim= is required: blue and yellow tie for the lead",
        ),
        (["SPEC-R", "49", "LEX", "34"], {}, "event SPEC-R", "target= is required"),
        (
            ["SPEC-R", "49", "LEX", "34"],
            {},
            "event SPEC-R target=red",
            "Spekulation: target must be an opponent house",
        ),
        (
            ["SPEC-R", "49", "LEX", "34"],
            {f"8AV-{s}": "blue" for s in ("34", "38", "42", "45", "49", "53", "57")},
            "event SPEC-R target=blue",
            "Spekulation: target must have more than 8 buildings",
        ),
    ],
)
def test_event_messages(hand: list[str], owners: dict[str, str], text: str, message: str) -> None:
    st = build(3, options={"events"}, owners=owners, hands=hands_for(3, s0=hand))
    assert refused(st, 0, text).message == message


def test_v3_colour_messages() -> None:
    st = build(2, owners={"PARK-49": "yellow"}, hands=hands_for(2, s0=["PARK", "49", "LEX", "34"]))
    assert refused(st, 0, "play red=PARK blue=49 colour=red").message == "you cannot displace your own marker"
    assert refused(st, 0, "play red=LEX blue=34").message == "colour= is required here"
    assert legal_texts(st, 0)[:3] == [
        "play red=PARK blue=34 colour=red",
        "play red=PARK blue=34 colour=yellow",
        "play red=PARK blue=49",
    ]
    step = play(st, 0, "play red=LEX blue=34 colour=yellow")
    assert owner(step.state, "LEX-34") == "yellow"
    assert texts(step)[0] == "S1: play red=LEX blue=34 colour=yellow => claim LEX-34"


def test_statik_give_flow_and_invalid_give() -> None:
    owners = {"PARK-53": "blue", "LEX-53": "blue", "MAD-53": "yellow", "MAD-49": "blue"}
    st = build(3, options={"events"}, owners=owners, hands=hands_for(3, s0=["STAT-R", "53", "LEX", "34"]))
    step = play(st, 0, "play red=STAT-R blue=53")
    assert texts(step) == ["red: play red=STAT-R blue=53 => statik line=53 victim=blue"]
    pending = step.state
    assert RULES.to_act(pending) == {1}
    assert legal_texts(pending, 1) == ["give at=PARK-53", "give at=LEX-53"]
    assert (
        refused(pending, 1, "give at=MAD-49").message
        == "give: MAD-49 is not a valid building for this decision"
    )
    assert refused(pending, 0, "give at=PARK-53").message == "not your turn"
    view = RULES.view(pending, None)
    assert view.pending == "waiting for blue to choose a blue building on 53 to cede to red"  # type: ignore[attr-defined]
    assert view.highlight_line == "53"  # type: ignore[attr-defined]
    step = play(pending, 1, "give at=LEX-53")
    assert texts(step)[0] == "blue: give at=LEX-53 => LEX-53 to red"
    assert texts(step)[1].startswith("red: draw n=")
    done = step.state
    assert owner(done, "LEX-53") == "red" and done.active == 1 and done.pending is None
    assert RULES.view(done, None).highlight == ("LEX-53",)  # type: ignore[attr-defined]


def test_statik_single_building_is_ceded_automatically() -> None:
    owners = {"PARK-53": "blue"}
    st = build(3, options={"events"}, owners=owners, hands=hands_for(3, s0=["STAT-R", "53", "LEX", "34"]))
    step = play(st, 0, "play red=STAT-R blue=53")
    assert texts(step)[:2] == [
        "red: play red=STAT-R blue=53 => statik line=53 victim=blue",
        "blue: give at=PARK-53 => PARK-53 to red",
    ]
    assert owner(step.state, "PARK-53") == "red"


def test_statik_with_joker_and_tied_victims() -> None:
    owners = {"PARK-53": "blue", "PARK-34": "yellow", "PARK-49": "red"}
    st = build(3, options={"events"}, owners=owners, hands=hands_for(3, s0=["STAT-B", "RJ", "LEX", "34"]))
    legal = [t for t in legal_texts(st, 0) if "STAT-B" in t]
    assert legal == [
        "play red=RJ blue=STAT-B line=PARK victim=blue",
        "play red=RJ blue=STAT-B line=PARK victim=yellow",
    ]
    step = play(st, 0, "play red=RJ blue=STAT-B line=PARK victim=yellow")
    assert owner(step.state, "PARK-34") == "red"
    assert texts(step)[1] == "yellow: give at=PARK-34 => PARK-34 to red"


def test_bauloewe_takes_for_free() -> None:
    st = build(
        3, options={"events"}, owners={"PARK-49": "blue"}, hands=hands_for(3, s0=["BAU-R", "49", "LEX", "34"])
    )
    step = play(st, 0, "play red=BAU-R blue=49 at=PARK-49")
    assert texts(step)[0] == "red: play red=BAU-R blue=49 at=PARK-49 => take PARK-49 from blue"
    assert owner(step.state, "PARK-49") == "red" and step.state.money == st.money
    view = RULES.view(step.state, None)
    assert view.highlight == ("PARK-49",) and view.highlight_line == "49"  # type: ignore[attr-defined]


def test_spekulation_needs_a_decision_and_no_draw() -> None:
    owners = {
        b: "blue"
        for b in ("8AV-34", "8AV-38", "8AV-42", "8AV-45", "8AV-49", "8AV-53", "8AV-57", "LEX-34", "LEX-57")
    }
    st = build(3, options={"events"}, owners=owners, hands=hands_for(3, s0=["SPEC-R", "49", "LEX"]))
    step = play(st, 0, "event SPEC-R target=blue")
    assert texts(step) == ["red: event SPEC-R target=blue"]
    assert RULES.to_act(step.state) == {1} and len(RULES.legal_actions(step.state, 1)) == 9
    step = play(step.state, 1, "give at=LEX-57")
    assert owner(step.state, "LEX-57") == "red"
    assert step.state.hands[0] == ("LEX", "49")  # no draw-up after a single event (ruling 27)
    assert step.state.active == 1


def test_events_need_the_option() -> None:
    st = build(3, hands=hands_for(3, s0=["PARK", "49", "LEX", "34"]))
    assert refused(st, 0, "event SAN-R").message == "card not in your hand: SAN-R"


def test_refill_skips_houses_without_supply() -> None:
    owners = {"5AV-45": "blue"}
    st = build(
        3,
        options={"events"},
        owners=owners,
        supply={"blue": 0},
        hands=hands_for(3, s0=["SAN-R", "49", "LEX"]),
    )
    step = play(st, 0, "event SAN-R")
    seen = []
    state = step.state
    while state.pending is not None:
        seat = state.pending.seat
        seen.append(seat)
        state = RULES.apply(state, seat, RULES.legal_actions(state, seat)[0]).state
    # blue got its returned piece back into supply, so it places once; order red, blue, yellow, red, blue.
    assert seen == [0, 1, 2, 0]
    assert supply_of(state, "blue") == 0


def test_fill_messages_and_v3_colour() -> None:
    hands = hands_for(2, s0=["RUIN-R", "49", "LEX"])
    st = build(2, options={"events"}, hands=hands)
    step = play(st, 0, "event RUIN-R")
    state = step.state
    assert legal_texts(state, 0)[:2] == ["fill at=8AV-34 colour=red", "fill at=8AV-34 colour=yellow"]
    assert refused(state, 0, "fill at=8AV-34").message == "colour= is required here"
    assert (
        refused(state, 0, "fill at=PARK-49 colour=red").message
        == "fill: PARK-49 is not an empty corner space"
    )
    state = play(state, 0, "fill at=8AV-34 colour=yellow").state
    assert RULES.to_act(state) == {1}


# --- V2 / V3 setup -----------------------------------------------------------------------------------------


def test_v2_colour_choice_order_and_last_pick_is_automatic() -> None:
    st = RULES.setup(3, 4, frozenset({"chosen_colours"}))
    assert st.phase == "colour_choice" and RULES.to_act(st) == {0}
    assert legal_texts(st, 0) == ["colour red", "colour blue", "colour yellow"]
    st = play(st, 0, "colour yellow").state
    assert refused(st, 1, "colour yellow").message == "colour yellow is not available"
    step = play(st, 1, "colour red")
    assert texts(step) == ["S2: colour red", "S3: colour blue"]
    new = step.state
    assert new.phase == "preliminary" and new.prelim_slots == ("yellow", "red", "blue")
    assert RULES.view(new, None).status == "S1 placing yellow — 8 left"  # type: ignore[attr-defined]


def test_v3_preliminary_rotation() -> None:
    st = RULES.setup(2, 3, frozenset())
    seen = []
    for _ in range(4):
        seat = min(RULES.to_act(st))
        step = RULES.apply(st, seat, RULES.legal_actions(st, seat)[0])
        seen.append(texts(step)[0].split()[1] + " " + texts(step)[0].split()[-1])
        st = step.state
    assert seen == ["S1 (red)", "S2 (blue)", "S1 (yellow)", "S2 (green)"]


def test_v3_chosen_colours_pick_s1_s2_s1_s2() -> None:
    st = RULES.setup(2, 3, frozenset({"chosen_colours"}))
    for seat, colour in ((0, "green"), (1, "red"), (0, "blue")):
        st = play(st, seat, f"colour {colour}").state
    assert st.phase == "preliminary" and st.prelim_slots == ("green", "red", "blue", "yellow")
    assert st.controller[:4] == (1, 0, 1, 0)  # red S2, blue S1, yellow S2, green S1
    assert RULES.view(st, None).status == "S1 placing green — 6 left"  # type: ignore[attr-defined]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_colour_allocation_is_a_seeded_deal_and_red_draws_first(seats: int) -> None:
    st = RULES.setup(seats, 11, frozenset())
    while st.prelim_done < len(st.houses) * PARAMS[seats].prelim - 1:
        (seat,) = RULES.to_act(st)
        st = RULES.apply(st, seat, RULES.legal_actions(st, seat)[-1]).state
    # Ruling 6: the colour cards are shuffled with the game RNG and dealt S1, S2, … (V3: 1st/3rd to S1).
    dealt = Rng(st.rng).shuffled(st.houses)
    (seat,) = RULES.to_act(st)
    step = RULES.apply(st, seat, RULES.legal_actions(st, seat)[-1])
    new = step.state
    for j, colour in enumerate(dealt):
        assert new.controller[COLOUR_INDEX[colour]] == j % seats
    lines = texts(step)
    red = new.controller[0]
    first_draw = next(t for t in lines if t.startswith("draw "))
    assert first_draw.startswith(f"draw {'S' + str(red + 1) if seats == 2 else 'red'} n=")
    assert all(back_counts(h)[0] >= 2 and back_counts(h)[1] >= 2 for h in new.hands)


# --- V4 ----------------------------------------------------------------------------------------------------


def test_v4_exchange_and_return() -> None:
    hands = hands_for(4, s0=["PARK", "49", "RJ", "45"], s2=["LEX", "34", "BWY", "57"])
    st = build(4, options={"team"}, hands=hands)
    assert "exchange give=RJ" in legal_texts(st, 0)
    step = play(st, 0, "exchange give=RJ,45")
    assert texts(step) == ["S1: exchange n=2 backs=R,B"]
    secret = [e for e in step.events if not e.is_public]
    assert [(e.text, e.audience) for e in secret] == [("S1: exchange give=RJ,45", {0, 2})]
    pending = step.state
    assert RULES.to_act(pending) == {2}
    view = RULES.view(pending, 2)
    assert view.decision == "return 2 card(s) to red"  # type: ignore[attr-defined]
    assert view.return_count == 2 and not view.can_exchange  # type: ignore[attr-defined]
    assert RULES.view(st, 0).can_exchange  # type: ignore[attr-defined]
    assert view.partner_hand == ("PARK", "49")  # type: ignore[attr-defined]
    assert refused(pending, 2, "return give=RJ").message == "return exactly 2 card(s)"
    step = play(pending, 2, "return give=LEX,57")
    assert texts(step) == ["S3: return n=2 backs=R,B"]
    done = step.state
    assert sorted(done.hands[0]) == sorted(["PARK", "49", "LEX", "57"])
    assert refused(done, 0, "exchange give=PARK").message == "exchange already used this turn"
    assert not any(t.startswith("exchange") for t in legal_texts(done, 0))


def test_v4_no_automatic_reset_while_an_exchange_is_possible() -> None:
    hands = hands_for(4, s0=["PARK", "PARK", "49", "49"], s2=["LEX", "34", "BWY", "57"])
    st = build(4, options={"team"}, owners={"PARK-49": "blue"}, money={0: 0}, hands=hands, active=3)
    step = play(st, 3, "play red=MAD blue=38")
    new = step.state
    assert new.active == 0 and not any(t.startswith("red: reset") for t in texts(step))
    legal = legal_texts(new, 0)
    assert legal[0] == "reset" and legal[1:] == ["exchange give=PARK", "exchange give=49"]
    # After a useless exchange the reset is automatic again.
    new = play(new, 0, "exchange give=PARK").state
    step = play(new, 2, "return give=PARK")
    assert any(t.startswith("red: reset reveal=PARK,PARK,49,49") for t in texts(step))
    assert step.state.active == 1


def test_setup_errors() -> None:
    with pytest.raises(SetupError):
        RULES.setup(6, 1, frozenset())
    with pytest.raises(SetupError) as info:
        RULES.setup(3, 1, frozenset({"team"}))
    assert "team" in info.value.message
    with pytest.raises(SetupError):
        RULES.setup(3, 1, frozenset({"dirk"}))
    RULES.validate_setup(4, frozenset({"team", "events", "chosen_colours"}))
    RULES.validate_setup(2, frozenset({"events", "chosen_colours"}))


# --- deck, reset, supply, scoring ------------------------------------------------------------------------


def test_drawing_stops_when_both_piles_are_empty() -> None:
    st = build(3, hands=hands_for(3, s0=["PARK", "49", "LEX"]), deck_top=[])
    step = play(st, 0, "play red=PARK blue=49")
    # Ruling 14: the two played cards are reshuffled and drawn back, then both piles are empty.
    assert texts(step)[1:3] == ["system: reshuffle n=2", "red: draw n=2 backs=" + texts(step)[2][-3:]]
    assert step.state.hands[0] == ("PARK", "LEX", "49")
    assert step.state.deck == () and step.state.discard == ()


def test_lazy_reshuffle_uses_the_discard_pile() -> None:
    st = build(
        3, hands=hands_for(3, s0=["PARK", "49", "LEX", "34"]), deck_top=[], discard=["38", "8AV", "53"]
    )
    step = play(st, 0, "play red=PARK blue=49")
    lines = texts(step)
    assert lines[1] == "system: reshuffle n=5"
    assert lines[2].startswith("red: draw n=")
    assert step.state.stop_location == "aside"


def test_removal_is_legal_with_an_empty_supply() -> None:
    st = build(
        3, owners={"PARK-49": "red"}, supply={"red": 0}, hands=hands_for(3, s0=["PARK", "49", "LEX", "34"])
    )
    assert legal_texts(st, 0) == ["play red=PARK blue=49"]
    assert supply_of(play(st, 0, "play red=PARK blue=49").state, "red") == 1


def test_tie_breaks() -> None:
    # Ruling 17: equal totals -> the larger largest group wins, then more money, else a shared place.
    owners = {"8AV-34": "red", "8AV-38": "red", "LEX-34": "blue", "LEX-57": "blue", "5AV-45": "blue"}
    out = RULES.outcome(build(3, owners=owners, money={0: 3, 1: 3, 2: 0}, phase="over"))
    assert out is not None and out.scores == (7, 7, 0) and out.places == (1, 2, 3)
    owners = {"8AV-34": "red", "LEX-34": "blue", "LEX-57": "blue"}
    out = RULES.outcome(build(3, owners=owners, money={0: 5, 1: 4, 2: 0}, phase="over"))
    assert out is not None and out.scores == (7, 7, 0) and out.places == (1, 2, 3)
    owners = {"8AV-34": "red", "LEX-34": "blue"}
    out = RULES.outcome(build(3, owners=owners, money={0: 4, 1: 4, 2: 0}, phase="over"))
    assert out is not None and out.scores == (6, 6, 0) and out.places == (1, 1, 3)


def test_outcome_is_none_while_playing() -> None:
    assert RULES.outcome(build(3)) is None
    assert RULES.to_act(build(3, phase="over")) == frozenset()


# --- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("PLAY RED=park BLUE=49", "play red=PARK blue=49"),
        ("play park 49", "play red=PARK blue=49"),
        ("play 49 PARK", "play red=PARK blue=49"),
        ("play red=PARK blue=49 at=park-49", "play red=PARK blue=49"),
        ("play red=STAT-R blue=53 line=53", "play red=STAT-R blue=53"),
        ("play red=RJ blue=BJ at=lex-57 color=Yellow", "play red=RJ blue=BJ at=LEX-57 colour=yellow"),
        ("event spec-r target=Blue", "event SPEC-R target=blue"),
        ("place 5av-45", "place at=5AV-45"),
        ("give lex-53", "give at=LEX-53"),
        ("exchange 45,RJ", "exchange give=RJ,45"),
        ("return give=45 rj", "return give=RJ,45"),
        ("Colour Green", "colour green"),
        ("reset   # no play", "reset"),
    ],
)
def test_parse_accepts_human_forms(text: str, canonical: str) -> None:
    action = RULES.parse(text)
    assert RULES.notation(action) == canonical
    assert RULES.parse(canonical) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("dance", "unknown action: dance"),
        ("play red=PARK", "a pair play needs red= and blue="),
        ("play red=PARK blue=99", "unknown card: 99"),
        ("place at=PARK-99", "unknown building: PARK-99 (write AVENUE-STREET, e.g. PARK-49)"),
        (
            "event BAU-R",
            "BAU-R is not a single event card; single events are SAN-R SAN-B RUIN-R RUIN-B SPEC-R SPEC-B",
        ),
        ("play red=PARK blue=49 pay=x", "pay= needs a whole number, not x"),
        ("fill at=8AV-34 colour=pink", "unknown colour: pink"),
        ("play red=STAT-R blue=BJ line=99", "unknown line: 99"),
        ("give", "give needs at=BLD"),
        ("reset now", "unexpected now in reset"),
        ("play red=PARK red=LEX blue=49", "red= given twice"),
    ],
)
def test_notation_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        RULES.parse(text)
    assert info.value.message == message
    assert info.value.allowed


def test_apply_reports_wrong_kind() -> None:
    st = build(3, hands=hands_for(3, s0=["PARK", "49", "LEX", "34"]))
    assert refused(st, 0, "place at=PARK-49").message == "place is not possible now"
    assert refused(st, 0, "exchange give=PARK").message == "card exchanges exist only in the team game"
    assert refused(st, 0, "give at=PARK-49").message == "give is not possible now"
    over = st.model_copy(update={"phase": "over"})
    with pytest.raises(IllegalAction):
        RULES.apply(over, 0, Action(kind="reset"))
