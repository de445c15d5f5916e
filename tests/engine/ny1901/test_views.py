"""Public and private views (§6, §9): everything public except the deck order."""

from __future__ import annotations

from engine.ny1901 import RULES
from engine.ny1901.views import NyView
from tests.engine.ny1901.helpers import play, position


def _view(state: object, seat: int | None) -> NyView:
    view = RULES.view(state, seat)  # type: ignore[arg-type]
    assert isinstance(view, NyView)
    return view


def test_public_and_private_views_differ_only_in_legal_moves() -> None:
    st = RULES.setup(3, 4, frozenset())
    public = _view(st, None)
    mine = _view(st, st.active)
    other = _view(st, (st.active + 1) % 3)
    assert public.legal == () and other.legal == ()
    assert mine.legal and mine.legal == tuple(RULES.notation(a) for a in RULES.legal_actions(st, st.active))
    assert public.model_copy(update={"seat": st.active, "legal": mine.legal}) == mine


def test_view_shows_deck_size_not_order() -> None:
    st = RULES.setup(3, 4, frozenset())
    view = _view(st, None)
    assert view.deck_size == len(st.deck)
    dumped = view.model_dump_json()
    assert not any(card in dumped for card in st.deck)  # no card ids at all, only types
    assert len(view.market) == 4 and all(m is None or len(m) == 2 for m in view.market)


def test_view_has_board_data_and_highlight() -> None:
    st = position(owners={"G10": 1}, workers=["G10"], active=1, streets=["cedar", "wall", "broadway"])
    st = play(st, 1, "take slot=1 lot=G13").state
    st = play(st, 1, "build tile=BR1 rot=90 at=4,6").state
    view = _view(st, None)
    lot = next(lot for lot in view.lots if lot.id == "G13")
    assert lot.owner == 1 and not lot.worker and lot.cells == ((4, 6), (4, 7))
    building = next(b for b in view.buildings if b.tile == "BR1")
    assert building.cells == ((4, 6), (4, 7)) and building.tech == 1 and building.value == 2
    assert view.highlight == ((4, 6), (4, 7))
    cedar = next(s for s in view.streets if s.id == "cedar")
    assert cedar.leader == 1 and cedar.counts == (0, 1, 0)
    assert view.players[1].score == 2 and view.players[1].level == "B"
    assert view.thresholds == (6, 18) and view.legend_pool == ("LPR", "LSI", "LML", "LWO")


def test_two_player_view_marks_pink_unusable() -> None:
    view = _view(RULES.setup(2, 1, frozenset()), None)
    assert all(not lot.usable for lot in view.lots if lot.id.startswith("P"))
    assert all(lot.usable for lot in view.lots if not lot.id.startswith("P"))


def test_resample_only_reorders_the_deck() -> None:
    from engine.core.rng import Rng

    st = RULES.setup(3, 4, frozenset())
    other = RULES.resample_secrets(st, 0, Rng.from_seed(3))
    assert other != st and sorted(other.deck) == sorted(st.deck)
    assert other.model_copy(update={"deck": st.deck}) == st
