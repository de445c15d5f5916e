"""A match thread's post of one notice, planned by the host: what it says, whom it calls, whether it
carries on the turn's post, which board it marks and whether it offers Undo. A chat front end only lays
the plan out in its own messages and sends it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta

from engine.core.contract import Outcome
from engine.host.clock import Pace
from engine.host.ports import Delivery, LivePost, MatchRecord, Notice, TurnLines
from engine.host.text import notice_heading, notice_lines, standings_lines
from lang import t, tn
from lang.says import Namer

# Earlier turns kept for the recap of a player's next turn.
HISTORY = 12
# At most this many lines of earlier turns in a recap (the latest).
RECAP_LINES = 8
# What a front end writes for a list of seats it calls by name (its mentions).
Mentions = Callable[[Sequence[int]], str]


@dataclass(frozen=True, slots=True)
class MatchTotals:
    """What the final post counts: the moves each seat made and the clock time each used."""

    moves: Mapping[int, int]
    time_used: Mapping[int, timedelta]


@dataclass(frozen=True, slots=True)
class BoardPost:
    """The plan of a board post. ``body``: the lines between its title and its call to act, in the
    thread's language; ``call``: the seats it calls to act (none once the match is over); ``outcome``:
    the result, on the final post; ``continuing``: the turn's post is edited rather than a new one made;
    ``since_seat``: the board marks what changed since that seat's previous turn; ``undo``: the seat
    whose move the post's Undo takes back (None: no Undo); ``shown``: the record of the post once sent
    (its channel and message ids to fill in)."""

    body: tuple[str, ...]
    call: tuple[int, ...]
    outcome: Outcome | None
    everyone: bool
    continuing: bool
    since_seat: int | None
    undo: int | None
    shown: LivePost


def duration(locale: str, span: timedelta) -> str:
    """``span`` as a person reads it, to the unit that matters: "2 days", "21 h", "35 min"."""
    minutes = max(int(span.total_seconds() // 60), 0)
    if minutes >= 48 * 60:
        return tn(locale, "{count} day", "{count} days", minutes // (24 * 60))
    if minutes >= 60:
        return tn(locale, "{count} h", "{count} h", minutes // 60)
    return tn(locale, "{count} min", "{count} min", minutes)


# How a post marks a line of its own, and one it recaps from earlier posts.
SAID = "• "
RECAPPED = "◦ "


def recap(history: Sequence[TurnLines], to_act: Sequence[int], body: list[str], locale: str) -> list[str]:
    """The lines a player to act reads on their new post: what the others did since that player's own
    last turn (the turns after it in ``history``), each once, then ``body``. A recapped line is marked
    "◦" rather than "•": a later recap, which reads this post's lines, passes over it, so no line is
    recapped twice."""
    since = len(history)
    while since > 0 and not set(history[since - 1].seats) & set(to_act):
        since -= 1
    earlier = [
        RECAPPED + line.removeprefix(SAID)
        for turn in history[since:]
        for line in turn.lines
        if line.startswith(SAID)
    ]
    shown = {RECAPPED + line.removeprefix(SAID) for line in body}
    earlier = [line for line in earlier if line not in shown]
    if not earlier:
        return body
    kept = earlier[-RECAP_LINES:]
    if len(earlier) > len(kept):
        # Said, so that nobody takes the recap for all that happened.
        skipped = len(earlier) - len(kept)
        kept = [tn(locale, "… {count} earlier line", "… {count} earlier lines", skipped), *kept]
    return ["**" + t(locale, "Since your last turn:") + "**", *kept, *body]


def continues_turn(shown: Sequence[int], to_act: Sequence[int]) -> bool:
    """Whether a notice that calls ``to_act`` continues the post that called ``shown``: the same player
    still acting, or some of several who decide at once still deciding (their post mentioned them all
    once already)."""
    return bool(to_act) and set(to_act) <= set(shown)


def final_lines(
    locale: str, match: MatchRecord, outcome: Outcome, totals: MatchTotals, name: Namer, clocked: bool
) -> list[str]:
    """The standings of a finished match, the moves each player made and, with a clock, the time each
    took over their turns."""
    seats = range(match.seat_count)
    lines = ["\n".join(standings_lines(locale, match, outcome, name))]
    counts = " · ".join(f"{name(seat)} {totals.moves.get(seat, 0)}" for seat in seats)
    lines.append(t(locale, "Moves: {counts}", counts=counts))
    if clocked:
        used = totals.time_used
        times = " · ".join(f"{name(seat)} {duration(locale, used[seat])}" for seat in seats if seat in used)
        lines.append(t(locale, "Time used: {times}", times=times))
    return lines


def plan_board_post(
    match: MatchRecord,
    delivery: Delivery,
    notice: Notice,
    live: LivePost | None,
    locale: str,
    name: Namer,
    mentions: Mentions,
    outcome: Outcome | None,
    totals: MatchTotals | None,
    undoer: int | None,
) -> BoardPost:
    """The post of ``notice`` (delivered as ``delivery``) in ``match``'s thread, whose current turn
    ``live`` shows (None: no post yet). While the same players keep acting, the turn's post carries on
    with the lines of the turn so far; a new turn gets a new post that recaps what happened since its
    player's last turn. ``outcome`` and ``totals``: the result, when the notice finishes the match;
    ``undoer``: the seat who may take back the latest move, if any."""
    everyone = notice.everyone or outcome is not None
    body: list[str] = []
    heading = notice_heading(locale, notice, name)
    if heading:
        body.append(f"**{heading}**")
    body.extend(f"• {line}" for line in notice_lines(locale, notice, name))
    if outcome is not None and totals is not None:
        body.extend(final_lines(locale, match, outcome, totals, name, match.pace is not Pace.NONE))
    if everyone:
        body.append(t(locale, "Players: {players}", players=mentions(tuple(range(match.seat_count)))))
    continuing = (
        live is not None
        and outcome is None
        and not notice.finished
        and not notice.everyone
        and continues_turn(live.to_act, notice.to_act)
    )
    history: tuple[TurnLines, ...] = live.history if live is not None else ()
    if live is not None and continuing:
        # A retry after a crash finds its lines already shown: they are not added twice.
        body = list(live.lines) if live.version >= delivery.version else [*live.lines, *body]
    elif live is not None and live.version < delivery.version:
        history = (*live.history, TurnLines(seats=live.to_act, lines=live.lines))[-HISTORY:]
        if notice.to_act and not notice.finished and not notice.everyone:
            body = recap(history, notice.to_act, body, locale)
    call = () if notice.finished else notice.to_act
    shown = LivePost(
        match_id=match.id,
        channel_id=0,
        message_id=0,
        to_act=call,
        lines=tuple(body),
        version=delivery.version,
        history=history,
    )
    return BoardPost(
        body=tuple(body),
        call=call,
        outcome=outcome,
        everyone=everyone,
        continuing=continuing,
        # One player to act: the post is theirs; several deciding at once each left it at another point.
        since_seat=call[0] if len(call) == 1 else None,
        # Only the latest post offers Undo, while the player who moved last may take it back.
        undo=undoer if delivery.version == match.version else None,
        shown=shown,
    )
