"""The worked examples W1–W12 of spec §11, one test each (named after the example id)."""

from __future__ import annotations

import re
import sys
from typing import cast

from engine.core.errors import IllegalAction
from engine.core.rng import bot_rng
from engine.ny_piatnik import POLICIES, RULES
from engine.ny_piatnik.cards import BUILDING_IDS, BUILDING_INDEX, STOP
from engine.ny_piatnik.state import NyState, back_counts

from .helpers import build, owner, play, refused, supply_of, texts
from .spec import spec_text


def test_w1_jokers() -> None:
    st = build(3, hands={0: ["BWY", "BJ", "PARK", "34"]})
    legal = [RULES.notation(a) for a in RULES.legal_actions(st, 0)]
    assert [t for t in legal if t.startswith("play red=BWY blue=BJ")] == [
        f"play red=BWY blue=BJ at=BWY-{s}" for s in ("34", "38", "42", "45", "49", "53", "57")
    ]
    step = play(st, 0, "play red=BWY blue=BJ at=BWY-53")
    assert owner(step.state, "BWY-53") == "red"
    assert texts(step)[0] == "red: play red=BWY blue=BJ at=BWY-53 => claim BWY-53"

    err = refused(st, 0, "play red=BWY blue=BJ at=PARK-53")
    assert isinstance(err, IllegalAction)
    assert err.message == "building PARK-53 is not on the lines named by your cards"
    assert "play red=BWY blue=BJ at=BWY-53" in err.allowed

    two = build(3, hands={0: ["RJ", "BJ", "PARK", "34"]})
    step = play(two, 0, "play red=RJ blue=BJ at=LEX-57")
    assert owner(step.state, "LEX-57") == "red"
    assert sum(1 for a in RULES.legal_actions(two, 0) if a.red == "RJ" and a.blue == "BJ") == 49


W2_YELLOW = {
    b: "yellow" for b in ("PARK-34", "PARK-38", "PARK-49", "PARK-57", "8AV-38", "BWY-38", "6AV-38", "5AV-38")
}


def test_w2_purchase_price() -> None:
    st = build(3, owners=W2_YELLOW, hands={0: ["PARK", "49", "38", "MAD"]})
    assert st.money == (8, 8, 8)
    red_supply, yellow_supply = supply_of(st, "red"), supply_of(st, "yellow")

    step = play(st, 0, "play red=PARK blue=49")
    new = step.state
    assert texts(step)[0] == "red: play red=PARK blue=49 => buy PARK-49 from yellow pay=1"
    assert (new.money[0], new.money[2]) == (7, 9)
    assert owner(new, "PARK-49") == "red"
    assert supply_of(new, "yellow") == yellow_supply + 1
    assert supply_of(new, "red") == red_supply - 1

    step = play(st, 0, "play red=PARK blue=38")
    assert (step.state.money[0], step.state.money[2]) == (4, 12)
    assert texts(step)[0] == "red: play red=PARK blue=38 => buy PARK-38 from yellow pay=4"
    # pay= is an optional assertion of the price.
    assert play(st, 0, "play red=PARK blue=38 pay=4").state == step.state
    assert refused(st, 0, "play red=PARK blue=38 pay=3").message == "pay=3 does not match the price 4"


def test_w3_own_building() -> None:
    st = build(3, owners={"MAD-38": "red"}, supply={"red": 10}, hands={0: ["MAD", "38", "BWY", "45"]})
    step = play(st, 0, "play red=MAD blue=38")
    new = step.state
    assert owner(new, "MAD-38") is None
    assert supply_of(new, "red") == 11
    assert new.money == st.money
    assert new.board.count(None) == st.board.count(None) + 1
    assert texts(step)[0] == "red: play red=MAD blue=38 => remove MAD-38"


def test_w4_no_legal_move() -> None:
    hands = {0: ["PARK", "PARK", "49", "49"], 1: ["MAD", "45", "6AV", "53"], 2: ["LEX", "34", "BWY", "57"]}
    st = build(3, owners={"PARK-49": "blue"}, money={0: 0, 1: 12, 2: 12}, hands=hands, active=2)
    assert [RULES.notation(a) for a in RULES.legal_actions(st.model_copy(update={"active": 0}), 0)] == [
        "reset"
    ]

    # Yellow plays; red then has no legal play and the engine resets red's hand by itself.
    step = play(st, 2, "play red=LEX blue=34")
    new = step.state
    lines = texts(step)
    reset = next(t for t in lines if t.startswith("red: reset"))
    assert reset.startswith("red: reset reveal=PARK,PARK,49,49 => draw n=")
    assert new.discard[-4:] == ("PARK", "PARK", "49", "49")
    red, blue = back_counts(new.hands[0])
    assert red >= 2 and blue >= 2
    assert new.active == 1  # red's turn ended; blue is next
    assert new.money == st.money
    assert owner(new, "PARK-49") == "blue"
    assert new.board.count("red") == 0

    # A reset is refused while a legal play exists.
    other = build(3, hands={0: ["PARK", "49", "LEX", "34"]})
    assert refused(other, 0, "reset").message == "a legal play exists; reset is not allowed"


