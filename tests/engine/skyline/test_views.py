"""Public and private views (§6, §9): what the board image and the DM need, and nothing secret."""

from __future__ import annotations

from engine.skyline import RULES
from engine.skyline.views import PrivateView, PublicView

from .helpers import build, play


def test_public_view_has_the_board_and_no_secrets() -> None:
    st = build(
        board={"C2": ["red1", "blue2"], "A1": ["red1"]}, hands={0: ["B01"]}, missions=("M1", "M2", "M3", "M4")
    )
    st = play(st, 0, "build 1 A6").state
    view = RULES.view(st, None)
    assert isinstance(view, PublicView) and not isinstance(view, PrivateView)
    c2 = next(s for s in view.sites if s.id == "C2")
    assert c2.orange and [(p.code, p.colour) for p in c2.stack] == [("1", "red"), ("2", "blue")]
    assert c2.top_colour == "blue"
    assert view.last_build == "A6" and next(s for s in view.sites if s.id == "A6").last_build
    red = view.players[0]
    assert red.cash == 9 and red.stock == {"1": 1, "2": 1, "4": 0, "6": 0, "PH": 0, "N": 0, "S": 0}
    assert red.hand_count == 1 and red.mission is None and red.income_preview == 1 and red.active
    dumped = view.model_dump_json()
    assert "B01" not in dumped and "M1" not in dumped


def test_hidden_variant_hides_other_players_money_and_stock() -> None:
    st = build(options=["hidden"], cash={0: 12, 1: 7})
    public = RULES.view(st, None)
    assert all(p.cash is None and p.stock is None and p.supply is None for p in public.players)  # type: ignore[attr-defined]
    mine = RULES.view(st, 1)
    assert isinstance(mine, PrivateView)
    assert mine.players[1].cash == 7 and mine.players[0].cash is None and mine.own_cash == 7
    assert mine.own_stock["1"] == 2 and mine.players[1].stock is not None


def test_private_view_shows_mission_and_claimable_cards() -> None:
    st = build(
        board={s: ["red1"] for s in ("A1", "B1", "C1")},
        hands={0: ["B01", "B03"]},
        missions=("M1", "M2", "M3", "M4"),
    )
    mine = RULES.view(st, 0)
    assert isinstance(mine, PrivateView)
    assert mine.mission is not None and mine.mission.id == "M1" and not mine.mission.complete
    assert [(c.id, c.claimable) for c in mine.hand] == [("B01", True), ("B03", False)]
    assert mine.hand[0].picture == ("###",) and "claim B01" in mine.legal
    other = RULES.view(st, 1)
    assert (
        isinstance(other, PrivateView) and other.legal == () and [c.id for c in other.hand] != ["B01", "B03"]
    )


def test_missions_are_revealed_at_the_end() -> None:
    st = build(2, missions=("M1", "M2"), phase="over")
    view = RULES.view(st, None)
    assert [p.mission for p in view.players] == ["M1", "M2"]  # type: ignore[attr-defined]
