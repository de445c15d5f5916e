"""Public and private views (§6, §9): what the board image and the DM need, and nothing secret."""

from __future__ import annotations

from engine.ny_henn import RULES
from engine.ny_henn.views import PrivateView, PublicView

from .helpers import build


def test_public_view_has_the_board_and_no_hand_faces() -> None:
    st = build(
        hands={0: ["Y6", "Y5", "B2"], 1: ["R9"]},
        display=("B2", "G3", None, "R8"),
        cities={0: {(1, 0): "T41"}},
        reserves={0: ["T07"]},
    )
    view = RULES.view(st, None)
    assert isinstance(view, PublicView) and not isinstance(view, PrivateView)
    p1, p2, _ = view.players
    assert (p1.hand_count, p2.hand_count) == (3, 1)
    assert p1.type_counts["PK"] == 1 and [t.tile.id for t in p1.city] == ["S1", "T41"]
    assert p1.reserve[0].id == "T07" and p1.active and p1.to_act and not p2.to_act
    assert [m.tile.id for m in view.market if m.tile] == ["T09", "T41", "T22", "T47"]
    assert view.market[0].bank_name == "blue" and view.market[0].tile.price == 4  # type: ignore[union-attr]
    assert view.market[0].tile.streets == "NE"  # type: ignore[union-attr]
    assert view.display == ("B2", "G3", None, "R8")
    assert view.deck_size == len(st.deck) and view.bag_size == len(st.bag)
    assert view.dirk is None and view.scoring_done == ()
    dumped = view.model_dump_json()
    assert "Y6" not in dumped and "R9" not in dumped


def test_private_view_shows_own_hand_and_targets() -> None:
    st = build(hands={0: ["Y6", "Y5", "B2"]}, pending={0: ["T07"]}, phase="placement")
    mine = RULES.view(st, 0)
    assert isinstance(mine, PrivateView)
    assert mine.hand == ("B2", "Y5", "Y6") and mine.bank_totals == {"B": 2, "G": 0, "Y": 11, "R": 0}
    assert mine.targets[0].tile == "T07" and (1, 0) in mine.targets[0].cells
    assert "place tile=T07 reserve" in mine.legal
    other = RULES.view(st, 1)
    assert isinstance(other, PrivateView) and other.hand == () and other.legal == ()


def test_scoring_cards_left_and_dirk_panel() -> None:
    st = RULES.setup(2, 4, frozenset())
    view = RULES.view(st, None)
    assert view.scoring_cards_left == ("A", "B")  # type: ignore[attr-defined]
    assert view.dirk is not None and len(view.dirk.tiles) == 6  # type: ignore[attr-defined]


def test_views_ignore_deck_and_bag_order() -> None:
    st = build(hands={0: ["Y6"]})
    shuffled = st.model_copy(update={"deck": tuple(reversed(st.deck)), "bag": tuple(reversed(st.bag))})
    assert RULES.view(st, None) == RULES.view(shuffled, None)
    for seat in range(3):
        assert RULES.view(st, seat) == RULES.view(shuffled, seat)