W5_DECK_TOP = [
    "8AV",
    "34",
    "38",
    "RJ",
    "BJ",
    "42",
    "MAD",
    "LEX",
    "45",
    "49",
    "PARK",
    "5AV",
    "53",
    "BWY",
    "57",
    "6AV",
    "34",
    "LEX",
    "38",
    "8AV",
    "42",
    "MAD",
]


def test_w5_initial_hands() -> None:
    st = RULES.setup(4, 5, frozenset({"chosen_colours"}))
    for seat, colour in enumerate(("red", "blue", "yellow")):
        st = play(st, seat, f"colour {colour}").state
    assert st.phase == "preliminary" and st.prelim_slots == ("red", "blue", "yellow", "green")
    ply = 0
    while st.prelim_done < 23:
        seat = min(RULES.to_act(st))
        st = RULES.apply(st, seat, RULES.legal_actions(st, seat)[0]).state
        ply += 1
    rest = list(st.deck)
    for card in W5_DECK_TOP:
        rest.remove(card)
    st = st.model_copy(update={"deck": tuple(rest) + tuple(reversed(W5_DECK_TOP))})
    step = RULES.apply(st, 3, RULES.legal_actions(st, 3)[0])
    new = step.state
    assert new.phase == "main" and new.active == 0
    hands = {seat: sorted(new.hands[seat]) for seat in range(4)}
    assert hands[0] == sorted(["8AV", "BJ", "45", "53", "34", "8AV"])
    assert hands[1] == sorted(["34", "42", "49", "BWY", "LEX"])
    assert hands[2] == sorted(["38", "MAD", "PARK", "57"])
    assert hands[3] == sorted(["RJ", "LEX", "5AV", "6AV", "38", "42"])
    assert len(st.deck) - len(new.deck) == 21
    assert new.deck[-1] == "MAD"
    lines = texts(step)
    assert "draw red n=6 backs=R,B,B,B,B,R" in lines
    assert "draw green n=6 backs=R,R,R,R,B,B" in lines
    assert "colours S1=red S2=blue S3=yellow S4=green" in lines
    private = [e for e in step.events if not e.is_public]
    assert any(e.text == "draw red cards=8AV,BJ,45,53,34,8AV" and e.audience == {0} for e in private)


def _prelim_state(owners: dict[str, str], done: int) -> NyState:
    st = RULES.setup(3, 1, frozenset())
    board = list(st.board)
    for bid, colour in owners.items():
        board[BUILDING_INDEX[bid]] = colour
    return st.model_copy(update={"board": tuple(board), "prelim_done": done})


def test_w6_preliminary_adjacency() -> None:
    st = _prelim_state({"6AV-45": "red", "5AV-53": "blue", "MAD-49": "yellow"}, done=3)
    assert RULES.to_act(st) == {0}
    assert refused(st, 0, "place at=5AV-45").message == "5AV-45 is next to your own colour"
    assert refused(st, 0, "place at=6AV-45").message == "building 6AV-45 is occupied"
    step = play(st, 0, "place at=5AV-49")  # diagonal to 6AV-45, touching blue and yellow
    assert owner(step.state, "5AV-49") == "red"
    assert texts(step) == ["prelim S1 place at=5AV-49 (red)"]
    assert RULES.view(step.state, None).status == "S2 placing blue — 7 left"  # type: ignore[attr-defined]


def test_w6_blocked_placement_may_go_anywhere() -> None:
    # Ruling 5: every empty space touches red, so any empty space is allowed.
    reds = {
        f"{a}-{s}": "red"
        for a in ("8AV", "6AV", "MAD", "LEX")
        for s in ("34", "38", "42", "45", "49", "53", "57")
    }
    fill = {f"{a}-{s}": "blue" for a in ("BWY", "5AV", "PARK") for s in ("34", "38", "42", "45", "49", "53")}
    st = _prelim_state({**reds, **fill}, done=0)
    legal = [RULES.notation(a) for a in RULES.legal_actions(st, 0)]
    assert legal == ["place at=BWY-57", "place at=5AV-57", "place at=PARK-57"]


