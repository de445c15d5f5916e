"""Rules beyond the worked examples: setup, variants, action cards, give-back, challenges, errors."""

from __future__ import annotations

import pytest

from engine.core.errors import NotationError, NotYourTurn, SetupError
from engine.ny1901 import RULES
from engine.ny1901.actions import act
from engine.ny1901.cards import CHARACTER_BY_ID, LOT_INDEX, SUPPLY_TILES, card_type
from engine.ny1901.scoring import challenge_points
from engine.ny1901.state import free_workers, unlocked
from tests.engine.ny1901.helpers import on_lot, play, position, refused, tile_at
from tests.engine.ny1901.spec import spec_text


@pytest.mark.parametrize(("seats", "deck"), [(2, 46), (3, 58), (4, 57)])
def test_setup_counts(seats: int, deck: int) -> None:
    st = RULES.setup(seats, 7, frozenset())
    assert len(st.deck) == deck and all(c is not None for c in st.market)
    assert len(st.streets) == 3 and st.challenge is not None
    for s in range(seats):
        lot = CHARACTER_BY_ID[st.characters[s]].start_lot
        assert st.lot_owner[LOT_INDEX[lot]] == s
        assert any(b.tile == "ST" and b.owner == s for b in st.buildings)
        assert free_workers(st, s) == 4
        assert [card_type(c) for c in st.piles[s]] == [f"{lot[0]}2"]


def test_two_players_leave_pink_out() -> None:
    for seed in range(10):
        st = RULES.setup(2, seed, frozenset())
        assert "C-PNK" not in st.characters
        assert not any(c.startswith("P") for c in (*st.deck, *st.market) if c)


def test_intro_has_no_challenge() -> None:
    st = RULES.setup(3, 5, frozenset({"intro"}))
    assert st.challenge is None
    assert RULES.view(st, None).challenge is None  # type: ignore[attr-defined]


def test_expert_setup_and_thresholds() -> None:
    st = RULES.setup(3, 5, frozenset({"expert", "intro"}))
    assert st.buildings == () and st.challenge is None
    for s in range(3):
        lot = LOT_INDEX[CHARACTER_BY_ID[st.characters[s]].start_lot]
        assert st.workers[lot] and st.lot_owner[lot] == s
        assert free_workers(st, s) == 3
    ex = position(
        options=["expert"], scores={0: 9}, owners={"Y11": 0}, workers=["Y11"], market=[None] * 4, deck=[]
    )
    assert unlocked(ex, 0) == 1
    assert refused(ex, 0, "build tile=SI1 at=11,16").message == "P2: silver needs 10 points (you have 9)"
    ex = ex.model_copy(update={"scores": (24, 0, 0)})
    assert unlocked(ex, 0) == 2
    assert refused(ex, 0, "build tile=GO4 at=11,16").message.startswith("P2: gold needs 25 points")


def test_setup_errors() -> None:
    with pytest.raises(SetupError):
        RULES.setup(5, 1, frozenset())
    with pytest.raises(SetupError) as info:
        RULES.validate_setup(3, frozenset({"teams"}))
    assert "intro" in info.value.allowed


def test_market_shift() -> None:
    st = position(deck=["R3", "R3", "P3", "P2", "B3"], market=["G2", "B2", "Y2", "R2"])
    assert RULES.legal_actions(st, 0)[0] == act("shift")
    after = play(st, 0, "shift").state
    assert [card_type(c) for c in after.market if c] == ["R3", "R3", "P3", "P2"]
    assert len(after.deck) == 5 and card_type(after.deck[0]) == "B3"
    assert "A-SHIFT" not in after.action_cards[0] and after.active == 0
    assert refused(after, 0, "shift").message.startswith("shift: Market Shift may only be the very first")
    short = position(deck=["R3", "R3", "P3"])
    assert refused(short, 0, "shift").message.startswith("shift: Market Shift needs 4 cards in the deck")


