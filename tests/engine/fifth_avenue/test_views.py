"""Views: the public board carries no hand, a seat's view adds its own cards and choices (spec §6)."""

from __future__ import annotations

from engine.core.rng import Rng
from engine.fifth_avenue import RULES
from engine.fifth_avenue.views import PrivateView, PublicView

from .helpers import build, play


def test_public_view_has_the_board_but_no_card_values() -> None:
    st = RULES.setup(3, 4, frozenset())
    view = RULES.view(st, None)
    assert isinstance(view, PublicView) and not isinstance(view, PrivateView)
    dumped = view.model_dump_json()
    assert "BK4" not in dumped and "BK5" not in dumped and "BK6" not in dumped
    assert len(view.lots) == 35 and view.to_act == "red" and view.phase == "setup"
    assert [s.hand_size for s in view.seats] == [9, 9, 9]
    assert dict(view.seats[0].hand_colours)["BK"] == 4
    assert view.black_count == 38 and len(view.row) == 20 and view.active_group == 1


def test_private_view_adds_hand_options_and_auction_help() -> None:
    hands = {0: ["GY4", "BK5"], 1: ["GY6"]}
    st = build(hands=hands, pawns=("CP", "START"), phase="move")
    st = play(play(st, 0, "move white START").state, 0, "bid GY4").state
    mine = RULES.view(st, 1)
    assert isinstance(mine, PrivateView)
    assert mine.hand == ("GY6",) and mine.options == ("bid GY6", "pass")
    assert mine.eligible == ("GY",) and mine.min_raise == 5 and mine.own_pile == ()
    public = RULES.view(st, None)
    assert isinstance(public, PublicView) and public.auction is not None
    assert public.auction.piles == (("red", ("GY4",), 4),) and public.auction.turn == "yellow"


def test_resampling_a_hand_changes_no_other_view() -> None:
    st = RULES.setup(4, 9, frozenset())
    other = RULES.resample_secrets(st, 2, Rng.from_seed(3))
    assert other != st and other.hands[2] != st.hands[2]
    assert RULES.view(other, None) == RULES.view(st, None)
    for seat in (0, 1, 3):
        assert RULES.view(other, seat) == RULES.view(st, seat)