def test_w7_final_phase_and_end() -> None:
    empty = ["LEX-53", "LEX-57", "PARK-57", "MAD-57", "5AV-57"]
    colours = ["red", "blue", "yellow", "green"]
    owned = [b for b in BUILDING_IDS if b not in empty]
    owners = {bid: colours[i % 4] for i, bid in enumerate(owned)}
    st = build(
        4,
        owners=owners,
        supply={c: 10 for c in colours},
        hands={
            0: ["LEX", "57", "8AV", "PARK", "53"],
            1: ["BWY", "38", "RJ", "45"],
            2: ["5AV", "34", "6AV", "42"],
            3: ["MAD", "49", "LEX", "53"],
        },
        deck_top=["34", "BWY", "49", "PARK", "45", "6AV"],
    )
    assert st.stop_location == "aside" and st.board.count(None) == 5
    step = play(st, 0, "play red=LEX blue=57")
    new = step.state
    lines = texts(step)
    assert lines[:2] == [
        "red: play red=LEX blue=57 => claim LEX-57",
        "system: stop-cards -> discard (unowned=4)",
    ]
    assert new.discard == ("LEX", "57", STOP, STOP)
    assert new.stop_location == "discard" and new.final_phase
    # Red draws up from the existing deck: the top card 34 completes the hand.
    assert lines[2] == "red: draw n=1 backs=B"
    assert new.hands[0] == ("8AV", "PARK", "34", "53")
    assert STOP not in new.hands[0] and len(new.deck) == 5

    # Play on with an empty deck: the next draw reshuffles the discard pile with both Stop cards.
    state = new.model_copy(update={"deck": ()})
    ply, reshuffled, policy = 0, False, POLICIES["random"]
    while RULES.outcome(state) is None:
        seat = min(RULES.to_act(state))
        legal = RULES.legal_actions(state, seat)
        step = RULES.apply(state, seat, policy.choose(RULES, state, seat, legal, bot_rng(7, ply)))
        lines = texts(step)
        if "system: reshuffle n=" in " ".join(lines) and not reshuffled:
            reshuffled = True
            assert step.state.stop_location == "deck" or step.state.phase == "over"
        state, ply = step.state, ply + 1
    assert reshuffled
    end = [t for t in lines if t.startswith("system: end stop drawn by ")]
    assert end == [
        f"system: end stop drawn by {['red', 'blue', 'yellow', 'green'][cast(int, state.ended_by)]}"
    ]
    assert lines[-2:] == [end[0], lines[-1]] and lines[-1].startswith("system: score ")
    assert RULES.to_act(state) == frozenset()
    assert STOP not in [c for h in state.hands for c in h]


W8_GROUP = ("8AV-34", "8AV-38", "8AV-42", "BWY-42", "BWY-45", "6AV-45", "6AV-49", "5AV-49")
W8_OTHERS = ("LEX-34", "LEX-38", "PARK-57", "8AV-57", "MAD-34")


def test_w8_final_scoring() -> None:
    st = build(3, owners={b: "red" for b in W8_GROUP + W8_OTHERS}, money={0: 10, 1: 7, 2: 7}, phase="over")
    out = RULES.outcome(st)
    assert out is not None
    assert out.scores[0] == 8 * 2 + 5 * 1 + 10 == 31
    assert out.places[0] == 1
    assert "S1 red: largest group 8×2 = 16 + others 5 + money 10 = 31 (1st)" in out.details


def _ruin_state(seats: int, player: int) -> NyState:
    owners = {"8AV-34": "red", "8AV-57": "yellow", "LEX-57": "blue"}
    hands = {s: ["MAD", "38", "BWY", "42"] for s in range(seats)} | {player: ["RUIN-B", "PARK", "49"]}
    return build(seats, options={"events"}, owners=owners, hands=hands, active=player)


def _fill_all(st: NyState, seats_seen: list[int]) -> NyState:
    while st.pending is not None and st.pending.kind == "fill":
        seat = st.pending.seat
        seats_seen.append(seat)
        st = RULES.apply(st, seat, RULES.legal_actions(st, seat)[0]).state
    return st


