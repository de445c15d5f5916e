"""How a finished Skyline match reads: no bonus card is claimable any more, and a tie for first place on
prestige names the §5.3 step that decided it, in English and Italian."""

from __future__ import annotations

from engine.core.say import SILENT
from engine.skyline import RULES
from engine.skyline.state import SkylineState
from engine.skyline.views import PrivateView
from lang.says import render

from .helpers import build, play

RED, BLUE, GREEN = 0, 1, 2
NAMES = ("Ann", "Bob", "Cy")


def name(seat: int) -> str:
    return NAMES[seat]


def stalled(st: SkylineState) -> tuple[SkylineState, list[tuple[str, str]]]:
    """Play on with nobody building until the stall ends the game (§5.1); the end's public sentences in
    English and Italian."""
    said: list[tuple[str, str]] = []
    while RULES.outcome(st) is None:
        seat = st.active
        for move in ("endbuild", "endturn"):
            step = play(st, seat, move)
            said += [
                (render("en", e.say, name), render("it", e.say, name))
                for e in step.events
                if e.say and e.say != SILENT
            ]
            st = step.state
    return st, said


def test_a_finished_match_offers_no_card_to_claim() -> None:
    board = {s: ["red1"] for s in ("A1", "B1", "C1")}
    playing = build(board=board, hands={0: ["B01", "B03"]}, missions=("M1", "M2", "M3", "M4"))
    over = playing.model_copy(update={"phase": "over"})
    before, after = RULES.view(playing, RED), RULES.view(over, RED)
    assert isinstance(before, PrivateView) and isinstance(after, PrivateView)
    assert [c.claimable for c in before.hand] == [True, False]
    assert [c.claimable for c in after.hand] == [False, False]


def test_cash_then_turn_order_decide_a_tournament_tie_without_penthouses() -> None:
    # All on 0 prestige and no penthouse; cash 5, 7 and 7: the most cash leaves Bob and Cy, and turn
    # order from the start player (Ann) decides for Cy, the later one.
    over = build(
        3,
        cash={RED: 5, BLUE: 7, GREEN: 7},
        missions=("M1", "M2", "M3"),
        options=["tournament"],
        start=RED,
        phase="over",
    )
    outcome = RULES.outcome(over)
    assert outcome is not None and outcome.places == (3, 2, 1)
    said = [(render("en", line, name), render("it", line, name)) for line in outcome.breakdown[3:]]
    assert said == [
        (
            "Tie for first place on 0 prestige points: Ann, Bob and Cy",
            "Parità al primo posto con 0 punti prestigio: Ann, Bob e Cy",
        ),
        ("Tie-break: the most cash", "Spareggio: più denaro"),
        (
            "Tie-break: the latest in turn order from the start player",
            "Spareggio: chi viene più tardi nell'ordine di turno, contando dal primo giocatore",
        ),
    ]


def test_the_most_cash_alone_decides_when_one_player_has_it() -> None:
    over = build(
        3, cash={RED: 9, BLUE: 7, GREEN: 7}, missions=("M1", "M2", "M3"), options=["tournament"], phase="over"
    )
    outcome = RULES.outcome(over)
    assert outcome is not None and outcome.places[RED] == 1
    assert [render("it", line, name) for line in outcome.breakdown[4:]] == ["Spareggio: più denaro"]


def test_penthouses_decide_a_standard_tie_and_the_step_is_named() -> None:
    st = build(
        2,
        board={"A1": ["red1", "redPH"], "B1": ["red1", "redPH"], "D6": ["blue1", "bluePH"], "E4": ["blue1"]},
        stock={RED: [], BLUE: []},
        cash={RED: 0, BLUE: 0},
        missions=("M1", "M2"),
        supply=((0, 0, 0, 0, 0), (0, 0, 0, 0, 0)),  # nothing left to buy: the game stalls out
    )
    over, said = stalled(st)
    outcome = RULES.outcome(over)
    assert outcome is not None
    # Ann: 2 penthouses; Bob: 1 penthouse and the top of an orange site. Both have 2 prestige points.
    # The standings of the final post say it (the outcome's breakdown); the log's lines do not repeat it.
    breakdown = [(render("en", line, name), render("it", line, name)) for line in outcome.breakdown[2:]]
    assert breakdown == [
        (
            "Tie for first place on 2 prestige points: Ann and Bob",
            "Parità al primo posto con 2 punti prestigio: Ann e Bob",
        ),
        ("Tie-break: the most penthouses", "Spareggio: più attici"),
    ]
    assert outcome.places == (1, 2)
    assert said[-2:] == [
        ("Ann: mission Rotterdam Waterfront failed", "Ann: missione Lungomare di Rotterdam fallita"),
        ("Bob: mission Sydney Harbour failed", "Bob: missione Porto di Sydney fallita"),
    ]