def test_forced_giveback() -> None:
    # G12, B08, Y08 and R05 face nothing (§2.3), so nothing can be built there (P5).
    lots = ["G12", "B08", "Y08", "R05"]
    st = position(owners=dict.fromkeys(lots, 0), workers=lots)
    st = st.model_copy(update={"piles": (("G2#1", "B2#1", "Y2#1", "R2#1"), (), ())})
    legal = [RULES.notation(a) for a in RULES.legal_actions(st, 0)]
    assert legal == ["shift", "giveback lot=G12", "giveback lot=B08", "giveback lot=Y08", "giveback lot=R05"]
    assert refused(st, 0, "build tile=BR1 rot=90 at=8,2").message.startswith("§4.4")
    deck = len(st.deck)
    after = play(st, 0, "giveback lot=B08").state
    assert after.lot_owner[LOT_INDEX["B08"]] == -1 and free_workers(after, 0) == 1
    assert after.deck[-1] == "B2#1" and len(after.deck) == deck + 1  # R21: under the deck
    assert after.active == 1


def test_take_rules_and_build_only() -> None:
    st = position(owners={"G10": 0}, workers=["G10"], market=["G2", "B2", "Y2", "R2"])
    assert refused(st, 0, "build tile=BR1 rot=90 at=1,6").message.startswith("build: with a free worker")
    assert refused(st, 0, "take slot=1 lot=B01").message.startswith("take: slot 1 holds a G2 card")
    assert refused(st, 0, "take slot=1 lot=G10").message == "take: G10 is already owned"
    assert refused(st, 0, "end").message == "end: choose your main action first"
    assert refused(st, 0, "pass").message == "R12: you may not pass outside the final round"
    assert refused(st, 0, "boom tile=BR1 rot=90 at=1,6").message.startswith("boom: Construction Boom needs")
    st = play(st, 0, "take slot=1 lot=G11").state
    assert refused(st, 0, "take slot=2 lot=B01").message.startswith("take: land is acquired only")
    st = play(st, 0, "build tile=BR1 rot=90 at=1,6").state
    assert refused(st, 0, "build tile=BR2 at=2,6").message.startswith("build: only one build per turn")
    assert refused(st, 0, "rebuild tile=SI1 at=2,6").message.startswith("rebuild: option 2 must be")


def test_legendary_rules() -> None:
    st = position(scores={0: 20, 1: 20}, owners={"Y11": 0, "Y13": 0}, workers=["Y11", "Y13"])
    st = st.model_copy(update={"market": (None,) * 4, "deck": ()})
    supply = len(st.supply[0])
    after = play(st, 0, "build tile=LPR at=13,16").state
    assert after.legend_of[0] == "LPR" and "LPR" not in after.legend_pool
    assert len(after.supply[0]) == supply  # legendary builds never move toward the end (§2.10)
    again = after.model_copy(update={"active": 0, "turn": st.turn})
    assert refused(again, 0, "build tile=LSI at=11,16").message == (
        "P1: each player may build only one legendary skyscraper"
    )
    assert refused(again, 0, "rebuild tile=GO1 at=11,16").message.startswith("P4: LPR is gold")


def _prestige(neighbour: object) -> int:
    st = position(
        scores={0: 20},
        owners={"Y11": 0, "Y13": 0, "Y12": 1, "R13": 1},
        workers=["Y11", "Y13"],
        buildings=[neighbour],  # type: ignore[list-item]
        challenge="X-PRESTIGE",
        market=[None] * 4,
        deck=[],
    )
    step = play(st, 0, "build tile=GO1 at=11,16")  # covers 11..14,16 on Y11 and Y13
    return step.state.scores[0]


def test_prestige_bonus() -> None:
    assert _prestige(on_lot("BR1", 1, "Y12")) == 20 + 6 + 1  # R20: touches an opponent bronze
    assert _prestige(on_lot("BR1", 1, "R13")) == 20 + 6  # not touching
    assert _prestige(on_lot("ST", 1, "Y12")) == 20 + 6  # ST is not bronze