def test_w9_ruin() -> None:
    st = _ruin_state(3, 1)
    before = {c: supply_of(st, c) for c in ("red", "blue", "yellow")}
    step = play(st, 1, "event RUIN-B")
    assert texts(step)[0] == "blue: event RUIN-B => corners cleared (returned: red 1, blue 1, yellow 1)"
    new = step.state
    assert {c: supply_of(new, c) for c in before} == {c: n + 1 for c, n in before.items()}
    assert all(owner(new, b) is None for b in ("8AV-34", "8AV-57", "LEX-34", "LEX-57"))
    order: list[int] = []
    end = _fill_all(new, order)
    # Blue, yellow, red decide; blue's second (last) placement has a single option and is automatic.
    assert order == [1, 2, 0]
    assert sorted(cast(str, end.board[i]) for i in (0, 6, 42, 48)) == ["blue", "blue", "red", "yellow"]
    assert end.hands[1] == ("PARK", "49")  # no draw after a single event
    assert end.active == 2 and end.pending is None

    five = _ruin_state(5, 3)
    order = []
    end = _fill_all(play(five, 3, "event RUIN-B").state, order)
    assert order == [3, 4, 0]  # S4, S5, S1 decide; S2's last fill is automatic; S3 places none
    assert sorted(cast(str, c) for c in (end.board[i] for i in (0, 6, 42, 48))) == sorted(
        ["green", "black", "red", "blue"]
    )


def test_w10_sanierung() -> None:
    owners = {"6AV-45": "red", "5AV-45": "blue", "MAD-45": "green"}
    hands = {s: ["MAD", "38", "BWY", "42"] for s in range(4)} | {2: ["SAN-R", "PARK", "49"]}
    st = build(4, options={"events"}, owners=owners, hands=hands, active=2)
    step = play(st, 2, "event SAN-R")
    assert texts(step)[0] == "yellow: event SAN-R => inner city cleared (returned: red 1, blue 1, green 1)"
    order: list[int] = []
    end = _fill_all(step.state, order)
    assert order == [2, 3, 0, 1]  # S3, S4, S1, S2 decide; S3's second placement is automatic
    inner = [end.board[BUILDING_INDEX[b]] for b in ("6AV-45", "5AV-42", "5AV-45", "5AV-49", "MAD-45")]
    assert sorted(cast("list[str]", inner)) == sorted(["yellow", "yellow", "green", "red", "blue"])
    assert end.active == 3


def test_w11_two_player_scoring() -> None:
    red_group = [f"8AV-{s}" for s in ("34", "38", "42", "45", "49", "53", "57")] + ["BWY-34", "BWY-38"]
    yellow_group = ["LEX-34", "LEX-38", "LEX-42", "LEX-45", "LEX-49"]
    outside = {"5AV-57": "red", "MAD-57": "red", "6AV-34": "yellow", "PARK-57": "yellow"}
    owners = {**{b: "red" for b in red_group}, **{b: "yellow" for b in yellow_group}, **outside}
    st = build(2, owners=owners, money={0: 7, 1: 17}, phase="over")
    out = RULES.outcome(st)
    assert out is not None
    assert out.scores[0] == 9 + 5 + 7 == 21
    assert "S1 red+yellow: red group 9 + yellow group 5 + money 7 = 21 (1st)" in out.details


def test_w12_team_purchase() -> None:
    owners = {"PARK-49": "yellow", "PARK-53": "yellow", "MAD-49": "yellow", "5AV-49": "yellow"}
    st = build(4, options={"team"}, owners=owners, hands={0: ["PARK", "49", "LEX", "34"]})
    step = play(st, 0, "play red=PARK blue=49")
    new = step.state
    assert texts(step)[0] == "red: play red=PARK blue=49 => buy PARK-49 from yellow pay=2"
    assert (new.money[0], new.money[2]) == (4, 8)
    assert owner(new, "PARK-49") == "red"
    out = RULES.outcome(new.model_copy(update={"phase": "over"}))
    assert out is not None
    red, _blue, yellow, _green = out.scores
    team = next(line for line in out.details if line.startswith("team S1+S3 (red+yellow): "))
    assert f"{red} + {yellow} = {red + yellow} (" in team
    assert out.places[0] == out.places[2] and out.places[1] == out.places[3]


def test_every_worked_example_has_a_test() -> None:
    ids = sorted({int(n) for n in re.findall(r"\*\*W(\d+) —", spec_text())})
    assert ids == list(range(1, 13))
    names = [n for n in dir(sys.modules[__name__]) if n.startswith("test_w")]
    for n in ids:
        assert any(name.startswith(f"test_w{n}_") for name in names), f"no test for W{n}"
