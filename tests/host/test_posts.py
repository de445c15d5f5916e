"""The host plans a thread's post of each notice: what carries on the turn's post, what a new turn's post
recaps, which board it marks and whether it offers Undo."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.say import Say
from engine.host.clock import Pace
from engine.host.ports import Delivery, LivePost, MatchRecord, MatchStatus, Notice, Player, TurnLines
from engine.host.posts import HISTORY, RECAP_LINES, plan_board_post, recap

MATCH = MatchRecord(
    id=4,
    game="toy",
    options=frozenset(),
    seat_count=3,
    seed=1,
    status=MatchStatus.ACTIVE,
    version=10,
    pace=Pace.NONE,
    created_at="2026-11-29T00:00:00",
    updated_at="2026-11-29T00:00:00",
    players=tuple(Player(user_id=100 + seat, name=f"p{seat}", seat=seat) for seat in range(3)),
)


def name(seat: int) -> str:
    return f"p{seat}"


def mentions(seats: Sequence[int]) -> str:
    return ", ".join(f"@p{seat}" for seat in seats)


def notice(line: str, to_act: tuple[int, ...], **more: bool) -> Notice:
    return Notice(says=(Say(domain="bigapple", text=line),), to_act=to_act, **more)


def delivery(version: int) -> Delivery:
    return Delivery(id=version, match_id=MATCH.id, version=version, payload="{}")


def live(
    version: int, to_act: tuple[int, ...], lines: tuple[str, ...], history: tuple[TurnLines, ...] = ()
) -> LivePost:
    return LivePost(
        match_id=MATCH.id,
        channel_id=7,
        message_id=8,
        to_act=to_act,
        lines=lines,
        version=version,
        history=history,
    )


def test_the_same_player_acting_again_carries_on_the_turns_post() -> None:
    shown = live(9, (1,), ("• p1 took a card",))
    plan = plan_board_post(
        MATCH, delivery(10), notice("p1 took another", (1,)), shown, "en", name, mentions, None, None, 1
    )
    assert plan.continuing and plan.call == (1,) and plan.since_seat == 1
    assert plan.body == ("• p1 took a card", "• p1 took another")
    assert plan.undo == 1  # the latest post, and p1 may take the move back
    # A retry after a crash finds its lines already shown and adds nothing.
    again = plan_board_post(
        MATCH, delivery(9), notice("p1 took a card", (1,)), shown, "en", name, mentions, None, None, 1
    )
    assert again.body == ("• p1 took a card",) and again.undo is None  # an older version offers no Undo


def test_a_new_turn_recaps_what_the_others_did_since_the_players_last_turn() -> None:
    history = (TurnLines(seats=(0,), lines=("• p0 built",)), TurnLines(seats=(1,), lines=("• p1 sold",)))
    shown = live(9, (2,), ("• p2 paid",), history)
    plan = plan_board_post(
        MATCH, delivery(10), notice("p2 ended the turn", (0,)), shown, "en", name, mentions, None, None, None
    )
    assert not plan.continuing and plan.call == (0,) and not plan.undo
    assert plan.body == ("**Since your last turn:**", "◦ p1 sold", "◦ p2 paid", "• p2 ended the turn")
    assert plan.shown.history[-1] == TurnLines(seats=(2,), lines=("• p2 paid",))
    assert plan.shown.to_act == (0,) and plan.shown.version == 10


def test_several_deciding_at_once_mark_no_ones_board_and_the_history_is_bounded() -> None:
    history = tuple(TurnLines(seats=(turn % 3,), lines=(f"• move {turn}",)) for turn in range(HISTORY))
    plan = plan_board_post(
        MATCH,
        delivery(10),
        notice("all bid", (0, 1, 2)),
        live(9, (1,), ("• p1",), history),
        "en",
        name,
        mentions,
        None,
        None,
        False,
    )
    assert plan.since_seat is None and len(plan.shown.history) == HISTORY


def test_the_first_post_calls_every_player() -> None:
    plan = plan_board_post(
        MATCH,
        delivery(1),
        notice("a race", (0,), everyone=True),
        None,
        "it",
        name,
        mentions,
        None,
        None,
        False,
    )
    assert plan.everyone and plan.body[-1] == "Giocatori: @p0, @p1, @p2"


def test_a_recap_too_long_to_show_says_how_many_earlier_lines_it_leaves_out() -> None:
    history = tuple(TurnLines(seats=(1,), lines=(f"• p1 move {n}",)) for n in range(RECAP_LINES + 3))
    shown = live(9, (2,), ("• p2 paid",), history)
    plan = plan_board_post(
        MATCH, delivery(10), notice("p2 ended the turn", (0,)), shown, "it", name, mentions, None, None, None
    )
    # The others' moves since seat 0's last turn: eleven of p1's and the one p2 made; the latest eight show.
    recap = plan.body[1 : RECAP_LINES + 2]
    assert recap[0] == "… 4 righe precedenti"
    assert recap[1:] == (*(f"◦ p1 move {n}" for n in range(4, RECAP_LINES + 3)), "◦ p2 paid")


def test_a_recap_says_each_line_once_even_when_an_earlier_post_recapped_it() -> None:
    begins = TurnLines(seats=(0,), lines=("• Order of play: p0, p1, p2", "• p0 placed"))
    carla = recap((begins,), (1,), ["• p1 placed"], "en")
    assert carla == ["**Since your last turn:**", "◦ Order of play: p0, p1, p2", "◦ p0 placed", "• p1 placed"]
    ann = recap((begins, TurnLines(seats=(1,), lines=tuple(carla))), (2,), ["• p2 placed"], "en")
    assert ann == [
        "**Since your last turn:**",
        "◦ Order of play: p0, p1, p2",
        "◦ p0 placed",
        "◦ p1 placed",
        "• p2 placed",
    ]