def test_challenge_cards() -> None:
    bronze = [tile_at("BR1", 0, 1, y) for y in (2, 3, 4)] + [tile_at("BR1", 0, 11, y) for y in (2, 3)]
    st = position(buildings=bronze, challenge="X-BRONZE")
    assert challenge_points(st) == [10, 0, 0]
    arch = [tile_at("BR4", 0, 1, 2), tile_at("SI4", 0, 11, 2), tile_at("LSI", 0, 11, 11)]
    assert challenge_points(position(buildings=arch, challenge="X-ARCH")) == [3, 0, 0]
    gen = [
        tile_at("BR1", 0, 1, 2),
        tile_at("BR1", 1, 11, 2),
        tile_at("SI1", 1, 11, 6),
        tile_at("GO1", 2, 1, 11),
    ]
    assert challenge_points(position(buildings=gen, challenge="X-GEN")) == [0, 5, 5]
    # A gold building on a yellow/red border counts in both districts.
    ty = [tile_at("GO1", 0, 11, 16, rot=90), tile_at("GO1", 0, 12, 16, rot=90), tile_at("GO1", 0, 1, 2)]
    assert challenge_points(position(buildings=ty, challenge="X-TYCOON")) == [6, 0, 0]


def test_notation_errors() -> None:
    for text in (
        "",
        "fly",
        "take slot=5 lot=G01",
        "take lot=G01",
        "build tile=XX9 at=1,1",
        "build tile=BR1 rot=45 at=1,1",
        "giveback lot=Z99",
        "end now=1",
    ):
        with pytest.raises(NotationError) as info:
            RULES.parse(text)
        assert "take slot=<1-4> lot=<LotId>" in info.value.allowed
    assert RULES.parse("BUILD TILE=br1 ROT=180 AT=4,6") == RULES.parse("build tile=BR1 at=4,6")


def test_not_your_turn() -> None:
    st = position()
    with pytest.raises(NotYourTurn):
        play(st, 1, "take slot=1 lot=G01")


def test_final_round_pass_and_auto_pass() -> None:
    st = position(owners={"G10": 0}, workers=["G10"], deck=[])
    st = st.model_copy(update={"trigger": 2, "final_left": (0, 1), "end_reason": "market"})
    assert act("pass") in RULES.legal_actions(st, 0)
    st = play(st, 0, "pass").state
    assert st.active == 1
    # Seat 1 owns nothing, has workers but the market is empty: nothing but pass is legal (§4.10).
    st = st.model_copy(update={"market": (None,) * 4})
    assert list(RULES.legal_actions(st, 1)) == [act("pass")]
    st = play(st, 1, "pass").state
    assert st.over and RULES.outcome(st) is not None


def test_expert_bronze_cannot_rebuild() -> None:
    st = RULES.setup(3, 2, frozenset({"expert"}))
    for seat in range(3):
        assert not [a for a in RULES.legal_actions(st, seat) if a.kind == "rebuild"]
    assert SUPPLY_TILES[0] == "BR1"


def test_spec_notation_examples_parse_and_round_trip() -> None:
    text = spec_text()
    block = text[text.index("## 8. Action notation") :]
    block = block[block.index("```") + 3 :]
    block = block[: block.index("```")]
    lines = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert len(lines) == 9
    for line in lines:
        action = RULES.parse(line)
        assert RULES.parse(RULES.notation(action)) == action


def test_automatic_pass_when_nothing_is_legal() -> None:
    # Seat 0 owns nothing and the market is empty: no take, build or rebuild, so pass (§4.10).
    st = position(market=[None] * 4, deck=[])
    assert list(RULES.legal_actions(st, 0)) == [act("pass")]
    assert play(st, 0, "pass").state.active == 1
