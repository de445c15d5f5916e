"""Public and private views (§6, §9): what the board image and the DM need, and nothing secret."""

from __future__ import annotations

from typing import cast

from engine.ny_piatnik import RULES
from engine.ny_piatnik.views import PrivateView, PublicView

from .helpers import build, play
from .test_examples import W2_YELLOW


def test_public_view_panel() -> None:
    hands = {
        0: ["PARK", "49", "38", "MAD", "RJ"],
        1: ["LEX", "34", "BWY", "57"],
        2: ["8AV", "42", "45", "53"],
    }
    st = build(3, owners=W2_YELLOW, hands=hands, discard=["6AV", "45"])
    view = RULES.view(st, None)
    assert isinstance(view, PublicView) and not isinstance(view, PrivateView)
    assert view.banner == "MAIN" and view.phase == "main" and view.status == "red to play"
    red, blue, yellow = view.players
    assert (red.money, red.on_board, red.supply, red.hand_red, red.hand_blue) == (8, 0, 25, 3, 2)
    assert red.active and red.to_act and not blue.active
    assert (yellow.name, yellow.houses, yellow.on_board, yellow.supply) == ("yellow", ("yellow",), 8, 17)
    assert view.deck_size == len(st.deck) and view.discard_size == 2 and view.discard == ("6AV", "45")
    assert view.stop_location == "aside" and view.unowned == 41 and not view.show_specials
    assert view.board[39] == "yellow" and len(view.board) == 49
    assert "PARK" not in view.model_dump_json().replace("PARK-", "")  # no hand faces in public

    step = play(st, 0, "play red=PARK blue=49")
    view = cast(PublicView, RULES.view(step.state, None))
    assert view.last_play == ("PARK", "49") and view.highlight == ("PARK-49",)
    assert view.active_seat == 1 and view.status == "blue to play"


def test_private_view_hand_and_legal_plays() -> None:
    hands = {0: ["49", "RJ", "PARK", "38", "MAD"]}
    st = build(3, owners={**W2_YELLOW, "MAD-38": "red"}, hands=hands)
    view = RULES.view(st, 0)
    assert isinstance(view, PrivateView)
    assert view.hand == ("MAD", "PARK", "RJ", "38", "49")
    assert view.my_houses == ("red",) and view.partner is None and view.partner_hand is None
    plays = {p.notation: p.text for p in view.legal}
    assert plays["play red=PARK blue=49"] == "buy PARK-49 from yellow for 1"
    assert plays["play red=PARK blue=38"] == "buy PARK-38 from yellow for 4"
    assert plays["play red=MAD blue=38"] == "remove MAD-38"
    assert plays["play red=MAD blue=49"] == "claim MAD-49"
    assert plays["play red=RJ blue=49 at=8AV-49"] == "claim 8AV-49"
    assert view.decision is None
    # Another seat sees no faces of this hand and no legal plays of seat 0.
    other = RULES.view(st, 1)
    assert isinstance(other, PrivateView) and other.hand == () and other.legal == ()


def test_views_ignore_the_deck_order() -> None:
    st = build(3, hands={0: ["PARK", "49", "LEX", "34"]})
    shuffled = st.model_copy(update={"deck": tuple(reversed(st.deck))})
    assert RULES.view(st, None) == RULES.view(shuffled, None)
    for seat in range(3):
        assert RULES.view(st, seat) == RULES.view(shuffled, seat)


def test_team_view_shows_partner_hand_and_team() -> None:
    hands = {0: ["PARK", "49", "LEX", "34"], 2: ["MAD", "38", "BWY", "42"]}
    st = build(4, options={"team"}, hands=hands)
    view = RULES.view(st, 2)
    assert isinstance(view, PrivateView)
    assert view.partner == 0 and view.partner_hand == ("PARK", "LEX", "34", "49")
    assert [p.team for p in view.players] == [0, 1, 0, 1]
    assert RULES.observers(st, 2) == {0, 2}


def test_final_view_has_the_score_breakdown() -> None:
    st = build(
        3, owners={"8AV-34": "red", "8AV-38": "red", "LEX-57": "red"}, money={0: 2, 1: 1, 2: 0}, phase="over"
    )
    view = cast(PublicView, RULES.view(st, None))
    assert view.banner == "GAME OVER" and view.status == "game over"
    first = view.scores[0]
    assert (first.largest, first.others, first.money, first.total, first.place) == ((2,), 1, 2, 7, 1)
    assert view.result[0] == "S1 red: largest group 2×2 = 4 + others 1 + money 2 = 7 (1st)"


def test_final_phase_banner_and_stop_location() -> None:
    st = build(3, discard=["STOP", "STOP"])
    view = cast(PublicView, RULES.view(st, None))
    assert view.banner == "FINAL PHASE" and view.stop_location == "discard"
